/**
 * A refused setup step on the console: one line that says what the implementation objected to — the
 * status, then the attr and code of each error — before the request it answered, so a line cut to the
 * terminal's width loses the request's path, never the reason (`--verbose` and the reports keep all).
 */
import { describe, expect, it } from 'vitest';
import { capturedConsole } from '../helpers/console.js';
import { Setup } from '../../core/engine/setup.js';
import { build } from '../helpers/sample-report.js';

const STAGE = 'POST /v1/data-import/account-import-process/create-or-update/';

function consoleOf(columns?: number) {
  // CI set: a terminal without the live progress line, so what is written is all there is.
  return capturedConsole({
    isTTY: columns !== undefined,
    columns,
    env: { NO_COLOR: '1', CI: '1' },
    progressEveryMs: 1e12,
  });
}

function refusedStage(errors: { attr: string; code: string }[]): Setup {
  const setup = new Setup();
  setup.refuse('account', {
    answer: `${STAGE} answered 400: ${errors.map((e) => `${e.attr} (${e.code})`).join(', ')}`,
    status: 400,
    errors,
    fix: ['payloads.account'],
    hint: 'set payloads.account to an account payload your implementation accepts',
  });
  return setup;
}

const causeLines = (text: string) => text.split('\n').filter((l) => l.includes('Setup refused'));

describe('a refused setup step on the console', () => {
  it('says the status, attr and code first, and cuts the request, as a supplier met it', () => {
    for (const columns of [undefined, 100]) {
      const { reporter, text } = consoleOf(columns);
      reporter.onEvent({ type: 'setup', setup: refusedStage([{ attr: 'sales_channel', code: 'unsupported_value' }]) });
      const [line] = causeLines(text());
      expect(line).toMatch(
        /^! Setup refused: stage the canonical account \(fix: payloads\.account\) — answered 400: sales_channel \(unsupported_value\) to POST …\/create-or-update\/; its rules are counted at the end$/,
      );
    }
  });

  it('keeps the request whole when the line has room for it', () => {
    const { reporter, text } = consoleOf(300);
    reporter.onEvent({ type: 'setup', setup: refusedStage([{ attr: 'sales_channel', code: 'unsupported_value' }]) });
    expect(causeLines(text())[0]).toContain(`answered 400: sales_channel (unsupported_value) to ${STAGE};`);
  });

  it('never cuts the reason, however many errors it names', () => {
    const errors = ['sales_channel', 'account_type', 'customers.0.email', 'metadata', 'supply_addresses'].map(
      (attr) => ({ attr, code: 'invalid_choice' }),
    );
    const { reporter, text } = consoleOf(100);
    reporter.onEvent({ type: 'setup', setup: refusedStage(errors) });
    const [line] = causeLines(text());
    expect(line).toContain(`answered 400: ${errors.map((e) => `${e.attr} (${e.code})`).join(', ')} to POST …/`);
  });

  it('in the summary too, with the rules it stopped counted', () => {
    const cause = refusedStage([{ attr: 'sales_channel', code: 'unsupported_value' }]).causes[0];
    const report = build([
      {
        rule: { id: 'notes.create.201', level: 'MUST', spec: '§4.2', endpoints: ['createNotes'] },
        outcome: {
          verdict: 'error',
          error_kind: 'precondition',
          reason: 'precondition: stage the canonical account: refused before any rule ran',
          cause: cause.id,
        } as never,
      },
    ]);
    report.causes = [{ ...cause, rules: ['notes.create.201'] }];
    const { reporter, text } = consoleOf();
    reporter.summary(report);
    expect(causeLines(text())).toEqual([
      '  ! Setup refused: stage the canonical account (fix: payloads.account) — answered 400: sales_channel (unsupported_value) to POST …/create-or-update/ — 1 rule (1 MUST) not judged because of it',
    ]);
  });
});
