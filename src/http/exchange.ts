/** One request and its response (or the failure to get one), as recorded for reports. */
export interface Exchange {
  /** Order within the rule. */
  seq: number;
  /** The step of the rule that made the request, when it named one. */
  step?: string;
  request: {
    method: string;
    /** Path and query under the base URL (or the absolute URL for the token endpoint). */
    url: string;
    headers: Record<string, string>;
    body?: string;
    body_truncated?: boolean;
  };
  response?: {
    status: number;
    headers: Record<string, string>;
    body?: string;
    body_truncated?: boolean;
    bytes: number;
  };
  /** Set when no complete response arrived. */
  error?: { kind: ExchangeErrorKind; message: string };
  duration_ms: number;
  /** Set in reports where headers and bodies were left out (see src/report/transcripts.ts). */
  brief?: boolean;
}

export type ExchangeErrorKind = 'timeout' | 'refused' | 'reset' | 'too_large' | 'aborted' | 'other';

/**
 * The exchange itself broke: no response, a reset, a timeout, a body too large, or a body that is
 * not JSON where JSON is due. A rule that meets one is an **error**, never a **fail**: it says
 * nothing about conformance.
 */
export class ExchangeError extends Error {
  constructor(
    readonly kind: ExchangeErrorKind | 'not_json',
    message: string,
  ) {
    super(message);
    this.name = 'ExchangeError';
  }
}

/** Transcripts keep bodies readable but bounded. */
export const TRANSCRIPT_BODY_LIMIT = 16 * 1024;

export function clip(text: string, limit = TRANSCRIPT_BODY_LIMIT): { body: string; body_truncated?: boolean } {
  return text.length > limit ? { body: `${text.slice(0, limit)}…`, body_truncated: true } : { body: text };
}
