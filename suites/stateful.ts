/**
 * Model-based testing of §3 (docs/design.md §7): fast-check generates sequences of commands — validate,
 * stage (valid or not), process (for real, as a dry run, with an unknown team), status, the
 * listings, notes and transactions — on fresh accounts (SLOTS of them per sequence), and after every
 * command the real responses must match a model of the state table: status codes, statuses, account
 * numbers, listing membership, note and transaction dedup. Each sequence stands on accounts of its own, so
 * `--concurrency` sequences run at once (core/engine/property.ts): against a slow target the rule
 * takes as long as its longest sequences, not their sum; shrinking a failure stays sequential.
 */
import fc from 'fast-check';
import type { RuleContext } from '../core/engine/context.js';
import { defineRules } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import { type AccountPayload, model } from '../core/spec/index.js';
import { noteOnAccount } from '../core/spec/notes.js';
import { type AccountPhase, processRefused, stageAnswer, statusOf } from '../core/spec/transitions.js';
import { checkProperty } from '../core/engine/property.js';
import { type Listing, accountKey, readListing, recordsFor, status, today } from './support.js';

interface Slot {
  phase: AccountPhase;
  number?: string;
  notes: { body: string; createdAt?: string }[];
  transactions: Set<string>;
}

interface Model {
  slots: Slot[];
}

interface Real {
  ctx: RuleContext;
  accounts: AccountPayload[];
  noteBodies: string[];
  transactionIds: string[];
}

type Command = fc.AsyncCommand<Model, Real, false>;

/** Two accounts: enough for one to be observed while the other changes, few enough for sequences to meet. */
const SLOTS = 2;
const isClientError = (status: number) => status >= 400 && status < 500;

class Validate implements Command {
  constructor(
    readonly slot: number,
    readonly valid: boolean,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const phase = m.slots[this.slot].phase;
    const res = await r.ctx.api.call('validateAccount', {
      body: payload(r, this.slot, this.valid),
      step: this.toString(),
    });
    // §7.2: a validation error is a 400 on any endpoint. What validate answers for a valid payload of
    // an account already imported is not stated (§3 lists stage and process only): not judged.
    if (!this.valid) r.ctx.expect.validationError(res, this.toString());
    else if (phase !== 'imported') r.ctx.expect.status(res, 200, `${this.toString()} in state ${phase}`);
  }
  toString = () => `validate(${this.slot}, ${this.valid ? 'valid' : 'invalid'})`;
}

class Stage implements Command {
  constructor(
    readonly slot: number,
    readonly valid: boolean,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const s = m.slots[this.slot];
    const res = await r.ctx.api.call('stageAccount', {
      body: payload(r, this.slot, this.valid),
      step: this.toString(),
    });
    // §3: none → staged (201), staged → staged (200), imported → 400; an invalid payload is 400 anywhere.
    const expected = stageAnswer(s.phase, this.valid);
    r.ctx.expect.status(res, expected, `${this.toString()} in state ${s.phase}`);
    if (expected === 201) s.phase = 'staged';
  }
  toString = () => `stage(${this.slot}, ${this.valid ? 'valid' : 'invalid'})`;
}

class Process implements Command {
  constructor(
    readonly slot: number,
    readonly mode: 'real' | 'dry-run' | 'unknown-team',
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const s = m.slots[this.slot];
    const { import_supplier, external_account_number } = r.accounts[this.slot];
    const extra =
      this.mode === 'dry-run'
        ? { dry_run: true }
        : this.mode === 'unknown-team'
          ? { operations_team_name: `Nobody ${r.ctx.ids.namespace}` }
          : {};
    const res = await r.ctx.given.process(import_supplier, external_account_number, extra, this.toString());
    const where = `${this.toString()} in state ${s.phase}`;
    if (s.phase === 'staged' && this.mode === 'real') {
      r.ctx.expect.status(res, 201, where);
      s.phase = 'imported';
      s.number = r.ctx.expect.body(res, model.ProcessAccountResponse, 'process response').service_account_number;
    } else if (processRefused(s.phase) && this.mode !== 'unknown-team') {
      // §3 imported row and §4.1 rule 3: 400 with both numbers.
      r.ctx.expect.status(res, 400, where);
      const body = r.ctx.expect.body(res, model.AlreadyImportedBody, 'already imported');
      r.ctx.expect.equal(
        [body.external_account_number, body.service_account_number],
        [external_account_number, s.number],
        `${where}: the numbers of the imported account`,
        res,
      );
    } else if (s.phase === 'staged' && this.mode === 'dry-run') {
      r.ctx.expect.status(res, 400, where); // §4.1 rule 2
    } else {
      r.ctx.expect.that(isClientError(res.status), `${where} must be refused with a 4xx, got ${res.status}`, {
        res,
        expected: '4xx',
        actual: res.status,
      });
    }
  }
  toString = () => `process(${this.slot}, ${this.mode})`;
}

