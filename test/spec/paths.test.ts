import { describe, expect, it } from 'vitest';
import { freshCopy } from '../../core/engine/ids.js';
import { freshIdentifiers } from '../../core/engine/fresh-identifiers.js';
import { IdRegistry, Ids } from '../../core/engine/ids.js';
import { setOwn } from '../../core/spec/paths.js';

describe('setOwn', () => {
  // A body a defect or a target sends may carry "__proto__" as a key (JSON.parse makes it an own
  // property); a copy that assigned it would set the copy's prototype instead and lose the key.
  const withProto = () => JSON.parse('{"__proto__": {"polluted": true}, "external_account_number": "cf-x-A1"}');

  it('keeps __proto__ as a key of its own, the prototype untouched', () => {
    const out: Record<string, unknown> = {};
    setOwn(out, '__proto__', { polluted: true });
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('is how the payload copies keep such a key', () => {
    for (const copy of [
      freshCopy(withProto(), 'cf-x', 1),
      freshIdentifiers('AccountPayload', withProto(), new Ids(new IdRegistry('cf', 'x'))),
    ]) {
      expect(Object.keys(copy)).toContain('__proto__');
      expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
      expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    }
  });
});
