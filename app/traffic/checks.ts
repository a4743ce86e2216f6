/**
 * Judges observed traffic — exchanges a client and a server made without us — against the spec:
 * the request as the client's conformance, the response as the server's, and the §3 state table and
 * the §4.2 dedup rule over the sequence, per account. Only what the exchanges prove is a finding: an
 * account's history before the traffic began is unknown, so a state rule fires only on a state the
 * traffic itself established.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Level } from '../../core/engine/rule.js';
import { capText } from '../../core/http/bounds.js';
import type { Exchange } from '../../core/http/exchange.js';
import type { EndpointId } from '../../core/spec/index.js';
import { pairNoteResults, sameNote } from '../../core/spec/notes.js';
import { dotPath, isPlainObject } from '../../core/spec/paths.js';
import { route } from './route.js';

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

export interface Finding {
  check: CheckName;
  message: string;
  /** The exchanges that prove it (their `seq`), the last one the one judged. */
  exchanges: number[];
  endpoint?: EndpointId;
}

interface KnownNote {
  /** The note's body and created_at as digests: a session's notes are kept for its length, their text is not. */
  body: string;
  createdAt?: string;
  seq: number;
}

interface AccountState {
  staged?: number;
  imported?: number;
  completedSeenAt?: number;
  notes: KnownNote[];
}

const parse = (text: string | undefined): unknown => {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return Symbol.for('not-json');
  }
};
const NOT_JSON = Symbol.for('not-json');

