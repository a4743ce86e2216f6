/**
 * The console reporter: progress while running (a live line on a terminal, a line every few seconds
 * otherwise), then a summary by section and level, what failed, what was skipped and which key would
 * enable it. A failing run fits one screen, so the first problem is seen without scrolling: one line
 * per failing rule (level, id, the section it enforces, expected vs got) and one line per shared
 * cause with the count of rules it stopped — a refused setup step, a broken exchange, an endpoint
 * answering 501, a target that stopped answering — and a pointer to report.html / report.json for
 * transcripts, curl and replay commands. `--verbose` prints every rule as it finishes and each
 * failure in full (replay, curl) instead. Colours via chalk, off for NO_COLOR and non-TTY.
 */
import { isFailing } from '../core/engine/verdict.js';
import { Chalk, type ChalkInstance } from 'chalk';
import { baselineEntryFor } from '../core/engine/baseline.js';
import { curlCommand, failingExchange } from '../core/report/curl.js';
import type { RunEvent } from '../core/engine/run.js';
import type { Cause } from '../core/engine/verdict.js';
import type { Report, RuleResult } from '../core/report/schema.js';
import { plural, runVerdict } from '../core/report/verdict-line.js';
import { quoteJson } from '../core/http/bounds.js';
import { model } from '../core/spec/index.js';
import { firstOf, strictBaselineLine, whatWentWrong } from './plain-text.js';
import { clipLine, shown, terminalSafe } from './terminal.js';

export interface ConsoleOptions {
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  env?: NodeJS.ProcessEnv;
  /**
   * Print every rule as it finishes (passes too), and each failure in full in the summary: title,
   * reason, counterexample, replay command, the failing exchange and its curl command.
   */
  verbose?: boolean;
  /** Without a live line (a log, CI): a progress line at most this often (default 5 s). */
  progressEveryMs?: number;
  now?: () => number;
  /**
   * The last pass over every line before it is written (the CLI hands in the run's redactor), so a
   * secret the target echoed cannot reach the terminal whatever path it took.
   */
  redact?: (text: string) => string;
}

const VERDICT_MARK = { pass: '✓', fail: '✗', skip: '○', error: '!' } as const;

type Written = { format: string; file?: string; warning?: string };

/**
 * A shared cause in a few words — a refused setup step, a broken exchange, or the cause's own step —
 * with the config keys that fix it, which are never cut.
 */
const causeTitle = (cause: Cause): string =>
  `${
    cause.id.startsWith('setup.')
      ? `Setup refused: ${cause.step}`
      : cause.id.startsWith('exchange.')
        ? 'The same exchange broke in several rules'
        : cause.step.charAt(0).toUpperCase() + cause.step.slice(1)
  }${cause.fix.length ? ` (fix: ${cause.fix.join(' or ')})` : ''}`;

/** The interface path a request went to (`/v1/data-import/notes/create/`), else its path without the query. */
function endpointOf(method: string, url: string): string {
  const path = url.split('?')[0];
  for (const e of Object.values(model.endpoints)) {
    if (e.method !== method) continue;
    const pattern = e.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
    if (new RegExp(`${pattern}$`).test(path)) return e.path;
  }
  return path;
}

/**
 * A request line cut in its middle rather than at its end: the method and the path's last segments
 * name the endpoint (`POST …/account-import-process/create-or-update/`), the shared prefix does not.
 */
function clipStart(request: string, width: number): string {
  if (request.length <= width) return request;
  const space = request.indexOf(' ');
  const method = space > 0 && space < 10 ? request.slice(0, space + 1) : '';
  const tail = request.slice(request.length - Math.max(1, width - method.length - 1));
  // From a segment's start, so no segment reads as another name.
  const slash = tail.indexOf('/', 1);
  return `${method}…${slash > 0 && slash < tail.length - 1 ? tail.slice(slash) : tail}`;
}

