/**
 * Where the spec says the body is the validated data (§4.1 validate, §4.2
 * historical statements), every documented field sent comes back with an equal value, whatever the
 * implementation adds (§9.2). The comparison tolerates the spellings the spec allows, and each fault
 * (a nested field dropped, a value altered) is caught by the new rule alone: the old rules looked at
 * top-level keys and a substring.
 */
import { describe, expect, it } from 'vitest';
import { runAgainstReference } from '../../app/against-reference.js';
import { faultById } from '../../reference/faults/catalogue.js';
import { echoDifference } from '../../suites/support.js';

describe('echoDifference', () => {
  it('ignores added fields and tolerates the spellings the spec allows', () => {
    const sent = {
      a: 'x',
      amount: '12.50',
      n: 3,
      at: '2024-01-02T03:04:05Z',
      docs: [{ document_path: 'letters/a.pdf' }],
    };
    const echoed = {
      a: 'x',
      amount: 12.5,
      n: '3',
      at: '2024-01-02T03:04:05.000000+00:00',
      docs: [{ document_path: '/letters/a.pdf', id: 7 }],
      request_id: 'r-1',
    };
    expect(echoDifference(sent, echoed)).toBeUndefined();
  });

  it('names the first field dropped or altered, at any depth', () => {
    expect(echoDifference({ c: [{ email: 'a@b.es', x: 1 }] }, { c: [{ x: 1 }] })).toEqual({
      path: 'c.0.email',
      sent: 'a@b.es',
      echoed: undefined,
    });
    expect(echoDifference({ s: [{ gross_amount: 54.8 }] }, { s: [{ gross_amount: 55 }] })?.path).toBe(
      's.0.gross_amount',
    );
    expect(echoDifference({ t: true }, { t: 'true' })?.path).toBe('t');
    expect(echoDifference({ l: [1, 2] }, { l: [1] })?.path).toBe('l');
    expect(echoDifference({ a: 'x' }, [])?.path).toBe('(body)');
  });
});

describe('echo fidelity against faults placed where the old rules did not look', () => {
  for (const [fault, rule, beside] of [
    ['migration.validate.echo-drops-email', 'migration.validate.echo-fidelity', ['relations.echo.']],
    // A gross_amount rounded is a number past cents changed: the edge relation sees it too.
    ['statements.echo-alters-amount', 'statements.create.echo-fidelity', ['relations.echo.', 'relations.edge.']],
  ] as const) {
    // The whole suite against the fault is the kill matrix's job (`npm run mutation`, in CI).
    it(`${fault} is placed to be caught by ${rule} at MUST, and by no rule outside its relations`, () => {
      expect(faultById(fault)?.level ?? 'MUST').toBe('MUST');
      expect(faultById(fault)?.placement).toEqual({ by: [rule], beside: [...beside] });
    });
  }

  it('the variant, which echoes document paths with a leading slash, passes both', async () => {
    const rules = ['migration.validate.echo-fidelity', 'statements.create.echo-fidelity'];
    const { report } = await runAgainstReference(
      { profile: 'variant' },
      { selection: { rules }, seed: 20, fullTranscripts: true },
    );
    expect(report.rules.map((r) => [r.id, r.verdict])).toEqual(rules.map((id) => [id, 'pass']));
    const validate = report.rules.find((r) => r.id === 'migration.validate.echo-fidelity')!;
    expect(validate.transcript.at(-1)?.response?.body).toContain('"document_path":"/');
  });
});
