import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { model, strictModel, type Presence } from '../../core/spec/index.js';

const SPEC_FILE = fileURLToPath(new URL('../../spec/data-import-interface.md', import.meta.url));
/**
 * sha256 of the interface specification this model was last reviewed against, as `npm run schemas`
 * records it in docs/traceability.md: a changed spec needs a model review, then that command.
 */
const SPEC_SHA256 = readFileSync(new URL('../../docs/traceability.md', import.meta.url), 'utf8').match(
  /^Spec copy SHA-256: `([0-9a-f]{64})`\.$/m,
)?.[1];
const specText = readFileSync(SPEC_FILE, 'utf8');

type AnyObject = z.ZodObject<z.core.$ZodLooseShape>;

/** Every object schema reachable from a schema, with its path. */
function objectsIn(schema: z.ZodType, path = '', seen = new Set<z.ZodType>()): { path: string; schema: AnyObject }[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable)
    return objectsIn(schema.unwrap() as z.ZodType, path, seen);
  if (schema instanceof z.ZodArray) return objectsIn(schema.element as z.ZodType, `${path}[]`, seen);
  if (schema instanceof z.ZodObject) {
    const obj = schema as AnyObject;
    return [
      { path, schema: obj },
      ...Object.entries(obj.shape).flatMap(([k, v]) => objectsIn(v as z.ZodType, path ? `${path}.${k}` : k, seen)),
    ];
  }
  return [];
}

const requestSchemas = Object.values(model.endpoints).flatMap((e) => (e.body ? [[e.id, e.body] as const] : []));

