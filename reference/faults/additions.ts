/** Faults of §4.2 agreements and supply points added to an imported account. */
import { asNonFieldErrors, validationError } from '../validation.js';
import { body, fault, isValidationError, mapAttrs, rewrite } from './helpers.js';
import type { Around, FaultDefinition } from './types.js';

export const additionFaults: FaultDefinition[] = [
  fault(
    {
      id: 'additions.agreements-all-attr',
      spec: '§7.1 (non_field_errors)',
      subtle: false,
      description: 'The agreements endpoint reports errors under __all__ instead of non_field_errors.',
    },
    rewrite('createAgreements', (r) => mapAttrs(r, (a) => (a === 'non_field_errors' ? '__all__' : a))),
  ),
  fault(
    {
      id: 'additions.supply-points-field-attrs',
      spec: '§7.1 (non_field_errors)',
      subtle: true,
      description:
        'The supply-points endpoint reports field errors at their field paths instead of under non_field_errors.',
    },
    rewrite('createSupplyPoints', (r) =>
      isValidationError(r)
        ? {
            ...r,
            body: {
              ...r.body,
              errors: r.body.errors.map((e) => ({ ...e, attr: /^([\w.]+): /.exec(e.detail)?.[1] ?? e.attr })),
            },
          }
        : r,
    ),
  ),
  fault(
    {
      id: 'additions.supply-points-200',
      spec: '§4.2 supply points (201)',
      subtle: false,
      description: 'Adding supply points answers 200 instead of 201.',
    },
    rewrite('createSupplyPoints', (r) => (r.status === 201 ? { ...r, status: 200 } : r)),
  ),
  {
    id: 'additions.agreements-refused-leave-a-lock',
    spec: '§7.2 (404: account not found), §4.2 agreements',
    subtle: true,
    // Only a request refused for an account not (yet) imported, and the same account taking agreements
    // once imported, show it: every older rule sends agreements to an account imported first.
    placement: { by: ['refused.unknown-account.create-agreements'] },
    description:
      'An agreements request refused with 404 (account not found or only staged) leaves a pending row keyed by the account, and once the account is imported every agreements request for it is refused with 400 until an operator clears the row.',
    create: () => {
      const pending = new Set<string>();
      const key = (b: Record<string, unknown>) => JSON.stringify([b.import_supplier, b.external_account_number]);
      const around: Around = async (req, env, next) => {
        const b = body(req.body);
        if (
          pending.has(key(b)) &&
          env.store.importedAccount(String(b.import_supplier), String(b.external_account_number))
        )
          return validationError(
            asNonFieldErrors([
              {
                attr: 'non_field_errors',
                code: 'pending',
                detail: 'An earlier agreements request for this account is pending.',
              },
            ]),
          );
        const r = await next(req);
        if (r.status === 404) pending.add(key(b));
        return r;
      };
      return { around: { createAgreements: around } };
    },
  },
];
