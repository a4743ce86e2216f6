/**
 * The run's history: every exchange of the run (every rule's, the setup chain's, concurrent ones
 * included) is read as it completes for what it says about an account or a business, and the facts
 * are kept — not the bodies — so that statements no single rule can judge are judged over the whole
 * run at its end, as Jepsen's and Elle's checkers judge a recorded history. A contradiction names the
 * two exchanges that disagree; the `history.*` rules (suites/history.ts) report them.
 *
 * Concurrency: two exchanges are ordered only when one was sent after the other's answer arrived
 * (its start after the other's end); what overlapping exchanges show is never held against each
 * other where the order matters. Values that must never change (an account's number, its creation
 * time) are compared whatever the order: a read made before the write finished shows none (null or
 * empty), and only shown values are compared.
 *
 * Memory is bounded: per account and business a few facts; of the exchanges, only the first to show
 * each fact is kept (trimmed: bodies cut, headers as recorded), up to MAX_WITNESSES, and contradictions
 * up to MAX_CONTRADICTIONS per invariant; what is dropped is counted.
 */
import { detached } from '../http/bounds.js';
import type { Exchange } from '../http/exchange.js';
import type { SharedBody } from '../http/client.js';
import { route } from '../spec/route.js';

/** The statements judged over the history, one `history.*` rule each. */
export const HISTORY_INVARIANTS = [
  'ids-unique',
  'business-ids-unique',
  'number-stable',
  'created-at-stable',
  'state-agrees',
  'refused-leaves-nothing',
] as const;
export type HistoryInvariant = (typeof HISTORY_INVARIANTS)[number];

/** Two exchanges that cannot both be right: the first to show a fact, and the one contradicting it. */
export interface Contradiction {
  invariant: HistoryInvariant;
  /** What disagrees, in the spec's words, with the values each exchange showed. */
  message: string;
  /** The exchanges, as kept (trimmed); undefined when the cap on kept exchanges dropped it. */
  first?: Exchange;
  contradicting?: Exchange;
}

export interface HistoryStats {
  exchanges: number;
  observations: number;
  accounts: number;
  businesses: number;
  /** Account numbers shown, and accounts whose account_created_at a listing showed: what the invariants on them compare. */
  numbers: number;
  createdAts: number;
  /** Exchanges kept to show in a contradiction, and those the cap dropped. */
  kept: number;
  droppedExchanges: number;
  droppedContradictions: number;
}

/** Exchanges kept to cite (the first to show each fact); later ones are counted, not kept. */
export const MAX_WITNESSES = 10_000;
/** Contradictions kept per invariant (one is enough to fail its rule; a few show the pattern). */
export const MAX_CONTRADICTIONS = 20;
/** Characters of each body a kept exchange keeps. */
const WITNESS_BODY = 512;

/** One observation's time and the exchange that made it (the client's sequence number). */
interface Seen {
  seq: number;
  start: number;
  end: number;
}

interface Valued<T> extends Seen {
  value: T;
}

/** What the run has seen of one account (supplier code and external account number). */
interface AccountFacts {
  number?: Valued<string>;
  /** Whole seconds: spellings (fractions, offsets) of one instant are one value. */
  createdAt?: Valued<number> & { text: string };
  /** The earliest-ending observation that the account exists (an import process), and that it was created. */
  exists?: Seen;
  created?: Seen & { how: string };
  stagedOk?: boolean;
  stageUnknown?: boolean;
  stageRefused?: Seen & { status: number };
  processOk?: boolean;
  processUnknown?: boolean;
  processRefused?: Seen & { status: number };
  /** The first observation of the account by a read (status 200, a listing record), and of it created. */
  appeared?: Seen & { how: string };
  appearedCreated?: Seen & { how: string };
}

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const text = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);
const shown = (x: unknown): string | undefined => (typeof x === 'string' && x !== '' ? x : undefined);

