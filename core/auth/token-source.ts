/**
 * The run's token. §5 leaves token lifetime and refresh "not shown", so a token may expire at any
 * moment of a run, as often as its lifetime makes it: when the target answers 401 to a request that
 * carried the current token, a new one is obtained through the API key (if one is configured) and
 * shared by every rule, and the request is sent once more with it — and again, a few times at most,
 * while each token it was refused with had expired in turn (core/engine/api.ts).
 *
 * What bounds renewing is what renewing achieves, not a count (a count turned a faithful target with
 * one-second tokens into dozens of rules failed): renewing stops for the rest of the run, said once
 * (`stopped`), when obtaining a token fails, or when newly obtained tokens are refused before the
 * target accepted them even once — then the 401 is not about an expired token. Twice in a row: a busy
 * runner may stall between obtaining a short-lived token and sending it, and one such token refused
 * says nothing yet. Without an API key the 401 stands from the first one.
 *
 * Many rules in flight meet the expiry at the same moment: the first 401 starts the renewal and the
 * others wait for it (single flight); a 401 to a token already replaced is answered with the current
 * one at once.
 */
/** Newly obtained tokens refused in a row, each before the target accepted it, that stop renewing. */
export const FRESH_REFUSALS_TO_STOP = 2;

export class TokenSource {
  private token: string;
  /** Whether the target has accepted the current token (the first one passed the preflight). */
  private accepted = true;
  /** Newly obtained tokens in a row refused before the target accepted one. */
  private refusedFresh = 0;
  private renewing?: Promise<string | null>;
  /**
   * Why renewing stopped for the rest of the run. It may quote the token request's answer (redacted
   * there, core/auth/token.ts), and reaches report.json and the console through the run's redactor.
   */
  private stoppedBecause?: string;
  /** Tokens obtained after the first, and 401s to the current token that could not be cured. */
  readonly stats = { renewals: 0, refusedMidRun: 0 };

  constructor(
    initial: string,
    private readonly obtain?: () => Promise<string>,
  ) {
    this.token = initial;
  }

  current(): string {
    return this.token;
  }

  /** Why renewing stopped, once it has; undefined while it may still renew (or never had to). */
  get stopped(): string | undefined {
    return this.stoppedBecause;
  }

  /** The target answered a request carrying `token` with something other than 401. */
  acceptedBy(token: string): void {
    if (token !== this.token) return;
    this.accepted = true;
    this.refusedFresh = 0;
  }

  /**
   * Called when `refused` was answered 401. Resolves with the token to send the request again with,
   * or null when there is none (no API key, or renewing has stopped).
   */
  renew(refused: string): Promise<string | null> {
    if (this.stoppedBecause) return this.uncured();
    if (refused !== this.token) return Promise.resolve(this.token); // renewed since it was sent
    if (!this.obtain) return this.stop('no API key is configured to obtain a new token');
    if (this.renewing) return this.renewing;
    // The current token came from a renewal and its first answers are 401: not an expiry, once more.
    if (!this.accepted && ++this.refusedFresh >= FRESH_REFUSALS_TO_STOP)
      return this.stop(
        `${FRESH_REFUSALS_TO_STOP} newly obtained tokens in a row were refused before the target accepted one`,
      );
    this.renewing = this.obtain()
      .then((token): string | null => {
        this.token = token;
        this.accepted = false;
        this.stats.renewals++;
        return token;
      })
      .catch((error: unknown) => {
        const why = error instanceof Error ? `: ${error.message}` : '';
        return this.stop(`obtaining a new token failed${why}`);
      })
      .finally(() => {
        this.renewing = undefined;
      });
    return this.renewing;
  }

  /**
   * Whether `token`, just refused, had expired in turn rather than been refused at birth: it was
   * replaced since (another rule renewed), or the target accepted it before this refusal.
   */
  expiredSince(token: string): boolean {
    return token !== this.token || this.accepted;
  }

  /**
   * The request sent again with a renewed token was answered 401 too, and no expiry explains it: the
   * 401 stands for it. The next 401 to that token, if it is never accepted, counts against it.
   */
  refusedAfterRenewal(): void {
    this.stats.refusedMidRun++;
  }

  private stop(why: string): Promise<null> {
    this.stoppedBecause ??= why;
    return this.uncured();
  }

  private uncured(): Promise<null> {
    this.stats.refusedMidRun++;
    return Promise.resolve(null);
  }
}
