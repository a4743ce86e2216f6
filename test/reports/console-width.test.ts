/** The summary line says what the automatic width did, and why it kept 8 rules at once against a slow target. */
import { describe, expect, it } from 'vitest';
import { capturedConsole } from '../helpers/console.js';
import type { Report } from '../../core/report/schema.js';
import { build } from '../helpers/sample-report.js';

function summaryLine(run: Pick<Report['run'], 'concurrency' | 'concurrency_auto'>): string {
  const report = build([
    { rule: { id: 'a.one', level: 'MUST', spec: '§4.1', endpoints: [] }, outcome: { verdict: 'pass' } as never },
  ]);
  Object.assign(report.run, run);
  const { reporter, text } = capturedConsole();
  reporter.summary(report);
  return (
    text()
      .split('\n')
      .find((line) => /^1 rule: /.test(line)) ?? text()
  );
}

describe('the automatic width on the summary line', () => {
  it('says how many rules it ran at once against a slow target', () => {
    expect(
      summaryLine({
        concurrency: 32,
        concurrency_auto: { backed_off: false, median_latency_ms: 100, runner_busy: false },
      }),
    ).toMatch(/requests; up to 32 rules at once, answers in ~100 ms$/);
  });

  it('says the target asked it to slow down', () => {
    expect(
      summaryLine({
        concurrency: 16,
        concurrency_auto: { backed_off: true, median_latency_ms: 60, runner_busy: false },
      }),
    ).toMatch(/; the target asked to slow down: back to 8 rules at once, answers in ~60 ms$/);
  });

  it('says the runner was too busy for more, when that kept it at 8', () => {
    expect(
      summaryLine({
        concurrency: 8,
        concurrency_auto: { backed_off: false, median_latency_ms: 100, runner_busy: true },
      }),
    ).toMatch(/; 8 rules at once, answers in ~100 ms: the runner itself was too busy for more$/);
  });

  it('says nothing of a fast target, which 8 rules at once serve', () => {
    expect(
      summaryLine({
        concurrency: 8,
        concurrency_auto: { backed_off: false, median_latency_ms: 3, runner_busy: false },
      }),
    ).toMatch(/requests$/);
  });
});
