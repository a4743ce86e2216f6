/** A problem with the configuration: it names the file, the key path and what is wrong (exit 2). */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly problems: string[] = [],
  ) {
    super(problems.length ? `${message}\n${problems.map((p) => `  - ${p}`).join('\n')}` : message);
    this.name = 'ConfigError';
  }
}
