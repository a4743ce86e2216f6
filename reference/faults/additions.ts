/** Faults of §4.2 agreements and supply points added to an imported account. */
import { fault, isValidationError, mapAttrs, rewrite } from './helpers.js';
import type { FaultDefinition } from './types.js';

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
];
