/**
 * The spec model: every payload shape of the interface, built from one definition in two modes.
 * `model` enforces documented facts only and is what the suite judges by; `strictModel` also
 * enforces `expected` fields and is what the reference server implements (see meta.ts).
 */
import { createBuilder } from './builder.js';
import { defineEndpoints } from './endpoints.js';
import type { ModelMode } from './meta.js';
import { defineRequests } from './requests.js';
import { defineResources } from './resources.js';
import { defineResponses } from './responses.js';

export function buildModel(mode: ModelMode) {
  const b = createBuilder(mode);
  const resources = defineResources(b);
  const requests = defineRequests(b, resources);
  const responses = defineResponses(b);
  return { mode, ...resources, ...requests, ...responses, endpoints: defineEndpoints(requests, responses) };
}

export type SpecModel = ReturnType<typeof buildModel>;

export const model: SpecModel = buildModel('spec');
export const strictModel: SpecModel = buildModel('strict');
