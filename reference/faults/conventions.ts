/** Faults of the §2 conventions: dates, types, enumerations, documented shapes, read leniently or strictly. */
import { type AccountPayload, type EndpointId, model } from '../../core/spec/index.js';
import { ACCOUNT_FAILED_VALIDATION, validationError } from '../validation.js';
import { clone, fault, mapStrings, rewrite } from './helpers.js';
import type { Around, FaultBehaviour, FaultDefinition } from './types.js';

/** A payload's array as sent, or none: a fault must survive the malformed payloads the suite sends too. */
const listOf = <T>(value: T[] | undefined): T[] => (Array.isArray(value) ? value : []);

/** The same request change on validate and stage (they share their rules, §4.1). */
function onAccountPayload(change: (payload: Record<string, unknown>) => Record<string, unknown>) {
  const around: Around = (req, _env, next) =>
    next({
      ...req,
      body: req.body && typeof req.body === 'object' ? change(clone(req.body as Record<string, unknown>)) : req.body,
    });
  return { around: { validateAccount: around, stageAccount: around } };
}

/** The same refusal on validate and stage, when `find` locates something to refuse. */
function refuseOnAccountPayload(
  find: (payload: AccountPayload) => { attr: string; code: string; detail: string } | undefined,
) {
  const around: Around = (req, _env, next) => {
    const problem = req.body && typeof req.body === 'object' ? find(req.body as AccountPayload) : undefined;
    return problem ? validationError([problem], ACCOUNT_FAILED_VALIDATION) : next(req);
  };
  return { around: { validateAccount: around, stageAccount: around } };
}

/** Clamps a YYYY-MM-DD whose day does not exist to the month's last day. */
const clampDay = (s: string) =>
  s.replace(/^(\d{4})-(\d{2})-(\d{2})/, (m, y: string, mo: string, d: string) => {
    const last = new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate();
    return Number(mo) >= 1 && Number(mo) <= 12 && Number(d) > last ? `${y}-${mo}-${String(last).padStart(2, '0')}` : m;
  });

/** Applies `fn` to every value under a key, anywhere in the payload. */
function mapNested(value: Record<string, unknown>, key: string, fn: (v: unknown) => unknown): Record<string, unknown> {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === key ? fn(walk(x)) : walk(x)]));
    return v;
  };
  return walk(value) as Record<string, unknown>;
}

/** The same change of every value at `keys`, anywhere in an account payload, on validate and stage. */
function leniently(keys: readonly string[], change: (value: unknown) => unknown): FaultBehaviour {
  const wanted = new Set(keys);
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [
          k,
          wanted.has(k) ? (Array.isArray(v) ? v.map(change) : change(v)) : walk(v),
        ]),
      );
    return value;
  };
  const around: Around = (req, _env, next) =>
    next({ ...req, body: req.body && typeof req.body === 'object' ? walk(clone(req.body)) : req.body });
  return { around: { validateAccount: around, stageAccount: around } };
}

