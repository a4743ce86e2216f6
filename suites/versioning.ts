/** §9 versioning. */
import { defineRules } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import { listing } from './support.js';

export default defineRules('versioning', [
  {
    id: 'versioning.v1-prefix',
    spec: '§9.1',
    level: 'MUST',
    title: 'The interface is served under the /v1/ prefix',
    needs: ['ongoingSupplier'],
    endpoints: ['allAccountImportProcesses'],
    async check(ctx) {
      const res = await listing(ctx, 'all', ctx.preconditions.ongoingSupplier, 'a documented /v1/ path');
      ctx.expect.status(res, 200);
    },
  },
  {
    id: 'versioning.extra-response-fields',
    spec: '§9.2',
    level: 'INFO',
    why: 'New fields may be added to responses; the suite never fails on them and records which it saw.',
    title: 'Which undocumented fields the service adds to its responses',
    needs: TO_IMPORT,
    endpoints: ['stageAccount', 'processAccount', 'accountTransferStatus'],
    async check(ctx) {
      const account = ctx.given.account();
      const extra = (body: unknown, documented: string[]) =>
        body && typeof body === 'object' && !Array.isArray(body)
          ? Object.keys(body).filter((k) => !documented.includes(k))
          : [];
      const staged = await ctx.api.call('stageAccount', { body: account, step: 'stage' });
      const processed = await ctx.given.process(account.import_supplier, account.external_account_number);
      const status = await ctx.api.call('accountTransferStatus', {
        params: {
          import_supplier_code: account.import_supplier,
          external_account_number: account.external_account_number,
        },
        step: 'status',
      });
      const found = [
        ...extra(staged.isJson ? staged.json() : undefined, ['import_supplier', 'external_account_number']).map(
          (k) => `stage: ${k}`,
        ),
        ...extra(processed.isJson ? processed.json() : undefined, ['service_account_number']).map(
          (k) => `process: ${k}`,
        ),
        ...extra(status.isJson ? status.json() : undefined, ['status', 'service_account_number']).map(
          (k) => `status: ${k}`,
        ),
      ];
      ctx.observe(found.length ? `extra fields: ${found.join(', ')}` : 'no extra fields');
    },
  },
]);
