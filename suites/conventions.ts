/**
 * §2.1 Conventions for all payloads and the §2.3 account payload shapes: formats, optional fields,
 * required fields inside provided objects, document paths. Each defect is placed at depth and at an
 * index above zero, so `attr` paths are checked where mistakes hide.
 */
import type { RuleContext } from '../core/engine/context.js';
import { deleteAtPath, setAtPath } from '../core/spec/paths.js';
import { defineRules, type RuleInput } from '../core/engine/rule.js';
import { model } from '../core/spec/index.js';
import type { AccountPayload } from '../core/spec/index.js';
import { DEFECTS, type DefectKind } from '../generators/index.js';
import { expectedAttr, reportsDefectAt } from './attrs.js';
import { errorsOf } from './support.js';

/** A complete account with a second customer, a second supply point and three transactions. */
export function richAccount(ctx: RuleContext): AccountPayload {
  const account = ctx.given.account();
  const points = account.supply_addresses![0].supply_points!;
  points.push({ ...structuredClone(points[0]), identifier: ctx.ids.supplyPointIdentifier() });
  const ledger = account.ledgers![0];
  const txs = ledger.current_statement_transactions ?? [];
  while (txs.length < 3)
    txs.push({
      ...structuredClone(txs[0] ?? { transaction_date: '2024-05-02', amount: 10, type: 'CHARGE' }),
      transaction_id: ctx.ids.other('T'),
    });
  ledger.current_statement_transactions = txs;
  return account;
}

type AccountEndpoint = 'validateAccount' | 'stageAccount';
const BOTH: readonly AccountEndpoint[] = ['validateAccount', 'stageAccount'];

/** Where a defect is reported, and on which endpoints it is sent. */
interface Refusal {
  /** The §7.1 attr the errors must point at. */
  path: string;
  /** The defect in words, for steps and messages. */
  what: string;
  /** The defect is of an object: the attr may point at a field inside it. */
  objectLevel?: boolean;
  on?: readonly AccountEndpoint[];
}

/**
 * Validates and stages a payload carrying exactly one defect: both must answer 400 with an errors
 * item whose attr is `path` (or inside it, when `objectLevel`); stage, a create endpoint, may report
 * it under non_field_errors instead (§7.1).
 */
async function expectRefusedAt(
  ctx: RuleContext,
  account: AccountPayload,
  { path, what, objectLevel = false, on = BOTH }: Refusal,
) {
  for (const endpoint of on) {
    const res = await ctx.api.call(endpoint, {
      body: account,
      step: `${endpoint === 'validateAccount' ? 'validate' : 'stage'} with ${what} at ${path}`,
    });
    ctx.expect.status(res, 400, `${what} at ${path}`);
    const body = ctx.expect.body(res, model.ValidationErrorBody, '§7.1 validation error body');
    const attrs = body.errors.map((e) => e.attr);
    ctx.expect.that(
      reportsDefectAt(endpoint, attrs, path, objectLevel),
      `${what}: the errors must point at ${expectedAttr(endpoint, path)}${objectLevel ? ' (or a field inside it)' : ''} (§7.1 attr), got ${JSON.stringify(attrs)}`,
      { expected: path, actual: attrs, res },
    );
  }
}

/** Validates and stages a payload the conventions allow: 200, then 201. */
async function expectAccepted(ctx: RuleContext, account: AccountPayload) {
  ctx.expect.status(await ctx.api.call('validateAccount', { body: account, step: 'validate' }), 200);
  ctx.expect.status(await ctx.api.call('stageAccount', { body: account, step: 'stage' }), 201);
}

/** One single-defect case, as a rule declares it. */
export interface DefectCase extends Omit<Refusal, 'path'>, Pick<RuleInput, 'id' | 'spec' | 'title' | 'why'> {
  /** The kind of defect sent; the rule's level is the kind's (generators/defects.ts). */
  kind: DefectKind;
  /** Only where the spec states more of this one field than of its kind, a stronger level. */
  level?: 'MUST';
  /** The attr the defect is placed at, or a function that makes room for it in the account and names it. */
  at: string | ((account: AccountPayload) => string);
  /** The value sent there; undefined leaves the field out. */
  value: unknown;
}

