/** Faults of §5 authentication and of the §7.1 validation error body. */
import { model, type EndpointId } from '../../src/spec/index.js';
import { isValidToken, tokenFromHeader } from '../auth.js';
import type { HandlerRequest, ServerEnv } from '../handlers/shared.js';
import { reply } from '../reply.js';
import { fault, isValidationError, mapAttrs, rewrite } from './helpers.js';
import type { Around, FaultDefinition } from './types.js';

const ALL: EndpointId[] = Object.values(model.endpoints).map((e) => e.id);
const hasValidToken = (req: HandlerRequest, env: ServerEnv) =>
  isValidToken(env.store, tokenFromHeader(req.headers.authorization), env.now().getTime());

/** The same reply change on every endpoint. */
const everywhere = (change: Parameters<typeof rewrite>[1], endpoints: EndpointId[] = ALL) => ({
  around: Object.fromEntries(endpoints.map((e) => [e, rewrite(e, change).around![e]!])) as Partial<
    Record<EndpointId, Around>
  >,
});

export const authFaults: FaultDefinition[] = [
  fault(
    {
      id: 'auth.open-business-payment-instruction',
      spec: '§5.3',
      subtle: true,
      description:
        'The business payment instruction endpoint, the one §5.3 names, answers requests without a valid token.',
    },
    { authenticate: (endpoint, _h, ok) => ok || endpoint === 'createBusinessPaymentInstruction' },
  ),
  fault(
    {
      id: 'auth.open-imported-listing',
      spec: '§5.3, §7.2',
      subtle: true,
      description: 'The imported-accounts listing answers without a token.',
    },
    { authenticate: (endpoint, _h, ok) => ok || endpoint === 'importedAccountImportProcesses' },
  ),
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
];

export const errorFaults: FaultDefinition[] = [
  fault(
    {
      id: 'errors.attr-one-based',
      spec: '§7.1 (attr)',
      subtle: true,
      description: 'Numeric parts of attr count from one: customers.1.email is reported as customers.2.email.',
    },
    everywhere((r) =>
      mapAttrs(r, (a) => a.replace(/(^|\.)(\d+)(?=\.|$)/g, (_m, dot: string, n: string) => `${dot}${Number(n) + 1}`)),
    ),
  ),
  fault(
    {
      id: 'errors.attr-brackets',
      spec: '§7.1 (attr)',
      subtle: true,
      description: 'attr uses brackets for indexes: customers[1].email.',
    },
    everywhere((r) => mapAttrs(r, (a) => a.replace(/\.(\d+)(?=\.|$)/g, '[$1]'))),
  ),
  fault(
    {
      id: 'errors.attr-index-zero',
      spec: '§7.1 (attr)',
      subtle: true,
      description: 'Every index in attr is reported as 0, which is right only for the first item.',
    },
    everywhere((r) => mapAttrs(r, (a) => a.replace(/(^|\.)\d+(?=\.|$)/g, '$10'))),
  ),
  fault(
    {
      id: 'errors.attr-leaf-only',
      spec: '§7.1 (attr)',
      subtle: false,
      description: 'attr names only the field (email), not its path.',
    },
    everywhere((r) =>
      mapAttrs(
        r,
        (a) =>
          a
            .split('.')
            .filter((p) => !/^\d+$/.test(p))
            .pop() ?? a,
      ),
    ),
  ),
  fault(
    {
      id: 'errors.no-errors-list',
      spec: '§7.1',
      subtle: false,
      description: 'A validation error of the validate endpoint has no errors list.',
    },
    rewrite('validateAccount', (r) =>
      isValidationError(r) ? { ...r, body: { detail: r.body.detail, code: r.body.code } } : r,
    ),
  ),
  fault(
    {
      id: 'errors.item-without-detail',
      spec: '§7.1',
      subtle: false,
      description: 'errors items of the notes endpoint have no detail.',
    },
    rewrite('createNotes', (r) =>
      isValidationError(r)
        ? { ...r, body: { ...r.body, errors: r.body.errors.map(({ detail: _d, ...rest }) => rest) } }
        : r,
    ),
  ),
  {
    id: 'errors.codes-unstable',
    spec: '§7.1 (code is stable)',
    subtle: true,
    description: 'errors codes carry a counter, so the same input gives different codes each time.',
    create: () => {
      let n = 0;
      return everywhere((r) =>
        isValidationError(r)
          ? { ...r, body: { ...r.body, errors: r.body.errors.map((e) => ({ ...e, code: `${e.code}_${++n}` })) } }
          : r,
      );
    },
  },
  fault(
    {
      id: 'errors.stage-attrs-differ',
      spec: '§4.1 (same rules as validate), §7.1',
      subtle: true,
      description: 'Stage reports its attrs under an "account." prefix that validate does not use.',
    },
    rewrite('stageAccount', (r) => mapAttrs(r, (a) => `account.${a}`)),
  ),
];
