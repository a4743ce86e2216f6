/**
 * A rule's result as plain text, for the formats that carry text rather than markup: the element
 * text of a JUnit <failure> and a CTRF trace. CI systems show these in a monospace box, so the text
 * reads like `curl -v` output: `>` lines were sent, `<` lines were received.
 */
import { curlCommand, failingExchange } from '../core/report/curl.js';
import type { Report, RuleResult } from '../core/report/schema.js';
import { compareSections, headingOf, sectionTitle } from '../core/spec/sections.js';

type Exchange = RuleResult['transcript'][number];

/**
 * Groups the rules into suites by the heading of the first section they cite (headingOf, as the
 * report's section scores, the console and the HTML group them), suites in spec order, rules in
 * report order.
 */
export function bySuite(report: Report): [string, RuleResult[]][] {
  const suites = new Map<string, RuleResult[]>();
  for (const rule of report.rules) {
    const heading = rule.sections[0] ? headingOf(rule.sections[0]) : '';
    const rules = suites.get(heading) ?? [];
    rules.push(rule);
    suites.set(heading, rules);
  }
  return [...suites]
    .sort(([a], [b]) => compareSections(a, b))
    .map(([heading, rules]) => [heading ? `§${heading} ${sectionTitle(heading)}`.trim() : rules[0].spec, rules]);
}

/** Expected and actual values: strings as JSON so `"1"` and `1` stay distinguishable. */
export function formatValue(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value, null, 2);
}

/** A body indented for reading when it is complete JSON; otherwise exactly as received. */
export function formatBody(body: string, truncated?: boolean): string {
  if (truncated) return `${body}\n[truncated]`;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** `850 ms`, `12.3 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return s < 60 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/** A section score as a percentage, floored so that 100 % means every judged rule passed. */
export function formatScore(score: number): string {
  return `${Math.floor(score * 100)} %`;
}

const indent = (text: string, prefix: string) =>
  text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');

/** CI shows this text inline, so bodies are cut shorter there than in report.json. */
const INLINE_BODY_LIMIT = 1024;
const inline = (body: string, truncated?: boolean): [string, boolean | undefined] =>
  body.length > INLINE_BODY_LIMIT
    ? [`${body.slice(0, INLINE_BODY_LIMIT)}… [cut: ${Buffer.byteLength(body)}${truncated ? '+' : ''} bytes]`, true]
    : [body, truncated];

function exchangeText(exchange: Exchange): string {
  const { request, response, error } = exchange;
  const lines = [
    `#${exchange.seq}${exchange.step ? ` ${exchange.step}` : ''} (${formatDuration(exchange.duration_ms)})`,
  ];
  lines.push(`> ${request.method} ${request.url}`);
  for (const [name, value] of Object.entries(request.headers)) lines.push(`> ${name}: ${value}`);
  if (request.body !== undefined)
    lines.push('>', indent(formatBody(...inline(request.body, request.body_truncated)), '  '));
  if (response) {
    lines.push(`< ${response.status} (${response.bytes} bytes)`);
    for (const [name, value] of Object.entries(response.headers)) lines.push(`< ${name}: ${value}`);
    if (response.body !== undefined)
      lines.push('<', indent(formatBody(...inline(response.body, response.body_truncated)), '  '));
  }
  if (error) lines.push(`! ${error.kind}: ${error.message}`);
  return lines.join('\n');
}