class Status implements Command {
  constructor(readonly slot: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const s = m.slots[this.slot];
    const { import_supplier, external_account_number } = r.accounts[this.slot];
    const res = await status(r.ctx, import_supplier, external_account_number, this.toString());
    if (s.phase === 'none') return r.ctx.expect.status(res, 404, `${this.toString()}: no import process`);
    r.ctx.expect.status(res, 200, this.toString());
    const body = r.ctx.expect.body(res, model.AccountTransferStatus, 'status');
    const expected = [statusOf(s.phase), s.phase === 'imported' ? s.number : ''];
    r.ctx.expect.equal(
      [body.status, body.service_account_number],
      expected,
      `${this.toString()} in state ${s.phase}`,
      res,
    );
  }
  toString = () => `status(${this.slot})`;
}

class List implements Command {
  constructor(readonly which: Exclude<Listing, 'imported'>) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const read = await readListing(r.ctx, this.which, r.accounts[0].import_supplier, this.toString());
    const res = read.first;
    r.ctx.expect.status(res, 200, this.toString());
    m.slots.forEach((s, i) => {
      const records = recordsFor(read.items, r.accounts[i].external_account_number);
      const shown = this.which === 'pending' ? s.phase === 'staged' : s.phase !== 'none';
      r.ctx.expect.equal(
        records.length,
        shown ? 1 : 0,
        `${this.toString()}: account ${i} (${s.phase}) is listed ${shown ? 'once' : 'not at all'}`,
        res,
      );
      if (!shown) return;
      const number = s.phase === 'imported' ? s.number : null;
      r.ctx.expect.equal(
        records[0].service_account_number,
        number,
        `${this.toString()}: service_account_number of account ${i} (${s.phase})`,
        res,
      );
      r.ctx.expect.that(
        (records[0].account_created_at === null) === (number === null),
        `${this.toString()}: account_created_at of account ${i} is null exactly while it is pending`,
        { res, actual: records[0] },
      );
    });
  }
  toString = () => `list(${this.which})`;
}

class AddNote implements Command {
  constructor(
    readonly slot: number,
    readonly body: number,
    readonly createdAt?: string,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const s = m.slots[this.slot];
    const { import_supplier, external_account_number } = r.accounts[this.slot];
    const note = { body: r.noteBodies[this.body], ...(this.createdAt ? { created_at: this.createdAt } : {}) };
    const res = await r.ctx.api.call('createNotes', {
      body: { ...accountKey(import_supplier, external_account_number), notes: [note] },
      step: this.toString(),
    });
    if (s.phase !== 'imported')
      return r.ctx.expect.status(res, 404, `${this.toString()}: the account is ${s.phase} (§4.2 notes rule 1)`);
    r.ctx.expect.status(res, 201, this.toString());
    const exists = noteOnAccount(s.notes, { body: note.body, createdAt: note.created_at }) !== undefined;
    if (!exists) s.notes.push({ body: note.body, createdAt: note.created_at });
    const [result] = r.ctx.expect.body(res, model.NotesResponse, 'notes response');
    r.ctx.expect.equal(result?.status, exists ? 'NOTE_ALREADY_EXISTS' : 'NOTE_CREATION_SUCCESS', this.toString(), res);
  }
  toString = () => `note(${this.slot}, body ${this.body}${this.createdAt ? `, ${this.createdAt}` : ''})`;
}

