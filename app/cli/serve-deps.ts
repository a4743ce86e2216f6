/** What `serve` loads once its flags are known to be good: the reference server. */
export {
  startReferenceServer,
  DEFAULT_TOKEN,
  DEFAULT_API_KEY,
  GRAPHQL_PATH,
  OPERATOR_PREFIX,
  OPERATOR_KEY_HEADER,
  faultById,
  VARIANT_PROFILES,
  profileById,
  faithfulChoices,
} from '../../reference/index.js';
export { SeedDocument, SettingsPatch, applySettings } from '../../reference/seed.js';
