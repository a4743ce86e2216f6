/** Faults of §2.1 conventions, §2.2 suppliers, §3 states and §4.1 validate / stage / process. */
import type { AccountPayload } from '../../src/spec/index.js';
import type { HandlerRequest } from '../handlers/shared.js';
import { reply } from '../reply.js';
import { ACCOUNT_FAILED_VALIDATION, validationError } from '../validation.js';
import { body, clone, fault, mapStrings, rewrite } from './helpers.js';
import type { Around, FaultDefinition } from './types.js';

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

const processKey = (req: HandlerRequest) =>
  body<{ import_supplier_code?: string; external_account_number?: string }>(req.body);

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
      const i = (a.notes ?? []).findIndex((n) => n.document_paths?.some((d) => d.document_path?.startsWith('/')));
      if (i >= 0)
        return {
          attr: `notes.${i}.document_paths.0.document_path`,
          code: 'invalid',
          detail: 'Paths must be relative.',
        };
      const s = (a.statements ?? []).findIndex((st) => st.statement_path?.startsWith('/'));
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
      const i = (a.notes ?? []).findIndex((n) => n.created_at === undefined);
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
];

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

/** Accounts a fault remembers, keyed like the store. */
const keyOf = (supplier?: string, ext?: string) => JSON.stringify([supplier, ext]);

