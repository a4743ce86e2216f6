/**
 * §2.1 Conventions for all payloads and the §2.3 account payload shapes: formats, optional fields,
 * required fields inside provided objects, document paths. Each defect is placed at depth and at an
 * index above zero, so `attr` paths are checked where mistakes hide.
 */
import type { RuleContext } from '../src/engine/context.js';
import { defineRules } from '../src/engine/rule.js';
import { model } from '../src/spec/index.js';
import type { AccountPayload } from '../src/spec/index.js';
import { expectedAttr, reportsDefectAt } from './attrs.js';
import { errorsOf, setPath } from './support.js';

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

/**
 * Validates and stages a payload carrying exactly one defect: both must answer 400 with an errors
 * item whose attr is `path` (or inside it, when `objectLevel`); stage, a create endpoint, may report
 * it under non_field_errors instead (§7.1).
 */
async function expectRefusedAt(
  ctx: RuleContext,
  account: AccountPayload,
  path: string,
  what: string,
  objectLevel = false,
  on: readonly AccountEndpoint[] = BOTH,
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

type AccountEndpoint = 'validateAccount' | 'stageAccount';
const BOTH: readonly AccountEndpoint[] = ['validateAccount', 'stageAccount'];

/** A rule for one single-defect case, refused by validate and stage (or the endpoints `on`) at its path. */
export function defect(
  id: string,
  spec: string,
  level: 'MUST' | 'SHOULD',
  title: string,
  place: (a: AccountPayload) => string,
  value: unknown,
  what: string,
  why?: string,
  objectLevel = false,
  on: readonly AccountEndpoint[] = BOTH,
) {
  return {
    id,
    spec,
    level,
    ...(why ? { why } : {}),
    title,
    needs: ['ongoingSupplier'] as const,
    endpoints: on,
    tags: ['validation'],
    async check(ctx: RuleContext) {
      const account = richAccount(ctx);
      const path = place(account);
      setPath(account, path, value);
      await expectRefusedAt(ctx, account, path, what, objectLevel, on);
    },
  };
}

export default defineRules('conventions', [
  defect(
    'conventions.date.impossible-day',
    '§2.1, §7.1',
    'MUST',
    'A date that does not exist (2023-02-30) is refused, with attr at the field',
    () => 'supply_addresses.0.supply_points.1.agreements.0.effective_from',
    '2023-02-30',
    'an impossible date',
  ),
  defect(
    'conventions.date.wrong-format',
    '§2.1, §7.1',
    'MUST',
    'A date not in YYYY-MM-DD form (2024/05/31) is refused, with attr at the field',
    () => 'ledgers.0.last_statement_closing_date',
    '2024/05/31',
    'a date in another format',
  ),
  defect(
    'conventions.date.datetime-given',
    '§2.1, §7.1',
    'MUST',
    'A datetime where a date is due is refused, with attr at the field',
    () => 'ledgers.0.current_statement_transactions.2.transaction_date',
    '2024-05-02T10:00:00Z',
    'a datetime for a date',
  ),
  defect(
    'conventions.datetime.impossible',
    '§2.1, §7.1',
    'MUST',
    'A datetime that does not exist (2023-02-30T10:00:00Z) is refused, with attr at the field',
    () => 'supply_addresses.0.supply_points.1.readings.1.interval_end',
    '2023-02-30T10:00:00Z',
    'an impossible datetime',
  ),
  defect(
    'conventions.datetime.not-a-datetime',
    '§2.1, §7.1',
    'MUST',
    'A value that is not a datetime (yesterday 10am) is refused, with attr at the field',
    () => 'notes.0.created_at',
    'yesterday 10am',
    'text for a datetime',
  ),
  defect(
    'conventions.datetime.missing-z',
    '§2.1, §7.1',
    'SHOULD',
    'A datetime without the UTC designator (2024-01-01T10:00:00) is refused',
    () => 'supply_addresses.0.supply_points.1.readings.0.interval_start',
    '2024-01-01T10:00:00',
    'a datetime without Z',
    'The documented form is YYYY-MM-DDTHH:MM:SSZ, but many servers read a zone-less ISO 8601 datetime as local time; refusing it is a reading.',
  ),
  defect(
    'conventions.enum.supply-type',
    '§2.3 supply point, §7.1',
    'MUST',
    'A supply_type other than GAS or ELECTRICITY is refused, with attr at the field',
    () => 'supply_addresses.0.supply_points.1.supply_type',
    'WATER',
    'an undocumented supply type',
  ),
  defect(
    'conventions.enum.transaction-type',
    '§2.4, §7.1',
    'MUST',
    'A transaction type outside the five documented ones is refused, with attr at the field',
    () => 'ledgers.0.current_statement_transactions.1.type',
    'GIFT',
    'an undocumented transaction type',
  ),
  defect(
    'conventions.email.malformed',
    '§2.3 customer, §7.1',
    'MUST',
    'A malformed e-mail address is refused, with attr at the field',
    () => 'customers.1.email',
    'lucia.garcia.example.com',
    'a malformed e-mail address',
  ),
  defect(
    'conventions.phone.malformed',
    '§2.3 customer, §7.1',
    'SHOULD',
    'A value that is not a phone number is refused, with attr at the field',
    () => 'customers.1.landline',
    'call me maybe',
    'text for a phone number',
    'The phone number format is not shown; §7.1 names invalid_phone_number for landline, so refusing text is a strong reading.',
  ),
  defect(
    'conventions.type.array-expected',
    '§2.3, §7.1',
    'MUST',
    'An object where an array is due is refused, with attr at the field',
    () => 'supply_addresses.0.supply_points.1.agreements',
    { tariff_code: '2.0TD' },
    'an object for an array',
  ),
  defect(
    'conventions.type.object-expected',
    '§2.3, §7.1',
    'MUST',
    'A string where an object is due is refused, with attr at the field',
    () => 'supply_addresses.0.supply_address',
    'Calle Arenal 14, Madrid',
    'a string for an object',
  ),
  defect(
    'conventions.type.metadata-value',
    '§2.3 metadata, §7.1',
    'MUST',
    'A metadata value that is not an object is refused, with attr at the field',
    (a) => {
      a.metadata = [...(a.metadata ?? []), { key: 'second', value: { ok: true } }];
      return 'metadata.1.value';
    },
    'not an object',
    'a string for an object',
  ),
  defect(
    'conventions.note.without-content',
    '§2.3 note, §4.2 notes rule 4, §7.1',
    'MUST',
    'A note with neither body nor document_paths is refused, with attr at the note',
    (a) => {
      a.notes = [{ body: 'first note' }, { body: 'second note' }];
      return 'notes.1';
    },
    { is_pinned: true },
    'a note without content',
    undefined,
    true,
  ),
  defect(
    'conventions.required-inside-provided-object',
    '§2.1, §7.1',
    'SHOULD',
    'A provided supply point without its identifier is refused, with attr at the missing field',
    () => 'supply_addresses.0.supply_points.1.identifier',
    undefined,
    'a supply point without identifier',
    'Which fields are required is not shown (§2.3); a supply point without its identifier is the strongest reading of "required fields inside a provided object".',
  ),
  // Staging creates or updates the import process of "the supplier code and external number" (§3)
  // and answers {import_supplier, external_account_number}: without the supplier's own identifier
  // (§2.3) there is nothing to create or update, and a number the service made up is not the
  // supplier's. Validate stages nothing, so there the refusal is only the strongest reading.
  defect(
    'conventions.account-key.required',
    "§2.3 (external_account_number: the supplier's own account identifier), §3, §4.1, §7.1",
    'MUST',
    'Staging an account payload without external_account_number is refused, with attr at the field (or non_field_errors)',
    () => 'external_account_number',
    undefined,
    'no external_account_number',
    undefined,
    false,
    ['stageAccount'],
  ),
  defect(
    'conventions.account-key.required-on-validate',
    '§2.3, §7.1',
    'SHOULD',
    'Validating an account payload without external_account_number is refused, with attr at the field',
    () => 'external_account_number',
    undefined,
    'no external_account_number',
    'Required flags of account fields are "not shown" (§2.3) and validate stages nothing; that the supplier\'s own account identifier is required to validate is the strongest reading, not a statement.',
    false,
    ['validateAccount'],
  ),
  {
    id: 'conventions.optional-fields.omitted',
    spec: '§2.1, §2.3 note',
    level: 'MUST',
    title: 'Documented optional fields may be omitted: notes without created_at and is_pinned validate and stage',
    needs: ['ongoingSupplier'],
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
    needs: ['ongoingSupplier'],
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
    needs: ['ongoingSupplier'],
    endpoints: ['validateAccount', 'stageAccount'],
    async check(ctx) {
      const account = ctx.given.account();
      account.notes = [
        { body: ctx.ids.noteBody('relative path'), document_paths: [{ document_path: 'contracts/2024/contract.pdf' }] },
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
    needs: ['ongoingSupplier'],
    endpoints: ['validateAccount'],
    async check(ctx) {
      const account = { ...ctx.given.account(), conformance_probe_field: 'x' };
      const res = await ctx.api.call('validateAccount', { body: account, step: 'validate with an undocumented field' });
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
    needs: ['ongoingSupplier'],
    endpoints: ['validateAccount'],
    async check(ctx) {
      const res = await ctx.api.call('validateAccount', {
        body: {
          import_supplier: ctx.fixtures.ongoingSupplier,
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
]);
