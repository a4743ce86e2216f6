/**
 * Sending a request that carries edge values to a target that may have limits the spec does not
 * show (core/engine/limits.ts). A refusal `judgeRefusal` reads as a discovered limit is recorded
 * (INFO) and the request is replayed with the refused values shrunk towards typical ones, until it
 * is answered otherwise; the rule then judges that answer. A refusal it reads as a failure fails the
 * rule with the reason. Every rule that sends edge values sends them through here.
 */
import type { HttpResponse } from '../http/client.js';
import type { EndpointId } from '../spec/index.js';
import {
  type FoundLimit,
  bodyBytes,
  declarationOf,
  describeSize,
  fieldPattern,
  judgeRefusal,
  shrunkInside,
} from './limits.js';
import { mayUseNonFieldErrors } from '../spec/non-field-errors.js';
import { getAtPath } from '../spec/paths.js';
import type { RuleContext } from './rule.js';

/** Replays of one request at most: each halves a refused value (an integer's bits), so 1024 characters reach 94 in four. */
const MAX_REPLAYS = 12;

export interface InsideLimits<T> {
  /** The answer the rule judges: the first that is not a limit's refusal. */
  res: HttpResponse;
  /** The request it answered (the one sent, or its last replay inside the limits found). */
  sent: T;
}

/**
 * Sends `payload` with `send`; while the answer is a discovered limit, records it and sends the
 * payload again with the refused values shrunk (`rebuild` gives a replay fresh identifiers where a
 * refused request might have kept something). `what` names the request in a failure.
 */
export async function sendInsideLimits<T>(
  ctx: RuleContext,
  endpoint: EndpointId,
  payload: T,
  send: (payload: T, replay: number) => Promise<HttpResponse>,
  what: string,
  rebuild: (payload: T) => T = (p) => p,
): Promise<InsideLimits<T>> {
  let sent = payload;
  const found: FoundLimit[] = [];
  for (let replay = 0; ; replay++) {
    const res = await send(sent, replay);
    if ((res.status !== 400 && res.status !== 413) || replay >= MAX_REPLAYS) {
      record(ctx, endpoint, found, res.status < 300 ? sent : undefined);
      return { res, sent };
    }
    const judged = judgeRefusal(
      { status: res.status, body: res.isJson ? res.json() : undefined },
      sent,
      ctx.declaredLimits,
      mayUseNonFieldErrors(endpoint),
    );
    if (judged.kind === 'failure') {
      record(ctx, endpoint, found, undefined);
      ctx.expect.that(false, `${what}: refused, and not for a limit the spec leaves open: ${judged.reason}`, {
        res,
      });
    } else {
      for (const limit of judged.limits)
        if (!found.some((f) => f.attr === limit.attr && f.kind === limit.kind)) found.push(limit);
      let next: unknown = sent;
      for (const limit of judged.limits) next = shrunkInside(next, limit);
      // Nothing left to shrink (a 413 for a body of long text, not of a long list): the refusal stands.
      if (JSON.stringify(next) === JSON.stringify(sent)) {
        record(ctx, endpoint, found, undefined);
        return { res, sent };
      }
      sent = rebuild(next as T);
    }
  }
}

/** The limits found, each with the value the accepted replay carried at its field (when one was accepted). */
function record(ctx: RuleContext, endpoint: EndpointId, found: readonly FoundLimit[], accepted: unknown) {
  for (const limit of found) {
    const value = accepted === undefined ? undefined : limit.attr === '' ? accepted : getAtPath(accepted, limit.attr);
    const size =
      limit.kind === 'bytes' && value !== undefined
        ? bodyBytes(value)
        : typeof value === 'string'
          ? [...value].length
          : Array.isArray(value)
            ? value.length
            : typeof value === 'number'
              ? value
              : undefined;
    ctx.discoveredLimit({
      endpoint,
      field: fieldPattern(limit.attr),
      kind: limit.kind,
      refused: describeSize(limit.kind, limit.refused),
      code: limit.code,
      ...(size !== undefined ? { accepted: describeSize(limit.kind, size) } : {}),
      declare: declarationOf(limit, size),
    });
  }
}
