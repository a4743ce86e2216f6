import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CONFIG = fileURLToPath(new URL('./fixtures/vitest.config.ts', import.meta.url));

/** Runs the adapter's test file in a child vitest and returns its JSON report. */
function runVitest(env: Record<string, string> = {}) {
  const out = join(mkdtempSync(join(tmpdir(), 'adapter-')), 'results.json');
  return new Promise<{ code: number | null; results: any }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', '--config', CONFIG, '--reporter=json', `--outputFile=${out}`],
      {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        env: { ...process.env, ...env },
        stdio: 'ignore',
      },
    );
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, results: JSON.parse(readFileSync(out, 'utf8')) }));
  });
}

describe('the vitest adapter', () => {
  it('makes one vitest test per rule: passes against the faithful server, skips what has no fixture', async () => {
    const { code, results } = await runVitest();
    expect(code).toBe(0);
    const tests = results.testResults.flatMap((f: any) => f.assertionResults);
    const status = Object.fromEntries(tests.map((t: any) => [t.title.split(' ')[0], t.status]));
    expect(Object.keys(status)).toContain('notes.dedup.same-body-and-created-at');
    expect(status['notes.dedup.same-body-and-created-at']).toBe('passed');
    // the paused supplier was left out of the fixtures: the rule is skipped, not failed
    expect(status['migration.stage.refuses-paused-supplier']).toBe('skipped');
    expect(tests[0].ancestorTitles).toEqual(['our import service']);
  }, 120_000);

  it("fails exactly the tests of the rules a faulty server breaks, with the rule's reason", async () => {
    const { code, results } = await runVitest({ FAULT: 'notes.dedup-body-only' });
    expect(code).toBe(1);
    const failed = results.testResults
      .flatMap((f: any) => f.assertionResults)
      .filter((t: any) => t.status === 'failed');
    expect(failed.map((t: any) => t.title.split(' ')[0])).toEqual(['notes.dedup.other-created-at-creates']);
    expect(failed[0].failureMessages.join('\n')).toMatch(
      /\[MUST\] notes\.dedup\.other-created-at-creates .*replay: npx conformance/s,
    );
  }, 120_000);

  it('runs a rule again after a reset and marks its pass flaky, as the CLI does', async () => {
    const { code, results } = await runVitest({ RESET_FIRST_NOTE: '1' });
    expect(code).toBe(0);
    const tests = results.testResults.flatMap((f: any) => f.assertionResults);
    const retried = tests.filter((t: any) => t.meta?.conformance);
    // exactly the one rule whose note request was reset ran twice, passed, and says why it is flaky
    expect(retried).toHaveLength(1);
    expect(retried[0].status).toBe('passed');
    expect(retried[0].meta.conformance.attempts).toBe(2);
    expect(retried[0].meta.conformance.flaky).toMatch(/first run not judged: .*(reset|socket|connection)/i);
    expect(tests.filter((t: any) => t.status === 'failed')).toEqual([]);
  }, 120_000);
});
