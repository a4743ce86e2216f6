/**
 * The observable-state oracle (core/engine/observe.ts), which judges what a request left behind: two
 * snapshots compare part by part, and a difference fails with one message naming the read that
 * showed it, what it showed before and what it shows now; against a server that breaks a refusal,
 * the rule's failure says so.
 */
import { describe, expect, it } from 'vitest';
import { runTask } from '../../app/mutation/task.js';
import { expect as ruleExpect } from '../../core/engine/expect.js';
import { RuleFailure } from '../../core/engine/failures.js';
import { expectSnapshot, type Snapshot } from '../../core/engine/observe.js';
import type { RuleContext } from '../../core/engine/rule.js';
import type { HttpResponse } from '../../core/http/client.js';

const res = (seq: number) => ({ exchange: { seq } }) as unknown as HttpResponse;
const ctx = { expect: ruleExpect } as unknown as RuleContext;
const record = (ext: string, n: string | null = null) => ({
  external_account_number: ext,
  service_account_number: n,
  account_created_at: n ? '2026-01-01T00:00:00Z' : null,
});

function snap(parts: Partial<Pick<Snapshot, 'status' | 'all' | 'pending' | 'reads'>>): Snapshot {
  return {
    account: { supplier: 'S', ext: 'A1' },
    status: { code: 200, import_status: 'UNKNOWN', service_account_number: '' },
    all: [record('A1')],
    pending: [record('A1')],
    reads: { status: res(1), all: res(2), pending: res(3) },
    ...parts,
  };
}

function failure(fn: () => void): RuleFailure {
  try {
    fn();
  } catch (e) {
    if (e instanceof RuleFailure) return e;
    throw e;
  }
  throw new Error('no failure');
}

describe('the observable-state oracle', () => {
  it('passes two equal snapshots', () => {
    expect(() => expectSnapshot(ctx, snap({}), snap({}), 'why')).not.toThrow();
  });

  it('names the read that showed a difference, and points at its exchange', () => {
    const before = snap({});
    const after = snap({
      pending: [record('A1'), record('A1')],
      reads: { status: res(4), all: res(5), pending: res(6) },
    });
    const f = failure(() => expectSnapshot(ctx, after, before, 'a refused request must change nothing'));
    expect(f.message).toContain('a refused request must change nothing');
    expect(f.message).toContain('the pending listing (§4.3) changed for A1 (S)');
    expect(f.detail.exchange_seq).toBe(6);
  });

  it('reads the status first: a number that appeared is named as the status endpoint', () => {
    const f = failure(() =>
      expectSnapshot(
        ctx,
        snap({ status: { code: 200, import_status: 'COMPLETED', service_account_number: 'N1' } }),
        snap({}),
        'why',
      ),
    );
    expect(f.message).toContain('the status endpoint (§4.3) changed');
    expect(f.detail.exchange_seq).toBe(1);
  });

  it('a refused staging that leaves a record fails refused.stage.skipped with the all listing named', async () => {
    const r = await runTask(
      { kind: 'fault', id: 'migration.stage.skipped-listed-on-400' },
      { seed: 20, numRuns: 3, selection: { rules: ['refused.stage.skipped'] } },
    );
    expect(r.failed.map((f) => f.rule)).toEqual(['refused.stage.skipped']);
    expect(r.failed[0].reason).toContain('the all-accounts listing (§4.3) changed');
  });
});
