/** The console summary says how often the token was renewed, and, once, why renewing stopped (core/auth/token-source.ts). */
import { describe, expect, it } from 'vitest';
import { capturedConsole } from '../helpers/console.js';
import { build } from '../helpers/sample-report.js';

function summaryOf(http: Record<string, unknown>, auth: 'token' | 'api_key' = 'api_key'): string {
  const report = build([
    {
      rule: { id: 'notes.create.201', level: 'MUST', spec: '§4.2', endpoints: ['createNotes'] },
      outcome: { verdict: 'pass' } as never,
    },
  ]);
  const { reporter, text } = capturedConsole({ env: { NO_COLOR: '1', CI: '1' }, progressEveryMs: 1e12 });
  reporter.summary({ ...report, target: { ...report.target, auth }, http: { ...report.http, ...http } });
  return text();
}

describe('the token on the console', () => {
  it('says how often it was renewed, and nothing of a stop while renewing worked', () => {
    const text = summaryOf({ token_renewals: 49, token_refused_mid_run: 0 });
    expect(text).toContain('The token was renewed 49 times with the API key after a 401 mid-run.');
    expect(text).not.toMatch(/renewing stopped/);
  });

  it('says once why renewing stopped', () => {
    const why = '2 newly obtained tokens in a row were refused before the target accepted one';
    const text = summaryOf({ token_renewals: 2, token_refused_mid_run: 7, token_renewal_stopped: why });
    expect(text.split(why).length - 1).toBe(1);
    expect(text).toMatch(/refused the run's token mid-run 7 times \(expired\?\); renewing stopped: 2 newly/);
    expect(text).not.toMatch(/configure auth\.api_key/);
  });

  it('asks for an API key when the run had only a token', () => {
    const text = summaryOf(
      {
        token_renewals: 0,
        token_refused_mid_run: 3,
        token_renewal_stopped: 'no API key is configured to obtain a new token',
      },
      'token',
    );
    expect(text).toMatch(/configure auth\.api_key so the runner can obtain a new one/);
  });
});
