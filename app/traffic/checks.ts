/**
 * Judges observed traffic (exchanges a client and a server made without us) with the rules' own
 * functions: each exchange alone (exchange-checks.ts), and the §3 table and §4.2 dedup over the
 * session, per account — what is kept here. Only what the exchanges prove is a finding: an account's
 * history before the traffic is unknown, so a state rule fires only on a state the traffic itself
 * established. A request a run sent with a defect on purpose (its HAR entry says so) is judged
 * against the server only.
 */
import { createHash } from 'node:crypto';
import { jsonBody } from '../../core/engine/judgements.js';
import { capText } from '../../core/http/bounds.js';
import type { EndpointId } from '../../core/spec/index.js';
import { dedupCases, pairNoteResults, type SentNote } from '../../core/spec/notes.js';
import { isPlainObject } from '../../core/spec/paths.js';
import { processRefused, stageAnswer, statusMayFollow } from '../../core/spec/transitions.js';
import type { CheckName } from './check-list.js';
import { judgeAnswer, judgeRequest } from './exchange-checks.js';
import type { TimedExchange } from './har.js';
import { route } from './route.js';

export { type CheckName, type Side, TRAFFIC_CHECKS, type TrafficCheck } from './check-list.js';

export interface Finding {
  check: CheckName;
  message: string;
  /** The exchanges that prove it (their `seq`), the last one the one judged. */
  exchanges: number[];
  endpoint?: EndpointId;
}

/**
 * When an exchange was sent and when its answer came (epoch ms; undefined when the traffic does not
 * say). Exchanges that overlap in time may have been taken by the server in either order: a state
 * rule holds one answer against another only when the other's answer came before this request was
 * sent, or when no order would make the two right (an account created twice, a note created twice).
 */
type Span = { start?: number; end?: number };
/** An exchange that established a fact, and when its answer came. */
type Seen = { seq: number; end?: number };
/** Notes are kept as digests of their body and created_at: a session keeps its notes, not their text. */
type KnownNote = { body: string; createdAt?: string; seq: number; end?: number; created: boolean };
type AccountState = {
  /** The first staging answered with a success, the staging answered 201 (the account's creation), the import. */
  staged?: Seen;
  created?: number;
  imported?: Seen;
  completedSeenAt?: Seen;
  notes: KnownNote[];
};

const spanOf = (e: TimedExchange): Span => {
  const start = e.startedAt?.getTime();
  return start === undefined || Number.isNaN(start) ? {} : { start, end: start + e.duration_ms };
};
/** Whether `earlier`'s answer came before the request of `span` was sent (ms clocks: a tie is an overlap). */
const answeredBefore = (earlier: Seen | undefined, span: Span): earlier is Seen =>
  earlier?.end !== undefined && span.start !== undefined && earlier.end < span.start;
/** The fact that came first: the one whose answer came earlier, when both say when. */
const firstOf = (known: Seen | undefined, now: Seen): Seen =>
  known === undefined || (now.end !== undefined && known.end !== undefined && now.end < known.end) ? now : known;
/** A check judged on the exchange at hand: a finding when `problem` says what broke it. */
type Find = (check: CheckName, problem: string | false | undefined, exchanges?: number[]) => void;
/** A request body with the path parameters (`b`), and an answer. */
type Body = Record<string, unknown>;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const digest = (text: string): string => createHash('sha256').update(text).digest('base64');
const digestOf = (text: string | undefined) => (text === undefined ? undefined : digest(text));
const objects = (v: unknown) => (Array.isArray(v) ? v.map((x) => (isPlainObject(x) ? x : {})) : undefined);

/** Judges exchanges one at a time, in the order they completed. */
export class TrafficJudge {
  readonly findings: Finding[] = [];
  /** Which checks had something to judge, per endpoint: a check never exercised is reported as such. */
  readonly judged = new Map<EndpointId, Set<CheckName>>();
  get exercised(): ReadonlySet<CheckName> {
    return new Set([...this.judged.values()].flatMap((checks) => [...checks]));
  }
  /** Requests a run sent with a defect on purpose (`_conformance.deliberate`): judged against the server only. */
  deliberate = 0;
  private readonly accounts = new Map<string, AccountState>();

  private account(supplier: unknown, ext: unknown): AccountState | undefined {
    if (!str(supplier) || !str(ext)) return undefined;
    const key = digest(JSON.stringify([supplier, ext]));
    if (!this.accounts.has(key)) this.accounts.set(key, { notes: [] });
    return this.accounts.get(key);
  }

  /** Judges one exchange; returns the findings it adds. */
  observe(exchange: TimedExchange): Finding[] {
    const before = this.findings.length;
    const { request, response, seq } = exchange;
    const routed = route(request.method, request.url);
    if (!routed) return [];
    const { endpoint, params } = routed;
    const find: Find = (check, problem, exchanges = [seq]) => {
      this.judged.set(endpoint.id, (this.judged.get(endpoint.id) ?? new Set()).add(check));
      if (!problem) return;
      // A message quotes the traffic: cut, and copied when cut (V8 keeps a long string alive behind a slice).
      const cut = capText(problem);
      const message = cut === problem ? problem : JSON.parse(JSON.stringify(cut));
      this.findings.push({ check, message, exchanges, endpoint: endpoint.id });
    };
    const deliberate = exchange.sentBy?.deliberate !== undefined;
    if (deliberate) this.deliberate++;
    const sent = endpoint.method === 'POST' ? jsonBody(request.body) : undefined;
    const client = deliberate ? [] : judgeRequest(endpoint, exchange, sent);
    // A request with a defect (the client's, or a run's on purpose) provokes its refusal.
    const provoked = deliberate || client.some((j) => j.problem);
    const read = response && jsonBody(response.body);
    const server = response && read ? judgeAnswer(endpoint, response.status, read, provoked) : [];
    for (const { check, problem } of [...client, ...server]) find(check, problem);
    // Only a complete answer says anything of the server; a refused request with a defect is no step of §3.
    const b = sent ? sent.json : {};
    if (response && read && !(provoked && response.status >= 400) && isPlainObject(b))
      this.judgeState(endpoint.id, { ...b, ...params }, response.status, read.json, seq, spanOf(exchange), find);
    return this.findings.slice(before);
  }

