/**
 * §2.3 types and enumerations, one defect each, refused by validate and stage at its path (the
 * property rules draw the same kinds at random; these examples make each one certain to be sent):
 * a documented enum value in another case, a fraction where an integer is due, a value that no
 * reading makes a boolean — and, at SHOULD, a boolean sent as the string "true".
 */
import { defineRules } from '../core/engine/rule.js';
import { defect } from './conventions.js';

export default defineRules(
  'conventions',
  [
    defect({
      id: 'conventions.enum.wrong-case',
      spec: '§2.3 supply point (GAS or ELECTRICITY), §7.1',
      kind: 'enum-wrong-case',
      title: 'A supply_type written in another case (gas) is refused, with attr at the field',
      at: 'supply_addresses.0.supply_points.1.supply_type',
      value: 'gas',
      what: 'a supply type in lower case',
    }),
    defect({
      id: 'conventions.enum.transaction-type-case',
      spec: '§2.4 (type), §7.1',
      kind: 'enum-wrong-case',
      title: 'A transaction type written in another case (charge) is refused, with attr at the field',
      at: 'ledgers.0.current_statement_transactions.1.type',
      value: 'charge',
      what: 'a transaction type in lower case',
    }),
    defect({
      id: 'conventions.integer.fraction',
      spec: '§2.3 agreement (estimated_monthly_fee_in_cents: integer), §7.1',
      kind: 'fraction-for-integer',
      title: 'A number with a fraction where an integer is due (1250.5) is refused, with attr at the field',
      at: 'supply_addresses.0.supply_points.1.agreements.0.estimated_monthly_fee_in_cents',
      value: 1250.5,
      what: 'a fraction for an integer',
    }),
    defect({
      id: 'conventions.boolean.not-a-boolean',
      spec: '§2.3 (unknown_occupier: boolean), §7.1',
      kind: 'not-a-boolean',
      title: 'A value no reading makes a boolean ("sí") is refused where a boolean is due, with attr at the field',
      at: 'unknown_occupier',
      value: 'sí',
      what: 'text for a boolean',
    }),
    defect({
      id: 'conventions.boolean.string',
      spec: '§2.3 (unknown_occupier: boolean), §7.1',
      kind: 'boolean-as-string',
      title: 'A boolean sent as the string "true" is refused, with attr at the field',
      why: 'The field is a boolean, but many frameworks (Django REST framework among them) read the strings "true" and "false" as booleans; refusing them is a reading.',
      at: 'unknown_occupier',
      value: 'true',
      what: 'the string "true" for a boolean',
    }),
  ],
  { needs: ['ongoingSupplier'] },
);
