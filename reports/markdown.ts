/**
 * summary.md: a compact GitHub-flavoured summary, also appended to $GITHUB_STEP_SUMMARY. It links
 * nowhere and embeds no transcript — report.html has the details — and it stays small whatever the
 * run: lists are capped and long server-controlled text is cut, so even a 5,000-rule failure report
 * fits far below GitHub's 1 MiB step-summary limit.
 */
import { isFailing } from '../core/engine/verdict.js';
import type { CountsT, Report, RuleResult } from '../core/report/schema.js';
import { runVerdict } from '../core/report/verdict-line.js';
import { formatDuration, formatScore, oneLine, showControlChars, strictBaselineLine } from './plain-text.js';

const MAX_FAILURES = 50;
const MAX_SKIP_KEYS = 20;
const IDS_PER_LINE = 5;
const MAX_REASON = 200;
const MAX_REPLAY = 300;

/** One line of at most `max` characters, control characters shown by code. */
function line(text: string, max: number): string {
  const one = showControlChars(oneLine(text));
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/**
 * Server-controlled text as literal Markdown text: one line, and every character that could start
 * markup escaped — `<img>` would make GitHub fetch a URL, `[x](…)` would make a link, `|` would
 * split a table cell.
 */
function text(value: string, max = MAX_REASON): string {
  return line(value, max).replace(/[\\`*_[\]<>|~&#!]/g, (c) => `\\${c}`);
}

/**
 * An inline code span that survives backticks in its content. In a table cell a `|` must still be
 * escaped (GFM splits cells before it parses code spans); elsewhere the backslash would show.
 */
function code(value: string, { max = MAX_REPLAY, cell = false } = {}): string {
  const shown = line(value, max);
  const content = cell ? shown.replace(/\|/g, '\\|') : shown;
  const fence = '`'.repeat([...content.matchAll(/`+/g)].reduce((n, m) => Math.max(n, m[0].length), 0) + 1);
  const pad = content.startsWith('`') || content.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${content}${pad}${fence}`;
}

const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
const table = (head: string[], rows: (string | number)[][], align = head.map((_, i) => (i === 0 ? ':--' : '--:'))) =>
  [row(head), row(align), ...rows.map(row)].join('\n');
const countCells = (c: CountsT) => [c.pass, c.fail, c.error, c.skip];
const COUNT_HEADS = ['Pass', 'Fail', 'Error', 'Skip'];

const ICON = { conformant: '✅', 'not conformant': '❌', incomplete: '⚠️', aborted: '❌', interrupted: '⏹️' } as const;

function title(report: Report): string {
  const verdict = runVerdict(report);
  return verdict.state === 'conformant'
    ? `# ${ICON.conformant} Conformant`
    : `# ${ICON[verdict.state]} ${verdict.title}: ${text(verdict.detail, 400)}`;
}

/** Unexcused failures first, by level; baselined ones last. */
function failureOrder(a: RuleResult, b: RuleResult): number {
  const rank = (r: RuleResult) => (r.expected_failure ? 3 : { MUST: 0, SHOULD: 1, INFO: 2 }[r.level]);
  return rank(a) - rank(b);
}

/** Each shared cause once, with the key that fixes it and the rules it stopped. */
function causes(report: Report): string[] {
  if (!report.causes?.length) return [];
  const lines = [`## Causes (${report.causes.length})`, ''];
  for (const cause of report.causes) {
    const ids =
      cause.rules
        .slice(0, IDS_PER_LINE)
        .map((id) => code(id))
        .join(', ') + (cause.rules.length > IDS_PER_LINE ? ` and ${cause.rules.length - IDS_PER_LINE} more` : '');
    lines.push(`- **${text(cause.step)}**: ${text(cause.answer)}`);
    lines.push(
      `  ${cause.fix.length ? `Fix: ${cause.fix.map((k) => code(k)).join(' or ')} — ` : ''}${text(cause.hint, 400)}`,
    );
    lines.push(
      `  ${cause.rules.length} ${cause.rules.length === 1 ? 'rule' : 'rules'} not judged because of it: ${ids}`,
    );
  }
  return lines;
}

function failures(report: Report): string[] {
  // Rules stopped by a shared cause are listed under it, not one by one.
  const failing = report.rules.filter((r) => isFailing(r.verdict) && !r.cause).sort(failureOrder);
  if (!failing.length) return [];
  const lines = [`## Failures and errors (${failing.length})`, ''];
  for (const r of failing.slice(0, MAX_FAILURES)) {
    const expected = r.expected_failure ? ` — *expected failure: ${text(r.expected_failure.comment)}*` : '';
    lines.push(`- **${r.verdict}** ${code(r.id)} (${r.level}, ${text(r.spec)}): ${text(r.reason ?? '')}${expected}`);
    if (r.replay) lines.push(`  ${code(r.replay)}`);
  }
  if (failing.length > MAX_FAILURES) lines.push(`- …and ${failing.length - MAX_FAILURES} more (see report.html)`);
  return lines;
}

function skipped(report: Report): string[] {
  const groups = new Map<string, string[]>();
  for (const r of report.rules) {
    if (r.verdict !== 'skip') continue;
    const ids = groups.get(r.skip_key ?? '') ?? [];
    ids.push(r.id);
    groups.set(r.skip_key ?? '', ids);
  }
  if (!groups.size) return [];
  const total = report.summary.counts.skip;
  const accepted = report.summary.accepted_skips?.length ?? 0;
  // Traffic checks skip when the traffic held nothing for them: no key runs them, no option accepted them.
  if (report.run.kind === 'traffic')
    return [
      `## Skipped (${total})`,
      '',
      `Nothing in the traffic for these checks to judge: ${[...groups.values()]
        .flat()
        .map((id) => code(id))
        .join(', ')}`,
    ];
  const lines = [
    `## Skipped (${total})`,
    '',
    `Set these configuration keys to run them${accepted ? ` (${accepted} accepted with --allow-skip)` : ''}:`,
    '',
  ];
  const sorted = [...groups].sort(([, a], [, b]) => b.length - a.length);
  for (const [key, ids] of sorted.slice(0, MAX_SKIP_KEYS)) {
    const shown = ids
      .slice(0, IDS_PER_LINE)
      .map((id) => code(id))
      .join(', ');
    const more = ids.length > IDS_PER_LINE ? ` and ${ids.length - IDS_PER_LINE} more` : '';
    lines.push(
      `- ${key ? code(key) : 'no configuration key (skipped by the rule itself)'}: ${ids.length} ${ids.length === 1 ? 'rule' : 'rules'} — ${shown}${more}`,
    );
  }
  if (sorted.length > MAX_SKIP_KEYS) lines.push(`- …and ${sorted.length - MAX_SKIP_KEYS} more keys (see report.html)`);
  return lines;
}

function baselineNotes(report: Report): string[] {
  const b = report.baseline;
  if (!b || (!b.now_passing.length && !b.unknown_rules.length && !b.expired?.length)) return [];
  const list = (ids: string[]) =>
    ids
      .slice(0, IDS_PER_LINE)
      .map((id) => code(id))
      .join(', ') + (ids.length > IDS_PER_LINE ? ` and ${ids.length - IDS_PER_LINE} more` : '');
  return [
    `## Baseline ${code(b.file)}`,
    '',
    ...(b.now_passing.length
      ? [
          `- Now passing, remove: ${list(b.now_passing.map((e) => e.rule))}${b.strict ? ' (they fail the run under --strict-baseline)' : ''}`,
        ]
      : []),
    // Past its day an entry excuses nothing: its rule's failure is counted as new above.
    ...(b.expired ?? [])
      .slice(0, IDS_PER_LINE)
      .map((e) => `- Expired on ${text(e.until)}, excuses nothing (a failure counts as new): ${code(e.rule)}`),
    ...((b.expired?.length ?? 0) > IDS_PER_LINE ? [`- …and ${b.expired!.length - IDS_PER_LINE} more expired`] : []),
    ...(b.unknown_rules.length ? [`- Name no rule: ${list(b.unknown_rules)}`] : []),
  ];
}

/** Never-sent fields listed per endpoint; the rest are counted (report.html and report.json list all). */
const MAX_NEVER_SENT = 8;

/** Status and field coverage (core/report/coverage.ts), one row per endpoint of §4. */
/** Limits the target showed where the spec shows none (§2.3, §8): INFO, with the line that declares each. */
function discoveredLimits(report: Report): string[] {
  const limits = report.discovered_limits ?? [];
  if (!limits.length) return [];
  return [
    `## Discovered limits (${limits.length}, INFO)`,
    '',
    ...limits.map(
      (l) =>
        `- ${code(l.endpoint)} ${code(l.field)}: ${text(l.refused)} refused (${code(l.code)})${l.accepted ? `, ${text(l.accepted)} accepted` : ''}; declare with ${code(l.declare)}`,
    ),
  ];
}

function coverage(report: Report): string[] {
  const c = report.coverage;
  if (!c) return [];
  const pct = (share: number | null) => (share === null ? '—' : formatScore(share));
  return [
    '## Coverage',
    '',
    `${c.exchanges} exchanges${c.unrouted ? ` (${c.unrouted} to no endpoint of §4)` : ''}. Documented statuses observed: **${c.statuses.observed} of ${c.statuses.documented}** (${pct(c.statuses.share)}); documented request fields sent: **${c.fields.sent} of ${c.fields.documented}** (${pct(c.fields.share)}).`,
    '',
    table(
      ['Endpoint', 'Requests', 'Statuses observed', 'Never observed', 'Undocumented', 'Fields sent', 'Never sent'],
      c.endpoints.map((e) => {
        const documented = e.fields.sent.length + e.fields.never_sent.length;
        const never = e.fields.never_sent;
        return [
          text(e.endpoint),
          e.requests,
          e.statuses
            .filter((s) => s.observed)
            .map((s) => `${s.status} ×${s.observed}`)
            .join(', ') || '—',
          e.statuses
            .filter((s) => !s.observed)
            .map((s) => String(s.status))
            .join(', ') || '—',
          e.undocumented.map((u) => `**${u.status}** ×${u.observed}`).join(', ') || '—',
          documented ? `${e.fields.sent.length}/${documented} (${pct(e.fields.share)})` : '—',
          never.length
            ? `${never
                .slice(0, MAX_NEVER_SENT)
                .map((f) => code(f, { cell: true }))
                .join(', ')}${never.length > MAX_NEVER_SENT ? ` … ${never.length - MAX_NEVER_SENT} more` : ''}`
            : '—',
        ];
      }),
      [':--', '--:', ':--', ':--', ':--', '--:', ':--'],
    ),
  ];
}

export function renderMarkdown(report: Report): string {
  const { run, summary, target } = report;
  const levels = summary.by_level;
  const blocks = [
    [
      title(report),
      '',
      `**Target** ${code(target.base_url)} · **Run** ${code(run.id)} ·${run.seed !== undefined ? ` **Seed** ${code(String(run.seed))} ·` : ''} **Duration** ${formatDuration(run.duration_ms)} · **Exit code** ${summary.exit_code}${run.strict ? ' · strict' : ''}${run.bailed ? ' · stopped early (--bail)' : ''}`,
      ...(summary.expected_failures
        ? [
            '',
            `${summary.expected_failures} ${summary.expected_failures === 1 ? 'failure is' : 'failures are'} excused by the baseline.`,
          ]
        : []),
      ...(strictBaselineLine(report) ? ['', `**${text(strictBaselineLine(report)!)}**`] : []),
      ...(summary.flaky?.length
        ? [
            '',
            `**Flaky** (passed only when run again after an exchange got no response): ${summary.flaky.map((id) => code(id)).join(', ')}`,
          ]
        : []),
    ],
    [
      table(
        ['Level', ...COUNT_HEADS],
        [
          ['MUST', ...countCells(levels.MUST)],
          ['SHOULD', ...countCells(levels.SHOULD)],
          ['INFO', ...countCells(levels.INFO)],
          ['**All**', ...countCells(summary.counts)],
        ],
      ),
    ],
    [
      '## Sections',
      '',
      table(
        ['Section', ...COUNT_HEADS, 'Score'],
        report.sections.map((s) => [
          `§${text(s.section)} ${text(s.title)}`,
          ...countCells(s.counts),
          s.score === null ? '—' : formatScore(s.score),
        ]),
      ),
    ],
    [
      '## Capabilities',
      '',
      table(
        ['Endpoint', 'Method', 'Path', ...COUNT_HEADS, 'Status'],
        report.capabilities.map((c) => [
          text(c.endpoint),
          c.method,
          code(c.path, { cell: true }),
          ...countCells(c.counts),
          c.status === 'deviates' ? '**deviates**' : c.status,
        ]),
        [':--', ':--', ':--', '--:', '--:', '--:', '--:', ':--'],
      ),
    ],
    causes(report),
    failures(report),
    skipped(report),
    baselineNotes(report),
    discoveredLimits(report),
    coverage(report),
  ];
  return `${blocks
    .filter((b) => b.length)
    .map((b) => b.join('\n'))
    .join('\n\n')}\n`;
}