const listOf = (ids: string[], max: number) =>
  ids.length <= max ? ids.join(', ') : `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;

export class ConsoleReporter {
  private readonly out: NonNullable<ConsoleOptions['stream']>;
  private readonly c: ChalkInstance;
  private readonly live: boolean;
  private liveLineShown = false;
  private lastProgress?: number;
  private failedSoFar = 0;

  constructor(private readonly options: ConsoleOptions = {}) {
    this.out = options.stream ?? process.stdout;
    const env = options.env ?? process.env;
    const tty = !!this.out.isTTY;
    const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
    this.c = new Chalk({ level: noColor || (!tty && !env.FORCE_COLOR) ? 0 : 2 });
    this.live = tty && env.CI === undefined;
  }

  private write(text: string): void {
    this.clearLive();
    this.emit(`${text}\n`);
  }

  /** The one way text reaches the stream: redacted, then every control but colours and line breaks written out. */
  private emit(text: string): void {
    this.out.write(terminalSafe(this.options.redact ? this.options.redact(text) : text));
  }

  private clearLive(): void {
    if (this.liveLineShown) {
      this.out.write('\r\x1b[2K');
      this.liveLineShown = false;
    }
  }

  private mark(verdict: keyof typeof VERDICT_MARK): string {
    const colour = { pass: this.c.green, fail: this.c.red, skip: this.c.gray, error: this.c.yellow }[verdict];
    return colour(VERDICT_MARK[verdict]);
  }

  /** The runner's progress events. */
  onEvent = (event: RunEvent): void => {
    const c = this.c;
    if (event.type === 'target') {
      this.write(
        event.embedded
          ? `${c.bold('No base URL given:')} running against the embedded reference server at ${shown(event.baseUrl)}.\n` +
              c.gray(
                '  To check another implementation: --base-url URL, base_url in conformance.config.yaml, or CONFORMANCE_BASE_URL.',
              )
          : `Checking ${c.bold(shown(event.baseUrl))}`,
      );
    } else if (event.type === 'start') {
      this.lastProgress = this.now();
      this.write(c.gray(`${event.total} rule${event.total === 1 ? '' : 's'}, run ${event.runId}, seed ${event.seed}`));
    } else if (event.type === 'setup') {
      for (const cause of event.setup.causes)
        this.write(
          this.options.verbose
            ? this.describeCause(cause).join('\n')
            : `${this.mark('error')} ${shown(causeTitle(cause))} — ${this.causeAnswer(cause, 40 + causeTitle(cause).length)}${c.gray('; its rules are counted at the end')}`,
        );
    } else {
      this.onRule(event.result, event.done, event.total);
    }
  };

  private onRule(result: RuleResult, done: number, total: number): void {
    const c = this.c;
    // Failures are listed once, one line each, in the summary; --verbose prints every rule as it ends.
    if (this.options.verbose) {
      const level = result.level === 'MUST' ? result.level : c.gray(result.level);
      const reason = result.reason ? c.gray(` — ${shown(result.reason.split('\n')[0], 500)}`) : '';
      this.write(`${this.mark(result.verdict)} ${level} ${result.id}${reason}`);
    }
    if (isFailing(result.verdict)) this.failedSoFar++;
    if (!this.live && done < total) {
      // A CI log shows no live line: say every few seconds how far the run is, so a slow target
      // does not look like a hung job.
      const now = this.now();
      if (now - (this.lastProgress ?? now) >= (this.options.progressEveryMs ?? 5_000)) {
        this.lastProgress = now;
        this.write(c.gray(`… ${done}/${total} rules done, ${this.failedSoFar} failed or errored so far`));
      }
    }
    if (this.live) {
      const width = Math.max(20, (this.out.columns ?? 80) - 16);
      this.clearLive();
      this.emit(c.gray(`[${String(done).padStart(String(total).length)}/${total}] ${result.id}`.slice(0, width)));
      this.liveLineShown = true;
    }
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** The summary at the end of the run. */
  summary(report: Report, written: Written[] = []): void {
    const c = this.c;
    this.clearLive();
    const lines: string[] = [''];
    // Floored like every report: 99.6 % of rules passing is not 100 %.
    const pct = (score: number | null) => (score === null ? '   —' : `${Math.floor(score * 100)}%`.padStart(4));
    if (this.options.verbose) lines.push(c.bold('By spec section'));
    else for (const line of this.sectionScores(report)) lines.push(line);
    for (const s of this.options.verbose ? report.sections : []) {
      const { pass, fail, skip, error } = s.counts;
      const score = s.score === null ? c.gray(pct(null)) : s.score === 1 ? c.green(pct(s.score)) : c.red(pct(s.score));
      lines.push(
        `  ${score}  §${s.section.padEnd(5)} ${s.title.padEnd(42).slice(0, 42)} ${c.green(`${pass} pass`)}${fail ? c.red(`, ${fail} fail`) : ''}${error ? c.yellow(`, ${error} error`) : ''}${skip ? c.gray(`, ${skip} skipped`) : ''}`,
      );
    }
    lines.push('', c.bold('By level'));
    for (const level of ['MUST', 'SHOULD', 'INFO'] as const) {
      const n = report.summary.by_level[level];
      if (n.pass + n.fail + n.skip + n.error === 0) continue;
      lines.push(`  ${level.padEnd(6)} ${n.pass} pass, ${n.fail} fail, ${n.error} error, ${n.skip} skipped`);
    }

    const failing = report.rules.filter((r) => isFailing(r.verdict) && !r.expected_failure);
    if (failing.length) {
      lines.push('');
      for (const line of this.failures(report, failing, written)) lines.push(line);
    }
    const expected = report.rules.filter((r) => r.expected_failure);
    if (expected.length) {
      lines.push('', c.bold(`Expected failures, excused by ${report.baseline?.file} (${expected.length})`));
      for (const r of expected)
        lines.push(`  ${this.mark(r.verdict)} ${r.id} ${c.gray(`— ${shown(r.expected_failure!.comment)}`)}`);
    }
    if (report.baseline?.now_passing.length) {
      lines.push(
        '',
        c.bold(
          `Baseline entries that pass now (remove them)${report.baseline.strict ? ', failing the run under --strict-baseline' : ''}:`,
        ),
      );
      for (const e of report.baseline.now_passing) lines.push(`  - ${e.rule}`);
    }
    if (report.baseline?.expired?.length) {
      lines.push(
        '',
        c.yellow(c.bold('Baseline entries past their until day (they excuse nothing; a failure counts as new):')),
      );
      for (const e of report.baseline.expired)
        lines.push(`  - ${shown(e.rule)} expired on ${shown(e.until)} ${c.gray(`— ${shown(e.comment)}`)}`);
    }
    if (report.baseline?.unknown_rules.length) {
      const { first, more } = firstOf(report.baseline.unknown_rules);
      lines.push(
        '',
        c.yellow(
          `Baseline entries naming no rule of this run: ${first.map((id) => shown(id, 200)).join(', ')}${more ? ` and ${more} more (report.json lists them all)` : ''}`,
        ),
      );
    }
    const unexpected = failing.filter((r) => r.level !== 'INFO');
    if (report.baseline && unexpected.length && !this.options.verbose) {
      lines.push(
        '',
        c.gray(
          `To accept these ${plural(unexpected.length, 'failure')}, add an entry per rule to ${shown(report.baseline.file)} (--verbose prints them).`,
        ),
      );
    } else if (report.baseline && unexpected.length) {
      lines.push('', c.bold('To accept these failures, add to the baseline:'));
      for (const r of unexpected) for (const l of baselineEntryFor(r.id).split('\n')) lines.push(`  ${l}`);
    }

    const skipped = report.rules.filter((r) => r.verdict === 'skip');
    if (skipped.length) {
      // Grouped by the reason the rule gave, with its key: a key alone hides why a rule skipped
      // when the key is already set (a configured payload the rule cannot use).
      const byReason = new Map<string, number>();
      for (const r of skipped) {
        const reason = r.reason ?? 'skipped';
        const said = r.skip_key && !reason.includes(r.skip_key) ? `${reason} (${r.skip_key})` : reason;
        byReason.set(said, (byReason.get(said) ?? 0) + 1);
      }
      lines.push('', c.bold(`Skipped (${skipped.length})`));
      for (const [reason, n] of byReason) lines.push(c.gray(`  ${n} rule${n === 1 ? '' : 's'}: ${shown(reason)}`));
    }

    // Limits the spec does not show (§2.3, §8), found at edge values: INFO, with the line to declare each.
    const limits = report.discovered_limits ?? [];
    if (limits.length) {
      lines.push('', c.bold(`Discovered limits (${limits.length}, INFO: the cases were replayed inside them)`));
      for (const l of limits)
        lines.push(
          `  ${c.cyan('i')} ${shown(l.endpoint)} ${shown(l.field)}: ${shown(l.refused)} refused (${shown(l.code)})${l.accepted ? `, ${shown(l.accepted)} accepted` : ''} ${c.gray(`— declare: ${shown(l.declare)}`)}`,
        );
    }

    // A pass on a second run is still a pass, but never a silent one (--retries).
    const flaky = report.rules.filter((r) => r.verdict === 'pass' && r.flaky !== undefined);
    if (flaky.length) {
      lines.push('', c.bold(c.yellow(`Flaky: passed only when run again (${flaky.length})`)));
      for (const r of flaky) lines.push(`  ${c.yellow('~')} ${r.id} ${c.gray(`— ${r.flaky}`)}`);
    }
    const paced = Object.entries(report.http.rate_limited ?? {}).filter(([, n]) => n.absorbed > 0);
    if (paced.length)
      lines.push(
        '',
        c.gray(
          `The target answered 429 and the run waited as asked, then sent again: ${paced.map(([e, n]) => `${e} ${n.absorbed}`).join(', ')}.`,
        ),
      );
    if (report.http.token_renewals)
      lines.push(
        '',
        c.gray(
          `The token was renewed ${report.http.token_renewals} time${report.http.token_renewals === 1 ? '' : 's'} with the API key after a 401 mid-run.`,
        ),
      );
    if (report.http.token_refused_mid_run) {
      // Said once, with why renewing stopped (core/auth/token-source.ts): that is what bounds it. The
      // reason may quote the token request's answer: target text, shown with its controls written out.
      const stopped = report.http.token_renewal_stopped;
      const hint = report.target.auth === 'token' ? '; configure auth.api_key so the runner can obtain a new one' : '';
      lines.push(
        '',
        c.yellow(
          `The target refused the run's token mid-run ${report.http.token_refused_mid_run} time${report.http.token_refused_mid_run === 1 ? '' : 's'} (expired?)${stopped ? `; renewing stopped: ${shown(stopped, 500)}` : ''}${hint}.`,
        ),
      );
    }
    const { counts, total } = report.summary;
    // The counts are every rule's verdict; those the baseline excuses are said so, as the verdict says them.
    const excused = (verdict: 'fail' | 'error') => {
      const n = report.rules.filter((r) => r.verdict === verdict && r.expected_failure).length;
      return n ? ` (${n === counts[verdict] ? (n === 1 ? '' : 'all ') : `${n} `}excused by the baseline)` : '';
    };
    lines.push('');
    lines.push(
      `${plural(total, 'rule')}: ${c.green(`${counts.pass} passed`)}, ${counts.fail ? c.red(`${counts.fail} failed${excused('fail')}`) : '0 failed'}, ${counts.error ? c.yellow(`${counts.error} not judged (error)${excused('error')}`) : '0 not judged (error)'}, ${counts.skip} skipped${report.summary.flaky?.length ? `, ${c.yellow(`${report.summary.flaky.length} flaky`)}` : ''} ${c.gray(`in ${(report.run.duration_ms / 1000).toFixed(1)} s, ${report.http.requests} requests${widthNote(report)}`)}`,
    );
    lines.push(this.verdictLine(report));
    const gate = strictBaselineLine(report);
    if (gate) lines.push(c.red.bold(shown(gate)));
    const { coverage } = report;
    if (coverage)
      lines.push(
        c.gray(
          `Coverage: ${coverage.statuses.observed} of ${coverage.statuses.documented} documented statuses observed, ${coverage.fields.sent} of ${coverage.fields.documented} documented request fields sent (per endpoint in the reports)`,
        ),
      );
    const relations = relationsLine(report);
    if (relations) lines.push(c.gray(relations));
    const files = written.filter((w) => w.file);
    if (files.length) lines.push(c.gray(`Reports: ${files.map((w) => shown(w.file ?? '')).join(', ')}`));
    for (const w of written) if (w.warning) lines.push(c.yellow(`Warning: ${shown(w.warning)}`));
    this.emit(lines.map((line) => `${line}\n`).join(''));
  }

  /** The run's verdict in one line: what counts, counted as it is (failures as failures, errors as errors). */
  private verdictLine(report: Report): string {
    const c = this.c;
    const verdict = runVerdict(report);
    const colour = {
      conformant: c.green.bold,
      'not conformant': c.red.bold,
      incomplete: c.yellow.bold,
      aborted: c.red.bold,
      interrupted: c.yellow.bold,
    }[verdict.state];
    const should =
      verdict.state === 'conformant' && report.summary.should_failures && !report.run.strict
        ? c.gray(` (${plural(report.summary.should_failures, 'SHOULD failure')}; --strict makes them count)`)
        : '';
    return `${colour(`${verdict.title}:`)} ${verdict.detail}.${should}`;
  }

  /**
   * The section scores packed into as few lines as the width allows (`§4.2 87%`), red below 100 %,
   * grey where nothing was judged; --verbose prints the table with titles and counts instead.
   */
  private sectionScores(report: Report): string[] {
    const c = this.c;
    const lines: string[] = [];
    let line = '';
    let used = 0;
    const title = 'By spec section (MUST and SHOULD rules passing):';
    for (const s of report.sections) {
      const pct = s.score === null ? '—' : `${Math.floor(s.score * 100)}%`;
      const text = `§${s.section} ${pct}`;
      const shownText = s.score === null ? c.gray(text) : s.score === 1 ? c.green(text) : c.red(text);
      if (line && used + 2 + text.length > this.width - 2) {
        lines.push(line);
        line = '';
        used = 0;
      }
      line += `  ${shownText}`;
      used += 2 + text.length;
    }
    if (line) lines.push(line);
    return [c.bold(title), ...lines];
  }

  /**
   * Characters a line may take: the terminal's width (at least 100), else 160 in a log. Only
   * target text (reasons, answers) is cut; report.html and report.json keep all of it.
   */
  private get width(): number {
    return this.out.isTTY ? Math.max(100, this.out.columns ?? 160) : 160;
  }

  /** Target text for a line that already has `used` characters before it. */
  private clip(text: string, used: number): string {
    return clipLine(shown(text, 4 * 1024), Math.max(40, this.width - used));
  }

  /**
   * What the implementation answered to a refused setup step, in one line that a cut never robs of
   * its reason: the status with the attr and code of its errors first (`answered 400: sales_channel
   * (unsupported_value)`), then the request it answered, which is what a narrow line cuts. Other
   * causes are their answer, cut at the end.
   */
  private causeAnswer(cause: Cause, used: number): string {
    const at = cause.status === undefined ? -1 : cause.answer.indexOf(` answered ${cause.status}`);
    if (!cause.id.startsWith('setup.') || at < 0) return this.clip(cause.answer, used);
    const said = clipLine(shown(cause.answer.slice(at + 1), 4 * 1024), 4 * 1024);
    const room = this.width - used - said.length - ' to '.length;
    return `${said} to ${clipStart(clipLine(shown(cause.answer.slice(0, at)), 4 * 1024), Math.max(24, room))}`;
  }

  /**
   * What failed, one line each: the target going silent, then the shared causes (with the rules they
   * stopped counted), then rules whose failing exchange an endpoint answered 501 or 405, grouped per
   * endpoint, then every other failing rule, MUST first. With --verbose each rule in full instead.
   */
  private failures(report: Report, failing: RuleResult[], written: Written[]): string[] {
    const c = this.c;
    const file = (
      written.find((w) => w.format === 'html' && w.file) ?? written.find((w) => w.format === 'json' && w.file)
    )?.file;
    const where = file
      ? `transcripts, curl and replay commands: ${shown(file)} (--verbose prints them here)`
      : 'run with --verbose for transcripts, curl and replay commands';
    const lines = [`${c.bold(`Failed and not judged (${failing.length})`)} ${c.gray(`— ${where}`)}`];
    const counted = (rules: RuleResult[]) => {
      const must = rules.filter((r) => r.level === 'MUST').length;
      return `${plural(rules.length, 'rule')} (${must} MUST)`;
    };
    const left = new Set(failing);
    const take = (pick: (r: RuleResult) => boolean) => {
      const taken = [...left].filter(pick);
      for (const r of taken) left.delete(r);
      return taken;
    };

    const silent = report.stopped_answering;
    if (silent) {
      const ids = new Set(silent.rules);
      const stopped = take((r) => ids.has(r.id));
      const at = (x: { method: string; url: string; exchange: number }) => `${x.method} ${clipLine(x.url, 100)}`;
      lines.push(
        `  ${this.mark('error')} ${c.bold(`The target stopped answering after ${shown(at(silent.last_answered))}`)} (exchange ${silent.last_answered.exchange}, ${silent.last_answered.at.slice(11, 19)} UTC); first request with no answer: ${shown(at(silent.first_unanswered))} (exchange ${silent.first_unanswered.exchange}, ${silent.first_unanswered.error}) — ${counted(stopped)} not judged because of it, ${plural(silent.unanswered_requests, 'request')} with no answer`,
      );
    }
    // An interruption leaves many rules not judged for one reason of the run's own: said once.
    if (report.interrupted) {
      const cut = take((r) => r.error_kind === 'interrupted');
      if (cut.length)
        lines.push(
          `  ${this.mark('error')} ${c.bold(`The run was interrupted (${shown(report.interrupted.signal)})`)} — ${counted(cut)} not judged because of it; run again to judge them`,
        );
    }
    if (this.options.verbose) {
      const causes = new Map((report.causes ?? []).map((cause) => [cause.id, cause]));
      const grouped = new Set<string>();
      for (const r of failing) {
        if (!left.has(r)) continue;
        const cause = r.cause ? causes.get(r.cause) : undefined;
        if (!cause) {
          for (const line of this.describe(r, report.target.base_url)) lines.push(line);
          continue;
        }
        if (grouped.has(cause.id)) continue;
        grouped.add(cause.id);
        const stopped = failing.filter((f) => f.cause === cause.id && left.has(f));
        for (const l of this.describeCause(cause)) lines.push(`  ${l}`);
        lines.push(
          c.gray(
            `      ${counted(stopped)} not judged because of it: ${listOf(
              stopped.map((f) => f.id),
              8,
            )}`,
          ),
        );
      }
      return lines;
    }

    for (const cause of report.causes ?? []) {
      const stopped = take((r) => r.cause === cause.id);
      if (!stopped.length) continue;
      const mark = this.mark(stopped.some((r) => r.verdict === 'fail') ? 'fail' : 'error');
      const end = ` — ${counted(stopped)} ${stopped.every((r) => r.verdict === 'error') ? 'not judged' : 'failed or not judged'} because of it`;
      const head = `${causeTitle(cause)} — `;
      lines.push(
        `  ${mark} ${c.bold(shown(head))}${c.yellow(this.causeAnswer(cause, 4 + head.length + end.length))}${end}`,
      );
    }

    // An endpoint that answers 501 or 405 to many rules is one finding, not one per rule.
    const byEndpoint = new Map<string, RuleResult[]>();
    for (const r of left) {
      const x = failingExchange(r);
      const status = x?.response?.status;
      if (!x || (status !== 501 && status !== 405)) continue;
      const key = `${x.request.method} ${endpointOf(x.request.method, x.request.url)} answered ${status}`;
      byEndpoint.set(key, [...(byEndpoint.get(key) ?? []), r]);
    }
    for (const [key, rules] of byEndpoint) {
      if (rules.length < 2) continue;
      for (const r of rules) left.delete(r);
      const words = key.endsWith('501') ? 'Not Implemented' : 'Method Not Allowed';
      const mark = this.mark(rules.some((r) => r.verdict === 'fail') ? 'fail' : 'error');
      const head = `${key} (${words}) to ${counted(rules)}: `;
      lines.push(`  ${mark} ${shown(head)}${c.gray(this.clip(rules.map((r) => r.id).join(', '), 4 + head.length))}`);
    }

    const order = { MUST: 0, SHOULD: 1, INFO: 2 } as const;
    for (const r of [...left].sort((a, b) => order[a.level] - order[b.level])) {
      const head = `${r.level} ${r.id} (${r.spec})`;
      const level = r.level === 'MUST' ? c.bold(r.level) : r.level;
      const reason = whatWentWrong(r);
      lines.push(
        `  ${this.mark(r.verdict)} ${level} ${shown(r.id)} ${c.gray(`(${shown(r.spec)})`)} — ${(r.verdict === 'fail' ? c.red : c.yellow)(this.clip(reason, 7 + head.length))}`,
      );
    }
    return lines;
  }

  private describeCause(cause: Cause): string[] {
    const c = this.c;
    return [
      `${this.mark('error')} ${c.bold(cause.id.startsWith('setup.') ? `Setup refused: ${cause.step}` : `One cause in several rules: ${cause.step}`)}`,
      `    ${c.yellow(shown(cause.answer))}`,
      ...(cause.fix.length
        ? [`    fix: ${c.bold(cause.fix.join(' or '))} — ${shown(cause.hint)}`]
        : [`    ${shown(cause.hint)}`]),
    ];
  }

  private describe(r: RuleResult, baseUrl: string): string[] {
    const c = this.c;
    const out = [
      `  ${this.mark(r.verdict)} ${r.level === 'MUST' ? c.bold(r.level) : r.level} ${r.id} ${c.gray(`(${r.spec})`)}`,
      `      ${r.title}`,
    ];
    if (r.reason) out.push(`      ${r.verdict === 'fail' ? c.red(shown(r.reason)) : c.yellow(shown(r.reason))}`);
    if (r.counterexample)
      out.push(
        c.gray(
          `      counterexample (seed ${r.counterexample.seed}, path ${shown(r.counterexample.path)}): ${shown(quoteJson(r.counterexample.value, 300))}`,
        ),
      );
    if (r.replay) out.push(c.gray(`      replay: ${shown(r.replay)}`));
    const culprit = failingExchange(r);
    if (culprit) {
      // The request itself, so a crash or a reset names what caused it (not only "other side closed").
      if (culprit.error)
        out.push(
          `      ${c.yellow(shown(`${culprit.error.kind} on exchange #${culprit.seq}${culprit.step ? ` (${culprit.step})` : ''}: ${culprit.request.method} ${culprit.request.url}`))}`,
        );
      out.push(c.gray(`      curl: ${shown(curlCommand(culprit, baseUrl), 8 * 1024)}`));
    }
    return out;
  }
}

/** What the automatic width did, when it did anything (core/engine/width.ts). */
function widthNote(report: Report): string {
  const auto = report.run.concurrency_auto;
  if (!auto) return '';
  const latency = auto.median_latency_ms === undefined ? '' : `, answers in ~${auto.median_latency_ms} ms`;
  if (auto.backed_off) return `; the target asked to slow down: back to 8 rules at once${latency}`;
  if (report.run.concurrency > 8) return `; up to ${report.run.concurrency} rules at once${latency}`;
  return auto.runner_busy ? `; 8 rules at once${latency}: the runner itself was too busy for more` : '';
}

/** Relation coverage in one line: `Relations: lookup-near-miss 43/43 places, identity 8/8`. */
export function relationsLine(report: Report): string | undefined {
  const r = report.relations;
  if (!r?.length) return undefined;
  return `Relations: ${r.map((k, i) => `${k.kind} ${k.covered}/${k.applies}${i === 0 ? ' places' : ''}`).join(', ')}`;
}
