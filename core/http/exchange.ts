import { z } from 'zod';
import { detached } from './bounds.js';

export const EXCHANGE_ERROR_KINDS = ['timeout', 'refused', 'reset', 'too_large', 'aborted', 'other'] as const;
export type ExchangeErrorKind = (typeof EXCHANGE_ERROR_KINDS)[number];

/**
 * One request and its response (or the failure to get one), as the client records it and as every
 * report shows it (report.json's `transcript` entries): one definition for both.
 */
export const ExchangeSchema = z.object({
  seq: z.int().describe('order within the rule'),
  step: z.string().optional().describe('the step of the rule that made the request, when it named one'),
  request: z.object({
    method: z.string(),
    url: z
      .string()
      .describe('path and query under the base URL (or the absolute token endpoint URL); secrets redacted'),
    headers: z.record(z.string(), z.string()).describe('secret-bearing headers keep only their scheme word'),
    body: z.string().optional(),
    body_truncated: z.boolean().optional(),
  }),
  response: z
    .object({
      status: z.int(),
      headers: z.record(z.string(), z.string()),
      body: z.string().optional(),
      body_truncated: z.boolean().optional(),
      bytes: z.int(),
    })
    .optional(),
  error: z
    .object({ kind: z.enum(EXCHANGE_ERROR_KINDS), message: z.string() })
    .optional()
    .describe('set when no complete response arrived'),
  duration_ms: z.number(),
  brief: z
    .boolean()
    .optional()
    .describe(
      'headers and bodies left out: an exchange of a passing or skipped rule, or an early one of a failing rule (--full-transcripts keeps them)',
    ),
});
export type Exchange = z.output<typeof ExchangeSchema>;

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

/** A copy that keeps no more than its own characters alive (bounds.ts `detached`: a slice would keep the whole body). */
export function clip(text: string, limit = TRANSCRIPT_BODY_LIMIT): { body: string; body_truncated?: boolean } {
  return text.length > limit ? { body: `${detached(text.slice(0, limit))}…`, body_truncated: true } : { body: text };
}
