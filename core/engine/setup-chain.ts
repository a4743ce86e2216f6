/**
 * Establishes the setup chain before any rule (see setup.ts for what it finds): each step through the
 * rules' own setup steps (Given), a refusal recorded as one cause with the config key that fixes it.
 */
import { capText, showControls } from '../http/bounds.js';
import type { HttpResponse } from '../http/client.js';
import { ExchangeError } from '../http/exchange.js';
import type { Given } from './given.js';
import { NotImplemented, PreconditionError } from './failures.js';
import type { Preconditions } from './needs.js';
import { Setup, type SetupDeadline, type SetupStep } from './setup.js';

const README_HINT = 'see "When your implementation requires more than the spec shows" in the README';

/** The most of one attr or code a cause quotes: the target's text, bounded and shown as data. */
const ITEM_LIMIT = 200;
const item = (value: unknown) =>
  showControls(capText(typeof value === 'string' ? value : String(value ?? ''), ITEM_LIMIT));

function errorItems(res: HttpResponse): { attr: string; code: string }[] {
  const body = res.jsonIfRead() as { errors?: unknown } | undefined;
  const items = Array.isArray(body?.errors) ? (body.errors as { attr?: unknown; code?: unknown }[]) : [];
  return items.slice(0, 20).map((e) => ({ attr: item(e?.attr), code: item(e?.code) }));
}

function describeAnswer(res: HttpResponse, errors: { attr: string; code: string }[]): string {
  const where = `${res.exchange.request.method} ${res.exchange.request.url}`;
  const items = errors.length
    ? `: ${errors
        .slice(0, 5)
        .map((e) => `${e.attr || '(no attr)'} (${e.code || 'no code'})`)
        .join(', ')}${errors.length > 5 ? `, and ${errors.length - 5} more` : ''}`
    : '';
  const top = (res.jsonIfRead() as { code?: unknown } | undefined)?.code;
  return `${where} answered ${res.status}${typeof top === 'string' && !errors.length ? ` (code ${item(top)})` : ''}${items}`;
}

/** The config keys that fix a refusal, read from the status and the attrs the implementation named. */
function fixFor(
  step: SetupStep,
  res: HttpResponse,
  errors: { attr: string; code: string }[],
): { fix: string[]; hint: string } {
  const attrs = errors.map((e) => e.attr);
  if (res.status === 404 || res.status === 405 || res.status === 501) {
    if (step === 'import' && res.status === 404)
      return {
        fix: ['fixtures.operations_team', 'payloads.account'],
        hint: 'the process endpoint did not find the account or the team',
      };
    return { fix: ['base_url'], hint: `the endpoint is not there (${res.status}): check base_url` };
  }
  if (res.status === 401 || res.status === 403)
    return { fix: ['auth.token', 'auth.api_key'], hint: 'the token was refused for this endpoint' };
  const supplier = attrs.some((a) => a === 'import_supplier' || a === 'import_supplier_code');
  switch (step) {
    case 'account':
      return {
        // No attr to go by: the supplier (paused? unknown?) is as likely as the payload.
        fix: supplier
          ? ['fixtures.import_suppliers.ongoing', 'payloads.account']
          : attrs.length
            ? ['payloads.account']
            : ['payloads.account', 'fixtures.import_suppliers.ongoing'],
        hint: `set payloads.account to an account payload your implementation accepts (${README_HINT})`,
      };
    case 'import':
      if (res.status === 429)
        return {
          fix: ['fixtures.concurrency_limit'],
          hint: 'the §8 concurrency limit answered 429 for the whole retry budget',
        };
      return {
        fix: attrs.some((a) => a.includes('operations_team'))
          ? ['fixtures.operations_team']
          : ['fixtures.operations_team', 'payloads.account'],
        hint: 'set fixtures.operations_team to a team that exists (§4.1 process rule 1), or payloads.account to an account your implementation imports',
      };
    case 'business':
      return {
        fix: supplier
          ? ['fixtures.import_suppliers.ongoing', 'payloads.business']
          : attrs.length
            ? ['payloads.business']
            : ['payloads.business', 'fixtures.import_suppliers.ongoing'],
        hint: `set payloads.business to a business payload your implementation accepts (${README_HINT})`,
      };
    case 'link':
      return {
        fix: ['account.business_contract_identifier_path', 'payloads.account'],
        hint: 'set account.business_contract_identifier_path to where your implementation reads business.business_contract_identifier (§2.3: position not shown)',
      };
  }
}

