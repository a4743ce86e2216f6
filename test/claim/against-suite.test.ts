/** Where a claim's traffic went, held against the target it names (app/claim/against-suite.ts). */
import { describe, expect, it } from 'vitest';
import { checkHosts } from '../../app/claim/against-suite.js';
import type { RecordedEntry } from '../../app/claim/traffic.js';

const entry = (index: number, url: string, rule?: string): RecordedEntry => ({
  index,
  method: 'POST',
  url,
  status: 201,
  ...(rule ? { rule } : {}),
});
const traffic = (entries: RecordedEntry[]) => ({ exchanges: [], entries });
const target = { base_url: 'https://staging.example.com/api', embedded: false, auth: 'api_key' as const };

describe('checkHosts', () => {
  it('takes a run whose interface exchanges all went to the target, behind its base path', () => {
    const entries = [
      entry(0, 'https://staging.example.com/api/v1/data-import/notes/create/', 'notes.create.x'),
      entry(1, 'https://staging.example.com/api/v1/data-import/business/'),
    ];
    expect(checkHosts(target, traffic(entries))).toEqual([]);
  });

  it('does not hold the token mutation to the target, whoever sent it: auth.graphql_url may be elsewhere', () => {
    const entries = [
      entry(0, 'https://auth.example.com/graphql/'),
      entry(1, 'https://auth.example.com/graphql/', 'auth.api-key.unknown-key-no-token'),
      entry(2, 'https://staging.example.com/api/v1/data-import/business/', 'business.create.created'),
    ];
    expect(checkHosts(target, traffic(entries))).toEqual([]);
  });

  it('names the first interface exchange that went elsewhere, and how many did', () => {
    const entries = [
      entry(0, 'https://staging.example.com/api/v1/data-import/business/'),
      entry(1, 'http://127.0.0.1:4010/v1/data-import/notes/create/', 'notes.create.x'),
      entry(2, 'http://127.0.0.1:4010/v1/data-import/business/'),
    ];
    expect(checkHosts(target, traffic(entries))).toEqual([
      'target: the claim names https://staging.example.com as the target, but 2 of the 3 exchanges the run sent to the interface went elsewhere (the first: HAR entry 1, to http://127.0.0.1:4010)',
    ]);
  });

  it('says an embedded-server claim that names a target off this machine', () => {
    const found = checkHosts({ ...target, embedded: true }, traffic([]));
    expect(found).toEqual([
      "target: the claim says it ran against the embedded reference server, but names https://staging.example.com, which is not this machine's",
    ]);
  });
});
