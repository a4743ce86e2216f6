/**
 * §4.1 Account migration: validate, stage and process an account. Each endpoint's request body is
 * defined here beside its row of the spec's table (method, path, the documented answers), so an
 * endpoint of this section is one request and one row in this file; core/spec/requests.ts and
 * core/spec/endpoints.ts put the sections together, and the operation id is the row's key.
 */
import { z } from 'zod';
import type { ModelBuilder } from '../builder.js';
import type { Documented, EndpointRow, Resources, Responses } from '../endpoint-row.js';

/** The request bodies and parameters of §4.1, in the order the model registers their names. */
export function requests(b: ModelBuilder) {
  const { field } = b;
  const ProcessAccountRequest = b.request(
    { id: 'ProcessAccountRequest', spec: '§4.1 process' },
    {
      external_account_number: field(z.string().min(1), 'required', 'names the staged account (§4.1)'),
      import_supplier_code: field(z.string().min(1), 'required', 'names the supplier (§4.1)'),
      operations_team_name: field(
        z.string().min(1),
        'required',
        '§4.1 process rule 1: the named team must already exist',
      ),
      dry_run: field(z.boolean(), 'optional'),
    },
  );

  return { ProcessAccountRequest };
}

/** The rows of §4.1, keyed by operation id (its one name: core/spec/endpoints.ts `endpointSlug`). */
export function endpoints(
  q: ReturnType<typeof requests> & Pick<Resources, 'AccountPayload'>,
  s: Responses,
  { validationError, unauthorized }: Documented,
) {
  return {
    validateAccount: {
      words: 'account validation',
      looksUp: false,
      method: 'POST',
      stores: false,
      path: '/v1/data-import/validate-account/',
      spec: '§4.1',
      title: 'Validate an account payload',
      body: q.AccountPayload,
      responses: [
        {
          status: 200,
          spec: '§4.1',
          description: 'the validated data',
          body: s.ValidatedAccount,
          echoes: { from: '', strength: 'stated' },
        },
        validationError('§4.1, §7.1'),
        unauthorized,
      ],
    },
    stageAccount: {
      words: 'account staging (create-or-update)',
      looksUp: false,
      method: 'POST',
      stores: true,
      path: '/v1/data-import/account-import-process/create-or-update/',
      spec: '§4.1, §3',
      title: 'Stage (create or update) an account payload',
      body: q.AccountPayload,
      responses: [
        { status: 201, spec: '§4.1, §3', description: 'first staging', body: s.StageAccountResponse },
        { status: 200, spec: '§4.1, §3', description: 'staged data replaced', body: s.StageAccountResponse },
        {
          status: 400,
          spec: '§4.1, §3, §7.1',
          description: 'invalid payload (§7.1 body), account already imported or skipped, supplier paused or complete',
          body: 'not shown',
        },
        unauthorized,
      ],
    },
    processAccount: {
      words: 'account processing',
      looksUp: true,
      method: 'POST',
      stores: false,
      path: '/v1/data-import/account-import-process/process/',
      spec: '§4.1, §3',
      title: 'Process staged data into a live account',
      body: q.ProcessAccountRequest,
      responses: [
        { status: 201, spec: '§4.1', description: 'the account was created', body: s.ProcessAccountResponse },
        {
          status: 400,
          spec: '§4.1 rules 1-3',
          description:
            'dry run that would succeed (rolled back), account already imported (body adds both numbers), team missing or data not staged',
          body: 'not shown',
        },
        unauthorized,
        {
          status: 429,
          spec: '§4.1 rule 4, §8',
          description: 'the optional concurrency limit is enabled and exceeded; retry after other accounts finish',
          body: 'not shown',
        },
      ],
    },
  } satisfies Record<string, EndpointRow>;
}