  /** The §3 table and §4.2 notes rule 2 over the exchanges seen so far, per account. */
  private judgeState(id: EndpointId, b: Body, status: number, answer: unknown, seq: number, span: Span, find: Find) {
    if (id === 'stageAccount' || id === 'processAccount') {
      const staging = id === 'stageAccount';
      const account = this.account(staging ? b.import_supplier : b.import_supplier_code, b.external_account_number);
      if (!account) return;
      const now: Seen = { seq, end: span.end };
      const { imported: was, staged } = account;
      const said = `${staging ? 'staging' : 'processing'} an account imported at exchange ${was?.seq} answered ${status}`;
      // What the traffic saw of the account before this request was sent ('none' also for an account
      // it never saw: no row refuses that). A staging sent while the import was under way may have
      // been taken before it.
      const importedBefore = answeredBefore(was, span);
      const phase = importedBefore ? 'imported' : answeredBefore(staged, span) ? 'staged' : 'none';
      // §3 imported row: staging and processing it are refused with 400.
      if (importedBefore && (staging ? stageAnswer(phase) === 400 : processRefused(phase)))
        return find('afterImport', status !== 400 && said, [was.seq, seq]);
      // Imported by two requests: in whichever order they were taken, the second was not refused.
      if (!staging && was !== undefined && status === 201 && b.dry_run !== true)
        return find('afterImport', `${said}: the account was imported twice`, [was.seq, seq]);
      // §3 staged row: staging again replaces the data (200); it is no new account (201). A 201 after
      // a staging answered before it was sent, or a second 201 at any time (no order makes both right).
      if (staging && staged !== undefined) {
        const earlier = account.created ?? (answeredBefore(staged, span) ? staged.seq : undefined);
        const again = `staging an account already staged at exchange ${earlier} answered 201 again`;
        find('secondStaging', status === stageAnswer('none') && earlier !== undefined && again, [
          earlier ?? staged.seq,
          seq,
        ]);
      }
      if (staging && status === stageAnswer('none')) account.created ??= seq;
      if (staging && (status === 200 || status === 201)) account.staged = firstOf(staged, now);
      if (!staging && status === 201 && b.dry_run !== true) account.imported = firstOf(was, now);
    } else if (id === 'createNotes' && status === 201) {
      const account = this.account(b.import_supplier, b.external_account_number);
      const [notes, results] = [objects(b.notes), objects(answer)];
      if (account && notes && results) this.judgeNotes(account, notes, results, seq, span, find);
    } else if (id === 'accountTransferStatus' && status === 200 && isPlainObject(answer)) {
      const account = this.account(b.import_supplier_code, b.external_account_number);
      const [seen, now] = [account?.completedSeenAt, String(answer.status)];
      // Only a COMPLETED answered before this read was sent binds it: a read sent earlier may have been answered first.
      const bound = answeredBefore(seen, span);
      const back = bound && !statusMayFollow('COMPLETED', now);
      const said = `the status was COMPLETED at exchange ${seen?.seq}, then ${now}`;
      if (account && (bound || now === 'COMPLETED')) find('statusBackwards', back && said, [seen?.seq ?? seq, seq]);
      if (account && now === 'COMPLETED') account.completedSeenAt = firstOf(seen, { seq, end: span.end });
    }
  }

  /** Each note paired with its result by body (the rules' pairing): a note no result names is not judged. */
  private judgeNotes(account: AccountState, notes: Body[], results: Body[], seq: number, span: Span, find: Find) {
    const pairs = pairNoteResults(notes, results);
    const sent = notes.flatMap((note, i): (SentNote & { result: Body })[] => {
      const result = results[pairs[i] ?? -1];
      if (typeof note.body !== 'string' || !result) return [];
      const created = result.status === 'NOTE_CREATION_SUCCESS';
      return [{ i, body: digest(note.body), createdAt: digestOf(str(note.created_at)), created, result }];
    });
    // On the account before this request: a note answered before it was sent, or one created at any
    // time (a note created by two requests is created twice, in whichever order they were taken).
    const earlierNotes = account.notes.filter((n) => n.seq !== seq && (n.created || answeredBefore(n, span)));
    for (const { notes: same, earlier, broken } of dedupCases(earlierNotes, sent)) {
      const body = `the body${same[0].createdAt ? ' and created_at' : ''}`;
      const again = `note ${same[0].i} has ${body} of a note already on the account (exchange ${earlier?.seq}) and was created again`;
      const twice = `notes ${same.map((t) => t.i).join(' and ')} of one request have the same ${body.slice(4)} and were each created`;
      find('notesDedup', broken && (earlier ? again : twice), earlier ? [earlier.seq, seq] : [seq]);
    }
    for (const { body, createdAt, created, result } of sent)
      if (created || result.status === 'NOTE_ALREADY_EXISTS')
        account.notes.push({
          body,
          createdAt: createdAt ?? digestOf(str(result.created_at)),
          seq,
          end: span.end,
          created,
        });
  }
}
