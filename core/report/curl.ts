/**
 * A failing exchange as a `curl` command, so a supplier can replay it outside the suite. Built from the
 * recorded (already redacted) exchange: the token appears as `$CONFORMANCE_TOKEN`, never its value, and a
 * header whose value was redacted keeps the `***` placeholder for the user to fill in.
 */
import type { Exchange } from '../http/exchange.js';
import type { RuleResult } from './schema.js';
import { isFailing } from '../engine/verdict.js';

/** Quotes text for a POSIX shell (single quotes; an embedded quote closes, escapes and reopens). */
export const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** Headers curl sets itself, or that only describe the recorded body. */
const IMPLIED = new Set(['content-length', 'host', 'connection']);

/** `curl` for one exchange; `baseUrl` is the run's (redacted) base URL, for paths recorded without it. */
export function curlCommand(exchange: Exchange, baseUrl: string): string {
  const { request } = exchange;
  const url = /^https?:\/\//i.test(request.url) ? request.url : `${new URL(baseUrl).origin}${request.url}`;
  const parts = ['curl', '-i'];
  if (request.method !== 'GET' || request.body !== undefined) parts.push('-X', request.method);
  parts.push(shellQuote(url));
  for (const [name, value] of Object.entries(request.headers)) {
    if (IMPLIED.has(name.toLowerCase())) continue;
    // §5.2: "Authorization: Token <ACCESS_TOKEN>"; the recorded value is redacted, the variable is not.
    if (name.toLowerCase() === 'authorization' && /^Token \*\*\*$/.test(value))
      parts.push('-H', `"${name}: Token $CONFORMANCE_TOKEN"`);
    else parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (request.body !== undefined) parts.push('--data-binary', shellQuote(request.body));
  const command = parts.join(' ');
  return request.body_truncated
    ? `${command}  # body cut in the report: run the rule with --full-transcripts for all of it`
    : command;
}

/**
 * The exchange a failed or errored rule is about: the one its failure names, else the one that got no
 * response, else its last exchange. Undefined for a rule that sent nothing.
 */
export function failingExchange(rule: Pick<RuleResult, 'verdict' | 'failure' | 'transcript'>): Exchange | undefined {
  if (!isFailing(rule.verdict)) return undefined;
  const { transcript } = rule;
  const named =
    rule.failure?.exchange_seq === undefined ? undefined : transcript.find((x) => x.seq === rule.failure!.exchange_seq);
  return named ?? [...transcript].reverse().find((x) => x.error) ?? transcript.at(-1);
}
