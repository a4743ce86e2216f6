/**
 * What traffic is judged by: each check is one rule of a traffic report (report.ts), against the
 * client (its requests) or the server (its answers, and the §3 and §4.2 statements over the
 * sequence). The statements themselves are the functions the rules use too (core/engine/judgements.ts,
 * core/spec/transitions.ts, core/spec/notes.ts); checks.ts applies them to a session.
 */
import type { Level } from '../../core/engine/rule.js';

export type Side = 'client' | 'server';

export interface TrafficCheck {
  id: string;
  side: Side;
  level: Level;
  spec: string;
  title: string;
  why?: string;
}

const check = (c: TrafficCheck) => c;

/** Every check traffic is judged by; each is one rule of the report. */
export const TRAFFIC_CHECKS = {
  authHeader: check({
    id: 'traffic.client.auth-header',
    side: 'client',
    level: 'MUST',
    spec: '§4, §5.2',
    title: 'Every request carries the Authorization header',
  }),
  authScheme: check({
    id: 'traffic.client.auth-scheme',
    side: 'client',
    level: 'SHOULD',
    spec: '§5.2',
    title: 'The Authorization header has the documented form `Token <ACCESS_TOKEN>`',
    why: '§5.2 calls it the documented example; another scheme may be accepted by a server',
  }),
  jsonBody: check({
    id: 'traffic.client.json-body',
    side: 'client',
    level: 'MUST',
    spec: '§4',
    title: 'POST bodies are JSON',
  }),
  requestBody: check({
    id: 'traffic.client.request-body',
    side: 'client',
    level: 'MUST',
    spec: '§2.1, §4',
    title: 'Request bodies carry only documented fields, with their documented shapes and formats',
  }),
  documentedStatus: check({
    id: 'traffic.server.documented-status',
    side: 'server',
    level: 'MUST',
    spec: '§4, §7.2',
    title: 'A success status is the one the spec documents for the endpoint',
  }),
  responseBody: check({
    id: 'traffic.server.response-body',
    side: 'server',
    level: 'MUST',
    spec: '§4, §7.1',
    title: 'A response body has the documented shape for its endpoint and status',
  }),
  secondStaging: check({
    id: 'traffic.state.stage-again-200',
    side: 'server',
    level: 'MUST',
    spec: '§3, §4.1',
    title: 'Staging an account already staged answers 200, not 201',
  }),
  afterImport: check({
    id: 'traffic.state.refused-after-import',
    side: 'server',
    level: 'MUST',
    spec: '§3, §4.1 process rule 3',
    title: 'Staging or processing an account already imported is refused with 400',
  }),
  notesDedup: check({
    id: 'traffic.notes.dedup',
    side: 'server',
    level: 'MUST',
    spec: '§4.2 notes rule 2',
    title: 'A note with the body (and, when given, created_at) of a note on the account is not created again',
  }),
  statusBackwards: check({
    id: 'traffic.status.never-backwards',
    side: 'server',
    level: 'SHOULD',
    spec: '§3',
    title: 'An account seen COMPLETED is never reported UNKNOWN or IN_PROGRESS afterwards',
    why: '§3 says moves other than those of its table are "not shown"; no operation of the interface removes an account',
  }),
} as const;

export type CheckName = keyof typeof TRAFFIC_CHECKS;
