/** Faults of §7: the validation error body (§7.1) and bad input never answered with a 5xx (§7.2). */
import { model, type EndpointId } from '../../core/spec/index.js';
import { reply } from '../reply.js';
import { fault, isValidationError, mapAttrs, rewrite } from './helpers.js';
import type { Around, FaultDefinition } from './types.js';

const ALL: EndpointId[] = Object.values(model.endpoints).map((e) => e.id);

/** The same reply change on every endpoint. */
const everywhere = (change: Parameters<typeof rewrite>[1], endpoints: EndpointId[] = ALL) => ({
  around: Object.fromEntries(endpoints.map((e) => [e, rewrite(e, change).around![e]!])) as Partial<
    Record<EndpointId, Around>
  >,
});

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
  fault(
    {
      id: 'errors.process-500-without-team',
      spec: '§7.2 (400: validation error on any endpoint)',
      subtle: false,
      description: 'A process request without operations_team_name answers 500.',
    },
    {
      around: {
        processAccount: (req, _env, next) =>
          req.body && typeof req.body === 'object' && !('operations_team_name' in req.body)
            ? reply(500, { detail: 'Internal server error.' })
            : next(req),
      },
    },
  ),
  fault(
    {
      id: 'errors.transactions-500-on-non-list',
      spec: '§7.2 (400: validation error on any endpoint)',
      subtle: true,
      description: 'A transactions request whose transactions is not a list answers 500.',
    },
    {
      around: {
        createTransactions: (req, _env, next) => {
          const b = req.body as { transactions?: unknown } | null;
          return b && typeof b === 'object' && 'transactions' in b && !Array.isArray(b.transactions)
            ? reply(500, { detail: 'Internal server error.' })
            : next(req);
        },
      },
    },
  ),
];