/** Everything an engineer needs to triage a failed or errored rule without opening another file. */
export function failureText(rule: RuleResult, baseUrl?: string): string {
  const parts = [`[${rule.level}] ${rule.id} (${rule.spec}): ${rule.title}`];
  if (rule.reason) parts.push(rule.reason);
  const f = rule.failure;
  if (f) {
    if (f.message !== rule.reason) parts.push(f.message);
    if (f.path) parts.push(`at: ${f.path}`);
    if ('expected' in f) parts.push(`expected: ${formatValue(f.expected)}`);
    if ('actual' in f) parts.push(`actual: ${formatValue(f.actual)}`);
    if (f.exchange_seq) parts.push(`see exchange #${f.exchange_seq}`);
  }
  if (rule.why) parts.push(`why ${rule.level}: ${rule.why}`);
  const cx = rule.counterexample;
  if (cx)
    parts.push(
      `counterexample (seed ${cx.seed}, path ${cx.path}${cx.shrinks !== undefined ? `, ${cx.shrinks} shrinks` : ''}):\n${indent(formatValue(cx.value), '  ')}`,
    );
  if (rule.observations.length) parts.push(`observations:\n${rule.observations.map((o) => `  - ${o}`).join('\n')}`);
  if (rule.expected_failure) parts.push(`expected failure (baseline): ${rule.expected_failure.comment}`);
  if (rule.replay) parts.push(`replay: ${rule.replay}`);
  // CI shows this text inline: the exchange the failure is about is enough there, as it is and as
  // curl; report.html and report.json keep the rest.
  const culprit = failingExchange(rule) ?? rule.transcript.at(-1);
  if (culprit && baseUrl) parts.push(`as curl (exchange #${culprit.seq}):\n  ${curlCommand(culprit, baseUrl)}`);
  if (culprit) {
    const others = rule.transcript.length - 1;
    parts.push(
      `exchange #${culprit.seq} of ${rule.transcript.length}${others ? ' (the others are in report.html and report.json)' : ''}:\n\n${exchangeText(culprit)}`,
    );
  }
  return parts.join('\n');
}

/** Why a rule was skipped, naming the configuration key that would run it unless the reason already does. */
export function skipMessage(rule: RuleResult): string {
  const reason = oneLine(rule.reason ?? 'skipped');
  return rule.skip_key && !reason.includes(rule.skip_key) ? `${reason} (set ${rule.skip_key})` : reason;
}

/** A character no reader should get raw (NUL, ESC, a lone surrogate), written as its `\uXXXX` code. */
export function visibleEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Control characters other than tab and line breaks, shown by code: NUL or ESC would reach a page or terminal raw. */
export function showControlChars(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, visibleEscape);
}

/** Text for one-line contexts (attributes, messages, table cells): whitespace runs become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A failure's reason as one short line that a cut at the end leaves readable: its first line,
 * expected vs got first and what was checked after it (`the same note again: expected A, got B`
 * reads `expected A, got B; the same note again`), without the body the target answered (`…, got
 * 200: {"import_supplier": …}` keeps `…, got 200`), the first difference's path and the
 * counterexample a property rule appends; the report keeps all of it.
 */
export function shortReason(reason: string): string {
  const line = oneLine(reason.split('\n')[0])
    .replace(/ — counterexample \(seed .*$/, '')
    .replace(/(\bgot \d{3}): .*$/, '$1')
    .replace(/ \(first difference at [^)]*\)/, '');
  const split = /^(.+?): (expected .+)$/.exec(line);
  return split ? `${split[2]}; ${split[1]}` : line;
}

/** What the console's one line says of a failing or unjudged rule: expected vs got, else the rule's title. */
export function whatWentWrong(rule: RuleResult): string {
  return rule.reason ? shortReason(rule.reason) : rule.title;
}

/**
 * The console's one line of a failing or unjudged rule, without its colours and its cut to the
 * terminal's width: level, id, the section it enforces, what went wrong.
 */
export function ruleLine(rule: RuleResult): string {
  return `${rule.level} ${rule.id} (${rule.spec}) — ${whatWentWrong(rule)}`;
}

/**
 * Why a run whose rules pass exits 1 under --strict-baseline: its baseline excuses failures that
 * are gone. Said beside the verdict, which stays what the rules say.
 */
export function strictBaselineLine(report: Report): string | undefined {
  const b = report.baseline;
  if (!b?.strict || !b.now_passing.length || !report.summary.conformant || report.summary.exit_code !== 1)
    return undefined;
  const one = b.now_passing.length === 1;
  return `Exit code 1 (--strict-baseline): ${b.now_passing.length} baseline ${one ? 'entry passes' : 'entries pass'} now; remove ${one ? 'it' : 'them'} from ${b.file}.`;
}

/**
 * Baseline entries naming no rule, as many as a report lists (the first 20; report.json has them
 * all): a generated baseline may hold thousands, and one console line of them all ran to megabytes.
 */
export const UNKNOWN_IDS_SHOWN = 20;

/** The first `max` items and how many more there are. */
export function firstOf<T>(items: readonly T[], max = UNKNOWN_IDS_SHOWN): { first: T[]; more: number } {
  return { first: items.slice(0, max), more: Math.max(0, items.length - max) };
}
