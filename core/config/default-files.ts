/**
 * The configuration files a run reads when none is named, in the working directory. Its own module:
 * the CLI looks for them before it loads the configuration's reader (app/cli/run.ts).
 */
export const DEFAULT_CONFIG_FILES = ['conformance.config.yaml', 'conformance.config.yml'];
