/**
 * A conformance claim someone else can check: made by a run (--claim) and from a run's reports
 * (claim --from), against the faithful reference server (conformant) and against one with a fault
 * (not conformant); both verify, and each tamper with a copy is caught by the check that must catch
 * it — the digests recomputed, so only the consistency and traffic checks can.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/reference.js';
import { badgeSvg } from '../../app/claim/badge.js';
import { EMBEDDED_LIMIT } from '../../app/embedded.js';
import { type Statement, fromReport } from '../../app/claim/statement.js';
import { summarize } from '../../core/report/build.js';
import type { Report } from '../../core/report/schema.js';

const work = mkdtempSync(join(tmpdir(), 'claim-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface HarDoc {
  log: {
    entries: {
      request: { method: string; url: string };
      response: { status: number; content: { text?: string } };
      _conformance?: { rule: string };
    }[];
  };
}
interface ReportDoc {
  rules: {
    id: string;
    level: string;
    verdict: string;
    transcript: {
      seq: number;
      brief?: boolean;
      request: { url: string };
      response?: { status: number; body?: string };
    }[];
  }[];
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const writeJson = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value, null, 2));

/** SHA256SUMS written again over the files it lists: a tamperer who knows the format leaves no digest wrong. */
function resum(dir: string) {
  const files = readFileSync(join(dir, 'SHA256SUMS'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.slice(66));
  const line = (f: string) =>
    `${createHash('sha256')
      .update(readFileSync(join(dir, f)))
      .digest('hex')}  ${f}\n`;
  writeFileSync(join(dir, 'SHA256SUMS'), files.map(line).join(''));
}

let copies = 0;
/** A copy of a claim to tamper with, changed by `edit`, its sums recomputed unless asked not to. */
function tampered(claim: string, edit: (dir: string) => void, sums = true): string {
  const dir = join(work, `tampered-${++copies}`);
  cpSync(claim, dir, { recursive: true });
  edit(dir);
  if (sums) resum(dir);
  return dir;
}

const verify = (dir: string) => runCli(['verify-claim', dir]);

/**
 * A forgery written consistently everywhere a tamperer can: report.json edited, its summary counted
 * again, statement.json and the badge made from it, every digest written again. Only what the
 * verifier knows itself — its catalogue, the traffic — can still tell.
 */
function forged(claim: string, edit: (report: Report, statement: Statement) => void): string {
  return tampered(claim, (d) => {
    const report = readJson<Report>(join(d, 'reports/report.json'));
    const statement = readJson<Statement>(join(d, 'statement.json'));
    edit(report, statement);
    report.summary = summarize(report.rules, report.run.strict, false, report.summary.not_implemented).summary;
    writeJson(join(d, 'reports/report.json'), report);
    const derived = fromReport(report);
    const again = { ...statement, ...derived, observed: { ...statement.observed, ...derived.observed } };
    writeJson(join(d, 'statement.json'), again);
    writeFileSync(join(d, 'badge.svg'), badgeSvg(again.verdict, again.counts.MUST));
  });
}

const faithful = { claim: join(work, 'faithful-claim'), fromReports: join(work, 'faithful-claim-2') };
const faulty = { claim: join(work, 'faulty-claim'), fromReports: join(work, 'faulty-claim-2') };

describe('a claim of a run against the faithful reference server', () => {
  beforeAll(async () => {
    const reports = join(work, 'faithful-reports');
    const run = await runCli(
      ['--num-runs', '2', '--report-dir', reports, '--har', join(work, 'faithful.har'), '--claim', faithful.claim],
      { cwd: work },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Claim: ${faithful.claim} — conformant`);
    const again = await runCli(
      ['claim', '--from', reports, '--har', join(work, 'faithful.har'), '--out', faithful.fromReports],
      { cwd: work },
    );
    expect(again.code, again.stderr).toBe(0);
  });

  it('holds the statement, the reports, the HAR, the spec, the badge and SHA256SUMS over all of them', () => {
    const statement = readJson<Record<string, any>>(join(faithful.claim, 'statement.json'));
    expect(statement.verdict).toBe('conformant');
    expect(statement.target.embedded).toBe(true);
    expect(statement.suite.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(statement.spec.sha256).toBe(
      createHash('sha256')
        .update(readFileSync(new URL('../../spec/data-import-interface.md', import.meta.url)))
        .digest('hex'),
    );
    expect(statement.run.num_runs).toBe(2);
    expect(statement.declared).toMatchObject({
      source: 'embedded reference server',
      concurrency_limit: EMBEDDED_LIMIT.concurrencyLimit,
    });
    expect(statement.declared.fixtures).toContain('fixtures.import_suppliers.ongoing');
    expect(statement.observed.rate_limited.processAccount.answered).toBeGreaterThan(0);
    expect(statement.counts.MUST.fail).toBe(0);
    for (const file of ['reports/report.json', 'traffic.har', 'spec/data-import-interface.md', 'badge.svg'])
      expect(readFileSync(join(faithful.claim, 'SHA256SUMS'), 'utf8')).toContain(`  ${file}\n`);
    expect(readFileSync(join(faithful.claim, 'badge.svg'), 'utf8')).toMatch(/conformant · MUST (\d+)\/\1 passed/);
  });

  it('verifies, made by the run and made from its reports', async () => {
    for (const dir of [faithful.claim, faithful.fromReports]) {
      const { code, stdout } = await verify(dir);
      expect(stdout).toMatch(/^claim consistent: conformant/);
      expect(code).toBe(0);
    }
  });

  it('catches an edited verdict in statement.json', async () => {
    const dir = tampered(faithful.claim, (d) => {
      const statement = readJson<{ rules: { id: string; verdict: string }[] }>(join(d, 'statement.json'));
      const rule = statement.rules.find((r) => r.id === 'notes.dedup.same-body-and-created-at')!;
      rule.verdict = 'fail';
      writeJson(join(d, 'statement.json'), statement);
    });
    const { code, stdout } = await verify(dir);
    expect(stdout).toContain(
      'statement: rule notes.dedup.same-body-and-created-at is MUST fail in statement.json, MUST pass in report.json',
    );
    expect(code).toBe(1);
  });

  it('catches a deleted HAR exchange', async () => {
    let deleted = '';
    const dir = tampered(faithful.claim, (d) => {
      const har = readJson<HarDoc>(join(d, 'traffic.har'));
      const i = har.log.entries.findIndex((e) => e._conformance?.rule === 'migration.stage.first-201');
      deleted = `${har.log.entries[i].request.method} `;
      har.log.entries.splice(i, 1);
      writeJson(join(d, 'traffic.har'), har);
    });
    const { code, stdout } = await verify(dir);
    expect(stdout).toMatch(
      new RegExp(
        `traffic: rule migration\\.stage\\.first-201 \\(pass\\): exchange \\d+ of its transcript \\(${deleted}.*\\) is not in the HAR`,
      ),
    );
    expect(code).toBe(1);
  });

  it('catches a response body edited to break its documented shape (the traffic judged again)', async () => {
    const dir = tampered(faithful.claim, (d) => {
      const har = readJson<HarDoc>(join(d, 'traffic.har'));
      const entry = har.log.entries.find(
        (e) => e._conformance?.rule === 'migration.stage.first-201' && e.response.status === 201,
      )!;
      entry.response.content.text = '{"nothing": "documented"}';
      writeJson(join(d, 'traffic.har'), har);
    });
    const { code, stdout } = await verify(dir);
    expect(stdout).toMatch(
      /the claim says conformant, but the HAR shows traffic\.server\.response-body \(MUST, §4, §7\.1\) broken at exchange \d+, sent by migration\.stage\.first-201 \(pass\)/,
    );
    expect(code).toBe(1);
  });

  it('catches a swapped spec file digest, and a swapped spec text', async () => {
    const digest = tampered(faithful.claim, (d) => {
      const statement = readJson<{ spec: { sha256: string } }>(join(d, 'statement.json'));
      statement.spec.sha256 = createHash('sha256').update('another spec').digest('hex');
      writeJson(join(d, 'statement.json'), statement);
    });
    const byDigest = await verify(digest);
    expect(byDigest.stdout).toMatch(
      /spec: statement\.json gives the spec's SHA-256 as [0-9a-f]{64}, the spec this suite ships/,
    );
    expect(byDigest.code).toBe(1);
    const text = tampered(faithful.claim, (d) =>
      writeFileSync(join(d, 'spec/data-import-interface.md'), '# Another spec\n'),
    );
    const byText = await verify(text);
    expect(byText.stdout).toContain(
      "spec: the claim's spec/data-import-interface.md does not have the SHA-256 statement.json gives",
    );
    expect(byText.code).toBe(1);
  });

  it('catches a file changed, removed or added without the sums written again', async () => {
    const changed = tampered(faithful.claim, (d) => writeFileSync(join(d, 'badge.svg'), '<svg/>'), false);
    expect((await verify(changed)).stdout).toContain('digests: badge.svg does not match its SHA-256 in SHA256SUMS');
    const removed = tampered(faithful.claim, (d) => rmSync(join(d, 'reports/report.json')), false);
    const missing = await verify(removed);
    expect(missing.stderr).toContain('reports/report.json: missing');
    expect(missing.code).toBe(2);
    // A report file a run could write, added afterwards: listed nowhere.
    const added = tampered(faithful.claim, (d) => writeFileSync(join(d, 'reports/report.sarif'), '{}'), false);
    expect((await verify(added)).stdout).toContain('digests: reports/report.sarif is not listed in SHA256SUMS');
    // A file no run writes is named as such, listed or not.
    const foreign = tampered(faithful.claim, (d) => writeFileSync(join(d, 'extra.txt'), 'x'), false);
    expect((await verify(foreign)).stdout).toContain('files: extra.txt is not a file a run writes into a claim');
  });

  it('names the file of a malformed claim (exit 2), and refuses a run without a HAR', async () => {
    const broken = tampered(faithful.claim, (d) => writeFileSync(join(d, 'statement.json'), '{"claim_version": 1'));
    const malformed = await verify(broken);
    expect(malformed.stderr).toMatch(/is not a readable claim: statement\.json: not JSON/);
    expect(malformed.code).toBe(2);
    const wrongField = tampered(faithful.claim, (d) => {
      const statement = readJson<Record<string, unknown>>(join(d, 'statement.json'));
      statement.verdict = 'mostly fine';
      writeJson(join(d, 'statement.json'), statement);
    });
    const field = await verify(wrongField);
    expect(field.stderr).toMatch(/statement\.json: verdict: /);
    expect(field.code).toBe(2);
    const noHar = await runCli(['claim', '--from', join(work, 'faithful-reports'), '--out', join(work, 'no-har')], {
      cwd: work,
    });
    expect(noHar.stderr).toContain('run again with --har FILE');
    expect(noHar.code).toBe(2);
    expect(existsSync(join(work, 'no-har'))).toBe(false);
  });
});

describe('a claim of a run against a reference server with a fault', () => {
  const harness = useReferenceServer({ faults: ['notes.no-dedup'] });
  const reports = join(work, 'faulty-reports');
  const config = join(work, 'faulty.config.yaml');

  beforeAll(async () => {
    writeFileSync(
      config,
      'headers:\n  X-Gateway-Key: gateway-secret-7f3a\nfixtures:\n  import_suppliers:\n    ongoing: SUPPLIER_ONGOING\n  operations_team: Migrations\n',
    );
    const base = ['--base-url', harness.server.url, '--config', config, '--rule', 'notes.*', '--num-runs', '2'];
    const env = { CONFORMANCE_TOKEN: 'reference-token' };
    const run = await runCli(
      [...base, '--report-dir', reports, '--har', join(work, 'faulty.har'), '--claim', faulty.claim],
      {
        cwd: work,
        env,
      },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain(`Claim: ${faulty.claim} — not conformant`);
    const again = await runCli(
      ['claim', '--from', reports, '--har', join(work, 'faulty.har'), '--config', config, '--out', faulty.fromReports],
      { cwd: work, env },
    );
    expect(again.code, again.stderr).toBe(0);
  });

  it('verifies, says not conformant, and carries the configuration without its secrets', async () => {
    for (const dir of [faulty.claim, faulty.fromReports]) {
      const { code, stdout } = await verify(dir);
      expect(stdout).toMatch(/^claim consistent: not conformant \(MUST: \d+ passed, [1-9]\d* failed/);
      expect(code).toBe(0);
      const configText = readFileSync(join(dir, 'config.json'), 'utf8');
      expect(configText).not.toContain('gateway-secret-7f3a');
      expect(JSON.parse(configText).headers['X-Gateway-Key']).toBe('(secret: removed)');
      const statement = readJson<Record<string, any>>(join(dir, 'statement.json'));
      expect(statement.declared).toEqual({
        source: 'configuration',
        fixtures: ['fixtures.import_suppliers.ongoing', 'fixtures.operations_team'],
        concurrency_limit: null,
      });
      expect(statement.selection.given).toEqual({ rules: ['notes.*'] });
    }
  });

  /** A failing MUST rule of the claim, and the exchange of its transcript report.json keeps the bodies of. */
  const failing = (dir: string) => {
    const report = readJson<ReportDoc>(join(dir, 'reports/report.json'));
    const rule = report.rules.find((r) => r.level === 'MUST' && r.verdict === 'fail')!;
    const kept = rule.transcript.findLast((x) => !x.brief && x.response?.body !== undefined)!;
    return { rule, kept };
  };
  const entryOf = (har: HarDoc, rule: string, kept: ReturnType<typeof failing>['kept']) =>
    har.log.entries.findIndex(
      (e) =>
        e._conformance?.rule === rule &&
        e.request.url.endsWith(kept.request.url) &&
        e.response.content.text === kept.response?.body,
    );

  it('catches a failure edited into a pass in statement.json', async () => {
    const { rule } = failing(faulty.claim);
    const dir = tampered(faulty.claim, (d) => {
      const statement = readJson<{ rules: { id: string; verdict: string; reason?: string }[] }>(
        join(d, 'statement.json'),
      );
      const said = statement.rules.find((r) => r.id === rule.id)!;
      said.verdict = 'pass';
      delete said.reason;
      writeJson(join(d, 'statement.json'), statement);
    });
    const { code, stdout } = await verify(dir);
    expect(stdout).toContain(`statement: rule ${rule.id} is MUST pass in statement.json, MUST fail in report.json`);
    expect(code).toBe(1);
  });

  it('catches the deleted exchange of a claimed failure', async () => {
    const { rule, kept } = failing(faulty.claim);
    const dir = tampered(faulty.claim, (d) => {
      const har = readJson<HarDoc>(join(d, 'traffic.har'));
      har.log.entries.splice(entryOf(har, rule.id, kept), 1);
      writeJson(join(d, 'traffic.har'), har);
    });
    const { code, stdout } = await verify(dir);
    expect(stdout).toContain(`traffic: rule ${rule.id} (fail): exchange ${kept.seq} of its transcript`);
    expect(stdout).toContain('is not in the HAR');
    expect(code).toBe(1);
  });

  it('catches failures forged into passes consistently everywhere: the traffic shows the statement broken', async () => {
    const dir = tampered(faulty.claim, (d) => {
      // report.json with every failure a pass and its summary counted again, the statement and the badge made from it.
      const report = readJson<Report>(join(d, 'reports/report.json'));
      report.rules = report.rules.map((r) => {
        if (r.verdict !== 'fail') return r;
        const { reason: _r, failure: _f, expected_failure: _e, replay: _p, ...rest } = r;
        return { ...rest, verdict: 'pass' } as Report['rules'][number];
      });
      report.summary = summarize(report.rules, report.run.strict, false, report.summary.not_implemented).summary;
      writeJson(join(d, 'reports/report.json'), report);
      const statement = readJson<Statement>(join(d, 'statement.json'));
      const forged = {
        ...statement,
        ...fromReport(report),
        observed: { ...statement.observed, ...fromReport(report).observed },
      };
      writeJson(join(d, 'statement.json'), forged);
      writeFileSync(join(d, 'badge.svg'), badgeSvg(forged.verdict, forged.counts.MUST));
    });
    const { code, stdout } = await verify(dir);
    expect(stdout).not.toMatch(/statement: |digests: |badge: /);
    expect(stdout).toMatch(
      /traffic: the claim says (conformant|incomplete), but the HAR shows traffic\.notes\.dedup \(MUST, §4\.2 notes rule 2\) broken/,
    );
    expect(code).toBe(1);
  });

  it('catches an edited response body that report.json keeps too', async () => {
    const { rule, kept } = failing(faulty.claim);
    const dir = tampered(faulty.claim, (d) => {
      const har = readJson<HarDoc>(join(d, 'traffic.har'));
      const entry = har.log.entries[entryOf(har, rule.id, kept)];
      entry.response.content.text = entry.response.content.text!.replace(
        'NOTE_CREATION_SUCCESS',
        'NOTE_ALREADY_EXISTS',
      );
      writeJson(join(d, 'traffic.har'), har);
    });
    const { code, stdout } = await verify(dir);
    expect(stdout).toMatch(
      new RegExp(
        `traffic: rule ${rule.id.replace(/\./g, '\\.')} \\(fail\\): exchange ${kept.seq} of its transcript .* is in the HAR \\(entry \\d+\\) with other bodies than report\\.json keeps`,
      ),
    );
    expect(code).toBe(1);
  });

  it('catches every failing MUST rule removed while the selection still selects it', async () => {
    const { rule } = failing(faulty.claim);
    const dir = forged(faulty.claim, (report) => {
      report.rules = report.rules.filter((r) => !(r.level === 'MUST' && r.verdict === 'fail'));
    });
    const { code, stdout } = await verify(dir);
    expect(stdout).toMatch(
      new RegExp(
        `catalogue: rule ${rule.id.replace(/\./g, '\\.')} \\(MUST, §[^)]*\\) is selected by the claim's selection \\(\\{"rules":\\["notes\\.\\*"\\]\\}\\) but is not in report\\.json`,
      ),
    );
    expect(code).toBe(1);
  });

  it('catches a failing MUST rule relabelled INFO', async () => {
    const { rule } = failing(faulty.claim);
    const dir = forged(faulty.claim, (report) => {
      const relabelled = report.rules.find((r) => r.id === rule.id)!;
      relabelled.level = 'INFO';
    });
    const { code, stdout } = await verify(dir);
    expect(stdout).toContain(`catalogue: rule ${rule.id} is MUST in this suite's catalogue, INFO in report.json`);
    expect(code).toBe(1);
  });

  it('catches a failure turned into a pass that keeps the exchanges only a failure keeps', async () => {
    const { rule } = failing(faulty.claim);
    const dir = forged(faulty.claim, (report) => {
      report.rules = report.rules.map((r) => {
        if (r.id !== rule.id) return r;
        const { reason: _r, failure: _f, expected_failure: _e, replay: _p, ...rest } = r;
        return { ...rest, verdict: 'pass' } as Report['rules'][number];
      });
    });
    const { code, stdout } = await verify(dir);
    expect(stdout).toContain(`report: rule ${rule.id} is pass but keeps exchanges whole`);
    expect(code).toBe(1);
  });

  it('catches a suite version that does not exist', async () => {
    const dir = tampered(faulty.claim, (d) => {
      const statement = readJson<Statement>(join(d, 'statement.json'));
      statement.suite.version = '9.9.9';
      writeJson(join(d, 'statement.json'), statement);
    });
    const { code, stdout } = await verify(dir);
    expect(stdout).toMatch(
      /suite: the claim names data-import-conformance 9\.9\.9; this verifier is data-import-conformance \S+ and knows no other suite's rules/,
    );
    expect(code).toBe(1);
  });

  it('catches a target renamed while every exchange went to the server the run aimed at', async () => {
    const dir = forged(faulty.claim, (report) => {
      report.target.base_url = 'https://staging.example.com';
    });
    const { code, stdout } = await verify(dir);
    expect(stdout).toMatch(
      /target: the claim names https:\/\/staging\.example\.com as the target, but (\d+) of the \1 exchanges the run sent to the interface went elsewhere \(the first: HAR entry \d+, to http:\/\/127\.0\.0\.1:\d+\)/,
    );
    expect(code).toBe(1);
  });
});

