/**
 * §5.1: the token mutation "is authenticated with the organisation API key issued by the service
 * operator". A key the operator never issued (generated here, so no operator can have issued it)
 * must get no working token. The mutation's address, arguments and result are not shown, so the
 * rule uses the run's own configuration of them — and runs only when the run authenticates with an
 * API key (auth.api_key); with a configured token nothing says the mutation is set up right.
 */
import { randomBytes } from 'node:crypto';
import { getAtPath } from '../core/spec/paths.js';
import { defineRules } from '../core/engine/rule.js';
import { sampleRequest } from './support.js';

export default defineRules('auth', [
  {
    id: 'auth.api-key.unknown-key-no-token',
    spec: '§5.1 (the mutation is authenticated with the organisation API key issued by the service operator), §5.3',
    level: 'MUST',
    title:
      'ObtainServiceToken with an API key the operator never issued gives no token that works: any token it returns is refused with 401',
    endpoints: ['allAccountImportProcesses'],
    tags: ['auth'],
    async check(ctx) {
      const mutation = ctx.tokenMutation;
      if (!mutation)
        return ctx.skip(
          'the run uses a configured token, so the ObtainServiceToken mutation is not in use',
          'auth.api_key',
        );
      if (!mutation.path)
        return ctx.skip('the mutation is configured on another origin than the base URL', 'auth.graphql_url');
      const unknownKey = `unissued-${randomBytes(16).toString('hex')}`;
      const res = await ctx.api.request('POST', mutation.path, {
        body: { query: mutation.mutation, variables: { apiKey: unknownKey }, operationName: 'ObtainServiceToken' },
        auth: 'none',
        step: 'ObtainServiceToken with an API key nobody issued',
      });
      const token = res.isJson ? getAtPath(res.json(), mutation.tokenPath) : undefined;
      if (typeof token !== 'string' || token === '') {
        ctx.observe(`no token for an unknown API key (answered ${res.status})`);
        return;
      }
      // A token came back: it must not open the interface.
      const use = await ctx.api.call('allAccountImportProcesses', {
        ...sampleRequest(ctx, 'allAccountImportProcesses'),
        auth: { authorization: `Token ${token}` },
        step: 'use the token issued for the unknown key',
      });
      ctx.expect.status(use, 401, 'a token obtained with an API key the operator never issued (§5.1)');
    },
  },
]);
