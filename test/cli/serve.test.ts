import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeLocalNow } from '../../core/spec/local-time.js';
import { client } from '../helpers/http.js';
import { MAX_SEED_BYTES } from '../../app/cli/serve.js';
import { runCli, startCli, stop } from '../helpers/cli.js';

describe('conformance serve', () => {
  it('starts on a free port, prints its URL and credentials, serves, and stops cleanly on SIGTERM', async () => {
    const { child, firstLine } = await startCli(['serve', '--port', '0', '--json']);
    try {
      const info = JSON.parse(firstLine);
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await client(info.url, info.token)(
        'GET',
        '/v1/data-import/all-account-import-processes/SUPPLIER_ONGOING/',
      );
      expect([res.status, res.body]).toEqual([200, []]);
      const op = await client(info.url, null)('GET', '/_operator/state', {
        headers: { 'x-operator-key': info.operator_key },
      });
      expect(op.status).toBe(200);
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });

  it('prints a human-readable banner by default and applies flags', async () => {
    const { child, firstLine } = await startCli([
      'serve',
      '--token',
      'my-token',
      '--concurrency-limit',
      '2',
      '--operator-key',
      'op',
    ]);
    try {
      const url = /listening on (\S+)/.exec(firstLine)![1];
      expect(
        (await client(url, 'my-token')('GET', '/v1/data-import/pending-account-import-processes/SUPPLIER_ONGOING/'))
          .status,
      ).toBe(200);
      const state = await client(url, null)('GET', '/_operator/state', { headers: { 'x-operator-key': 'op' } });
      expect(state.body.settings.concurrency_limit).toBe(2);
    } finally {
      await stop(child);
    }
  });

  it('serves a variant profile with its operator settings, and names an unknown profile as a usage error', async () => {
    const { child, firstLine } = await startCli(['serve', '--profile', 'demanding', '--json']);
    try {
      const info = JSON.parse(firstLine);
      const state = await client(info.url, null)('GET', '/_operator/state', {
        headers: { 'x-operator-key': info.operator_key },
      });
      expect([state.body.settings.concurrency_limit, state.body.settings.processing_delay_ms]).toEqual([1, 25]);
      const res = await client(info.url, info.token)('POST', '/v1/data-import/validate-account/', {
        body: { import_supplier: 'SUPPLIER_ONGOING', external_account_number: 'X', account_type: 'DOMESTIC' },
      });
      expect(res.body.errors.map((e: { attr: string }) => e.attr)).toContain('billing_postcode');
    } finally {
      expect(await stop(child)).toBe(0);
    }
    const bad = await runCli(['serve', '--profile', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /--profile: unknown profile "nope" \(one of variant, demanding, paginated, limited, rate-limited, local-clock, limited-local-clock\)/,
    );
  });

  it('sets the token lifetime and the zone of its clock (§5, §4.2 notes rule 3: not shown)', async () => {
    const { child, firstLine } = await startCli(['serve', '--token-ttl', '7', '--utc-offset', '+05:45', '--json']);
    try {
      const info = JSON.parse(firstLine);
      const state = await client(info.url, null)('GET', '/_operator/state', {
        headers: { 'x-operator-key': info.operator_key },
      });
      expect(state.body.settings.token_ttl_seconds).toBe(7);
      const call = client(info.url, info.token);
      const ext = `EXT-CLOCK-${process.pid}`;
      const body = { import_supplier: 'SUPPLIER_ONGOING', external_account_number: ext };
      expect((await call('POST', '/v1/data-import/account-import-process/create-or-update/', { body })).status).toBe(
        201,
      );
      const processed = await call('POST', '/v1/data-import/account-import-process/process/', {
        body: {
          external_account_number: ext,
          import_supplier_code: 'SUPPLIER_ONGOING',
          operations_team_name: 'Migrations',
        },
      });
      expect(processed.status).toBe(201);
      const sentAt = Date.now();
      const notes = await call('POST', '/v1/data-import/notes/create/', { body: { ...body, notes: [{ body: 'n' }] } });
      const answeredAt = Date.now();
      // Written in the §2.1 …Z form: now, read at 5 h 45 min east of UTC.
      expect(notes.body[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(judgeLocalNow(notes.body[0].created_at, sentAt, answeredAt, 0)).toMatchObject({
        ok: true,
        offsetMinutes: 345,
      });
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });

  it('starts from a YAML seed document', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seed-'));
    const file = join(dir, 'seed.yaml');
    writeFileSync(file, 'suppliers:\n  - code: ACME\n    status: Ongoing\ntokens: [seed-token]\n');
    const { child, firstLine } = await startCli(['serve', '--seed', file, '--json']);
    try {
      const info = JSON.parse(firstLine);
      expect(info.token).toBeNull();
      const call = client(info.url, 'seed-token');
      expect((await call('GET', '/v1/data-import/all-account-import-processes/ACME/')).status).toBe(200);
      expect((await call('GET', '/v1/data-import/all-account-import-processes/SUPPLIER_ONGOING/')).status).toBe(404);
    } finally {
      await stop(child);
    }
  });

  it.each([
    [['serve', '--port', 'abc'], /--port must be a whole number/],
    [['serve', '--port', '70000'], /--port must be between 0 and 65535/],
    [['serve', '--bogus'], /Unknown option '--bogus'/],
    [['serve', '--seed', '/no/such/file.yaml'], /--seed: cannot read/],
    // Read bounded, from a regular file only: /dev/zero would never end, a directory is no document.
    [['serve', '--seed', '/dev/zero'], /--seed: \/dev\/zero is .*; a seed document is read only from a regular file/],
    [['serve', '--seed', '/tmp'], /--seed: \/tmp is .*; a seed document is read only from a regular file/],
    [['serve', '--utc-offset', '+01:10'], /--utc-offset: "\+01:10" is not an offset of a zone in use/],
    [['serve', '--utc-offset=-15:00'], /--utc-offset: "-15:00" is not an offset of a zone in use/],
    [['serve', '--token-ttl', '0'], /--token-ttl must be between 1 and/],
    [['nonsense'], /Unknown command "nonsense"/],
  ])('%j is a usage error (exit 2) that says what is wrong', async (args, message) => {
    const res = await runCli(args);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stderr).toMatch(/--help/);
  });

  it('refuses a seed document larger than it reads, before reading it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seed-'));
    const file = join(dir, 'seed.json');
    writeFileSync(file, '');
    truncateSync(file, MAX_SEED_BYTES + 1); // sparse: no disk, no time
    const res = await runCli(['serve', '--seed', file]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--seed: .*seed\.json is \d+ bytes, more than a seed document is read at \(64 MiB\)/);
  });

  it('refuses a seed document that does not validate, naming the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seed-'));
    const file = join(dir, 'seed.json');
    writeFileSync(file, JSON.stringify({ suppliers: [{ code: 'X', status: 'Asleep' }] }));
    const res = await runCli(['serve', '--seed', file]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/suppliers\.0\.status/);
  });

  it('prints help and the version', async () => {
    const help = await runCli(['serve', '--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('Usage: conformance serve')]);
    const version = await runCli(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