describe('verify-claim against a claim of the embedded server, and claims it cannot read', () => {
  it('says the embedded reference server in its verdict line, and catches it relabelled as another target', async () => {
    const honest = await verify(faithful.claim);
    expect(honest.stdout).toMatch(
      /^claim consistent: conformant \(MUST: .*\) — http:\/\/127\.0\.0\.1:\d+, the embedded reference server \(not an implementation under test\)/,
    );
    const dir = forged(faithful.claim, (report) => {
      report.target.base_url = 'https://staging.example.com';
    });
    const { code, stdout } = await verify(dir);
    expect(stdout).toContain(
      'target: the claim says it ran against the embedded reference server, but names https://staging.example.com',
    );
    expect(code).toBe(1);
  });

  /** A claim with one of its own files replaced: exit 2 and one line naming it, whatever stands there. */
  const unreadable = async (edit: (dir: string) => void, file: string, why: RegExp, claim = faithful.claim) => {
    const dir = tampered(claim, edit, false);
    const { code, stdout, stderr } = await verify(dir);
    expect(stdout).toBe('');
    expect(stderr.split('\n')[0]).toMatch(
      new RegExp(`is not a readable claim: ${file.replace(/\./g, '\\.')}: ${why.source}`),
    );
    expect(code).toBe(2);
  };

  it('never opens a FIFO, never follows a link, never reads past the cap', async () => {
    const fifo = (file: string) => (d: string) => {
      rmSync(join(d, file));
      execFileSync('mkfifo', [join(d, file)]);
    };
    for (const file of ['spec/data-import-interface.md', 'badge.svg', 'statement.json'])
      await unreadable(fifo(file), file, /a FIFO \(named pipe\), not a regular file/);
    await unreadable(
      (d) => {
        rmSync(join(d, 'statement.json'));
        symlinkSync('/dev/zero', join(d, 'statement.json'));
      },
      'statement.json',
      /a symbolic link, which is not followed/,
    );
    // Sparse: 2 GiB on the file system's word, no blocks written.
    await unreadable(
      (d) => truncateSync(join(d, 'reports/report.html'), 2 * 1024 * 1024 * 1024),
      'reports/report.html',
      /2147483648 bytes, more than the 256 MiB it is read at/,
    );
  });

  it('refuses JSON nested deeper than any run writes, before anything walks it', async () => {
    const deep = (d: string) => {
      const config = readJson<Record<string, unknown>>(join(d, 'config.json'));
      writeJson(join(d, 'config.json'), { ...config, extra: JSON.parse(`${'['.repeat(3000)}${']'.repeat(3000)}`) });
      resum(d);
    };
    // The claim with a configuration: the one of the run against the faulty server.
    await unreadable(deep, 'config.json', /nested deeper than 100 levels, which no run writes/, faulty.claim);
  });

  it('says a SHA256SUMS with CRLF line ends has them', async () => {
    const dir = tampered(
      faithful.claim,
      (d) => writeFileSync(join(d, 'SHA256SUMS'), readFileSync(join(d, 'SHA256SUMS'), 'utf8').replace(/\n/g, '\r\n')),
      false,
    );
    const { code, stderr } = await verify(dir);
    expect(stderr).toContain('SHA256SUMS: line 1 ends with a carriage return (CRLF line ends');
    expect(code).toBe(2);
  });
});
