/** What a rule asks the client to send (core/http/client.ts). */
export interface HttpRequest {
  method: string;
  /** Path under the base URL, starting with `/`. */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Serialised as JSON. */
  body?: unknown;
  /** Sent as is (wins over `body`). */
  rawBody?: string;
  /** Step label for the transcript. */
  step?: string;
  /**
   * What the request breaks on purpose (no Authorization header, another scheme, a body that is not
   * JSON, a payload with a defect): a recording of the run says so, so that judging the recording
   * later never charges the suite's own probes to a client. A function is asked only when an
   * observer reads it (a recording), so a run without one does not pay for working it out.
   */
  deliberate?: string | (() => string | undefined);
  /** The request names its subject by a near miss of its key on purpose, in these words (core/engine/api.ts). */
  nearMiss?: string;
}