describe('the spec model', () => {
  it('is written from the specification as published, unchanged since (spec/ holds it verbatim)', () => {
    expect(SPEC_SHA256).toMatch(/^[0-9a-f]{64}$/);
    expect(createHash('sha256').update(specText).digest('hex')).toBe(SPEC_SHA256);
    expect(specText).toMatch(/^# Customer Data-Import Service: Interface Specification/);
  });

  it("catalogues exactly the endpoints of §4, with the spec's methods", () => {
    const documented = new Set(
      [...specText.matchAll(/(?:(GET|POST) )?`(\/v1\/data-import\/[^`]+)`/g)].map((m) => m[2]),
    );
    const catalogued = Object.values(model.endpoints).map((e) => e.path);
    expect(new Set(catalogued)).toEqual(documented);
    for (const e of Object.values(model.endpoints)) {
      expect(e.method).toBe(e.path.includes('{') || /status|processes/.test(e.path) ? 'GET' : 'POST');
      expect(e.spec).toMatch(/§\d/);
    }
  });

  it('gives every request field a presence and every object a spec section', () => {
    let checked = 0;
    for (const [id, body] of requestSchemas) {
      for (const { path, schema } of objectsIn(body)) {
        expect(schema.meta()?.spec, `${id} ${path}`).toMatch(/§\d/);
        for (const [field, fieldSchema] of Object.entries(schema.shape)) {
          if (schema.def.catchall === undefined || schema.def.catchall._zod.def.type !== 'never') continue; // shape not shown
          const presence = (fieldSchema as z.ZodType).meta()?.presence as Presence | undefined;
          expect(['required', 'optional', 'expected', 'unspecified'], `${id} ${path}.${field}`).toContain(presence);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(150);
  });

  it('marks as optional exactly the fields the spec calls optional', () => {
    const optional = new Set<string>();
    for (const [, body] of requestSchemas) {
      for (const { schema } of objectsIn(body)) {
        for (const [field, s] of Object.entries(schema.shape)) {
          if ((s as z.ZodType).meta()?.presence === 'optional') optional.add(`${schema.meta()?.spec} ${field}`);
        }
      }
    }
    expect(optional).toEqual(
      new Set([
        '§2.3 note created_at',
        '§2.3 note is_pinned',
        '§4.1 process dry_run',
        '§2.6 historical statement statement_path',
      ]),
    );
  });

  it('spec mode enforces documented facts only; strict mode also the expected fields', () => {
    const point = { supply_addresses: [{ supply_points: [{}] }] };
    const base = { import_supplier: 'S', external_account_number: 'E' };
    expect(model.AccountPayload.safeParse({ ...base, ...point }).success).toBe(true);
    const strict = strictModel.AccountPayload.safeParse({ ...base, ...point });
    expect(strict.success).toBe(false);
    expect(strict.error!.issues.map((i) => i.path.join('.'))).toEqual([
      'supply_addresses.0.supply_address',
      'supply_addresses.0.supply_points.0.identifier',
      'supply_addresses.0.supply_points.0.supply_type',
    ]);
    for (const m of [model, strictModel]) {
      expect(m.AccountPayload.safeParse({ import_supplier: 'S' }).success).toBe(false);
      expect(m.Note.safeParse({ is_pinned: true }).success).toBe(false);
      expect(m.Note.safeParse({ body: 'x' }).success).toBe(true);
      expect(
        m.ProcessAccountRequest.safeParse({
          external_account_number: 'E',
          import_supplier_code: 'S',
          operations_team_name: 'T',
        }).success,
      ).toBe(true);
    }
  });

  it('refuses undocumented fields in requests and allows them in responses (§2.1, §9.2)', () => {
    expect(model.Note.safeParse({ body: 'x', colour: 'red' }).success).toBe(false);
    expect(
      model.StageAccountResponse.safeParse({ import_supplier: 'S', external_account_number: 'E', extra: 1 }).success,
    ).toBe(true);
    expect(
      model.ValidationErrorBody.safeParse({
        detail: 'x',
        code: 'c',
        errors: [{ detail: 'd', code: 'c', attr: 'a', hint: 'h' }],
        trace: 'id',
      }).success,
    ).toBe(true);
    expect(
      model.AccountTransferStatus.safeParse({ status: 'COMPLETED', service_account_number: 'A-1', links: [] }).success,
    ).toBe(true);
  });

  it('knows the closed enumerations of §2-§3 and keeps the "values seen" open', () => {
    expect(model.SupplyPoint.safeParse({ supply_type: 'WATER' }).success).toBe(false);
    expect(model.Transaction.safeParse({ type: 'GIFT' }).success).toBe(false);
    expect(
      model.Transaction.safeParse({ type: 'CHARGE', reason: 'A_REASON_NOT_SEEN', payment_type: 'BIZUM' }).success,
    ).toBe(true);
    expect(model.HistoricalBillingDocument.safeParse({ billing_document_type: 'MONTHLY' }).success).toBe(false);
    expect(model.AccountTransferStatus.safeParse({ status: 'DONE', service_account_number: '' }).success).toBe(false);
    expect(
      model.NoteResult.safeParse({ created_at: '2024-01-01T00:00:00Z', body: 'b', status: 'NOTE_CREATED' }).success,
    ).toBe(false);
  });

  it('follows the §2.1 date and datetime formats in requests and tolerates ISO variants in responses', () => {
    const date = model.Agreement.shape.effective_from.unwrap();
    expect(['2024-02-29', '2023-12-31'].map((d) => date.safeParse(d).success)).toEqual([true, true]);
    expect(['2023-02-29', '2023-2-1', '2023-02-01T00:00:00Z', ''].map((d) => date.safeParse(d).success)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    const datetime = model.Note.shape.created_at.unwrap();
    expect(datetime.safeParse('2024-01-01T10:00:00Z').success).toBe(true);
    expect(
      ['2024-01-01T10:00:00', '2024-01-01T10:00:00.123Z', '2024-01-01T10:00:00+01:00', '2023-02-30T10:00:00Z'].map(
        (d) => datetime.safeParse(d).success,
      ),
    ).toEqual([false, false, false, false]);
    const created = model.NoteResult.shape.created_at;
    expect(
      ['2024-01-01T10:00:00Z', '2024-01-01T10:00:00.123456Z', '2024-01-01T10:00:00+01:00'].map(
        (d) => created.safeParse(d).success,
      ),
    ).toEqual([true, true, true]);
  });

  it('pins no message wording: detail is any string', () => {
    const body = {
      detail: 'Cuenta inválida',
      code: 'account_failed_validation',
      errors: [{ detail: '', code: 'x', attr: 'a' }],
    };
    expect(model.ValidationErrorBody.safeParse(body).success).toBe(true);
  });

  it('exports to JSON Schema with the spec sections and presence notes', () => {
    const schema = z.toJSONSchema(model.AccountPayload, { io: 'input' }) as {
      $defs?: Record<string, { spec?: string; properties?: Record<string, { presence?: string }> }>;
    };
    const account = schema.$defs?.AccountPayload;
    expect(account?.spec).toBe('§2.3 account payload');
    expect(account?.properties?.external_account_number?.presence).toBe('required');
    expect(account?.properties?.account_type?.presence).toBe('unspecified');
  });
});
