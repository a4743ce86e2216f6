export { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from './server.js';
export {
  defaultSeed,
  applySeed,
  DEFAULT_FIXTURES,
  DEFAULT_TOKEN,
  DEFAULT_API_KEY,
  type SeedDocument,
  type SettingsPatch,
} from './seed.js';
export { faithfulChoices, type Choices } from './choices.js';
export {
  VARIANT_PROFILES,
  profileById,
  variantChoices,
  variantRunConfig,
  type VariantProfile,
} from './profiles.js';
export { FAULTS, faultById } from './faults/catalogue.js';
export type { FaultDefinition } from './faults/types.js';
export { OPERATOR_PREFIX, OPERATOR_KEY_HEADER, operatorRoutes } from './operator.js';
export { GRAPHQL_PATH, GRAPHQL_SCHEMA_SDL, graphqlSchemaSdl } from './graphql.js';
export { ReferenceStore } from './store.js';
