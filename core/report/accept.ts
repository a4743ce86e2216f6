/**
 * Which skips `--allow-skip` / `run.allow_skip` accepts. A pattern is read three ways, so a user can
 * accept skips by what they mean rather than list rule ids one by one:
 *  - a rule id or glob (`payments.*`): the skips of those rules;
 *  - a configuration key (`fixtures.payment_instruction`, or a glob of keys): the skips that ask for
 *    that key or a key inside it (`fixtures.payment_instruction.references.persistent_failure`);
 *  - an endpoint, by its operation id (`createPaymentInstruction`): the skips of the rules that
 *    judge that endpoint, whatever they were skipped for.
 * A pattern that names no rule, key or endpoint at all accepts nothing, and the run says so.
 */
import picomatch from 'picomatch';
import { NEEDS } from '../engine/needs.js';
import type { RuleResult } from '../engine/result.js';
import { model } from '../spec/index.js';

/** The configuration keys a skip can ask for (core/engine/needs.ts). */
const SKIP_KEYS: readonly string[] = Object.values(NEEDS).map((n) => n.key);
const ENDPOINTS: ReadonlySet<string> = new Set(Object.keys(model.endpoints));

const globOf = (pattern: string) => picomatch(pattern, { dot: true });

/** A skip's key is accepted by the key itself, a key that holds it, or a glob over keys. */
const keyMatcher = (pattern: string) => {
  const glob = globOf(pattern);
  return (key: string) => key === pattern || key.startsWith(`${pattern}.`) || glob(key);
};

/** Whether a skipped result is accepted by one of the patterns. */
export function skipAcceptor(
  patterns: readonly string[],
): (result: Pick<RuleResult, 'id' | 'skip_key' | 'endpoints'>) => boolean {
  const tests = patterns.map((pattern) => {
    const rule = globOf(pattern);
    const key = keyMatcher(pattern);
    return (r: Pick<RuleResult, 'id' | 'skip_key' | 'endpoints'>) =>
      rule(r.id) ||
      (r.skip_key !== undefined && key(r.skip_key)) ||
      (ENDPOINTS.has(pattern) && r.endpoints.includes(pattern));
  });
  return (result) => tests.some((test) => test(result));
}

/** The patterns that name no rule (of `ruleIds`), no configuration key a skip asks for and no endpoint. */
export function unmatchedPatterns(patterns: readonly string[], ruleIds: readonly string[]): string[] {
  return patterns.filter((pattern) => {
    if (ENDPOINTS.has(pattern)) return false;
    const rule = globOf(pattern);
    const key = keyMatcher(pattern);
    return !ruleIds.some((id) => rule(id)) && !SKIP_KEYS.some((k) => key(k));
  });
}
