/** What a handler answers: a status, an optional JSON body (absent means an empty body), headers. */
export interface Reply {
  status: number;
  /** `undefined` sends an empty body (§4.2 "201, empty body"). */
  body?: unknown;
  headers?: Record<string, string>;
}

export const reply = (status: number, body?: unknown, headers?: Record<string, string>): Reply => ({
  status,
  body,
  headers,
});

/** A refusal with the `{detail, code}` pair the service uses for errors that are not §7.1 bodies. */
export const refusal = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}): Reply =>
  reply(status, { detail, code, ...extra });
