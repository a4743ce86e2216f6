/**
 * A traffic report (proxy, check-traffic) carries only what applies to judging someone else's
 * exchanges: no seed and no property runs (nothing was generated), no claim that --allow-skip
 * accepted a skip (a check the traffic held nothing for skips by nature), and the endpoints the
 * traffic reached counted as checked. Every format is read.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capturedConsole } from '../helpers/console.js';
import { TrafficJudge } from '../../app/traffic/checks.js';
import type { TimedExchange } from '../../app/traffic/har.js';
import { trafficReport } from '../../app/traffic/report.js';
import { REPORT_FORMATS } from '../../core/config/schema.js';
import { runVerdict } from '../../core/report/verdict-line.js';
import { writeReports } from '../../reports/index.js';

const key = { import_supplier: 'SUPPLIER_ONGOING', external_account_number: 'EXT-1' };
const note = { body: 'a', created_at: '2024-01-01T00:00:00Z' };
/** One well-formed notes request, answered as the spec documents it. */
const exchange: TimedExchange = {
  seq: 1,
  request: {
    method: 'POST',
    url: '/v1/data-import/notes/create/',
    headers: { authorization: 'Token t0k3n', 'content-type': 'application/json' },
    body: JSON.stringify({ ...key, notes: [note] }),
  },
  response: {
    status: 201,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([{ ...note, status: 'NOTE_CREATION_SUCCESS' }]),
    bytes: 0,
  },
  duration_ms: 1,
  startedAt: new Date(0),
};

async function reportOfOneExchange() {
  const judge = new TrafficJudge();
  expect(judge.observe(exchange)).toEqual([]);
  const report = trafficReport(judge, [exchange], {
    label: 'session.har',
    startedAt: new Date(0),
    finishedAt: new Date(1000),
  });
  const dir = mkdtempSync(join(tmpdir(), 'traffic-report-'));
  await writeReports(report, dir, REPORT_FORMATS, {});
  const printed = capturedConsole();
  printed.reporter.summary(report, []);
  const console = printed.text();
  const file = (name: string) => readFileSync(join(dir, name), 'utf8');
  return { report, console, file };
}

describe('a traffic report', () => {
  it('has no seed and no property runs, in any format', async () => {
    const { report, console, file } = await reportOfOneExchange();
    expect(report.run.kind).toBe('traffic');
    const json = JSON.parse(file('report.json'));
    expect(json.run).not.toHaveProperty('seed');
    expect(json.run).not.toHaveProperty('num_runs');
    expect(file('summary.md')).not.toMatch(/Seed/);
    expect(file('report.html')).not.toMatch(/<dt>Seed<\/dt>|Property runs/);
    expect(file('junit.xml')).not.toMatch(/run\.seed/);
    const ctrf = JSON.parse(file('ctrf.json'));
    expect(ctrf.results.environment.extra).not.toHaveProperty('seed');
    expect(ctrf.results.environment.extra).not.toHaveProperty('num_runs');
    expect(console).not.toMatch(/seed|property runs/i);
  });

  it('never says --allow-skip accepted the checks the traffic held nothing for, and stays conformant', async () => {
    const { report, console, file } = await reportOfOneExchange();
    // The state checks had nothing to judge in one exchange: skipped, and the verdict says why.
    expect(report.rules.filter((r) => r.verdict === 'skip' && r.level === 'MUST').length).toBeGreaterThan(0);
    const verdict = runVerdict(report);
    expect(verdict.state).toBe('conformant');
    expect(verdict.detail).toMatch(/MUST checks? had nothing in the traffic to judge/);
    expect(report.summary.exit_code).toBe(0);
    for (const text of [verdict.detail, console, file('summary.md'), file('report.html'), file('junit.xml')])
      expect(text).not.toMatch(/allow-skip/);
  });

  it('counts the endpoints the traffic reached as checked, and only those as not checked', async () => {
    const { report, file } = await reportOfOneExchange();
    const status = Object.fromEntries(report.capabilities.map((c) => [c.endpoint, c.status]));
    expect(status.createNotes).toBe('conforms');
    expect(report.capabilities.find((c) => c.endpoint === 'createNotes')?.counts.pass).toBeGreaterThan(0);
    expect(Object.entries(status).filter(([id, s]) => id !== 'createNotes' && s !== 'not checked')).toEqual([]);
    expect(JSON.parse(file('report.json')).capabilities).toEqual(report.capabilities);
  });

  it('charges a server finding to the endpoint that answered', () => {
    const judge = new TrafficJudge();
    judge.observe({ ...exchange, response: { ...exchange.response!, status: 200 } });
    const report = trafficReport(judge, [exchange], { label: 'x', startedAt: new Date(0), finishedAt: new Date(0) });
    expect(report.capabilities.find((c) => c.endpoint === 'createNotes')?.status).toBe('deviates');
  });
});