function refusal(setup: Setup, step: SetupStep, res: HttpResponse): void {
  const errors = errorItems(res);
  setup.refuse(step, {
    answer: describeAnswer(res, errors),
    status: res.status,
    ...(errors.length ? { errors } : {}),
    ...fixFor(step, res, errors),
  });
}

/** When the setup chain must be done by (the run's --max-time), and how to say it. */

/** Runs one step; an exchange that breaks is a cause too (the target, not the payload), and so is the run's deadline. */
async function attempt(
  setup: Setup,
  step: SetupStep,
  run: () => Promise<HttpResponse | undefined>,
  deadline?: SetupDeadline,
): Promise<boolean> {
  const late = () =>
    setup.refuse(step, {
      answer: `${deadline!.words} before this step was done`,
      fix: ['run.max_time_s'],
      hint: 'give the run more time (--max-time / run.max_time_s)',
    });
  if (deadline && Date.now() >= deadline.at) {
    late();
    return false;
  }
  try {
    let timer: NodeJS.Timeout | undefined;
    const expired = deadline
      ? new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), deadline.at - Date.now())))
      : undefined;
    const res = await (expired ? Promise.race([run(), expired]) : run()).finally(() => clearTimeout(timer));
    if (res === 'late') {
      late();
      return false;
    }
    if (!res) return true;
    refusal(setup, step, res);
    return false;
  } catch (error) {
    if (error instanceof NotImplemented) {
      setup.notImplemented(step, error);
      return false;
    }
    if (!(error instanceof ExchangeError) && !(error instanceof PreconditionError)) throw error;
    setup.refuse(step, {
      answer: error.message,
      fix: ['base_url'],
      hint: 'the target broke the exchange; check that it is up and answers JSON',
    });
    return false;
  }
}

/**
 * Establishes each step whose preconditions are configured, in order; a step that stands on a refused
 * one is not attempted (and is refused with the same cause, so rules name the first one).
 */
export async function establishSetup(
  given: Given,
  preconditions: Preconditions,
  deadline?: SetupDeadline,
  setup: Setup = new Setup(),
): Promise<Setup> {
  const config = preconditions.config;
  if (!config.import_suppliers?.ongoing) {
    for (const step of ['account', 'import', 'business', 'link'] as const) setup.record(step, 'not configured');
    return setup;
  }
  const accepted = (res: HttpResponse, ...ok: number[]) => (ok.includes(res.status) ? undefined : res);

  let staged: { supplier: string; ext: string } | undefined;
  const accountOk = await attempt(
    setup,
    'account',
    async () => {
      const account = given.account();
      const res = await given.stage(account, 'setup chain: stage the canonical account');
      staged = { supplier: account.import_supplier, ext: account.external_account_number };
      return accepted(res, 200, 201);
    },
    deadline,
  );
  if (accountOk) setup.record('account', 'established');

  if (!config.operations_team) setup.record('import', 'not configured');
  else if (!accountOk) inherit(setup, 'import', 'account');
  // Retries a 429 as every process call does (§4.1 rule 4); a 429 left after the budget is the refusal named.
  else if (
    await attempt(
      setup,
      'import',
      async () =>
        accepted(
          (await given.processWithRetries(staged!.supplier, staged!.ext, {}, 'setup chain: process the staged account'))
            .res,
          201,
        ),
      deadline,
    )
  ) {
    setup.record('import', 'established');
  }

  let contract: string | undefined;
  const businessOk = await attempt(
    setup,
    'business',
    async () => {
      const payload = given.businessPayload(1);
      const res = await given.createBusiness(payload, 'setup chain: create the canonical business');
      contract = payload.business?.business_contracts?.[0]?.identifier;
      return accepted(res, 201);
    },
    deadline,
  );
  if (businessOk) setup.record('business', 'established');

  if (!accountOk) inherit(setup, 'link', 'account');
  else if (!businessOk) inherit(setup, 'link', 'business');
  else if (!contract) setup.record('link', 'not attempted');
  else if (
    await attempt(
      setup,
      'link',
      async () =>
        accepted(
          await given.stage(
            given.linkToContract(given.account(), contract!),
            'setup chain: stage an account linked to the business contract',
          ),
          200,
          201,
        ),
      deadline,
    )
  ) {
    setup.record('link', 'established');
  }
  return setup;
}

/** A step that stands on a refused one shares its cause. */
function inherit(setup: Setup, step: SetupStep, on: SetupStep): void {
  setup.alias(step, on);
}