export const migrationFaults: FaultDefinition[] = [
  fault(
    {
      id: 'stage.paused-allowed',
      spec: '§2.2, §4.1',
      subtle: false,
      description: 'Staging is accepted for a Paused supplier.',
    },
    {
      checks: (spec) => ({
        refusesStagingFor: (status, restaging) => status !== 'Paused' && spec.refusesStagingFor(status, restaging),
      }),
    },
  ),
  fault(
    {
      id: 'stage.complete-allowed',
      spec: '§2.2, §4.1',
      subtle: false,
      description: 'Staging is accepted for a Complete supplier.',
    },
    {
      checks: (spec) => ({
        refusesStagingFor: (status, restaging) => status !== 'Complete' && spec.refusesStagingFor(status, restaging),
      }),
    },
  ),
  fault(
    {
      id: 'stage.paused-allowed-on-update',
      spec: '§2.2, §4.1',
      subtle: true,
      description: 'For a Paused supplier, first staging is refused but an update of staged data is accepted.',
    },
    {
      checks: (spec) => ({
        refusesStagingFor: (status, restaging) =>
          !(restaging && status === 'Paused') && spec.refusesStagingFor(status, restaging),
      }),
    },
  ),
  fault(
    {
      id: 'process.paused-allowed',
      spec: '§2.2 (accounts that try to migrate get an error)',
      subtle: true,
      description: 'An account staged before its supplier was paused can still be processed.',
    },
    {
      checks: (spec) => ({
        refusesProcessingFor: (status) => status !== 'Paused' && spec.refusesProcessingFor(status),
      }),
    },
  ),
  fault(
    {
      id: 'stage.skipped-allowed',
      spec: '§3, §4.1',
      subtle: false,
      description: 'An account marked to be skipped can be staged.',
    },
    {
      around: {
        // The mark is read by staging only, so a server that forgets it on staging never refuses.
        stageAccount: (req, env, next) => {
          const { import_supplier: supplier, external_account_number: ext } = body<{
            import_supplier?: unknown;
            external_account_number?: unknown;
          }>(req.body);
          if (typeof supplier === 'string' && typeof ext === 'string') env.store.unmarkSkipped(supplier, ext);
          return next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'process.team-unchecked',
      spec: '§4.1 process rule 1',
      subtle: false,
      description: 'The operations team is not checked.',
    },
    {
      around: {
        // Processing keeps nothing of the team, so an unknown one taken for a known one is never seen.
        processAccount: (req, env, next) => {
          const team = body<{ operations_team_name?: unknown }>(req.body).operations_team_name;
          const known = [...env.store.operationsTeams][0];
          if (typeof team !== 'string' || env.store.operationsTeams.has(team) || known === undefined) return next(req);
          return next({ ...req, body: { ...body(req.body), operations_team_name: known } });
        },
      },
    },
  ),
  fault(
    {
      id: 'process.no-concurrency-limit',
      spec: '§8, §4.1 process rule 4',
      subtle: true,
      description: 'The enabled concurrency limit is never applied.',
    },
    { checks: () => ({ concurrencyLimited: false }) },
  ),
  fault(
    {
      id: 'stage.always-201',
      spec: '§3, §4.1',
      subtle: true,
      description: 'Staging again answers 201 instead of 200.',
    },
    rewrite('stageAccount', (r) => (r.status === 200 ? { ...r, status: 201 } : r)),
  ),
  fault(
    {
      id: 'stage.update-keeps-first',
      spec: '§3 (staged again: data replaced)',
      subtle: true,
      description: 'Staging again answers 200 but keeps the first data.',
    },
    {
      around: {
        stageAccount: (req, env, next) => {
          const p = body<AccountPayload>(req.body);
          const existing = env.store.process(p.import_supplier, p.external_account_number);
          return existing && !existing.account
            ? reply(200, { import_supplier: p.import_supplier, external_account_number: p.external_account_number })
            : next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'stage.after-import-allowed',
      spec: '§3 (imported: stage answers 400)',
      subtle: true,
      description: 'Staging an imported account answers 200 and changes nothing.',
    },
    {
      around: {
        stageAccount: (req, env, next) => {
          const p = body<AccountPayload>(req.body);
          return env.store.importedAccount(p.import_supplier, p.external_account_number)
            ? reply(200, { import_supplier: p.import_supplier, external_account_number: p.external_account_number })
            : next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'stage.response-misnames-account',
      spec: '§4.1',
      subtle: false,
      description: 'The stage response names the supplier code under import_supplier_code instead of import_supplier.',
    },
    rewrite('stageAccount', (r) =>
      r.status < 300
        ? {
            ...r,
            body: {
              import_supplier_code: body(r.body).import_supplier,
              external_account_number: body(r.body).external_account_number,
            },
          }
        : r,
    ),
  ),
  fault(
    {
      id: 'validate.stages',
      spec: '§4.1 (validation stages nothing)',
      subtle: true,
      description: 'Validating a valid payload also stages it.',
    },
    {
      around: {
        validateAccount: async (req, env, next) => {
          const r = await next(req);
          const p = body<AccountPayload>(req.body);
          if (r.status === 200 && !env.store.process(p.import_supplier, p.external_account_number)) {
            env.store.putProcess({
              supplier: p.import_supplier,
              externalAccountNumber: p.external_account_number,
              payload: p,
              inProgress: false,
              account: null,
            });
          }
          return r;
        },
      },
    },
  ),
  fault(
    {
      id: 'validate.no-echo',
      spec: '§4.1 (the validated data as body)',
      subtle: false,
      description: 'Validation answers 200 with an empty object instead of the validated data.',
    },
    rewrite('validateAccount', (r) => (r.status === 200 ? { ...r, body: {} } : r)),
  ),
  fault(
    {
      id: 'process.unstaged-creates',
      spec: '§4.1 process rule 1',
      subtle: true,
      description: 'Processing an account that was never staged creates it from nothing.',
    },
    {
      around: {
        processAccount: (req, env, next) => {
          const k = processKey(req);
          if (
            k.import_supplier_code &&
            k.external_account_number &&
            env.store.suppliers.has(k.import_supplier_code) &&
            !env.store.process(k.import_supplier_code, k.external_account_number)
          ) {
            env.store.putProcess({
              supplier: k.import_supplier_code,
              externalAccountNumber: k.external_account_number,
              payload: { import_supplier: k.import_supplier_code, external_account_number: k.external_account_number },
              inProgress: false,
              account: null,
            });
          }
          return next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'process.dry-run-creates',
      spec: '§4.1 process rule 2',
      subtle: true,
      description: 'A dry run answers with the dry-run 400 but keeps the account it created.',
    },
    {
      around: {
        processAccount: async (req, env, next) => {
          if (body(req.body).dry_run !== true) return next(req);
          const real = await next({ ...req, body: { ...body(req.body), dry_run: false } });
          return real.status === 201 ? env.choices.dryRunWouldSucceed() : real;
        },
      },
    },
  ),
  fault(
    {
      id: 'process.dry-run-201',
      spec: '§4.1 process rule 2',
      subtle: true,
      description: 'A dry run that would succeed answers 201 (with a number) instead of 400.',
    },
    rewrite('processAccount', (r) =>
      r.status === 400 && body(r.body).code === 'dry_run' ? reply(201, { service_account_number: 'A-DRYRUN00' }) : r,
    ),
  ),
  {
    id: 'process.dry-run-hides-account',
    spec: '§3 (dry run: staged, nothing created), §4.3',
    subtle: true,
    description: 'After a dry run the account is missing from the pending and all listings, though it is still staged.',
    create: () => {
      const dryRun = new Set<string>();
      const hide: Around = async (req, _env, next) => {
        const r = await next(req);
        return r.status === 200 && Array.isArray(r.body)
          ? {
              ...r,
              body: (r.body as { external_account_number: string; service_account_number: unknown }[]).filter(
                (p) =>
                  !(
                    dryRun.has(keyOf(req.params.import_supplier_code, p.external_account_number)) &&
                    p.service_account_number === null
                  ),
              ),
            }
          : r;
      };
      return {
        around: {
          processAccount: async (req, _env, next) => {
            const r = await next(req);
            const k = processKey(req);
            if (body(req.body).dry_run === true && r.status === 400 && body(r.body).code === 'dry_run')
              dryRun.add(keyOf(k.import_supplier_code, k.external_account_number));
            return r;
          },
          pendingAccountImportProcesses: hide,
          allAccountImportProcesses: hide,
        },
      };
    },
  },
  fault(
    {
      id: 'process.already-imported-without-numbers',
      spec: '§4.1 process rule 3',
      subtle: false,
      description: 'The 400 for an already imported account does not carry the two account numbers.',
    },
    rewrite('processAccount', (r) =>
      r.status === 400 && body(r.body).code === 'account_already_imported'
        ? reply(400, { detail: body(r.body).detail, code: 'account_already_imported' })
        : r,
    ),
  ),
  fault(
    {
      id: 'process.already-imported-other-number',
      spec: '§4.1 process rule 3',
      subtle: true,
      description: "The 400 for an already imported account carries a new service_account_number, not the account's.",
    },
    rewrite('processAccount', (r) =>
      r.status === 400 && body(r.body).code === 'account_already_imported'
        ? reply(400, {
            ...body(r.body),
            service_account_number: `${body<{ service_account_number: string }>(r.body).service_account_number}-2`,
          })
        : r,
    ),
  ),
  fault(
    {
      id: 'process.twice-creates-again',
      spec: '§3 (imported: process answers 400)',
      subtle: true,
      description: 'Processing an imported account again creates a new account.',
    },
    {
      around: {
        processAccount: (req, env, next) => {
          const k = processKey(req);
          const process = env.store.process(k.import_supplier_code ?? '', k.external_account_number ?? '');
          if (process?.account && body(req.body).dry_run !== true) process.account = null;
          return next(req);
        },
      },
    },
  ),
  {
    id: 'process.429-sticky',
    spec: '§4.1 process rule 4 (retried after other accounts finish)',
    subtle: true,
    description: 'An account refused with 429 keeps getting 429, so its retry never succeeds.',
    create: () => {
      const limited = new Set<string>();
      return {
        around: {
          processAccount: async (req, env, next) => {
            const k = keyOf(processKey(req).import_supplier_code, processKey(req).external_account_number);
            if (limited.has(k)) return env.choices.tooManyRequests();
            const r = await next(req);
            if (r.status === 429) limited.add(k);
            return r;
          },
        },
      };
    },
  },
  fault(
    {
      id: 'process.limit-as-400',
      spec: '§4.1 process rule 4, §7.2',
      subtle: false,
      description: 'Exceeding the concurrency limit answers 400 instead of 429.',
    },
    rewrite('processAccount', (r) => (r.status === 429 ? { ...r, status: 400 } : r)),
  ),
];
