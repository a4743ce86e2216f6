/**
 * The published package works on its own: packed with npm pack and installed into an empty
 * directory (production dependencies only, without the optional Pact library), it runs the main
 * commands and its library imports.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { model } from '../../core/spec/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
let app: string;

const npx = (args: string[], timeout = 120_000) =>
  // stderr piped, not inherited: npm's own warnings and expected error messages stay out of the test log.
  execFileSync('npx', ['--no-install', ...args], {
    cwd: app,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

beforeAll(() => {
  const out = mkdtempSync(join(tmpdir(), 'pack-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', out], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const tarball = join(out, packed[0].filename);
  app = mkdtempSync(join(tmpdir(), 'app-'));
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'app', version: '1.0.0', type: 'module', private: true }),
  );
  execFileSync('npm', ['install', tarball, '--omit=optional', '--no-audit', '--no-fund'], {
    cwd: app,
    stdio: 'ignore',
    timeout: 240_000,
  });
}, 300_000);

describe('the packed package, installed into an empty directory', () => {
  it('has no development dependencies', () => {
    for (const dev of ['vitest', 'typescript', '@types/node', 'playwright-core'])
      expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false);
    expect(existsSync(join(app, 'node_modules', '@pact-foundation', 'pact'))).toBe(false);
  });

  it('ships every file its README, `serve` and `init` point at, and points at nothing outside itself', () => {
    const installed = join(app, 'node_modules', 'data-import-conformance');
    const texts = [
      readFileSync(join(installed, 'README.md'), 'utf8'),
      npx(['conformance', 'serve', '--help']),
      npx(['conformance', 'list', '--help']),
      readFileSync(join(installed, 'reference', 'README.md'), 'utf8'),
    ];
    // Repository-relative paths as the texts write them: `docs/x.md`, [..](reference/README.md), examples/ci/….
    const paths = new Set(
      texts.flatMap((t) =>
        [...t.matchAll(/(?<![\w/.-])((?:docs|reference|examples|schema|spec|fixtures)\/[\w./-]*\w)/g)].map((m) => m[1]),
      ),
    );
    // Documents and examples; source files (`reference/choices.ts`) are named as code, not as links.
    const inRepo = [...paths].filter((p) => !p.endsWith('.ts') && existsSync(join(ROOT, p)));
    expect(inRepo).toEqual(
      expect.arrayContaining([
        'reference/README.md',
        'examples/ci/github-actions.yml',
        'examples/ci/gitlab-ci.yml',
        'docs/traceability.md',
        'docs/freedoms.md',
      ]),
    );
    for (const p of inRepo) expect(existsSync(join(installed, p)), p).toBe(true);
    expect(existsSync(join(installed, 'docs', 'design.md'))).toBe(true);
    for (const t of texts) expect(t).not.toMatch(/DESIGN\.md|\.\.\/shared/);
  });

  it('prints its version, lists the rules and the faults', () => {
    expect(npx(['conformance', '--version']).trim()).toBe(VERSION);
    expect(JSON.parse(npx(['conformance', 'list', '--json'])).length).toBeGreaterThan(100);
    expect(npx(['conformance', 'faults'])).toMatch(/\d+ faults, \d+ subtle/);
  });

  it('runs the main job against the embedded reference server and records its version', () => {
    npx(['conformance', '--reporter', 'json', '--reporter', 'html']);
    const report = JSON.parse(readFileSync(join(app, 'conformance-report', 'report.json'), 'utf8'));
    expect(report.tool).toEqual({ name: 'data-import-conformance', version: VERSION });
    expect(report.summary.conformant).toBe(true);
    expect(existsSync(join(app, 'conformance-report', 'report.html'))).toBe(true);
  }, 120_000);

  it('serves the reference server', async () => {
    const child = spawn('npx', ['--no-install', 'conformance', 'serve', '--port', '0', '--json'], { cwd: app });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', (d) => resolve(String(d)));
        child.once('close', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const { url, token } = JSON.parse(line);
      const res = await fetch(`${url}/v1/data-import/all-account-import-processes/SUPPLIER_ONGOING/`, {
        headers: { authorization: `Token ${token}` },
      });
      expect(res.status).toBe(200);
    } finally {
      child.kill();
    }
  });

  it('is importable as a library, with its subpaths', () => {
    const script = `
      const lib = await import('data-import-conformance');
      const spec = await import('data-import-conformance/spec');
      const reference = await import('data-import-conformance/reference');
      const generators = await import('data-import-conformance/generators');
      const server = await reference.startReferenceServer();
      const report = await lib.runConformance({ baseUrl: server.url, auth: { token: reference.DEFAULT_TOKEN }, fixtures: { import_suppliers: { ongoing: 'SUPPLIER_ONGOING' }, operations_team: 'Migrations' }, selection: { rules: ['notes.*'] }, allowSkip: ['notes.404.wrong-supplier-existing'] });
      await server.close();
      const coverage = lib.CoverageSchema.safeParse(report.coverage).success && lib.ReportSchema.safeParse(report).success;
      console.log(JSON.stringify({ rules: lib.allRules.length, endpoints: Object.keys(spec.model.endpoints).length, generators: Object.keys(generators).length, conformant: report.summary.conformant, version: lib.version(), coverage }));
    `;
    const out = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: app,
        encoding: 'utf8',
        timeout: 60_000,
      }),
    );
    // The packed model is the source's: as many endpoints as core/spec has, counted, not written down.
    expect(out).toMatchObject({
      endpoints: Object.keys(model.endpoints).length,
      conformant: true,
      version: VERSION,
      coverage: true,
    });
    expect(out.rules).toBeGreaterThan(100);
    expect(out.generators).toBeGreaterThan(0);
  });

  it('explains how to install the optional Pact library when it is missing', () => {
    let stderr = '';
    try {
      npx(['conformance', 'pact', 'export']);
    } catch (error) {
      stderr = String((error as { stderr?: string }).stderr);
      expect((error as { status?: number }).status).toBe(2);
    }
    expect(stderr).toMatch(/npm install @pact-foundation\/pact@\^16/);
  });
});
