/** §4.2 notes rule 3: "the current local time", on a server whose clock is not at UTC (choices.ts). */
import { describe, expect, it } from 'vitest';
import { faithfulChoices, profileById, startReferenceServer } from '../../reference/index.js';
import { client, unique } from '../helpers/http.js';
import { PATHS, SUPPLIER, importAccount, useReferenceServer } from '../helpers/reference.js';

const NOW = Date.parse('2026-01-15T12:00:00Z');
const h = useReferenceServer({
  now: () => new Date(NOW),
  choices: { ...faithfulChoices, localTimeOffsetMinutes: 60 },
});

describe('a server at UTC+1', () => {
  it('writes its local time in the §2.1 …Z form wherever it writes the current time', async () => {
    const { ext } = await importAccount(h.call);
    const res = await h.call('POST', PATHS.notes, {
      body: {
        import_supplier: SUPPLIER,
        external_account_number: ext,
        notes: [{ body: unique('undated') }, { body: unique('dated'), created_at: '2024-01-02T03:04:05Z' }],
      },
    });
    expect(res.status).toBe(201);
    // The defaulted one is an hour from UTC; a given one is kept as sent.
    expect(res.body.map((n: { created_at: string }) => n.created_at)).toEqual([
      '2026-01-15T13:00:00Z',
      '2024-01-02T03:04:05Z',
    ]);
    const all = await h.call('GET', PATHS.all(SUPPLIER));
    const record = all.body.find((r: { external_account_number: string }) => r.external_account_number === ext);
    expect(record.account_created_at).toBe('2026-01-15T13:00:00Z');
  });
});

describe('the local-clock profile (a faithful server the kill matrix runs the suite against)', () => {
  it('issues tokens that live two seconds, and writes local time at UTC+1', async () => {
    const profile = profileById('local-clock')!;
    let now = NOW;
    const server = await startReferenceServer({
      now: () => new Date(now),
      choices: profile.choices,
      seed: { api_keys: ['k'], suppliers: [{ code: SUPPLIER, status: 'Ongoing' }], settings: profile.settings },
    });
    try {
      const call = client(server.url, null);
      const res = await call('POST', '/v1/graphql/', {
        body: {
          query:
            'mutation ObtainServiceToken($key: String!) { obtainServiceToken(input: {APIKey: $key}) { token payload { exp } } }',
          variables: { key: 'k' },
        },
      });
      const { token, payload } = res.body.data.obtainServiceToken;
      expect(payload.exp).toBe(NOW / 1000 + 2);
      expect((await call('GET', PATHS.all(SUPPLIER), { token })).status).toBe(200);
      now += 2000;
      expect((await call('GET', PATHS.all(SUPPLIER), { token })).status).toBe(401);
      expect(profile.choices.localTimeOffsetMinutes).toBe(60);
    } finally {
      await server.close();
    }
  });
});
