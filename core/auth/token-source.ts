/**
 * The run's token. When the target answers 401 to a request that carried it (a token that expired
 * mid-run), the token is renewed once through the API key, if one is configured, and shared by
 * every rule; without an API key, or when renewing does not help, the 401 stands and the run
 * reports that the token was refused mid-run.
 */
export class TokenSource {
  private token: string;
  private renewing?: Promise<string | null>;
  /** Tokens obtained after the first, and 401s to the current token that could not be cured. */
  readonly stats = { renewals: 0, refusedMidRun: 0 };

  constructor(
    initial: string,
    private readonly obtain?: () => Promise<string>,
    private readonly maxRenewals = 3,
  ) {
    this.token = initial;
  }

  current(): string {
    return this.token;
  }

  /**
   * Called when `refused` was answered 401. Resolves with a new token to retry with, or null when
   * there is none (no API key, renewal failed, or too many renewals already).
   */
  renew(refused: string): Promise<string | null> {
    if (refused !== this.token) return Promise.resolve(this.token); // another rule renewed it already
    if (!this.obtain || this.stats.renewals >= this.maxRenewals) {
      this.stats.refusedMidRun++;
      return Promise.resolve(null);
    }
    this.renewing ??= this.obtain()
      .then((token) => {
        this.token = token;
        this.stats.renewals++;
        return token as string | null;
      })
      .catch(() => {
        this.stats.refusedMidRun++;
        return null;
      })
      .finally(() => {
        this.renewing = undefined;
      });
    return this.renewing;
  }
}
