/** A failing exchange as a curl command: what the console and every report print for each failed rule. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { capturedConsole } from '../helpers/console.js';
import { renderHtml } from '../../reports/html.js';
import { renderJunit } from '../../reports/junit.js';
import { curlCommand, failingExchange } from '../../core/report/curl.js';
import type { RuleResult } from '../../core/report/schema.js';
import { RAW_SECRET, sampleReport, URLS } from '../helpers/sample-report.js';

type Exchange = RuleResult['transcript'][number];

const post: Exchange = {
  seq: 2,
  request: {
    method: 'POST',
    url: `${URLS.notes}?q=1`,
    headers: {
      accept: 'application/json',
      authorization: 'Token ***',
      'content-type': 'application/json',
      'content-length': '27',
      'x-team': "it's us",
    },
    body: `[{"body":"it's a note"}]`,
  },
  response: { status: 500, headers: {}, bytes: 0 },
  duration_ms: 3,
};

/** What a POSIX shell makes of the command: its words, with $CONFORMANCE_TOKEN set to `env`. */
function shellWords(command: string, token: string): string[] {
  const script = `set -- ${command.replace(/^curl /, '')}; for a in "$@"; do printf '%s\\0' "$a"; done`;
  return execFileSync('sh', ['-c', script], { env: { CONFORMANCE_TOKEN: token }, encoding: 'utf8' })
    .split('\0')
    .slice(0, -1);
}

describe('curlCommand', () => {
  it('replays the request: method, absolute URL, headers and body, as a shell reads them', () => {
    const command = curlCommand(post, 'https://staging.example.com/base');
    expect(shellWords(command, 'tok-123')).toEqual([
      '-i',
      '-X',
      'POST',
      `https://staging.example.com${URLS.notes}?q=1`,
      '-H',
      'accept: application/json',
      '-H',
      'Authorization: Token tok-123'.replace('Authorization', 'authorization'),
      '-H',
      'content-type: application/json',
      '-H',
      "x-team: it's us",
      '--data-binary',
      `[{"body":"it's a note"}]`,
    ]);
  });

  it('puts the token in as $CONFORMANCE_TOKEN, never a value', () => {
    const command = curlCommand(post, 'http://127.0.0.1:1');
    expect(command).toContain('"authorization: Token $CONFORMANCE_TOKEN"');
    expect(command).not.toContain(RAW_SECRET);
  });

  it('says when the recorded body was cut short', () => {
    const command = curlCommand({ ...post, request: { ...post.request, body_truncated: true } }, 'http://127.0.0.1:1');
    expect(command).toMatch(/# body cut in the report: run the rule with --full-transcripts/);
  });

  it('leaves GET without -X and keeps an absolute URL (the token endpoint) as recorded', () => {
    const get: Exchange = {
      seq: 1,
      request: { method: 'GET', url: 'https://auth.example.com/v1/graphql/', headers: {} },
      duration_ms: 1,
    };
    expect(curlCommand(get, 'https://staging.example.com')).toBe('curl -i https://auth.example.com/v1/graphql/');
  });
});

describe('failingExchange', () => {
  const ok: Exchange = { ...post, seq: 1 };
  const broken: Exchange = {
    ...post,
    seq: 3,
    response: undefined,
    error: { kind: 'reset', message: 'other side closed' },
  };
  it('is the exchange the failure names, else the one that broke, else the last; none for a pass', () => {
    expect(
      failingExchange({ verdict: 'fail', failure: { message: 'm', exchange_seq: 2 }, transcript: [ok, post, broken] })
        ?.seq,
    ).toBe(2);
    expect(failingExchange({ verdict: 'error', transcript: [ok, broken, post] })?.seq).toBe(3);
    expect(failingExchange({ verdict: 'fail', transcript: [ok, post] })?.seq).toBe(2);
    expect(failingExchange({ verdict: 'pass', transcript: [ok] })).toBeUndefined();
    expect(failingExchange({ verdict: 'fail', transcript: [] })).toBeUndefined();
  });
});

describe('in the console and the reports', () => {
  const report = sampleReport();
  const failing = report.rules.filter((r) => (r.verdict === 'fail' || r.verdict === 'error') && r.transcript.length);

  it('the console with --verbose prints a curl line per failed rule and names the request that got no response', () => {
    const { reporter, text } = capturedConsole({ verbose: true });
    reporter.summary(report);
    const out = text();
    const shown = failing.filter((r) => !r.expected_failure);
    expect(out.match(/^ {6}curl: curl -i /gm)?.length).toBe(shown.length);
    expect(out).toMatch(
      /timeout on exchange #1 \(list pending accounts\): GET \/v1\/data-import\/pending-account-import-processes\/SUPPLIER_ONGOING\//,
    );
    expect(out).not.toContain(RAW_SECRET);
  });

  it('the HTML and JUnit reports carry the same command', () => {
    const rule = failing[0];
    const command = curlCommand(failingExchange(rule)!, report.target.base_url);
    const junit = renderJunit(report);
    expect(junit).toContain(`as curl (exchange #${failingExchange(rule)!.seq}):`);
    expect(junit).toContain(`curl -i -X POST 'https://staging.example.com${failingExchange(rule)!.request.url}' -H`);
    expect(command).toContain('$CONFORMANCE_TOKEN');
    expect(renderHtml(report)).toMatch(/<h4>As curl \(exchange #\d+\)<\/h4><div class="curl"><pre><code>curl -i /);
  });
});