function parse(body: string | undefined): unknown {
  if (body === undefined || body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The records of a listing: an array, or (a server's choice for a body not shown) a page's `results`. */
function recordsOf(body: unknown): Json[] {
  const list = Array.isArray(body) ? body : isObject(body) && Array.isArray(body.results) ? body.results : [];
  return list.filter((r): r is Json => isObject(r) && typeof r.external_account_number === 'string');
}

/** The instant of a datetime, to the second, or undefined when it is not one. */
function secondOf(value: string): number | undefined {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** A trimmed copy: what a report shows of an exchange, no more. */
function witness(x: Exchange): Exchange {
  const cut = (body: string | undefined) =>
    body === undefined
      ? {}
      : body.length > WITNESS_BODY
        ? { body: `${detached(body.slice(0, WITNESS_BODY))}…`, body_truncated: true }
        : { body };
  return {
    seq: x.seq,
    ...(x.step ? { step: x.step } : {}),
    request: { method: x.request.method, url: x.request.url, headers: x.request.headers, ...cut(x.request.body) },
    ...(x.response
      ? { response: { status: x.response.status, headers: {}, bytes: x.response.bytes, ...cut(x.response.body) } }
      : {}),
    ...(x.error ? { error: x.error } : {}),
    duration_ms: x.duration_ms,
  };
}

const describe = (x: { seq: number }, exchanges: Map<number, Exchange>) => {
  const e = exchanges.get(x.seq);
  return e ? `${e.request.method} ${e.request.url} (${e.response?.status ?? e.error?.kind})` : `exchange #${x.seq}`;
};

export interface HistoryOptions {
  /** Whether an external account number is one the run made (its namespace): only those are judged for refusals. */
  ours?: (externalAccountNumber: string) => boolean;
  maxWitnesses?: number;
}

/**
 * What an answer of an endpoint tells the history: that an account was staged or refused staging,
 * processed or refused, what a status read or a listing shows, which service_business_id a business
 * got — or nothing. Each endpoint's driver states it (core/engine/drivers.ts `history`); the history
 * reads the tells by endpoint, never an endpoint by name.
 */
export type HistoryTell =
  | 'staging'
  | 'processing'
  | 'status'
  | { listing: 'all' | 'pending' | 'imported' }
  | 'business'
  | 'nothing';

export class RunHistory {
  /** Supplier code → external account number → what the run has seen of that account. */
  private readonly accounts = new Map<string, Map<string, AccountFacts>>();
  private accountCount = 0;
  /** service_account_number → the account (key) that first showed it. */
  private readonly numbers = new Map<string, Valued<string> & { facts: AccountFacts }>();
  /** service_business_id → the external business identifier that first showed it. */
  private readonly businesses = new Map<string, Valued<string>>();
  private readonly kept = new Map<number, Exchange>();
  private readonly found = new Map<HistoryInvariant, Contradiction[]>();
  private readonly counts = {
    exchanges: 0,
    observations: 0,
    createdAts: 0,
    droppedExchanges: 0,
    droppedContradictions: 0,
  };
  private readonly ours: (ext: string) => boolean;
  private readonly maxWitnesses: number;
  private readonly tells: Readonly<Record<string, HistoryTell>>;
  /** The exchange being read, kept only if a fact it shows is the first of its kind. */
  private current?: Exchange;
  /** Its response body parsed once with the rule that reads it, when the client shares it. */
  private response?: SharedBody;
  /** Its request body's top-level text fields as sent, when the client gives them. */
  private requestFields?: Readonly<Record<string, string>>;
  private lastDropped?: number;

  /** `tells`: what each endpoint's answer tells, by endpoint id (the drivers' `historyTells()`). */
  constructor(tells: Readonly<Record<string, HistoryTell>>, options: HistoryOptions = {}) {
    this.ours = options.ours ?? (() => true);
    this.maxWitnesses = options.maxWitnesses ?? MAX_WITNESSES;
    this.tells = tells;
  }

  get stats(): HistoryStats {
    return {
      ...this.counts,
      accounts: this.accountCount,
      businesses: this.businesses.size,
      numbers: this.numbers.size,
      createdAts: this.counts.createdAts,
      kept: this.kept.size,
    };
  }

  /** The contradictions found for one invariant, refusals judged over the whole history as it stands. */
  contradictions(invariant: HistoryInvariant): readonly Contradiction[] {
    if (invariant === 'refused-leaves-nothing') return this.refusals();
    return this.found.get(invariant) ?? [];
  }

  /**
   * Reads one completed exchange: `startedAt` when it was sent, `endedAt` when its answer (or the
   * failure to get one) arrived. Never throws: an answer it cannot read shows nothing.
   */
  observe(
    exchange: Exchange,
    startedAt: Date,
    endedAt = Date.now(),
    response?: SharedBody,
    /** The request body's top-level text fields as sent, when its recorded text is what was sent. */
    requestFields?: Readonly<Record<string, string>>,
  ): void {
    this.counts.exchanges++;
    const at = exchange.request.url.indexOf('/v1/');
    if (at < 0) return;
    const routed = route(exchange.request.method, exchange.request.url.slice(at));
    if (!routed) return;
    const seen: Seen = { seq: exchange.seq, start: startedAt.getTime(), end: endedAt };
    this.current = exchange;
    this.response = response;
    this.requestFields = requestFields;
    try {
      this.read(this.tells[routed.endpoint.id] ?? 'nothing', routed.params, exchange, seen);
    } finally {
      this.current = undefined;
      this.response = undefined;
      this.requestFields = undefined;
    }
  }

  /**
   * The exchange's request body as JSON, or undefined. Only its top-level text fields are read
   * here, so those given as it was sent stand for it (a stage body is parsed once, by the server).
   */
  private requestJson(x: Exchange): unknown {
    return this.requestFields ?? parse(x.request.body);
  }

  /** The exchange's response body as JSON, or undefined: the rule's own parse when shared. */
  private responseJson(x: Exchange): unknown {
    if (!this.response) return parse(x.response?.body);
    const parsed = this.response.peek();
    return 'value' in parsed ? parsed.value : undefined;
  }

  private read(tell: HistoryTell, params: Record<string, string>, x: Exchange, seen: Seen): void {
    const status = x.response?.status;
    // No answer, a 5xx, or a 429 (§4.1 rule 4: "the request is retried"): what the request did is unknown.
    const unknown = status === undefined || status >= 500 || status === 429;
    const refused = status !== undefined && status >= 400 && status < 500 && status !== 429;
    if (typeof tell === 'object') {
      this.listing(tell.listing, status, params, x, seen);
      return;
    }
    switch (tell) {
      case 'staging': {
        const req = this.requestJson(x);
        if (!isObject(req)) return;
        const facts = this.account(text(req.import_supplier), text(req.external_account_number));
        if (!facts) return;
        if (status === 200 || status === 201) {
          facts.stagedOk = true;
          this.exists(facts, seen, 'staged');
        } else if (unknown) facts.stageUnknown = true;
        else if (refused && !facts.stageRefused) facts.stageRefused = this.keep({ ...seen, status: status! });
        return;
      }
      case 'processing': {
        const req = this.requestJson(x);
        if (!isObject(req)) return;
        const supplier = text(req.import_supplier_code);
        const ext = text(req.external_account_number);
        const facts = this.account(supplier, ext);
        if (!facts) return;
        const res = this.responseJson(x);
        if (status === 201) {
          facts.processOk = true;
          const number = isObject(res) ? shown(res.service_account_number) : undefined;
          if (number) this.created(supplier!, ext!, facts, seen, number, 'the process 201');
        } else if (unknown) facts.processUnknown = true;
        else if (status === 400 && isObject(res) && shown(res.service_account_number)) {
          // §4.1 process rule 3: the already-imported 400 names the account's number.
          this.created(supplier!, ext!, facts, seen, shown(res.service_account_number)!, 'the already-imported 400');
        } else if (refused && !facts.processRefused) facts.processRefused = this.keep({ ...seen, status: status! });
        return;
      }
      case 'status': {
        const supplier = params.import_supplier_code;
        const ext = params.external_account_number;
        const facts = this.account(supplier, ext);
        if (!facts) return;
        if (status === 404) {
          this.absent(facts, seen, 'the status endpoint answers 404 (no import process)');
          return;
        }
        const res = this.responseJson(x);
        if (status !== 200 || !isObject(res)) return;
        this.appeared(facts, seen, `status ${String(res.status)}`);
        const number = shown(res.service_account_number);
        if (res.status === 'COMPLETED' && number) this.created(supplier, ext, facts, seen, number, 'status COMPLETED');
        else if (res.status === 'UNKNOWN') this.absent(facts, seen, 'status UNKNOWN (no account exists)');
        return;
      }
      case 'business': {
        const res = this.responseJson(x);
        const req = this.requestJson(x);
        if (!isObject(res) || !isObject(req) || status === undefined || status >= 500) return;
        const id = res.service_business_id;
        const external = text(res.external_business_identifier) ?? text(req.external_business_identifier);
        if ((typeof id !== 'number' && typeof id !== 'string') || !external) return;
        this.counts.observations++;
        const first = this.businesses.get(String(id));
        if (!first) this.businesses.set(String(id), this.keep({ ...seen, value: external }));
        else if (first.value !== external)
          this.contradict(
            'business-ids-unique',
            `service_business_id ${String(id)} was given to business ${JSON.stringify(first.value)} and to business ${JSON.stringify(external)}`,
            first,
            seen,
          );
        return;
      }
    }
  }

  /** A listing's records (§4.3): which accounts exist, which are created, and when. */
  private listing(
    which: 'all' | 'pending' | 'imported',
    status: number | undefined,
    params: Record<string, string>,
    x: Exchange,
    seen: Seen,
  ): void {
    if (status !== 200) return;
    const supplier = params.import_supplier_code;
    for (const record of recordsOf(this.responseJson(x))) {
      const ext = record.external_account_number as string;
      const facts = this.account(supplier, ext);
      if (!facts) continue;
      this.appeared(facts, seen, `the ${which} listing`);
      const number = shown(record.service_account_number);
      if (which === 'pending') this.absent(facts, seen, 'listed as pending');
      else if (number) {
        this.created(supplier, ext, facts, seen, number, `the ${which} listing`);
        const createdAt = text(record.account_created_at);
        if (createdAt) this.createdAt(facts, seen, createdAt, `the ${which} listing`);
      } else if (which === 'all') this.absent(facts, seen, 'listed with a null service_account_number');
    }
  }

  private account(supplier: string | undefined, ext: string | undefined): AccountFacts | undefined {
    if (!supplier || !ext) return undefined;
    // By supplier, then number: a listing of hundreds of records looks each up without making a key.
    let ofSupplier = this.accounts.get(supplier);
    if (!ofSupplier) this.accounts.set(supplier, (ofSupplier = new Map()));
    let facts = ofSupplier.get(ext);
    if (!facts) {
      facts = {};
      ofSupplier.set(ext, facts);
      this.accountCount++;
    }
    this.counts.observations++;
    return facts;
  }

  /** Keeps the exchange being read as the witness of a first fact (within the cap). */
  private keep<T extends Seen>(seen: T): T {
    if (this.current && !this.kept.has(seen.seq)) {
      if (this.kept.size < this.maxWitnesses) this.kept.set(seen.seq, witness(this.current));
      else if (this.lastDropped !== seen.seq) {
        this.lastDropped = seen.seq;
        this.counts.droppedExchanges++;
      }
    }
    return seen;
  }

  private contradict(invariant: HistoryInvariant, message: string, first: Seen, then: Seen): void {
    const list = this.found.get(invariant) ?? [];
    this.found.set(invariant, list);
    if (list.length >= MAX_CONTRADICTIONS) {
      this.counts.droppedContradictions++;
      return;
    }
    this.keep(then);
    list.push({ invariant, message, first: this.kept.get(first.seq), contradicting: this.kept.get(then.seq) });
  }

  private exists(facts: AccountFacts, seen: Seen, _how: string): void {
    if (!facts.exists || seen.end < facts.exists.end) facts.exists = this.keep({ ...seen });
  }

  private appeared(facts: AccountFacts, seen: Seen, how: string): void {
    this.exists(facts, seen, how);
    facts.appeared ??= this.keep({ ...seen, how });
  }

  /** The account was shown created, with its number: the number must be its only one, and its alone. */
  private created(supplier: string, ext: string, facts: AccountFacts, seen: Seen, number: string, how: string): void {
    this.exists(facts, seen, how);
    if (!facts.created || seen.end < facts.created.end) facts.created = this.keep({ ...seen, how });
    if (how !== 'the process 201') facts.appearedCreated ??= this.keep({ ...seen, how });
    // Read for every record of every listing: the account's words are made only for a message.
    const account = () => `${ext} of supplier ${supplier}`;
    if (!facts.number) facts.number = this.keep({ ...seen, value: number });
    else if (facts.number.value !== number)
      this.contradict(
        'number-stable',
        `account ${account()} was shown with service_account_number ${JSON.stringify(facts.number.value)} by ${describe(facts.number, this.kept)}, then with ${JSON.stringify(number)} by ${how}`,
        facts.number,
        seen,
      );
    const owner = this.numbers.get(number);
    if (!owner) this.numbers.set(number, { ...this.keep({ ...seen, value: account() }), facts });
    else if (owner.facts !== facts)
      this.contradict(
        'ids-unique',
        `service_account_number ${JSON.stringify(number)} was shown for account ${owner.value} and for account ${account()} (${how})`,
        owner,
        seen,
      );
  }

  private createdAt(facts: AccountFacts, seen: Seen, value: string, how: string): void {
    // Every listing repeats every account's time: the same text is the same instant.
    if (facts.createdAt?.text === value) return;
    const second = secondOf(value);
    if (second === undefined) return;
    if (!facts.createdAt) {
      this.counts.createdAts++;
      facts.createdAt = this.keep({ ...seen, value: second, text: value });
    } else if (facts.createdAt.value !== second)
      this.contradict(
        'created-at-stable',
        `account_created_at was ${JSON.stringify(facts.createdAt.text)} (${describe(facts.createdAt, this.kept)}), then ${JSON.stringify(value)} (${how}): an account is created once`,
        facts.createdAt,
        seen,
      );
  }

  /**
   * A read shows the account not created (or no import process at all): a contradiction when it was
   * sent after an answer showing it created (or, for "no import process", existing) had arrived.
   */
  private absent(facts: AccountFacts, seen: Seen, how: string): void {
    const noProcess = how.includes('404');
    const before = noProcess ? facts.exists : facts.created;
    if (before && seen.start > before.end)
      this.contradict(
        'state-agrees',
        `${describe(before, this.kept)} showed the account ${noProcess ? 'existing' : 'created'}; a read sent after that answer arrived says otherwise: ${how}`,
        before,
        seen,
      );
  }

  private *everyAccount(): Generator<[supplier: string, ext: string, facts: AccountFacts]> {
    for (const [supplier, accounts] of this.accounts) for (const [ext, facts] of accounts) yield [supplier, ext, facts];
  }

  /** Accounts of the run every stage (or process) of which was refused, and that a read showed all the same. */
  private refusals(): Contradiction[] {
    const out: Contradiction[] = [];
    for (const [supplier, ext, facts] of this.everyAccount()) {
      if (!this.ours(ext)) continue;
      const account = `${ext} of supplier ${supplier}`;
      if (facts.stageRefused && !facts.stagedOk && !facts.stageUnknown && facts.appeared)
        out.push({
          invariant: 'refused-leaves-nothing',
          message: `every staging of account ${account} was refused (${facts.stageRefused.status}), yet ${facts.appeared.how} showed it`,
          first: this.kept.get(facts.stageRefused.seq),
          contradicting: this.kept.get(facts.appeared.seq),
        });
      else if (facts.processRefused && !facts.processOk && !facts.processUnknown && facts.appearedCreated)
        out.push({
          invariant: 'refused-leaves-nothing',
          message: `every process request for account ${account} was refused (${facts.processRefused.status}), yet ${facts.appearedCreated.how} showed it created`,
          first: this.kept.get(facts.processRefused.seq),
          contradicting: this.kept.get(facts.appearedCreated.seq),
        });
      if (out.length >= MAX_CONTRADICTIONS) break;
    }
    return out;
  }
}
