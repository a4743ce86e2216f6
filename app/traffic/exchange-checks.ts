/**
 * The checks one exchange settles by itself, whatever came before it: the request against the
 * client's side of the spec, the answer against the server's. Each applies the function the rules'
 * assertions use for the same statement (core/engine/judgements.ts).
 */
import {
  authorizationProblem,
  documentedShape,
  documentedStatus,
  type jsonBody,
} from '../../core/engine/judgements.js';
import type { z } from 'zod';
import type { EndpointId, EndpointSpec } from '../../core/spec/index.js';
import { dotPath } from '../../core/spec/paths.js';
import type { CheckName } from './check-list.js';
import type { TimedExchange } from './har.js';

/** A body's first issues, their paths as dot paths: a finding quotes the traffic, a report cuts it. */
function said(issues: readonly z.core.$ZodIssue[], max = 3): string {
  const first = issues.slice(0, max).map((i) => `${dotPath(i.path, '(body)')}: ${i.message}`);
  return `${first.join('; ')}${issues.length > max ? `; and ${issues.length - max} more` : ''}`;
}

/** A check the exchange had something for: broken when `problem` says how. */
export interface Judged {
  check: CheckName;
  problem?: string;
}

/**
 * Answers the spec leaves open (§2.8): what sending an existing business again gives is not shown
 * (docs/freedoms.md: 400 with its `service_business_id`, or 200 with it), and traffic cannot tell a
 * first creation from a repeat of one made before it began: neither is judged.
 */
const openAnswer = (id: EndpointId, status: number) => id === 'createBusiness' && (status === 200 || status === 400);

/** A body as read once for every check (a proxy's bodies may be 16 MiB). */
export type Read = ReturnType<typeof jsonBody>;

/** The client's side: credentials, a JSON body (`sent`, read from a POST's), documented fields and shapes. */
export function judgeRequest(endpoint: EndpointSpec, { request }: TimedExchange, sent?: Read): Judged[] {
  const judged: Judged[] = [];
  const auth = authorizationProblem(request.headers);
  judged.push({
    check: 'authHeader',
    problem: auth?.missing ? `${request.method} ${request.url} has no Authorization header` : undefined,
  });
  if (!auth?.missing)
    judged.push({
      check: 'authScheme',
      problem: auth ? `the Authorization header is "${auth.scheme} …", not "Token …"` : undefined,
    });
  if (!sent) return judged;
  if (sent.problem)
    return [...judged, { check: 'jsonBody', problem: `${request.method} ${request.url}: the body is ${sent.problem}` }];
  judged.push({ check: 'jsonBody' });
  const shape = endpoint.body ? documentedShape(endpoint.body, sent.json) : undefined;
  if (shape)
    judged.push({ check: 'requestBody', problem: shape.ok ? undefined : `${endpoint.path}: ${said(shape.issues)}` });
  return judged;
}

/**
 * The server's side: a documented success status, the documented body for the status. The body of
 * a 400 to a request with a defect (`provoked`: the client's, or a run's on purpose) is not judged:
 * it says nothing more of the server than the refusal.
 */
export function judgeAnswer(endpoint: EndpointSpec, status: number, read: Read, provoked: boolean): Judged[] {
  if (openAnswer(endpoint.id, status)) return [{ check: 'documentedStatus' }];
  const { documented, problem } = documentedStatus(endpoint, status);
  const judged: Judged[] = [{ check: 'documentedStatus', problem }];
  if (!documented || typeof documented.body !== 'object' || (status === 400 && provoked)) return judged;
  const shape = read.problem === 'not JSON' ? undefined : documentedShape(documented.body, read.json);
  const issues = shape ? (shape.ok ? undefined : said(shape.issues)) : 'the body is not JSON';
  return [...judged, { check: 'responseBody', problem: issues && `${status} from ${endpoint.path}: ${issues}` }];
}
