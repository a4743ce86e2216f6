/**
 * §2.3 types and enumerations, one defect each, refused by validate and stage at its path (the
 * property rules draw the same kinds at random; these examples make each one certain to be sent):
 * a documented enum value in another case, a fraction where an integer is due, a value that no
 * reading makes a boolean — and, at SHOULD, a boolean sent as the string "true".
 */
import { defineRules } from '../src/engine/rule.js';
import { defect } from './conventions.js';

export default defineRules('conventions', [
  defect(
    'conventions.enum.wrong-case',
    '§2.3 supply point (GAS or ELECTRICITY), §7.1',
    'MUST',
    'A supply_type written in another case (gas) is refused, with attr at the field',
    () => 'supply_addresses.0.supply_points.1.supply_type',
    'gas',
    'a supply type in lower case',
  ),
  defect(
    'conventions.enum.transaction-type-case',
    '§2.4 (type), §7.1',
    'MUST',
    'A transaction type written in another case (charge) is refused, with attr at the field',
    () => 'ledgers.0.current_statement_transactions.1.type',
    'charge',
    'a transaction type in lower case',
  ),
  defect(
    'conventions.integer.fraction',
    '§2.3 agreement (estimated_monthly_fee_in_cents: integer), §7.1',
    'MUST',
    'A number with a fraction where an integer is due (1250.5) is refused, with attr at the field',
    () => 'supply_addresses.0.supply_points.1.agreements.0.estimated_monthly_fee_in_cents',
    1250.5,
    'a fraction for an integer',
  ),
  defect(
    'conventions.boolean.not-a-boolean',
    '§2.3 (unknown_occupier: boolean), §7.1',
    'MUST',
    'A value no reading makes a boolean ("sí") is refused where a boolean is due, with attr at the field',
    () => 'unknown_occupier',
    'sí',
    'text for a boolean',
  ),
  defect(
    'conventions.boolean.string',
    '§2.3 (unknown_occupier: boolean), §7.1',
    'SHOULD',
    'A boolean sent as the string "true" is refused, with attr at the field',
    () => 'unknown_occupier',
    'true',
    'the string "true" for a boolean',
    'The field is a boolean, but many frameworks (Django REST framework among them) read the strings "true" and "false" as booleans; refusing them is a reading.',
  ),
]);
