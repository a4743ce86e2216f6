/** The pieces of the GitHub Action's step: command escaping, output entries, args splitting, annotations. */
import { describe, expect, it } from 'vitest';
import { commandLine, secretsToMask, withSecretInputs } from '../../app/ci/action-run.js';
import { annotationsNote, annotationsOf } from '../../app/ci/annotations.js';
import { ShellWordsError, shellWords } from '../../app/ci/shell-words.js';
import {
  escapeData,
  escapeProperty,
  fileCommandEntry,
  maskCommands,
  stopCommands,
  workflowCommand,
} from '../../app/ci/workflow-commands.js';
import { conformantReport, hugeReport, sampleReport } from '../helpers/sample-report.js';

describe('workflow commands', () => {
  it('escape data as GitHub documents it: %, CR and LF', () => {
    expect(escapeData('100% done\r\nnext')).toBe('100%25 done%0D%0Anext');
    expect(escapeData('%0A stays text')).toBe('%250A stays text');
  });

  it('escape properties further: : and , end a value there', () => {
    expect(escapeProperty('MUST failed: a.b (§2.1, §7.1)\n')).toBe('MUST failed%3A a.b (§2.1%2C §7.1)%0A');
  });

  it('a message cannot start a second command or close the first', () => {
    const line = workflowCommand('error', { title: 'x::y' }, 'reason\n::set-output name=verdict::conformant');
    expect(line).toBe('::error title=x%3A%3Ay::reason%0A::set-output name=verdict::conformant');
    expect(line.split('\n')).toHaveLength(1);
  });

  it('masks a secret whole and each of its lines', () => {
    expect(maskCommands('')).toEqual([]);
    expect(maskCommands('s3cr%t')).toEqual(['::add-mask::s3cr%25t']);
    expect(maskCommands('line one\nline two')).toEqual([
      '::add-mask::line one%0Aline two',
      '::add-mask::line one',
      '::add-mask::line two',
    ]);
  });

  it('stop-commands uses a fresh random token each time', () => {
    const a = stopCommands();
    const b = stopCommands();
    expect(a.stop).toMatch(/^::stop-commands::conformance-[0-9a-f]{32}$/);
    expect(a.resume).toBe(`::${a.stop.slice('::stop-commands::'.length)}::`);
    expect(b.stop).not.toBe(a.stop);
  });

  it('writes outputs in the multi-line form with a delimiter the value does not hold', () => {
    const entry = fileCommandEntry('report-dir', 'a\nb');
    const [head, ...rest] = entry.split('\n');
    const delimiter = head.slice('report-dir<<'.length);
    expect(delimiter).toMatch(/^ghadelimiter_[0-9a-f]{24}$/);
    expect(rest).toEqual(['a', 'b', delimiter, '']);
    expect(() => fileCommandEntry('bad name', 'x')).toThrow('not an output name');
  });
});

describe('shellWords (the args input)', () => {
  it.each([
    ['', []],
    ['  --seed 7  ', ['--seed', '7']],
    ['--rule notes.*\n--level MUST', ['--rule', 'notes.*', '--level', 'MUST']],
    [`--rule 'a b' --header "X-Key: \\"q\\" \\$HOME"`, ['--rule', 'a b', '--header', 'X-Key: "q" $HOME']],
    [`it"'"s' ok'`, [`it's ok`]],
    ['a\\ b c\\\nd', ['a b', 'cd']],
    ['--x "" \'\'', ['--x', '', '']],
    ['$HOME `id` $(id)', ['$HOME', '`id`', '$(id)']],
  ])('%j', (text, words) => {
    expect(shellWords(text)).toEqual(words);
  });

  it.each([
    ["--rule 'open", "a ' quote opened at character 8 is never closed"],
    ['--rule "open', 'a " quote is never closed'],
    ['ends with \\', 'a backslash ends the text'],
  ])('%j is refused', (text, message) => {
    expect(() => shellWords(text)).toThrow(ShellWordsError);
    expect(() => shellWords(text)).toThrow(message);
  });
});

