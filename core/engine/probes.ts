/**
 * Independent requests of one rule, each judged on its own answer — a refusal, "no 5xx" — sent
 * PROBE_WIDTH at a time rather than one after another: against a distant target a rule of 64 such
 * requests would otherwise take 64 round trips. And a part of a rule tried again in place when the
 * implementation did not answer it (transient.ts), so that one reset costs one request, not the
 * whole rule.
 */
import type { RuleContext } from './rule.js';
import { inTry } from './tries.js';

/** Probes of one rule in flight at once. */
export const PROBE_WIDTH = 4;

/**
 * Runs `part`, and runs it again up to `--retries` times while it ends because the implementation
 * did not answer. Each time it runs it must make its own request(s) anew (a generated case makes
 * fresh identifiers; a probe that must be refused may be sent twice). The rule is then reported as
 * flaky if it passes, with `again` and why.
 */
export async function inPlace(ctx: RuleContext, part: () => Promise<void>, again: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    try {
      return await (tries ? inTry(tries + 1, part) : part());
    } catch (error) {
      const why = ctx.retry.cause(error);
      if (!why || tries >= ctx.retry.times || ctx.signal.aborted) throw error;
      ctx.flaky(`${again} after it was not judged: ${why}`);
    }
  }
}

/**
 * Runs `part` for each item, `width` (PROBE_WIDTH) at a time. What it throws does not depend on which answer
 * came first: no item after a known failure is started, every item before it finishes, and the
 * error of the first failing item (in the items' order) is the one thrown — as a sequential loop
 * would. For parts whose requests may change state: nothing is sent twice.
 */
export async function atOnce<T>(
  items: readonly T[],
  part: (item: T) => Promise<void>,
  width = PROBE_WIDTH,
): Promise<void> {
  let next = 0;
  let first: { index: number; error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !(first && next > first.index)) {
      const index = next++;
      try {
        await part(items[index]);
      } catch (error) {
        if (!first || index < first.index) first = { index, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
  if (first) throw first.error;
}

/**
 * Sends one probe per item with atOnce, each tried again in place (inPlace) when the implementation
 * did not answer it. Only for probes that must be refused, or whose answer is all that is judged
 * ("no 5xx"): sending one twice changes nothing a faithful implementation shows, and the state a rule
 * reads afterwards still shows what an accepted one did.
 */
export function eachProbe<T>(
  ctx: RuleContext,
  items: readonly T[],
  probe: (item: T) => Promise<void>,
  label: (item: T) => string,
  width = PROBE_WIDTH,
): Promise<void> {
  return atOnce(items, (item) => inPlace(ctx, () => probe(item), `${label(item)} sent again`), width);
}