export const conventionFaults: FaultDefinition[] = [
  fault(
    {
      id: 'conventions.impossible-dates-accepted',
      spec: '§2.1',
      subtle: true,
      description: 'Dates are checked by pattern only, so a day that does not exist (2023-02-30) is accepted.',
    },
    onAccountPayload((p) => mapStrings(p, clampDay) as Record<string, unknown>),
  ),
  fault(
    {
      id: 'conventions.slash-dates-accepted',
      spec: '§2.1',
      subtle: false,
      description: 'Dates written YYYY/MM/DD are accepted.',
    },
    onAccountPayload(
      (p) =>
        mapStrings(p, (s) => (/^\d{4}\/\d{2}\/\d{2}$/.test(s) ? s.replace(/\//g, '-') : s)) as Record<string, unknown>,
    ),
  ),
  fault(
    {
      id: 'conventions.datetime-z-optional',
      spec: '§2.1',
      subtle: true,
      description: 'Datetimes without the UTC designator are accepted.',
      level: 'SHOULD',
      why: '§2.1 gives the datetime format; that a datetime without Z is refused is a reading (validation rules are not shown).',
    },
    onAccountPayload(
      (p) =>
        mapStrings(p, (s) => (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(s) ? `${s}Z` : s)) as Record<
          string,
          unknown
        >,
    ),
  ),
  fault(
    {
      id: 'conventions.text-datetimes-accepted',
      spec: '§2.1',
      subtle: false,
      description: 'Any text is accepted where a datetime is due.',
    },
    { ignoreIssue: (e) => e.code === 'invalid_datetime' },
  ),
  fault(
    {
      id: 'conventions.later-items-unvalidated',
      spec: '§2.1 (sub-objects are validated), §7.1',
      subtle: true,
      description: 'Only the first item of an array is validated; problems at index 1 and above pass.',
    },
    { ignoreIssue: (e) => /(^|\.)[1-9]\d*(\.|$)/.test(e.attr) },
  ),
  fault(
    {
      id: 'conventions.supply-points-unvalidated',
      spec: '§2.1 (sub-objects are validated)',
      subtle: true,
      description: 'Nothing inside supply points is validated.',
    },
    { ignoreIssue: (e) => /^supply_addresses\.\d+\.supply_points\.\d+\./.test(e.attr) },
  ),
  fault(
    {
      id: 'conventions.email-unvalidated',
      spec: '§2.3 customer',
      subtle: false,
      description: 'Any text is accepted as an e-mail address.',
    },
    { ignoreIssue: (e) => e.code === 'invalid_email' },
  ),
  fault(
    {
      id: 'conventions.phone-unvalidated',
      spec: '§2.3 customer, §7.1',
      subtle: false,
      description: 'Any text is accepted as a phone number.',
      level: 'SHOULD',
      why: 'invalid_phone_number is an example code; which phone numbers are malformed is not shown.',
    },
    { ignoreIssue: (e) => e.code === 'invalid_phone_number' },
  ),
  fault(
    {
      id: 'conventions.supply-type-unvalidated',
      spec: '§2.3 supply point',
      subtle: false,
      description: 'Any supply_type is accepted.',
    },
    { ignoreIssue: (e) => e.code === 'invalid_choice' && e.attr.endsWith('.supply_type') },
  ),
  fault(
    {
      id: 'conventions.metadata-value-any',
      spec: '§2.3 metadata',
      subtle: true,
      description: 'A metadata value that is not an object is accepted.',
    },
    onAccountPayload((p) => ({
      ...p,
      metadata: Array.isArray(p.metadata)
        ? p.metadata.map((m: { value?: unknown }) =>
            m && typeof m.value !== 'object' ? { ...m, value: { value: m.value } } : m,
          )
        : p.metadata,
    })),
  ),
  fault(
    {
      id: 'conventions.object-for-array-accepted',
      spec: '§2.3',
      subtle: true,
      description: 'An object where a list of agreements is due is taken as a list of one.',
    },
    onAccountPayload((p) =>
      mapNested(p, 'agreements', (v) => (v && typeof v === 'object' && !Array.isArray(v) ? [v] : v)),
    ),
  ),
  fault(
    {
      id: 'conventions.string-address-accepted',
      spec: '§2.3 supply address group',
      subtle: true,
      description: 'A supply address given as a string is accepted as a free-text address.',
    },
    onAccountPayload((p) =>
      mapNested(p, 'supply_address', (v) => (typeof v === 'string' ? { address_extra_info: v } : v)),
    ),
  ),
  fault(
    {
      id: 'conventions.empty-notes-accepted',
      spec: '§2.3 note',
      subtle: true,
      description: 'In an account payload, a note with neither body nor document_paths is accepted.',
    },
    onAccountPayload((p) => ({
      ...p,
      notes: Array.isArray(p.notes)
        ? p.notes.map((n: Record<string, unknown>) =>
            n && n.body === undefined && n.document_paths === undefined ? { ...n, body: '' } : n,
          )
        : p.notes,
    })),
  ),
  fault(
    {
      id: 'conventions.leading-slash-refused',
      spec: '§2.1 document path',
      subtle: true,
      description: 'A document path with a leading slash is refused.',
    },
    refuseOnAccountPayload((a) => {
      const i = listOf(a.notes).findIndex(
        (n) => Array.isArray(n?.document_paths) && n.document_paths.some((d) => d?.document_path?.startsWith?.('/')),
      );
      if (i >= 0)
        return {
          attr: `notes.${i}.document_paths.0.document_path`,
          code: 'invalid',
          detail: 'Paths must be relative.',
        };
      const s = listOf(a.statements).findIndex((st) => st?.statement_path?.startsWith?.('/'));
      return s >= 0
        ? { attr: `statements.${s}.statement_path`, code: 'invalid', detail: 'Paths must be relative.' }
        : undefined;
    }),
  ),
  fault(
    {
      id: 'conventions.created-at-required',
      spec: '§2.3 note (created_at optional)',
      subtle: true,
      description: 'Notes of an account payload must carry created_at, though the spec makes it optional.',
    },
    refuseOnAccountPayload((a) => {
      const i = listOf(a.notes).findIndex((n) => n?.created_at === undefined);
      return i >= 0
        ? { attr: `notes.${i}.created_at`, code: 'required', detail: 'This field is required.' }
        : undefined;
    }),
  ),
  fault(
    {
      id: 'conventions.missing-number-accepted',
      spec: '§2.3, §3',
      subtle: false,
      description: 'An account payload without external_account_number is accepted with a generated number.',
    },
    onAccountPayload((p) =>
      p.external_account_number === undefined ? { ...p, external_account_number: `GEN-${Date.now()}` } : p,
    ),
  ),
  fault(
    {
      id: 'conventions.enum-case-insensitive',
      spec: '§2.3 supply point, §2.4 type',
      subtle: true,
      description: 'Enumerated values are read case-insensitively: gas is taken for GAS.',
    },
    leniently(['supply_type', 'type', 'billing_document_type'], (v) => (typeof v === 'string' ? v.toUpperCase() : v)),
  ),
  fault(
    {
      id: 'conventions.integer-fractions-accepted',
      spec: '§2.3 agreement and reading (integers)',
      subtle: true,
      description: 'Numbers with a fraction are rounded where an integer is due.',
    },
    leniently(['estimated_monthly_fee_in_cents', 'source', 'contractual_max_power'], (v) =>
      typeof v === 'number' ? Math.round(v) : v,
    ),
  ),
  fault(
    {
      id: 'conventions.boolean-anything-accepted',
      spec: '§2.3 (unknown_occupier, is_pinned: boolean)',
      subtle: true,
      description: 'Any value is taken for a boolean by its truthiness.',
    },
    leniently(['unknown_occupier', 'is_pinned'], (v) => (typeof v === 'boolean' ? v : Boolean(v))),
  ),
  fault(
    {
      id: 'conventions.boolean-strings-accepted',
      spec: '§2.3 (unknown_occupier, is_pinned: boolean)',
      subtle: true,
      description: 'The strings "true" and "false" are taken for booleans.',
      level: 'SHOULD',
      why: 'Many frameworks read these strings as booleans; refusing them is a reading of the boolean type, not a statement.',
    },
    leniently(['unknown_occupier', 'is_pinned'], (v) => (v === 'true' ? true : v === 'false' ? false : v)),
  ),
  // Types outside the account payload: where no rule looked before.
  fault(
    {
      id: 'conventions.dry-run-type-unchecked',
      spec: '§4.1 process (dry_run: boolean), §7.2',
      subtle: false,
      description:
        'The type of dry_run is not checked, and anything but the boolean true runs a real process: dry_run "sí" imports the account.',
    },
    { ignoreIssue: (e) => e.attr === 'dry_run' },
  ),
  fault(
    {
      id: 'conventions.statement-amount-type-unchecked',
      spec: '§2.6 (gross_amount: number), §4.2 historical statements, §7.2',
      subtle: false,
      description: 'A historical statement accepts any value as gross_amount, text included.',
    },
    { ignoreIssue: (e) => /^statements\.\d+\.gross_amount$/.test(e.attr) },
  ),
  fault(
    {
      id: 'conventions.bodies-labelled-text',
      spec: '§4 (Bodies are JSON)',
      subtle: false,
      level: 'SHOULD',
      why: '§4 says bodies are JSON but names no header: the label is HTTP (RFC 9110 §8.3), judged at SHOULD by conventions.media-type.json',
      description: 'Every JSON body is sent with Content-Type: text/plain.',
    },
    {
      around: Object.fromEntries(
        (Object.keys(model.endpoints) as EndpointId[]).map((id) => [
          id,
          rewrite(id, (r) =>
            r.body === undefined ? r : { ...r, headers: { ...r.headers, 'content-type': 'text/plain; charset=utf-8' } },
          ).around![id]!,
        ]),
      ),
    },
  ),
  fault(
    {
      id: 'conventions.listing-datetimes-offset',
      spec: '§2.1 (Datetimes use ISO 8601 YYYY-MM-DDTHH:MM:SSZ), §2.9',
      subtle: false,
      level: 'SHOULD',
      why: '§2.1 shows the form with Z but calls it ISO 8601, which allows an offset: judged at SHOULD by conventions.datetime.written-with-z',
      description: 'The account import process listings write account_created_at with +00:00 instead of Z.',
    },
    {
      around: Object.fromEntries(
        (['allAccountImportProcesses', 'importedAccountImportProcesses'] as const).map((id) => [
          id,
          rewrite(id, (r) => ({
            ...r,
            body: mapStrings(r.body, (v, key) => (key === 'account_created_at' ? v.replace(/Z$/, '+00:00') : v)),
          })).around![id]!,
        ]),
      ),
    },
  ),
];
