/**
 * A vitest reporter beside the usual one: when a test fails by running out of time (vitest's own
 * test or hook timeout, or a CLI child the helpers gave up on), it says how loaded the machine was
 * at that moment, so that load is not mistaken for a bug. Silent when nothing timed out.
 */
import type { Reporter, TestCase } from 'vitest/node';
import { machineLoad } from './load.js';

const TIMED_OUT = /timed out in \d+ms|did not exit within|printed no line within/;

export default class LoadReporter implements Reporter {
  private readonly timedOut: string[] = [];

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.result();
    if (result.state !== 'failed') return;
    if (result.errors.some((e) => TIMED_OUT.test(e.message ?? '')))
      this.timedOut.push(
        `${testCase.module.moduleId.replace(`${process.cwd()}/`, '')} > ${testCase.fullName}: ${machineLoad()}`,
      );
  }

  onTestRunEnd(): void {
    if (this.timedOut.length === 0) return;
    console.log(
      [
        '',
        `${this.timedOut.length} test(s) failed by running out of time, on a machine with this load when they did:`,
        ...this.timedOut.map((t) => `  ${t}`),
        'A timeout on a busy machine is load until shown otherwise: `npm run test:load` runs the timing-sensitive files with every CPU busy.',
        '',
      ].join('\n'),
    );
  }
}