describe('annotations', () => {
  it('one error per failing MUST rule and one warning per SHOULD rule, the baseline left out', () => {
    const report = sampleReport();
    const a = annotationsOf(report);
    expect(a.must.total).toBe(report.summary.must_failures);
    expect(a.should.total).toBe(report.summary.should_failures);
    expect(a.lines.filter((l) => l.startsWith('::error ')).length).toBe(a.must.total);
    for (const r of report.rules.filter((x) => x.expected_failure))
      expect(a.lines.some((l) => l.includes(r.id))).toBe(false);
  });

  it('target text arrives as one line with its controls written out, then escaped', () => {
    const report = sampleReport();
    const rule = report.rules.find((r) => r.level === 'MUST' && r.verdict === 'fail' && !r.expected_failure)!;
    rule.reason = 'got 100%\r::set-output name=verdict::conformant\u001b]52;c;aGk=\u0007\u202e';
    const line = annotationsOf(report).lines.find((l) => l.includes(rule.id))!;
    expect(line.split('\n')).toHaveLength(1);
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    // The console's one line: the CR is whitespace there, made a space; the rest written out.
    expect(line).toContain('got 100%25 ::set-output name=verdict::conformant\\x1b]52;c;aGk=\\x07\\u202e');
  });

  it('at most 10 of each, MUST before SHOULD, and what was left out counted', () => {
    const report = hugeReport(90);
    const a = annotationsOf(report);
    const errors = a.lines.filter((l) => l.startsWith('::error '));
    const warnings = a.lines.filter((l) => l.startsWith('::warning '));
    expect(errors).toHaveLength(10);
    expect(warnings).toHaveLength(10);
    expect(a.lines.indexOf(warnings[0])).toBe(10);
    expect(a.must.dropped).toBe(a.must.total - 10);
    expect(a.should.dropped).toBe(a.should.total - 10);
    expect(annotationsNote(a)).toBe(
      `Annotations: 10 of ${a.must.total} MUST failures and 10 of ${a.should.total} SHOULD failures shown (GitHub shows at most 10 errors and 10 warnings per step); and ${a.must.dropped} more MUST failures and ${a.should.dropped} more SHOULD failures not annotated: see the summary above, or report.json in the report directory.`,
    );
  });

  it('a run with nothing failing has no annotations and no note', () => {
    const a = annotationsOf(conformantReport());
    expect(a.lines).toEqual([]);
    expect(annotationsNote(a)).toBeUndefined();
  });
});

describe('the run command line from the inputs', () => {
  it('inputs first as --flag=value (a value starting with - stays a value), args last; never the base URL', () => {
    const { argv, reportDir } = commandLine({
      INPUT_BASE_URL: ' https://staging.example.com ',
      INPUT_CONFIG: '-odd name.yaml',
      INPUT_SHARD: '2/3',
      INPUT_ARGS: "--rule 'notes.*' --strict",
    });
    // The base URL may carry credentials: it goes through the environment (withSecretInputs).
    expect(argv).toEqual([
      'run',
      '--report-dir=conformance-report',
      '--config=-odd name.yaml',
      '--shard=2/3',
      '--rule',
      'notes.*',
      '--strict',
    ]);
    expect(reportDir).toBe('conformance-report');
  });

  it('a --report-dir in args wins over the input, and is the directory read', () => {
    expect(commandLine({ INPUT_REPORT_DIR: 'a', INPUT_ARGS: '--report-dir b' }).reportDir).toBe('b');
    expect(commandLine({ INPUT_REPORT_DIR: 'a' }).reportDir).toBe('a');
  });

  it('reporters chosen in args get json and markdown added, which the step reads', () => {
    expect(commandLine({ INPUT_ARGS: '--reporter junit' }).argv.slice(-3)).toEqual([
      'junit',
      '--reporter=json',
      '--reporter=markdown',
    ]);
    expect(commandLine({}).argv.some((a) => a.startsWith('--reporter'))).toBe(false);
  });

  it.each(['--token x', '--token=x', "--header 'A: b' --token=x", '--strict --token'])(
    'refuses %j: a token on a command line',
    (args) => {
      expect(() => commandLine({ INPUT_ARGS: args })).toThrow('args: --token would put the token on a command line');
    },
  );

  it.each([
    "--header 'X-Gateway-Key: gw-1b2c3d4e'",
    '--header=X-Gateway-Key:gw-1b2c3d4e',
    '--header X-Gateway-Key=gw-1b2c3d4e',
    '--strict --header',
  ])('refuses %j: a header value on a command line, pointing to the headers input', (args) => {
    const refusal = () => commandLine({ INPUT_ARGS: args });
    expect(refusal).toThrow(
      "args: --header would put the header's value on a command line, where the process list shows it; give headers with the headers input (from a secret), one 'Name: value' per line.",
    );
    expect(refusal).not.toThrow(/gw-1b2c3d4e/);
  });

  it.each([
    '--base-url https://user:pw-5e6f7a8b@staging.example.com',
    '--base-url=https://pw-5e6f7a8b@staging.example.com/v1',
    "--base-url 'not a url://pw-5e6f7a8b@x'",
  ])('refuses %j: URL credentials on a command line, pointing to the base-url input', (args) => {
    const refusal = () => commandLine({ INPUT_ARGS: args });
    expect(refusal).toThrow(
      'args: --base-url with credentials in it (user:password@) would put them on a command line',
    );
    expect(refusal).toThrow('give the URL with the base-url input (from a secret)');
    expect(refusal).not.toThrow(/pw-5e6f7a8b/);
  });

  it('takes a --base-url without credentials in args, as before', () => {
    expect(commandLine({ INPUT_ARGS: '--base-url https://staging.example.com' }).argv).toContain(
      'https://staging.example.com',
    );
  });

  it('a stray word in args is refused without quoting it (it may be part of a secret)', () => {
    const refusal = () => commandLine({ INPUT_ARGS: '--rule x stray-5e6f7a8b' });
    expect(refusal).toThrow(/^args: An argument after --rule and its value is not an option of "conformance run"/);
    expect(refusal).not.toThrow(/stray-5e6f7a8b/);
  });
});

