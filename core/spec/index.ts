export { model, strictModel, buildModel, type SpecModel } from './model.js';
export {
  type EndpointId,
  type EndpointSpec,
  type DocumentedResponse,
  type Echo,
  endpointPath,
  endpointSlug,
  DATA_IMPORT_PREFIX,
} from './endpoints.js';
export type { Presence, ModelMode } from './meta.js';
export * from './conventions.js';
export * from './enums.js';
export * from './types.js';
export { missingDocumentedFields } from './completeness.js';
