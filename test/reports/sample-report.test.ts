/** The sample report the reporter tests share names rules that exist, so it cannot rot into fiction. */
import { describe, expect, it } from 'vitest';
import { allRules } from '../../suites/index.js';
import { sampleReport } from '../helpers/sample-report.js';

describe('the sample report', () => {
  it('names only rules of the suites', () => {
    const ids = new Set(allRules.map((r) => r.id));
    expect(
      sampleReport()
        .rules.filter((r) => !ids.has(r.id))
        .map((r) => r.id),
    ).toEqual([]);
  });
});