class AddTransaction implements Command {
  constructor(
    readonly slot: number,
    readonly id: number,
  ) {}
  // Only imported accounts: what other data endpoints answer for other accounts is a reading (SHOULD).
  check = (m: Readonly<Model>) => m.slots[this.slot].phase === 'imported';
  async run(m: Model, r: Real) {
    const s = m.slots[this.slot];
    const { import_supplier, external_account_number } = r.accounts[this.slot];
    const transaction = {
      transaction_id: r.transactionIds[this.id],
      transaction_date: today(),
      amount: '5.00',
      type: 'CHARGE',
      reason: 'IMPORTED_CHARGE',
    };
    const res = await r.ctx.api.call('createTransactions', {
      body: { ...accountKey(import_supplier, external_account_number), transactions: [transaction] },
      step: this.toString(),
    });
    r.ctx.expect.status(res, 201, this.toString());
    const exists = s.transactions.has(transaction.transaction_id);
    s.transactions.add(transaction.transaction_id);
    const [result] = r.ctx.expect.body(res, model.TransactionsResponse, 'transactions response').results;
    r.ctx.expect.equal(
      result?.status,
      exists ? 'TRANSACTION_ALREADY_EXISTS' : 'TRANSACTION_ADDED_TO_ACCOUNT',
      this.toString(),
      res,
    );
  }
  toString = () => `transaction(${this.slot}, id ${this.id})`;
}

function payload(r: Real, slot: number, valid: boolean): AccountPayload {
  if (valid) return r.accounts[slot];
  const broken = structuredClone(r.accounts[slot]);
  broken.supply_addresses![0].customer_at_supply_address_from_date = '2023-02-30';
  return broken;
}

/** Mostly the first account, so that commands meet on it; the second one shows listings are per account. */
const slot = fc.constantFrom(0, 0, 0, 1);
// fc.commands picks among these uniformly: staging and processing appear more than once so that
// sequences reach the imported state (and its dry runs) often.
const commands = fc.commands(
  [
    fc.tuple(slot, fc.boolean()).map(([s, v]) => new Validate(s, v)),
    slot.map((s) => new Stage(s, true)),
    slot.map((s) => new Stage(s, true)),
    fc.tuple(slot, fc.boolean()).map(([s, v]) => new Stage(s, v)),
    fc
      .tuple(slot, fc.constantFrom<'real' | 'dry-run' | 'unknown-team'>('real', 'dry-run', 'dry-run', 'unknown-team'))
      .map(([s, mode]) => new Process(s, mode)),
    slot.map((s) => new Process(s, 'real')),
    slot.map((s) => new Status(s)),
    fc.constantFrom<'pending' | 'all'>('pending', 'all').map((w) => new List(w)),
    fc
      .tuple(
        slot,
        fc.nat({ max: 1 }),
        fc.option(fc.constantFrom('2023-05-06T07:08:09Z', '2023-05-06T07:08:10Z'), { nil: undefined }),
      )
      .map(([s, b, at]) => new AddNote(s, b, at)),
    fc.tuple(slot, fc.nat({ max: 2 })).map(([s, id]) => new AddTransaction(s, id)),
  ],
  { maxCommands: 16, size: 'medium' },
);

export default defineRules('stateful', [
  {
    id: 'stateful.state-machine',
    spec: '§3, §4.1, §4.3, §4.2 notes rules 1-2, §4.2 transactions',
    level: 'MUST',
    title:
      'Any sequence of validate, stage, process, status, listings, notes and transactions behaves as the §3 state table says',
    needs: TO_IMPORT,
    endpoints: [
      'validateAccount',
      'stageAccount',
      'processAccount',
      'accountTransferStatus',
      'allAccountImportProcesses',
      'pendingAccountImportProcesses',
      'createNotes',
      'createTransactions',
    ],
    tags: ['properties', 'stateful'],
    property: true,
    async check(ctx) {
      await checkProperty(ctx, commands, async (sequence) => {
        const setup = () => ({
          model: {
            slots: Array.from({ length: SLOTS }, (): Slot => ({ phase: 'none', notes: [], transactions: new Set() })),
          },
          real: {
            ctx,
            accounts: Array.from({ length: SLOTS }, () => {
              const account = ctx.given.account();
              delete account.notes;
              return account;
            }),
            noteBodies: [0, 1].map((i) => ctx.ids.noteBody(`state machine note ${i}`)),
            transactionIds: [0, 1, 2].map(() => ctx.ids.other('T')),
          },
        });
        await fc.asyncModelRun(setup, sequence);
      });
    },
  },
]);