function issuesOf(schema: z.ZodType, value: unknown, max = 3): string | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const issues = result.error.issues;
  const said = issues.slice(0, max).map((i) => `${dotPath(i.path, '(body)')}: ${i.message}`);
  return `${said.join('; ')}${issues.length > max ? `; and ${issues.length - max} more` : ''}`;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** A fixed-size stand-in for a text the judge keeps only to compare (a note body, an account's key). */
const digest = (text: string): string => createHash('sha256').update(text).digest('base64');
const optionalDigest = (text: string | undefined) => (text === undefined ? undefined : digest(text));

/**
 * Answers the spec leaves open that the model's list of responses does not name. §2.8: a business
 * is unique by its external identifier and key attributes, but what sending an existing one again
 * gives is not shown (docs/freedoms.md: 400 with the existing `service_business_id`, or 200 with the
 * existing business). Traffic cannot tell a first creation from a repeat of one made before it
 * began, so neither a 200 from createBusiness nor the body of its 400 is judged.
 */
const openAnswer = (id: EndpointId, status: number): boolean =>
  id === 'createBusiness' && (status === 200 || status === 400);

/** Judges exchanges one at a time, in the order they completed. */
export class TrafficJudge {
  readonly findings: Finding[] = [];
  /** Which checks had something to judge: a check never exercised is reported as such. */
  readonly exercised = new Set<CheckName>();
  private readonly accounts = new Map<string, AccountState>();

  private account(supplier: string | undefined, ext: string | undefined): AccountState | undefined {
    if (!supplier || !ext) return undefined;
    const key = digest(JSON.stringify([supplier, ext]));
    let state = this.accounts.get(key);
    if (!state) this.accounts.set(key, (state = { notes: [] }));
    return state;
  }

  private find(name: CheckName, message: string, exchanges: number[], endpoint?: EndpointId): void {
    // A message quotes the traffic (a field name, a status value): cut, so a finding stays small — and
    // copied when cut, since V8 keeps a long string alive behind any slice of it.
    const cut = capText(message);
    this.findings.push({
      check: name,
      message: cut === message ? message : JSON.parse(JSON.stringify(cut)),
      exchanges,
      endpoint,
    });
  }

  /** Judges one exchange; returns the findings it adds. */
  observe(exchange: Exchange): Finding[] {
    const before = this.findings.length;
    const { request, response, seq } = exchange;
    const routed = route(request.method, request.url);
    if (!routed) return [];
    const { endpoint, params } = routed;
    const id = endpoint.id;

    // The client's side.
    const authorization = request.headers.authorization ?? request.headers.Authorization;
    this.exercised.add('authHeader');
    if (!authorization)
      this.find('authHeader', `${request.method} ${request.url} has no Authorization header`, [seq], id);
    else {
      this.exercised.add('authScheme');
      if (!/^Token \S+$/.test(authorization))
        this.find(
          'authScheme',
          `the Authorization header is "${authorization.split(' ')[0]} …", not "Token …"`,
          [seq],
          id,
        );
    }
    const body = endpoint.method === 'POST' ? parse(request.body) : undefined;
    if (endpoint.method === 'POST') {
      this.exercised.add('jsonBody');
      if (body === NOT_JSON || body === undefined)
        this.find(
          'jsonBody',
          `${request.method} ${request.url}: the body is ${body === undefined ? 'empty' : 'not JSON'}`,
          [seq],
          id,
        );
      else if (endpoint.body) {
        this.exercised.add('requestBody');
        const issues = issuesOf(endpoint.body, body);
        if (issues) this.find('requestBody', `${endpoint.path}: ${issues}`, [seq], id);
      }
    }

    // The server's side: only a complete response says anything about it.
    if (!response) return this.findings.slice(before);
    const documented = endpoint.responses.find((r) => r.status === response.status);
    const success = response.status >= 200 && response.status < 300;
    this.exercised.add('documentedStatus');
    if (success && !documented && !openAnswer(id, response.status))
      this.find(
        'documentedStatus',
        `${endpoint.method} ${endpoint.path} answered ${response.status}; the spec documents ${endpoint.responses
          .filter((r) => r.status < 300)
          .map((r) => r.status)
          .join(' or ')}`,
        [seq],
        id,
      );
    const answer = parse(response.body);
    if (
      documented &&
      typeof documented.body === 'object' &&
      !openAnswer(id, response.status) &&
      !(documented.status === 400 && this.clientBroke(before))
    ) {
      this.exercised.add('responseBody');
      const issues = answer === NOT_JSON ? 'the body is not JSON' : issuesOf(documented.body, answer);
      if (issues) this.find('responseBody', `${response.status} from ${endpoint.path}: ${issues}`, [seq], id);
    }
    if (isPlainObject(body) || id === 'accountTransferStatus')
      this.judgeState(id, params, body, answer, response.status, seq);
    return this.findings.slice(before);
  }

  /** A 400 the client provoked with a defective body says nothing more about the server's shape. */
  private clientBroke(since: number): boolean {
    return this.findings.slice(since).some((f) => TRAFFIC_CHECKS[f.check].side === 'client');
  }

  /** §3: an imported account stays imported; staging or processing it again is refused with 400. */
  private afterImport(account: AccountState, what: string, status: number, seq: number, id: EndpointId): boolean {
    if (account.imported === undefined) return false;
    this.exercised.add('afterImport');
    if (status !== 400)
      this.find(
        'afterImport',
        `${what} an account imported at exchange ${account.imported} answered ${status}`,
        [account.imported, seq],
        id,
      );
    return true;
  }

  private judgeState(
    id: EndpointId,
    params: Record<string, string>,
    body: unknown,
    answer: unknown,
    status: number,
    seq: number,
  ): void {
    const b = (isPlainObject(body) ? body : {}) as Record<string, unknown>;
    if (id === 'stageAccount') {
      const account = this.account(str(b.import_supplier), str(b.external_account_number));
      if (!account) return;
      if (this.afterImport(account, 'staging', status, seq, id)) return;
      if (account.staged !== undefined) {
        this.exercised.add('secondStaging');
        if (status === 201)
          this.find(
            'secondStaging',
            `staging an account already staged at exchange ${account.staged} answered 201 again`,
            [account.staged, seq],
            id,
          );
      }
      if (status === 200 || status === 201) account.staged ??= seq;
    } else if (id === 'processAccount') {
      const account = this.account(str(b.import_supplier_code), str(b.external_account_number));
      if (!account) return;
      if (this.afterImport(account, 'processing', status, seq, id)) return;
      if (status === 201 && b.dry_run !== true) account.imported = seq;
    } else if (id === 'createNotes' && status === 201 && Array.isArray(answer) && Array.isArray(b.notes)) {
      const account = this.account(str(b.import_supplier), str(b.external_account_number));
      if (!account) return;
      // §4.2: the order of the results is free, so each note is paired with its result by body (the
      // pairing the rules use); notes no result names unambiguously are not judged.
      const results: unknown[] = answer;
      const notes: unknown[] = b.notes;
      const pairs = pairNoteResults(
        notes.map((n) => (isPlainObject(n) ? n : {})),
        results.map((r) => (isPlainObject(r) ? r : {})),
      );
      const judged: { i: number; body: string; createdAt?: string; result: Record<string, unknown> }[] = [];
      notes.forEach((note, i) => {
        const at = pairs[i];
        const result = at === undefined ? undefined : results[at];
        if (!isPlainObject(note) || typeof note.body !== 'string' || !isPlainObject(result)) return;
        judged.push({ i, body: note.body, createdAt: str(note.created_at), result });
      });
      const created = (r: Record<string, unknown>) => r.status === 'NOTE_CREATION_SUCCESS';
      for (const { i, body: noteBody, createdAt, result } of judged) {
        // A note on the account before this request: this one must not be created again.
        const known = digest(noteBody);
        const same = account.notes.find(
          (n) => n.seq !== seq && sameNote({ body: known, createdAt: optionalDigest(createdAt) }, n),
        );
        if (same) {
          this.exercised.add('notesDedup');
          if (created(result))
            this.find(
              'notesDedup',
              `note ${i} has the body${createdAt ? ' and created_at' : ''} of a note already on the account (exchange ${same.seq}) and was created again`,
              [same.seq, seq],
              id,
            );
        } else {
          // The same note twice in this request: whichever order the server took them in, one at most is created.
          const twins = judged.filter((t) => t.body === noteBody && t.createdAt === createdAt);
          if (twins.length > 1 && twins[0].i === i) {
            this.exercised.add('notesDedup');
            if (twins.filter((t) => created(t.result)).length > 1)
              this.find(
                'notesDedup',
                `notes ${twins.map((t) => t.i).join(' and ')} of one request have the same body${createdAt ? ' and created_at' : ''} and were each created`,
                [seq],
                id,
              );
          }
        }
        if (created(result) || result.status === 'NOTE_ALREADY_EXISTS')
          account.notes.push({ body: known, createdAt: optionalDigest(createdAt ?? str(result.created_at)), seq });
      }
    } else if (id === 'accountTransferStatus' && status === 200 && isPlainObject(answer)) {
      const account = this.account(params.import_supplier_code, params.external_account_number);
      if (!account) return;
      if (answer.status === 'COMPLETED') account.completedSeenAt ??= seq;
      else if (account.completedSeenAt !== undefined) {
        this.exercised.add('statusBackwards');
        this.find(
          'statusBackwards',
          `the status was COMPLETED at exchange ${account.completedSeenAt}, then ${String(answer.status)}`,
          [account.completedSeenAt, seq],
          id,
        );
      } else return;
      if (answer.status === 'COMPLETED') this.exercised.add('statusBackwards');
    }
  }
}
