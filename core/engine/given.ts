/**
 * Setup steps rules stand on: an account staged, an account imported, a business created. When a
 * step cannot be established the rule is an **error** (it could not be judged), never a **fail**:
 * the rule that judges that step is the one that fails.
 */
import type { HttpResponse } from '../http/client.js';
import type { AccountPayload, BusinessRequest } from '../spec/index.js';
import type { Api } from './api.js';
import { snippet } from './expect.js';
import { PreconditionError } from './failures.js';
import type { Preconditions } from './needs.js';
import type { Ids } from './ids.js';
import { setAtPath } from '../spec/paths.js';
import type { Setup } from './setup.js';

export interface StagedAccount {
  supplier: string;
  ext: string;
  payload: AccountPayload;
}

export interface ImportedAccount extends StagedAccount {
  /** The service_account_number the process endpoint returned. */
  number: string;
}

export interface CreatedBusiness {
  supplier: string;
  externalIdentifier: string;
  contractIdentifiers: string[];
  serviceBusinessId: number;
  payload: BusinessRequest;
}

/** Moved to core/http/pacing.ts (every endpoint is paced now); kept here for callers. */
export { retryAfterMs } from '../http/pacing.js';

/** What Given stands on; the Api's pacing (PacingContext) holds the signal and the process retry budget. */
export interface GivenOptions {
  api: Api;
  ids: Ids;
  preconditions: Preconditions;
  /** Where the configuration puts business.business_contract_identifier (§2.3: not shown). */
  contractPath: string;
  /** The setup chain's findings: a step it found refused is not attempted again. */
  setup?: Setup;
}

export class Given {
  private readonly api: Api;
  private readonly ids: Ids;
  private readonly preconditions: Preconditions;
  private readonly contractPath: string;
  private readonly setup?: Setup;

  constructor({ api, ids, preconditions, contractPath, setup }: GivenOptions) {
    this.api = api;
    this.ids = ids;
    this.preconditions = preconditions;
    this.contractPath = contractPath;
    this.setup = setup;
  }

  private refuse(step: string, res: HttpResponse): never {
    throw new PreconditionError(
      `could not ${step}: ${res.exchange.request.method} ${res.exchange.request.url} answered ${res.status}: ${snippet(res.text, 200)}`,
      res.exchange.seq,
    );
  }

  /**
   * The account template (`payloads.account`, or the canonical account with every documented
   * field) for the ongoing supplier (or `supplier`), every identifier fresh. A rule that builds on
   * it is not judged when the setup chain found the implementation refusing it.
   */
  account(supplier = this.preconditions.ongoingSupplier): AccountPayload {
    this.setup?.require('account');
    return this.preconditions.payloads.account(this.ids, supplier);
  }

  /** Puts the §2.3 contract link where the configuration says it sits. */
  linkToContract(account: AccountPayload, contractIdentifier: string): AccountPayload {
    this.setup?.require('link');
    setAtPath(account as Record<string, unknown>, this.contractPath, contractIdentifier);
    return account;
  }

  /** Sends a stage request and returns the answer, whatever it is. */
  stage(payload: AccountPayload, step = 'setup: stage the account'): Promise<HttpResponse> {
    return this.api.call('stageAccount', { body: payload, step });
  }

  async staged(payload: AccountPayload = this.account()): Promise<StagedAccount> {
    this.setup?.require('account');
    const res = await this.stage(payload);
    if (res.status !== 201 && res.status !== 200) this.refuse('stage the account', res);
    return { supplier: payload.import_supplier, ext: payload.external_account_number, payload };
  }

  /**
   * Sends a process request, paced (core/engine/api.ts): a 429 of the §8 limit is retried as §4.1
   * rule 4 says (after other accounts finish), honouring `Retry-After`, and the call takes one of the
   * run's §8 slots. Every rule's process call goes through here; only the §8 rule looks at the 429
   * itself. When the limit still refuses after the budget, the rule could not be judged: a
   * PreconditionError, never a verdict on the 429.
   */
  async process(
    supplier: string,
    ext: string,
    extra: Record<string, unknown> = {},
    step = 'process the account',
  ): Promise<HttpResponse> {
    const { res, exhausted } = await this.processWithRetries(supplier, ext, extra, step);
    if (exhausted)
      throw new PreconditionError(
        `could not ${step.replace(/^setup: /, '')}: ${exhausted}; not judged`,
        res.exchange.seq,
      );
    return res;
  }

  /**
   * The same retries, for the §8 rule that judges them: returns the last response, a 429 when the
   * budget ran out, with what happened in `exhausted`.
   */
  processWithRetries(
    supplier: string,
    ext: string,
    extra: Record<string, unknown> = {},
    step = 'process the account',
  ): Promise<{ res: HttpResponse; exhausted?: string }> {
    const body = {
      external_account_number: ext,
      import_supplier_code: supplier,
      operations_team_name: this.preconditions.operationsTeam,
      ...extra,
    };
    return this.api.callPaced('processAccount', { body, step, pacing: 'paced' });
  }

  async imported(payload: AccountPayload = this.account()): Promise<ImportedAccount> {
    this.setup?.require('import');
    const staged = await this.staged(payload);
    const res = await this.process(staged.supplier, staged.ext, {}, 'setup: process the account');
    if (res.status !== 201) this.refuse('process the account', res);
    const number = res.isJson ? (res.json() as { service_account_number?: unknown }).service_account_number : undefined;
    if (typeof number !== 'string' || number === '')
      this.refuse('read the service_account_number of the created account', res);
    return { ...staged, number };
  }

  /**
   * The business template (`payloads.business`, or the canonical business) with `contracts`
   * contracts, every identifier fresh (not sent).
   */
  businessPayload(contracts = 2, supplier = this.preconditions.ongoingSupplier): BusinessRequest {
    this.setup?.require('business');
    return this.preconditions.payloads.business(this.ids, supplier, contracts);
  }

  /** Sends a business request and returns the answer, whatever it is. */
  createBusiness(payload: BusinessRequest, step = 'setup: create the business'): Promise<HttpResponse> {
    return this.api.call('createBusiness', { body: payload, step });
  }

  async business(
    contracts = 2,
    supplier = this.preconditions.ongoingSupplier,
    payload: BusinessRequest = this.businessPayload(contracts, supplier),
  ): Promise<CreatedBusiness> {
    const res = await this.createBusiness(payload);
    if (res.status !== 201) this.refuse('create the business', res);
    const id = res.isJson ? (res.json() as { service_business_id?: unknown }).service_business_id : undefined;
    return {
      supplier,
      externalIdentifier: payload.external_business_identifier,
      contractIdentifiers: (payload.business?.business_contracts ?? []).map((c) => c.identifier!),
      serviceBusinessId: typeof id === 'number' ? id : NaN,
      payload,
    };
  }
}