describe('the secret inputs', () => {
  it('are passed on as the variables the CLI reads, and an empty one leaves the job variable as it was', () => {
    const job = { CONFORMANCE_API_KEY: 'from-the-job', CONFORMANCE_TOKEN: 'job-token', PATH: '/bin' };
    expect(withSecretInputs({ ...job, INPUT_API_KEY: '', INPUT_TOKEN: '' })).toEqual(job);
    expect(withSecretInputs({ ...job, INPUT_API_KEY: 'from-the-input', INPUT_TOKEN: '' })).toEqual({
      ...job,
      CONFORMANCE_API_KEY: 'from-the-input',
    });
    expect(withSecretInputs({ INPUT_TOKEN: 't' })).toEqual({ CONFORMANCE_TOKEN: 't' });
  });

  it('pass the headers and the base URL on as CONFORMANCE_HEADERS and CONFORMANCE_BASE_URL, never as INPUT_*', () => {
    const job = { CONFORMANCE_HEADERS: 'X-Job: j', CONFORMANCE_BASE_URL: 'https://job.example.com', PATH: '/bin' };
    expect(withSecretInputs({ ...job, INPUT_HEADERS: '', INPUT_BASE_URL: ' ' })).toEqual(job);
    expect(
      withSecretInputs({
        ...job,
        INPUT_HEADERS: 'X-Gateway-Key: gw\nX-Team: t\n',
        INPUT_BASE_URL: ' https://u:p@staging.example.com ',
      }),
    ).toEqual({
      ...job,
      CONFORMANCE_HEADERS: 'X-Gateway-Key: gw\nX-Team: t\n',
      CONFORMANCE_BASE_URL: 'https://u:p@staging.example.com',
    });
  });

  it('the secrets to mask: the key, the token, each header value and the URL credentials, as written and decoded', () => {
    expect(
      secretsToMask({
        CONFORMANCE_API_KEY: 'api-key-1',
        CONFORMANCE_TOKEN: 'token-22',
        CONFORMANCE_HEADERS: 'X-Gateway-Key: gw-key-333\r\n\nX-Short: ab\nvalue-alone-4444\n',
        CONFORMANCE_BASE_URL: 'https://deploy%40bot:p%3Ass-55@staging.example.com/',
        PATH: '/bin',
      }),
    ).toEqual([
      'api-key-1',
      'token-22',
      'gw-key-333',
      // A line that is no `Name: value` is masked whole: the run will refuse it, and it may be a value alone.
      'value-alone-4444',
      'deploy%40bot',
      'deploy@bot',
      'p%3Ass-55',
      'p:ss-55',
    ]);
    expect(secretsToMask({ PATH: '/bin', CONFORMANCE_BASE_URL: 'https://staging.example.com' })).toEqual([]);
    // The key and the token as before, whatever their length; a short header value or user name is left out.
    expect(
      secretsToMask({
        CONFORMANCE_TOKEN: 'tk',
        CONFORMANCE_HEADERS: 'X-Env: ci',
        CONFORMANCE_BASE_URL: 'https://bot@h',
      }),
    ).toEqual(['tk']);
  });
});
