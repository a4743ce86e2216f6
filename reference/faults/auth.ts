/** Faults of §5 authentication: who may call, with which token, and what a refusal says (§5.3). */
import { isValidToken, tokenFromHeader } from '../auth.js';
import type { HandlerRequest, ServerEnv } from '../handlers/shared.js';
import { reply } from '../reply.js';
import { fault } from './helpers.js';
import type { EndpointId } from '../../core/spec/index.js';
import type { FaultDefinition, Next, Placement } from './types.js';

const hasValidToken = (req: HandlerRequest, env: ServerEnv) =>
  isValidToken(env.store, tokenFromHeader(req.headers.authorization), env.now().getTime());

export const authFaults: FaultDefinition[] = [
  fault(
    {
      id: 'auth.any-token-on-status',
      spec: '§5.3, §7.2',
      subtle: true,
      description: 'The status endpoint accepts any token, valid or not.',
    },
    { authenticate: (endpoint, h, ok) => ok || (endpoint === 'accountTransferStatus' && /^Token \S+$/.test(h ?? '')) },
  ),
  fault(
    {
      id: 'auth.bare-scheme-on-notes',
      spec: '§5.3',
      subtle: true,
      description: 'The notes endpoint accepts "Authorization: Token" with no token after it.',
    },
    { authenticate: (endpoint, h, ok) => ok || (endpoint === 'createNotes' && h?.trim() === 'Token') },
  ),
  fault(
    {
      id: 'auth.bearer-accepted',
      spec: '§5.2',
      subtle: true,
      description: 'A valid token is also accepted under the Bearer scheme.',
      level: 'SHOULD',
      why: '§5.2 shows the Token form as the documented example; it does not say other schemes are refused.',
    },
    {
      authenticate: (_e, h, ok, env) =>
        ok || (!!h && /^Bearer \S+$/.test(h) && isValidToken(env.store, h.slice(7), env.now().getTime())),
    },
  ),
  fault(
    {
      id: 'auth.401-carries-data',
      spec: '§5.3, §7.2',
      subtle: true,
      description: 'The 401 of the pending listing carries the listing it refuses to give.',
    },
    {
      authenticate: (endpoint, _h, ok) => ok || endpoint === 'pendingAccountImportProcesses',
      around: {
        pendingAccountImportProcesses: async (req, env, next) => {
          if (hasValidToken(req, env)) return next(req);
          const data = await next(req);
          return reply(401, {
            detail: 'Authentication credentials were not provided.',
            code: 'not_authenticated',
            data: data.body,
          });
        },
      },
    },
  ),
  fault(
    {
      id: 'auth.stage-without-token-applies',
      spec: '§5.3, §7.2',
      subtle: true,
      description: 'Staging without a token answers 401 but stages the data anyway.',
    },
    {
      authenticate: (endpoint, _h, ok) => ok || endpoint === 'stageAccount',
      around: {
        stageAccount: async (req, env, next) => {
          if (hasValidToken(req, env)) return next(req);
          await next(req);
          return reply(401, { detail: 'Authentication credentials were not provided.', code: 'not_authenticated' });
        },
      },
    },
  ),
  // Requests performed and only then answered 401, on endpoints other than staging (where
  // auth.401.* looked only at the status code, with a request for an account that does not exist).
  performedThen401('createNotes', {
    id: 'auth.notes-stored-on-401',
    placement: { by: ['auth.refused-has-no-effect.create-notes'] },
    description: 'Notes sent without a valid token are stored, though the answer is 401.',
  }),
  performedThen401('createTransactions', {
    id: 'auth.transactions-added-on-401',
    placement: { by: ['auth.refused-has-no-effect.create-transactions'] },
    description: 'Transactions sent without a valid token are added to the account, though the answer is 401.',
  }),
  performedThen401('createBusiness', {
    id: 'auth.business-created-on-401',
    placement: { by: ['auth.refused-has-no-effect.create-business'] },
    description: 'A business sent without a valid token is created, though the answer is 401.',
  }),
  fault(
    {
      id: 'auth.unknown-api-key-token',
      spec: '§5.1 (authenticated with the API key issued by the operator)',
      subtle: false,
      description: 'ObtainServiceToken issues a working token for an API key the operator never issued.',
    },
    { checks: () => ({ apiKeyMustBeIssued: false }) },
  ),
];

/** `endpoint` performs a request without a valid token (its token checked after the work) and answers 401. */
function performedThen401(
  endpoint: EndpointId,
  def: { id: string; description: string; placement: Placement },
): FaultDefinition {
  return fault(
    { ...def, spec: '§5.3, §7.2', subtle: true },
    {
      authenticate: (e, _h, ok) => ok || e === endpoint,
      around: {
        [endpoint]: async (req: HandlerRequest, env: ServerEnv, next: Next) => {
          if (hasValidToken(req, env)) return next(req);
          await next(req);
          return env.choices.unauthorized();
        },
      },
    },
  );
}
