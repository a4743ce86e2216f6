/**
 * The store's string pool shares one copy of each short string of what is stored; sharing must leave
 * every value as it was sent — nested objects and arrays, numbers, booleans, nulls, long strings —
 * since the handlers read the body after it and the answers hand parts of it back.
 */
import { describe, expect, it } from 'vitest';
import { StringPool } from '../../reference/strings.js';

const body = () => ({
  import_supplier: 'SUPPLIER_ONGOING',
  external_account_number: 'cf-abc123-A1',
  customers: [{ first_name: 'Ana', email: 'ana@example.com', is_primary: true, phone: null }],
  ledgers: [{ code: 'L1', transactions: [{ type: 'IMPORTED_CHARGE', amount: -12.5, tags: ['a', 'b', ''] }] }],
  notes: [{ body: 'x'.repeat(500), created_at: '2024-06-01T10:00:00Z', document_paths: [] }],
  metadata: { nested: { deeper: [[1, 'two', { three: 3 }]] } },
});

describe('the string pool', () => {
  it('leaves a body exactly as it was, and so every body shared after it', () => {
    const pool = new StringPool();
    for (let i = 0; i < 3; i++) {
      const shared = pool.share(body());
      expect(shared).toStrictEqual(body());
    }
  });

  it('shares scalars and empty values unchanged, and after a clear starts again', () => {
    const pool = new StringPool();
    expect(pool.share('DD_REGULAR_COLLECTION')).toBe('DD_REGULAR_COLLECTION');
    expect(pool.share(7)).toBe(7);
    expect(pool.share(null)).toBeNull();
    expect(pool.share([])).toStrictEqual([]);
    expect(pool.share({})).toStrictEqual({});
    pool.clear();
    expect(pool.share({ a: ['b'] })).toStrictEqual({ a: ['b'] });
  });
});
