/**
 * Rule ids as they were before every rule named an endpoint by its one name (its operation id in
 * kebab case, core/spec/endpoints.ts `endpointSlug`). The generic families named it by its camelCase
 * operation id (`auth.401.createNotes`) and the field-type rules by a slug of their own
 * (`conventions.types.notes`). A baseline, a `--rule`, an `allow_skip` or a report written with an
 * old id still means the rule it meant: it is read as the new id, and the run says so once, so the
 * file can be brought up to date without a failure going unexcused in between.
 */
import { endpointSlug } from '../spec/index.js';

/** The families whose rule ids ended in the camelCase operation id. */
const FAMILIES =
  /^(auth\.401|auth\.refused-has-no-effect|errors\.bad-input\.no-5xx|refused\.validation\.valid-items-not-kept|refused\.validation|refused\.unknown-account|errors\.404)\.([a-z]+[A-Z][A-Za-z]*)$/;

/** The field-type rules' own slugs, and the operation id each named. */
const TYPE_SLUGS: Readonly<Record<string, string>> = {
  process: 'processAccount',
  notes: 'createNotes',
  transactions: 'createTransactions',
  'billing-documents': 'createHistoricalBillingDocuments',
  statements: 'createHistoricalStatements',
  'payment-instruction': 'createPaymentInstruction',
  business: 'createBusiness',
  'business-payment-instruction': 'createBusinessPaymentInstruction',
};

/** The id `id` was renamed to, when `id` names no rule now and its new name does; else undefined. */
export function currentRuleId(id: string, known: ReadonlySet<string>): string | undefined {
  if (known.has(id)) return undefined;
  const family = FAMILIES.exec(id);
  const renamed = family
    ? `${family[1]}.${endpointSlug(family[2])}`
    : id.startsWith('conventions.types.') && TYPE_SLUGS[id.slice('conventions.types.'.length)]
      ? `conventions.types.${endpointSlug(TYPE_SLUGS[id.slice('conventions.types.'.length)])}`
      : undefined;
  return renamed && known.has(renamed) ? renamed : undefined;
}

/** The line a run prints for an old id it read as the new one (`where`: the flag or file it came from). */
export const renamedNote = (where: string, from: string, to: string) =>
  `${where}: rule id '${from}' is now '${to}' (every rule names an endpoint by its operation id in kebab case); read as '${to}' — rename it there.`;

/**
 * `values` with each old rule id replaced by its new one, and a note for each replaced. Globs and
 * anything else that is not an old id pass through unchanged.
 */
export function withCurrentIds(
  values: readonly string[],
  known: ReadonlySet<string>,
  where: string,
): { values: string[]; notes: string[] } {
  const notes: string[] = [];
  const out = values.map((v) => {
    const to = currentRuleId(v, known);
    if (!to) return v;
    notes.push(renamedNote(where, v, to));
    return to;
  });
  return { values: out, notes };
}