/** A rule for one single-defect case, refused by validate and stage (or the endpoints `on`) at its path. */
export function defect({ kind, level, at, value, what, objectLevel, on = BOTH, ...rule }: DefectCase): RuleInput {
  return {
    ...rule,
    level: level ?? DEFECTS[kind].level,
    endpoints: on,
    tags: ['validation'],
    async check(ctx: RuleContext) {
      const account = richAccount(ctx);
      const path = typeof at === 'string' ? at : at(account);
      if (value === undefined) deleteAtPath(account, path);
      else setAtPath(account, path, value);
      await expectRefusedAt(ctx, account, { path, what, objectLevel, on });
    },
  };
}

export default defineRules(
  'conventions',
  [
    defect({
      id: 'conventions.date.impossible-day',
      spec: '§2.1, §7.1',
      kind: 'impossible-date',
      title: 'A date that does not exist (2023-02-30) is refused, with attr at the field',
      at: 'supply_addresses.0.supply_points.1.agreements.0.effective_from',
      value: '2023-02-30',
      what: 'an impossible date',
    }),
    defect({
      id: 'conventions.date.wrong-format',
      spec: '§2.1, §7.1',
      kind: 'malformed-date',
      title: 'A date not in YYYY-MM-DD form (2024/05/31) is refused, with attr at the field',
      at: 'ledgers.0.last_statement_closing_date',
      value: '2024/05/31',
      what: 'a date in another format',
    }),
    defect({
      id: 'conventions.date.datetime-given',
      spec: '§2.1, §7.1',
      kind: 'datetime-for-date',
      title: 'A datetime where a date is due is refused, with attr at the field',
      at: 'ledgers.0.current_statement_transactions.2.transaction_date',
      value: '2024-05-02T10:00:00Z',
      what: 'a datetime for a date',
    }),
    defect({
      id: 'conventions.datetime.impossible',
      spec: '§2.1, §7.1',
      kind: 'impossible-datetime',
      title: 'A datetime that does not exist (2023-02-30T10:00:00Z) is refused, with attr at the field',
      at: 'supply_addresses.0.supply_points.1.readings.1.interval_end',
      value: '2023-02-30T10:00:00Z',
      what: 'an impossible datetime',
    }),
    defect({
      id: 'conventions.datetime.not-a-datetime',
      spec: '§2.1, §7.1',
      kind: 'malformed-datetime',
      title: 'A value that is not a datetime (yesterday 10am) is refused, with attr at the field',
      at: 'notes.0.created_at',
      value: 'yesterday 10am',
      what: 'text for a datetime',
    }),
    defect({
      id: 'conventions.datetime.missing-z',
      spec: '§2.1, §7.1',
      kind: 'datetime-missing-z',
      title: 'A datetime without the UTC designator (2024-01-01T10:00:00) is refused',
      why: 'The documented form is YYYY-MM-DDTHH:MM:SSZ, but many servers read a zone-less ISO 8601 datetime as local time; refusing it is a reading.',
      at: 'supply_addresses.0.supply_points.1.readings.0.interval_start',
      value: '2024-01-01T10:00:00',
      what: 'a datetime without Z',
    }),
    defect({
      id: 'conventions.enum.supply-type',
      spec: '§2.3 supply point, §7.1',
      kind: 'enum-outside-set',
      title: 'A supply_type other than GAS or ELECTRICITY is refused, with attr at the field',
      at: 'supply_addresses.0.supply_points.1.supply_type',
      value: 'WATER',
      what: 'an undocumented supply type',
    }),
    defect({
      id: 'conventions.enum.transaction-type',
      spec: '§2.4, §7.1',
      kind: 'enum-outside-set',
      title: 'A transaction type outside the five documented ones is refused, with attr at the field',
      at: 'ledgers.0.current_statement_transactions.1.type',
      value: 'GIFT',
      what: 'an undocumented transaction type',
    }),
    defect({
      id: 'conventions.email.malformed',
      spec: '§2.3 customer, §7.1',
      kind: 'malformed-email',
      title: 'A malformed e-mail address is refused, with attr at the field',
      at: 'customers.1.email',
      value: 'lucia.garcia.example.com',
      what: 'a malformed e-mail address',
    }),
    defect({
      id: 'conventions.phone.malformed',
      spec: '§2.3 customer, §7.1',
      kind: 'malformed-phone',
      title: 'A value that is not a phone number is refused, with attr at the field',
      why: 'The phone number format is not shown; §7.1 names invalid_phone_number for landline, so refusing text is a strong reading.',
      at: 'customers.1.landline',
      value: 'call me maybe',
      what: 'text for a phone number',
    }),
    defect({
      id: 'conventions.type.array-expected',
      spec: '§2.3, §7.1',
      kind: 'wrong-type-array',
      title: 'An object where an array is due is refused, with attr at the field',
      at: 'supply_addresses.0.supply_points.1.agreements',
      value: { tariff_code: '2.0TD' },
      what: 'an object for an array',
    }),
    defect({
      id: 'conventions.type.object-expected',
      spec: '§2.3, §7.1',
      kind: 'wrong-type-object',
      title: 'A string where an object is due is refused, with attr at the field',
      at: 'supply_addresses.0.supply_address',
      value: 'Calle Arenal 14, Madrid',
      what: 'a string for an object',
    }),
    defect({
      id: 'conventions.type.metadata-value',
      spec: '§2.3 metadata, §7.1',
      kind: 'wrong-type-object',
      title: 'A metadata value that is not an object is refused, with attr at the field',
      at: (a) => {
        a.metadata = [...(a.metadata ?? []), { key: 'second', value: { ok: true } }];
        return 'metadata.1.value';
      },
      value: 'not an object',
      what: 'a string for an object',
    }),
    defect({
      id: 'conventions.note.without-content',
      spec: '§2.3 note, §4.2 notes rule 4, §7.1',
      kind: 'note-without-content',
      title: 'A note with neither body nor document_paths is refused, with attr at the note',
      at: (a) => {
        a.notes = [{ body: 'first note' }, { body: 'second note' }];
        return 'notes.1';
      },
      value: { is_pinned: true },
      what: 'a note without content',
      objectLevel: true,
    }),
    defect({
      id: 'conventions.required-inside-provided-object',
      spec: '§2.1, §7.1',
      kind: 'required-missing',
      title: 'A provided supply point without its identifier is refused, with attr at the missing field',
      why: 'Which fields are required is not shown (§2.3); a supply point without its identifier is the strongest reading of "required fields inside a provided object".',
      at: 'supply_addresses.0.supply_points.1.identifier',
      value: undefined,
      what: 'a supply point without identifier',
    }),
    // Staging creates or updates the import process of "the supplier code and external number" (§3)
    // and answers {import_supplier, external_account_number}: without the supplier's own identifier
    // (§2.3) there is nothing to create or update, and a number the service made up is not the
    // supplier's. Validate stages nothing, so there the refusal is only the strongest reading.
    defect({
      id: 'conventions.account-key.required',
      spec: "§2.3 (external_account_number: the supplier's own account identifier), §3, §4.1, §7.1",
      kind: 'required-missing',
      level: 'MUST',
      title:
        'Staging an account payload without external_account_number is refused, with attr at the field (or non_field_errors)',
      at: 'external_account_number',
      value: undefined,
      what: 'no external_account_number',
      on: ['stageAccount'],
    }),
    defect({
      id: 'conventions.account-key.required-on-validate',
      spec: '§2.3, §7.1',
      kind: 'required-missing',
      title: 'Validating an account payload without external_account_number is refused, with attr at the field',
      why: 'Required flags of account fields are "not shown" (§2.3) and validate stages nothing; that the supplier\'s own account identifier is required to validate is the strongest reading, not a statement.',
      at: 'external_account_number',
      value: undefined,
      what: 'no external_account_number',
      on: ['validateAccount'],
    }),
    {
      id: 'conventions.optional-fields.omitted',
      spec: '§2.1, §2.3 note',
      level: 'MUST',
      title: 'Documented optional fields may be omitted: notes without created_at and is_pinned validate and stage',
      endpoints: ['validateAccount', 'stageAccount'],
      tags: ['validation'],
      async check(ctx) {
        const account = ctx.given.account();
        account.notes = [
          { body: ctx.ids.noteBody('no created_at, no is_pinned') },
          { document_paths: [{ document_path: 'letters/welcome.pdf' }] },
        ];
        await expectAccepted(ctx, account);
      },
    },
    {
      id: 'conventions.document-path.leading-slash',
      spec: '§2.1 document path',
      level: 'MUST',
      title: 'A document path with a leading slash is accepted (note document_path and statement_path)',
      endpoints: ['validateAccount', 'stageAccount'],
      async check(ctx) {
        const account = ctx.given.account();
        account.notes = [
          {
            body: ctx.ids.noteBody('with a document'),
            document_paths: [{ document_path: '/contracts/2024/contract.pdf' }],
          },
        ];
        account.statements = account.statements?.map((s) => ({
          ...s,
          statement_path: `/statements/${s.statement_id}.pdf`,
        }));
        await expectAccepted(ctx, account);
      },
    },
    {
      id: 'conventions.document-path.relative',
      spec: '§2.1 document path',
      level: 'MUST',
      title: 'A document path relative to the supplier root (no leading slash) is accepted',
      endpoints: ['validateAccount', 'stageAccount'],
      async check(ctx) {
        const account = ctx.given.account();
        account.notes = [
          {
            body: ctx.ids.noteBody('relative path'),
            document_paths: [{ document_path: 'contracts/2024/contract.pdf' }],
          },
        ];
        await expectAccepted(ctx, account);
      },
    },
    {
      id: 'conventions.undocumented-field',
      spec: '§2.1, §9.4',
      level: 'INFO',
      why: 'Only documented fields may be sent, but the spec does not say what the service does with others (they "may get a meaning later").',
      title: 'What the service does with an undocumented field in an account payload',
      endpoints: ['validateAccount'],
      async check(ctx) {
        const account = { ...ctx.given.account(), conformance_probe_field: 'x' };
        const res = await ctx.api.call('validateAccount', {
          body: account,
          step: 'validate with an undocumented field',
        });
        const { attrs } = errorsOf(res);
        ctx.observe(
          res.status === 400
            ? `refused (400${attrs.length ? `, attr ${attrs.join(', ')}` : ''})`
            : `answered ${res.status} (accepted or ignored)`,
        );
      },
    },
    {
      id: 'conventions.minimal-account',
      spec: '§2.3',
      level: 'INFO',
      why: "Required flags of account fields are not shown; whether an account with only its keys is accepted is the implementation's choice.",
      title: 'Whether an account payload with only import_supplier and external_account_number is accepted',
      endpoints: ['validateAccount'],
      async check(ctx) {
        const res = await ctx.api.call('validateAccount', {
          body: {
            import_supplier: ctx.preconditions.ongoingSupplier,
            external_account_number: ctx.ids.externalAccountNumber(),
          },
          step: 'validate a minimal account',
        });
        const { attrs } = errorsOf(res);
        ctx.observe(
          res.status === 200
            ? 'accepted (200)'
            : `answered ${res.status}${attrs.length ? `; required: ${attrs.join(', ')}` : ''}`,
        );
      },
    },
  ],
  { needs: ['ongoingSupplier'] },
);
