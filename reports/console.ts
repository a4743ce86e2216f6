/**
 * The console reporter: progress while running (a live line on a terminal, failures as they happen
 * otherwise), then a summary by section and level, what failed with a replay command each, what
 * was skipped and which key would enable it. Colours via chalk, off for NO_COLOR and non-TTY.
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
import { shown, terminalSafe } from './terminal.js';

export interface ConsoleOptions {
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  env?: NodeJS.ProcessEnv;
  /** Print passing rules too. */
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
      for (const cause of event.setup.causes) this.write(this.describeCause(cause).join('\n'));
    } else {
      this.onRule(event.result, event.done, event.total);
    }
  };

  private onRule(result: RuleResult, done: number, total: number): void {
    const c = this.c;
    // A rule stopped by a shared cause was announced with the cause; one line per rule would bury it.
    if ((isFailing(result.verdict) && !result.cause) || this.options.verbose) {
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
  summary(report: Report, written: { format: string; file?: string; warning?: string }[] = []): void {
    const c = this.c;
    this.clearLive();
    const lines: string[] = [''];
    // Floored like every report: 99.6 % of rules passing is not 100 %.
    const pct = (score: number | null) => (score === null ? '   —' : `${Math.floor(score * 100)}%`.padStart(4));
    lines.push(c.bold('By spec section'));
    for (const s of report.sections) {
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
      lines.push('', c.bold(`Failed and not judged (${failing.length})`));
      const causes = new Map((report.causes ?? []).map((cause) => [cause.id, cause]));
      const grouped = new Set<string>();
      for (const r of failing) {
        const cause = r.cause ? causes.get(r.cause) : undefined;
        if (!cause) {
          lines.push(...this.describe(r, report.target.base_url));
          continue;
        }
        if (grouped.has(cause.id)) continue;
        grouped.add(cause.id);
        const stopped = failing.filter((f) => f.cause === cause.id);
        lines.push(...this.describeCause(cause).map((l) => `  ${l}`));
        const must = stopped.filter((f) => f.level === 'MUST').length;
        lines.push(
          c.gray(
            `      ${stopped.length} rule${stopped.length === 1 ? '' : 's'} (${must} MUST) not judged because of it: ${listOf(
              stopped.map((f) => f.id),
              8,
            )}`,
          ),
        );
      }
    }
    const expected = report.rules.filter((r) => r.expected_failure);
    if (expected.length) {
      lines.push('', c.bold(`Expected failures, excused by ${report.baseline?.file} (${expected.length})`));
      for (const r of expected)
        lines.push(`  ${this.mark(r.verdict)} ${r.id} ${c.gray(`— ${shown(r.expected_failure!.comment)}`)}`);
    }
    if (report.baseline?.now_passing.length) {
      lines.push('', c.bold('Baseline entries that pass now (remove them):'));
      for (const e of report.baseline.now_passing) lines.push(`  - ${e.rule}`);
    }
    if (report.baseline?.unknown_rules.length) {
      lines.push(
        '',
        c.yellow(`Baseline entries naming no rule of this run: ${report.baseline.unknown_rules.join(', ')}`),
      );
    }
    const unexpected = failing.filter((r) => r.level !== 'INFO');
    if (report.baseline && unexpected.length) {
      lines.push('', c.bold('To accept these failures, add to the baseline:'));
      for (const r of unexpected)
        lines.push(
          ...baselineEntryFor(r.id)
            .split('\n')
            .map((l) => `  ${l}`),
        );
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
      lines.push(
        '',
        c.yellow(
          `The target refused the run's token mid-run ${report.http.token_refused_mid_run} time${report.http.token_refused_mid_run === 1 ? '' : 's'} (expired?)${report.http.token_renewals ? '' : '; configure auth.api_key so the runner can obtain a new one'}.`,
        ),
      );
    }
    const { counts, total } = report.summary;
    lines.push('');
    lines.push(
      `${plural(total, 'rule')}: ${c.green(`${counts.pass} passed`)}, ${counts.fail ? c.red(`${counts.fail} failed`) : '0 failed'}, ${counts.error ? c.yellow(`${counts.error} not judged (error)`) : '0 not judged (error)'}, ${counts.skip} skipped${report.summary.flaky?.length ? `, ${c.yellow(`${report.summary.flaky.length} flaky`)}` : ''} ${c.gray(`in ${(report.run.duration_ms / 1000).toFixed(1)} s, ${report.http.requests} requests`)}`,
    );
    lines.push(this.verdictLine(report));
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
    }[verdict.state];
    const should =
      verdict.state === 'conformant' && report.summary.should_failures && !report.run.strict
        ? c.gray(` (${plural(report.summary.should_failures, 'SHOULD failure')}; --strict makes them count)`)
        : '';
    return `${colour(`${verdict.title}:`)} ${verdict.detail}.${should}`;
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
