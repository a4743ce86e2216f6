/**
 * The digest a report records of the settings that decide its target: the same settings however
 * written digest alike, a different fixture, template or declared limit does not, and no secret goes in (another
 * token, API key or header value leaves it unchanged).
 */
import { describe, expect, it } from 'vitest';
import { targetConfigDigest } from '../../core/config/digest.js';
import { DEFAULT_MUTATION } from '../../core/config/schema.js';

const settings = {
  fixtures: { import_suppliers: { ongoing: 'SUP-A', paused: 'SUP-P' }, operations_team: 'Team' },
  payloads: { account: { account_type: 'DOMESTIC', extra: { a: 1 } } },
  auth: { token: 'tok-1', graphqlUrl: '/gql/' },
  headerNames: ['X-Gateway-Key'],
};

describe('targetConfigDigest', () => {
  it('is sha256 with 16 hex digits, the same for the same settings in another order or written with defaults', () => {
    const digest = targetConfigDigest(settings, false);
    expect(digest).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(
      targetConfigDigest(
        {
          headerNames: ['x-gateway-key'],
          auth: { graphqlUrl: '/gql/', mutation: DEFAULT_MUTATION, tokenPath: 'data.obtainServiceToken.token' },
          payloads: { account: { extra: { a: 1 }, account_type: 'DOMESTIC' } },
          fixtures: { operations_team: 'Team', import_suppliers: { paused: 'SUP-P', ongoing: 'SUP-A' } },
          contractPath: 'business.business_contract_identifier',
        },
        false,
      ),
    ).toBe(digest);
  });

  it('changes with a fixture, a template, the contract-link path, an auth setting or a header name', () => {
    const digest = targetConfigDigest(settings, false);
    const changed = [
      { ...settings, fixtures: { ...settings.fixtures, operations_team: 'Other' } },
      { ...settings, payloads: { account: { account_type: 'BUSINESS' } } },
      { ...settings, contractPath: 'contract.id' },
      { ...settings, auth: { ...settings.auth, tokenPath: 'data.token' } },
      { ...settings, headerNames: ['X-Other'] },
      // Declared limits bound what the run generates and decide which refusals are limits.
      { ...settings, limits: { max_string_length: 255 } },
      { ...settings, limits: { fields: { display_note: { max_length: 40 } } } },
    ];
    for (const other of changed) expect(targetConfigDigest(other, false)).not.toBe(digest);
  });

  it('no limits declared and an empty limits section digest alike, as before limits counted', () => {
    expect(targetConfigDigest({ ...settings, limits: {} }, false)).toBe(targetConfigDigest(settings, false));
  });

  it('holds no secret: another token or API key digests alike', () => {
    const digest = targetConfigDigest(settings, false);
    expect(targetConfigDigest({ ...settings, auth: { graphqlUrl: '/gql/', apiKey: 'key-2' } } as never, false)).toBe(
      digest,
    );
  });

  it('the embedded server brings its own fixtures: configured ones do not count for it', () => {
    expect(targetConfigDigest(settings, true)).toBe(
      targetConfigDigest({ ...settings, fixtures: { operations_team: 'Other' } }, true),
    );
  });
});
