/** Faults of §4.1 account migration (validate, stage, process), §2.2 supplier status and the §3 states. */
import type { AccountPayload, EndpointId } from '../../core/spec/index.js';
import type { HandlerRequest } from '../handlers/shared.js';
import { reply } from '../reply.js';
import { validationError } from '../validation.js';
import { alter, body, fault, rewrite } from './helpers.js';
import type { Around, FaultDefinition } from './types.js';

const processKey = (req: HandlerRequest) =>
  body<{ import_supplier_code?: string; external_account_number?: string }>(req.body);

/** Accounts a fault remembers, keyed like the store. */
const keyOf = (supplier?: string, ext?: string) => JSON.stringify([supplier, ext]);

type ProcessBody = { import_supplier_code?: string; external_account_number?: string; dry_run?: unknown };

export const migrationFaults: FaultDefinition[] = [
  fault(
    {
      id: 'migration.stage.paused-allowed',
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
      id: 'migration.stage.complete-allowed',
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
      id: 'migration.stage.paused-allowed-on-update',
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
      id: 'migration.process.paused-allowed',
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
      id: 'migration.stage.skipped-allowed',
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
      id: 'migration.process.team-unchecked',
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
      id: 'migration.process.no-concurrency-limit',
      spec: '§8, §4.1 process rule 4',
      subtle: true,
      description: 'The enabled concurrency limit is never applied.',
    },
    { checks: () => ({ concurrencyLimited: false }) },
  ),
  fault(
    {
      id: 'migration.stage.always-201',
      spec: '§3, §4.1',
      subtle: true,
      description: 'Staging again answers 201 instead of 200.',
    },
    rewrite('stageAccount', (r) => (r.status === 200 ? { ...r, status: 201 } : r)),
  ),
  fault(
    {
      id: 'migration.stage.update-keeps-first',
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
      id: 'migration.stage.after-import-allowed',
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
      id: 'migration.stage.response-misnames-account',
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
      id: 'migration.validate.stages',
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
      id: 'migration.validate.no-echo',
      spec: '§4.1 (the validated data as body)',
      subtle: false,
      description: 'Validation answers 200 with an empty object instead of the validated data.',
    },
    rewrite('validateAccount', (r) => (r.status === 200 ? { ...r, body: {} } : r)),
  ),
  fault(
    {
      id: 'migration.validate.echo-drops-email',
      placement: { by: ['migration.validate.echo-fidelity'], beside: ['relations.echo.'] },
      spec: '§4.1 (the validated data as body)',
      subtle: true,
      description:
        "The validated data leaves out every customer's email (a nested field), though it was sent and valid.",
    },
    rewrite('validateAccount', (r) => {
      const b = body<{ customers?: Record<string, unknown>[] }>(r.body);
      if (r.status !== 200 || !Array.isArray(b.customers)) return r;
      return { ...r, body: { ...b, customers: b.customers.map(({ email: _email, ...c }) => c) } };
    }),
  ),
  fault(
    {
      id: 'migration.process.unstaged-creates',
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
      id: 'migration.process.dry-run-creates',
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
      id: 'migration.process.dry-run-201',
      spec: '§4.1 process rule 2',
      subtle: true,
      description: 'A dry run that would succeed answers 201 (with a number) instead of 400.',
    },
    rewrite('processAccount', (r) =>
      r.status === 400 && body(r.body).code === 'dry_run' ? reply(201, { service_account_number: 'A-DRYRUN00' }) : r,
    ),
  ),
  dryRunTrace(
    {
      id: 'migration.process.dry-run-hides-account',
      spec: '§3 (dry run: staged, nothing created), §4.3',
      subtle: true,
      description:
        'After a dry run the account is missing from the pending and all listings, though it is still staged.',
    },
    (dryRun) => {
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
      return { pendingAccountImportProcesses: hide, allAccountImportProcesses: hide };
    },
  ),
  fault(
    {
      id: 'migration.process.already-imported-without-numbers',
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
      id: 'migration.process.already-imported-other-number',
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
      id: 'migration.process.twice-creates-again',
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
    id: 'migration.process.429-sticky',
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
      id: 'migration.process.limit-as-400',
      spec: '§4.1 process rule 4, §7.2',
      subtle: false,
      description: 'Exceeding the concurrency limit answers 400 instead of 429.',
    },
    rewrite('processAccount', (r) => (r.status === 429 ? { ...r, status: 400 } : r)),
  ),
  fault(
    {
      id: 'migration.process.dry-run-string-truthy',
      spec: '§4.1 (dry_run: boolean), §4.1 process rule 2, §7.1',
      subtle: true,
      description:
        'dry_run sent as a string is read by its truthiness, so the string "false" runs a dry run (answered with the dry-run 400) instead of a validation error.',
    },
    alter('processAccount', (req) => {
      const b = body(req.body);
      return typeof b.dry_run === 'string' && b.dry_run !== '' ? { ...req, body: { ...b, dry_run: true } } : req;
    }),
  ),
  fault(
    {
      id: 'migration.process.dry-run-unsupported',
      spec: '§4.1 (dry_run: boolean, optional), process rule 2',
      subtle: false,
      description: 'dry_run: true is refused as an unsupported field (a validation error on dry_run).',
    },
    {
      around: {
        processAccount: (req, _env, next) =>
          body<ProcessBody>(req.body).dry_run === true
            ? validationError([{ attr: 'dry_run', code: 'unsupported', detail: 'Dry runs are not supported.' }])
            : next(req),
      },
    },
  ),
  fault(
    {
      id: 'migration.process.dry-run-skips-checks',
      spec: '§4.1 process rules 1 and 2 (the full creation runs), §2.2',
      subtle: true,
      description: 'A dry run for a staged account answers "would succeed" without checking the team or the supplier.',
    },
    {
      around: {
        processAccount: (req, env, next) => {
          const b = body<ProcessBody>(req.body);
          const process = env.store.process(b.import_supplier_code ?? '', b.external_account_number ?? '');
          return b.dry_run === true && process && !process.account ? env.choices.dryRunWouldSucceed() : next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'migration.process.dry-run-imported-without-numbers',
      spec: '§4.1 process rule 3',
      subtle: true,
      description: 'A dry run for an imported account answers 400 without the external and service account numbers.',
    },
    {
      around: {
        processAccount: async (req, _env, next) => {
          const r = await next(req);
          if (body<ProcessBody>(req.body).dry_run !== true || r.status !== 400) return r;
          const {
            external_account_number: _e,
            service_account_number: _s,
            ...rest
          } = body<Record<string, unknown>>(r.body);
          return { ...r, body: rest };
        },
      },
    },
  ),
  fault(
    {
      id: 'migration.process.complete-allowed',
      spec: '§2.2 (Complete: accounts that try to migrate get an error)',
      subtle: true,
      description: 'An account staged before its supplier was marked Complete can still be processed.',
    },
    {
      checks: (spec) => ({
        refusesProcessingFor: (status) => status !== 'Complete' && spec.refusesProcessingFor(status),
      }),
    },
  ),
  // Traces of a dry run where no rule looked before (the dry-run rules read the status, the
  // pending and all listings and a real process afterwards).
  dryRunTrace(
    {
      id: 'migration.process.dry-run-leaves-notes-open',
      placement: { by: ['migration.process.dry-run-no-trace'] },
      spec: '§4.1 process rule 2, §4.2 notes rule 1',
      subtle: true,
      description: 'After a dry run the account takes notes (201) as if it had been imported.',
    },
    (dryRun) => ({
      createNotes: async (req, env, next) => {
        const r = await next(req);
        const b = body<{ import_supplier?: string; external_account_number?: string; notes?: { body?: string }[] }>(
          req.body,
        );
        if (r.status !== 404 || !dryRun.has(keyOf(b.import_supplier, b.external_account_number))) return r;
        const now = `${env.now().toISOString().slice(0, 19)}Z`;
        return reply(
          201,
          (b.notes ?? []).map((n) => ({ created_at: now, body: n.body ?? null, status: 'NOTE_CREATION_SUCCESS' })),
        );
      },
    }),
  ),
  dryRunTrace(
    {
      id: 'migration.process.dry-run-listed-as-imported',
      placement: { by: ['migration.process.dry-run-not-listed-as-imported'] },
      spec: '§4.1 process rule 2, §4.3 (imported listing, body not shown)',
      subtle: true,
      level: 'SHOULD',
      why: "The imported listing's body is not shown (§4.3): that it leaves out an account a dry run rolled back is a strong reading.",
      description: 'After a dry run the imported listing shows the account, though it is only staged.',
    },
    (dryRun) => ({
      importedAccountImportProcesses: async (req, env, next) => {
        const r = await next(req);
        if (r.status !== 200 || !Array.isArray(r.body)) return r;
        const supplier = req.params.import_supplier_code;
        const ghosts = env.store
          .processesOf(supplier)
          .filter((p) => p.account === null && dryRun.has(keyOf(supplier, p.externalAccountNumber)))
          .map((p) => ({
            external_account_number: p.externalAccountNumber,
            service_account_number: 'A-DRYRUN00',
            account_created_at: `${env.now().toISOString().slice(0, 19)}Z`,
          }));
        return { ...r, body: [...r.body, ...ghosts] };
      },
    }),
  ),
  {
    id: 'migration.stage.skipped-listed-on-400',
    placement: { by: ['refused.stage.skipped'], beside: ['refused.', 'conventions.types.', 'relations.defect.'] },
    spec: '§3 (account not … skipped), §4.1 failures of staging (400), §4.3 all listing',
    subtle: true,
    description:
      'Staging an account marked to be skipped answers 400, but each refused staging leaves one more import-process record in the all listing (a record per attempt).',
    create() {
      const listed = new Map<string, string[]>();
      return {
        around: {
          stageAccount: async (req, env, next) => {
            const r = await next(req);
            const b = body<{ import_supplier?: unknown; external_account_number?: unknown }>(req.body);
            if (
              r.status === 400 &&
              typeof b.import_supplier === 'string' &&
              typeof b.external_account_number === 'string' &&
              env.store.isSkipped(b.import_supplier, b.external_account_number)
            )
              listed.set(b.import_supplier, [...(listed.get(b.import_supplier) ?? []), b.external_account_number]);
            return r;
          },
          allAccountImportProcesses: async (req, _env, next) => {
            const r = await next(req);
            const extra = listed.get(req.params.import_supplier_code) ?? [];
            if (r.status !== 200 || !Array.isArray(r.body) || !extra.length) return r;
            return reply(200, [
              ...r.body,
              ...extra.map((ext) => ({
                external_account_number: ext,
                service_account_number: null,
                account_created_at: null,
              })),
            ]);
          },
        },
      };
    },
  },
  {
    id: 'migration.process.refused-dry-run-stamps-created-at',
    placement: {
      by: ['refused.process.paused-supplier-dry-run', 'refused.process.complete-supplier-dry-run'],
      beside: ['refused.', 'conventions.types.', 'relations.defect.'],
    },
    spec: '§4.1 process rule 2 (rolled back), §2.2, §4.3 all listing',
    subtle: true,
    description:
      "A dry run refused for a Paused or Complete supplier's staged account is not fully rolled back: the all listing then shows an account_created_at for it.",
    create() {
      const stamped = new Map<string, string>();
      const keyOf2 = (supplier: unknown, ext: unknown) => JSON.stringify([supplier, ext]);
      return {
        around: {
          processAccount: async (req, env, next) => {
            const r = await next(req);
            const b = body<ProcessBody>(req.body);
            const process =
              typeof b.import_supplier_code === 'string' && typeof b.external_account_number === 'string'
                ? env.store.process(b.import_supplier_code, b.external_account_number)
                : undefined;
            const supplier = process && env.store.suppliers.get(process.supplier);
            if (
              b.dry_run === true &&
              r.status >= 400 &&
              r.status < 500 &&
              process &&
              !process.account &&
              supplier &&
              supplier.status !== 'Ongoing'
            ) {
              // Each rolled-back attempt leaves its own start time, one second after the last at least.
              const k = keyOf2(process.supplier, process.externalAccountNumber);
              const last = stamped.get(k);
              const at = Math.max(env.now().getTime(), last ? Date.parse(last) + 1000 : 0);
              stamped.set(k, `${new Date(at).toISOString().slice(0, 19)}Z`);
            }
            return r;
          },
          allAccountImportProcesses: async (req, _env, next) => {
            const r = await next(req);
            if (r.status !== 200 || !Array.isArray(r.body) || !stamped.size) return r;
            return reply(
              200,
              (r.body as { external_account_number?: string; account_created_at?: unknown }[]).map((record) => {
                const at = stamped.get(keyOf2(req.params.import_supplier_code, record.external_account_number));
                return at ? { ...record, account_created_at: at } : record;
              }),
            );
          },
        },
      };
    },
  },
];

/**
 * A fault that remembers the accounts a dry run that would succeed was answered for, and leaves a
 * trace of it on other endpoints (`around`).
 */
function dryRunTrace(
  def: Omit<FaultDefinition, 'create'>,
  around: (dryRun: Set<string>) => Partial<Record<EndpointId, Around>>,
): FaultDefinition {
  return {
    ...def,
    create: () => {
      const dryRun = new Set<string>();
      return {
        around: {
          ...around(dryRun),
          processAccount: async (req, _env, next) => {
            const r = await next(req);
            const k = processKey(req);
            if (body(req.body).dry_run === true && r.status === 400 && body(r.body).code === 'dry_run')
              dryRun.add(keyOf(k.import_supplier_code, k.external_account_number));
            return r;
          },
        },
      };
    },
  };
}
