/**
 * The capability matrix: one cell per endpoint of the model, read from the evidence of the run, not
 * from the best rule that touched the endpoint.
 *
 * - *not implemented* is what the target said of the endpoint (501, 405, an undocumented 404,
 *   core/engine/not-implemented.ts), and wins over anything its rules saw: a §5 rule's 401 to a
 *   request without a token says nothing about implementation.
 * - *deviates*: a MUST or SHOULD rule failed on an answer of this endpoint. A failure is charged to
 *   the endpoint whose exchange broke the rule (the failure's `exchange_seq`), not to every endpoint
 *   the rule touched on the way: a stateful rule that stages, lists and adds notes, failing on the
 *   process answer, is a deviation of the process endpoint alone. Only when the failing exchange is
 *   unknown, or addresses an endpoint the rule does not judge (a probe), is the failure charged to
 *   every endpoint the rule judges.
 * - *conforms* needs a behaviour rule to have passed there: the §5 rules (tagged `auth`) show that a
 *   request without a valid token is refused, which a mock answers for endpoints it never built.
 * - *could not be checked*: its behaviour rules were judged but none passed (they ended in error).
 * - *not checked*: no behaviour rule judged it (skipped, not selected, or only its §5 rules ran).
 */
import { route } from '../spec/route.js';
import { model } from '../spec/index.js';
import type { CountsT, Report, RuleResult } from './schema.js';

type Capability = Report['capabilities'][number];

/** Rules that judge only how the endpoint refuses a request without a valid token (§5). */
const AUTH_TAG = 'auth';

/** The endpoint of the model a transcript's request went to (its URL is under the base URL, which may have a path). */
function endpointOfRequest(method: string, url: string): string | undefined {
  const at = url.indexOf('/v1/');
  return at >= 0 ? route(method, url.slice(at))?.endpoint.id : undefined;
}

/** The endpoints a failing rule is charged to: the one whose answer broke it, when the rule judges that one. */
export function chargedEndpoints(rule: RuleResult): readonly string[] {
  const seq = rule.failure?.exchange_seq;
  const exchange = seq === undefined ? undefined : rule.transcript.find((x) => x.seq === seq);
  const broke = exchange && endpointOfRequest(exchange.request.method, exchange.request.url);
  return broke && rule.endpoints.includes(broke) ? [broke] : rule.endpoints;
}

export function capabilityMatrix(rules: readonly RuleResult[], notImplemented: readonly string[]): Capability[] {
  const counts = new Map<string, CountsT>();
  const behaviour = new Map<string, CountsT>();
  const zero = (): CountsT => ({ pass: 0, fail: 0, skip: 0, error: 0 });
  for (const e of Object.values(model.endpoints)) {
    counts.set(e.id, zero());
    behaviour.set(e.id, zero());
  }
  for (const r of rules) {
    if (r.level === 'INFO') continue;
    // A failure counts only where it was found; the rule's other endpoints did nothing wrong in it.
    const at = r.verdict === 'fail' ? chargedEndpoints(r) : r.endpoints;
    const auth = r.tags.includes(AUTH_TAG);
    for (const id of at) {
      const c = counts.get(id);
      if (!c) continue;
      c[r.verdict]++;
      if (!auth || r.verdict === 'fail') behaviour.get(id)![r.verdict]++;
    }
  }
  return Object.values(model.endpoints).map((e) => {
    const c = counts.get(e.id)!;
    const b = behaviour.get(e.id)!;
    const status: Capability['status'] = notImplemented.includes(e.id)
      ? 'not implemented'
      : b.fail > 0
        ? 'deviates'
        : b.pass > 0
          ? 'conforms'
          : b.error > 0
            ? 'could not be checked'
            : 'not checked';
    return { endpoint: e.id, method: e.method, path: e.path, counts: c, status };
  });
}
