/**
 * The defect relation (issue #42): every MUST defect of generators/defects.ts at every documented
 * field it fits, not at the fields a property's random cases happen to meet (two of twelve bugs had
 * been caught only because 25 random cases put a defect in that nested field). §2.1: "A provided
 * optional field must satisfy its validation rules, and so must its sub-objects"; §7.2: "400 |
 * validation error on any endpoint"; the types and formats of §2.1 (dates, datetimes) and §2.3–§2.8.
 *
 * A place is an endpoint, a field of its request (every item of a list as `*`) and a defect kind
 * that fits the field's schema (`kindsFitting`: a date takes an impossible date, a malformed one and
 * a datetime, an enum a value outside its set and one in another case, an integer a fraction, a
 * boolean no boolean, every field another JSON type, a note losing its content). The places come
 * from the request schema in core/spec alone (`defectPlaces`), on every endpoint whose driver words
 * a field-type or a defect rule (core/engine/drivers.ts `types`): the account payload of validate
 * and stage, and every other typed request. SHOULD kinds (a datetime without Z, a boolean spelt as
 * a string, an expected field left out, a phone the spec gives no format for) are readings
 * (docs/freedoms.md) and no place of this MUST relation.
 *
 * The field types of a typed endpoint are sent by its `conventions.types.<slug>` rule; one rule per
 * endpoint here, `relations.defect.<endpoint>`, sends every other MUST kind (for the account
 * payload, every MUST kind), through the same check (`typesRefused`): the driver's valid request
 * with one defect, deterministically at each place — on a list's last item, where a server that
 * checks the first item alone lets it through —, each refused with a §7.1 validation error (404
 * allowed at a key that names the account or business), the account's observable state unchanged,
 * and the valid request afterwards taken as new (accepted, where the driver sees no effect, and for
 * validate staged as a first staging).
 */
import type { RelationKind } from '../core/engine/relations.js';
import { CATALOGUE, type Catalogue } from '../core/engine/drivers.js';
import { defineRules, type Rule, type RuleInput } from '../core/engine/rule.js';
import { defectKinds, type DefectKind } from '../generators/index.js';
import {
  DEFECT_RELATION,
  defectEndpoints,
  defectRelationPlaces,
  MUST_TYPE_DEFECTS,
  typesRefused,
} from './conventions-types.js';
import { endpointSlug } from '../core/engine/relations.js';

/** The MUST kinds of generators/defects.ts: what the spec makes a defect without a reading. */
export const MUST_DEFECTS: readonly DefectKind[] = defectKinds('MUST');

/** The kinds a defect rule sends at an endpoint: all MUST kinds, but the field types where a `conventions.types.*` rule sends them. */
const kindsOf = (typed: boolean): DefectKind[] => MUST_DEFECTS.filter((k) => !typed || !MUST_TYPE_DEFECTS.includes(k));

/** One MUST rule per endpoint with places left after its field-type rule (relations.defect.<endpoint>). */
export const defectRules = (c: Catalogue = CATALOGUE): RuleInput[] =>
  defectEndpoints(c).flatMap((t): RuleInput[] => {
    const kinds = kindsOf(t.typed);
    const places = defectRelationPlaces(t, kinds);
    if (!places.length) return [];
    return [
      {
        id: `relations.defect.${endpointSlug(t.endpoint)}`,
        spec: t.spec,
        level: 'MUST',
        title: `A ${t.what} with any one MUST defect at any documented field it fits (${t.typed ? 'an impossible or malformed date or datetime, a value outside a documented set, a note without content, a malformed e-mail' : 'every field type, an impossible or malformed date or datetime, a value outside or in another case of a documented set, a fraction for an integer, a note without content, a malformed e-mail'}), on the last item of every list, is refused with a validation error and leaves nothing behind`,
        endpoints: [t.endpoint],
        needs: t.needs,
        tags: ['validation'],
        relation: { kind: DEFECT_RELATION, places },
        check: (ctx) => typesRefused(ctx, t, kinds, places),
      },
    ];
  });

/**
 * The relation: every place of the model where a MUST defect fits, on every endpoint whose driver
 * words a field-type or defect rule, against the places the registered rules state.
 */
export const defectRelation: RelationKind = {
  id: DEFECT_RELATION,
  spec: '§2.1, §7.2, §7.1',
  sentence:
    '"A provided optional field must satisfy its validation rules, and so must its sub-objects." (§2.1); "400 | validation error on any endpoint" (§7.2)',
  applies: (c) => defectEndpoints(c).flatMap((t) => defectRelationPlaces(t, MUST_DEFECTS)),
  covered: (rules: readonly Rule[]) =>
    rules.flatMap((r) => (r.relation?.kind === DEFECT_RELATION ? r.relation.places : [])),
};

export default defineRules('relations', defectRules(), { needs: ['ongoingSupplier'] });
