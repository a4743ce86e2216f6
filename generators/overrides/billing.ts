/**
 * Money: §2.3 ledgers, §2.4 transactions with their line and tax items, §2.5 historical billing
 * documents and §2.6 historical statements.
 */
import fc from 'fast-check';
import { addDays, addMonths, dayBetween, endOfMonth, monthName } from '../calendar.js';
import type { ObjectRule } from '../from-model.js';
import { edgeAmount, orEdge, orTextEdge } from '../edges.js';
import { SUPPLY, type SupplyKind, euros, round2 } from '../spanish.js';
import { type Context, type TransactionKind, list, pad } from './context.js';

const inside = (s: Context, field: string): boolean => s.at.includes(field);

/** `L1-CST2` for `ledgers.0.current_statement_transactions.1`: unique for every place in a payload. */
function placeCode(at: readonly (string | number)[]): string {
  const parts: string[] = [];
  at.forEach((part, i) => {
    if (typeof part === 'number')
      parts.push(
        `${String(at[i - 1])
          .split('_')
          .map((w) => w[0].toUpperCase())
          .join('')}${part + 1}`,
      );
  });
  return parts.join('-');
}

const KIND_WORD: Readonly<Record<SupplyKind, string>> = { ELECTRICITY: 'electricidad', GAS: 'gas' };

// §2.3 ledgers, §2.4 transactions ----------------------------------------------------------------

const ledger: ObjectRule<Context> = {
  joint: {
    fields: ['ledger_code', 'last_statement_balance', 'last_statement_closing_date', 'ledger_balance'],
    values: (s) =>
      fc.record({ last: euros(-25_000, 0), balance: euros(-25_000, 2_000) }).map(({ last, balance }) => ({
        ledger_code: `LEDGER-${s.serial}-${s.index + 1}`,
        last_statement_balance: last,
        last_statement_closing_date: s.anchor,
        ledger_balance: balance,
      })),
  },
};

/** Current statement transactions fall in the open period after the ledger's closing date, historical ones before. */
function transactionDays(s: Context): readonly [string, string] {
  if (inside(s, 'current_statement_transactions')) return [addDays(s.anchor, 1), addDays(s.anchor, 30)];
  if (inside(s, 'historical_statement_transactions')) return [addDays(s.anchor, -330), s.anchor];
  return s.window ?? [addDays(s.anchor, -60), s.anchor];
}

interface TransactionStyle {
  reasons: readonly string[];
  paymentTypes: readonly string[];
  cents: readonly [number, number];
  reference: string;
  displayNotes: (kind: SupplyKind, day: string) => readonly string[];
  notes: readonly string[];
}

/**
 * Reasons and payment types per type, among the values §2.4 shows and paired as the fixtures pair
 * them; which pairings are valid is not shown (§2.4).
 */
const TRANSACTION_STYLE: Readonly<Record<TransactionKind, TransactionStyle>> = {
  CHARGE: {
    reasons: ['IMPORTED_CHARGE'],
    paymentTypes: ['DD_REGULAR_COLLECTION'],
    cents: [1_500, 25_000],
    reference: 'CARGO',
    displayNotes: (kind, day) => [
      `Factura de ${KIND_WORD[kind]} de ${monthName(day)}`,
      'Cargo por envío de factura en papel',
    ],
    notes: ['Importado del sistema anterior', 'Solicitado por la titular'],
  },
  CREDIT: {
    reasons: ['GENERAL_CREDIT', 'IMPORTED_CREDIT'],
    paymentTypes: ['DIRECT_CREDIT'],
    cents: [500, 5_000],
    reference: 'ABONO',
    displayNotes: () => [
      'Abono de bienvenida',
      'Compensación por interrupción del suministro',
      'Abono por lectura estimada corregida',
    ],
    notes: ['Promoción de bienvenida tras la migración', 'Importado del sistema anterior'],
  },
  PAYMENT: {
    reasons: ['ACCOUNT_CHARGE_PAYMENT'],
    paymentTypes: [
      'DD_REGULAR_COLLECTION',
      'DD_FINAL_COLLECTION',
      'CREDIT_CARD',
      'DEBIT_CARD',
      'CHEQUE',
      'DIRECT_CREDIT',
    ],
    cents: [1_500, 25_000],
    reference: 'SEPA',
    displayNotes: (_, day) => [`Pago de la factura de ${monthName(addMonths(day, -1))}`, 'Pago del saldo pendiente'],
    notes: ['Cobro SEPA acordado con la titular', 'Pago recibido en la cuenta del sistema anterior'],
  },
  REPAYMENT: {
    reasons: ['FULL_CREDIT_REFUND'],
    paymentTypes: ['DIRECT_CREDIT', 'CHEQUE'],
    cents: [500, 10_000],
    reference: 'TRANSF',
    displayNotes: () => ['Devolución del saldo a favor por transferencia'],
    notes: ['Devolución del exceso cobrado', 'Devolución solicitada por el cliente'],
  },
  SUPPLY_CHARGE: {
    reasons: ['IMPORTED_CHARGE'],
    paymentTypes: ['DD_REGULAR_COLLECTION'],
    cents: [1_500, 25_000],
    reference: 'F',
    displayNotes: (kind, day) => [`Factura de ${KIND_WORD[kind]} de ${monthName(addMonths(day, -1))}`],
    notes: ['Consumo real según lecturas del distribuidor', 'Consumo estimado por falta de lectura'],
  },
};

/** §2.4 shows product code, line items and tax items on SUPPLY_CHARGE only. */
const SUPPLY_CHARGE_ONLY = ['product_code', 'line_items', 'tax_items'];

const transaction: ObjectRule<Context> = {
  narrow: (s) =>
    fc.record({
      type: fc.constantFrom(...s.types),
      day: dayBetween(...transactionDays(s)),
      kind: fc.constantFrom(...(s.kind ? [s.kind] : s.kinds)),
    }),
  joint: {
    fields: [
      'transaction_id',
      'transaction_date',
      'amount',
      'type',
      'reason',
      'payment_type',
      'reference',
      'display_note',
      'note',
      'product_code',
    ],
    values: (s) => {
      const style = TRANSACTION_STYLE[s.type!];
      const day = s.day!;
      const kind = s.kind!;
      return fc
        .record({
          amount: euros(...style.cents),
          asText: fc.boolean(),
          // A supply charge's amount is the sum of its lines and taxes (finish), so its edges are theirs.
          edge:
            s.type === 'SUPPLY_CHARGE'
              ? fc.constant(undefined)
              : orEdge<number | string | undefined>(fc.constant(undefined), edgeAmount),
          reason: fc.constantFrom(...style.reasons),
          paymentType: fc.constantFrom(...style.paymentTypes),
          reference: fc.integer({ min: 0, max: 9_999_999 }),
          displayNote: fc.constantFrom(...style.displayNotes(kind, day)).chain(orTextEdge),
          note: fc.constantFrom(...style.notes),
          tariff: fc.constantFrom(...SUPPLY[kind].tariffs),
        })
        .map((t) => ({
          transaction_id: `TX-${s.serial}-${placeCode(s.at)}`,
          transaction_date: day,
          // §2.4: "number or decimal string"; both forms are sent.
          amount: t.edge ?? (t.asText ? t.amount.toFixed(2) : t.amount),
          type: s.type,
          reason: t.reason,
          payment_type: t.paymentType,
          reference:
            s.type === 'SUPPLY_CHARGE'
              ? `F${day.slice(0, 4)}-${pad(t.reference % 1_000_000, 6)}`
              : `${style.reference}-${day.slice(0, 7)}-${pad(t.reference, 7)}`,
          display_note: t.displayNote,
          note: t.note,
          product_code: `${kind === 'GAS' ? 'GAS' : 'ELEC'}-${t.tariff}-FIJO-${day.slice(0, 4)}`,
        }));
    },
  },
  absent: (s) => (s.type === 'SUPPLY_CHARGE' ? [] : SUPPLY_CHARGE_ONLY),
  finish: (value, s) => {
    if (s.type !== 'SUPPLY_CHARGE') return value;
    // The charge is its lines plus their taxes.
    const net = round2(
      list(value.line_items).reduce(
        (sum, line) => sum + (typeof line.net_amount === 'number' ? line.net_amount : 0),
        0,
      ),
    );
    const taxes = list(value.tax_items).map((tax) => ({
      ...tax,
      ...('value_taxed' in tax && { value_taxed: net }),
      ...('amount' in tax && { amount: round2(net * (typeof tax.rate === 'number' ? tax.rate : 0.21)) }),
    }));
    const total = round2(net + taxes.reduce((sum, tax) => sum + (typeof tax.amount === 'number' ? tax.amount : 0), 0));
    // A sparse charge whose lines all lost their amounts keeps the amount it was drawn with.
    if (total === 0) return value;
    return { ...value, amount: typeof value.amount === 'string' ? total.toFixed(2) : total, tax_items: taxes };
  },
};

const lineItem: ObjectRule<Context> = {
  // A bill covers the months before its date; energy is split into the periods of the tariff.
  joint: {
    fields: ['start_date', 'end_date', 'units', 'number_of_units', 'price_per_unit', 'net_amount'],
    values: (s) => {
      const start = addMonths(s.day!, -(s.index + 1));
      const periods = s.kind === 'GAS' ? 1 : 3;
      return fc
        .record({
          units: fc.array(fc.integer({ min: 20, max: 300 }), { minLength: periods, maxLength: periods }),
          price: euros(10, 25),
        })
        .map(({ units, price }) => {
          const total = units.reduce((a, b) => a + b, 0);
          return {
            start_date: start,
            end_date: endOfMonth(start),
            units,
            number_of_units: total,
            price_per_unit: price,
            net_amount: round2(total * price),
          };
        });
    },
  },
};

const taxItem: ObjectRule<Context> = {
  joint: {
    fields: ['value_taxed', 'rate', 'amount'],
    values: () => euros(1_000, 20_000).map((base) => ({ value_taxed: base, rate: 0.21, amount: round2(base * 0.21) })),
  },
};

// §2.5, §2.6 historical billing documents and statements ----------------------------------------------

const billingDocuments: ObjectRule<Context> = {
  // Bills carry charges; what is added beside them is what was paid or refunded.
  narrow: () => fc.constant({ types: ['PAYMENT', 'CREDIT', 'REPAYMENT'] as const }),
  joint: {
    fields: ['billing_document_type'],
    values: (s) => fc.constant({ billing_document_type: s.documentType }),
  },
};

const PERIOD_FIELDS = ['bill_period_from_date', 'bill_period_to_date'];

const billingDocument: ObjectRule<Context> = {
  narrow: (s) =>
    fc.integer({ min: 3, max: 6 }).map((delay) => {
      const from = addMonths(s.anchor, s.index - 2);
      const to = endOfMonth(from);
      const issued = addDays(to, delay);
      return {
        period: [from, to] as const,
        issued,
        types: ['CHARGE', 'SUPPLY_CHARGE'] as const,
        window: (s.documentType === 'PERIOD_BASED'
          ? [to, to]
          : [addDays(issued, -5), addDays(issued, -1)]) as readonly [string, string],
      };
    }),
  joint: {
    fields: [
      'billing_document_identifier',
      'billing_document_type',
      'issued_date',
      'bill_period_from_date',
      'bill_period_to_date',
    ],
    values: (s) =>
      fc.constant({
        billing_document_identifier: `F${s.issued!.slice(0, 4)}-${s.serial}${pad(s.index + 1, 2)}`,
        billing_document_type: s.documentType,
        issued_date: s.issued,
        bill_period_from_date: s.period![0],
        bill_period_to_date: s.period![1],
      }),
  },
  // §2.5: the bill period belongs to period-based documents, where the strict reading requires it.
  absent: (s) => (s.documentType === 'PERIOD_BASED' ? [] : PERIOD_FIELDS),
  keep: (value) => (value.billing_document_type === 'PERIOD_BASED' ? PERIOD_FIELDS : []),
};

const historicalStatement: ObjectRule<Context> = {
  joint: {
    fields: [
      'bill_period_from_date',
      'bill_period_to_date',
      'statement_id',
      'issued_date',
      'number',
      'gross_amount',
      'statement_path',
    ],
    values: (s) => {
      const from = addMonths(s.anchor, s.index - 2);
      const to = endOfMonth(from);
      return euros(2_000, 30_000).map((gross) => ({
        bill_period_from_date: from,
        bill_period_to_date: to,
        statement_id: `HST-${s.serial}-${from.slice(0, 7)}`,
        issued_date: addDays(to, 3),
        number: `F${to.slice(0, 4)}-${pad((s.serial * 10 + s.index) % 1_000_000, 6)}`,
        gross_amount: gross,
        statement_path: `/statements/${s.serial}/${from.slice(0, 7)}.pdf`,
      }));
    },
  },
};

export const billingRules: Readonly<Record<string, ObjectRule<Context>>> = {
  '§2.3 ledger': ledger,
  '§2.4 transaction': transaction,
  '§2.4 line item': lineItem,
  '§2.4 tax item': taxItem,
  '§4.2 historical billing documents': billingDocuments,
  '§2.5 historical billing document': billingDocument,
  '§2.6 historical statement': historicalStatement,
};
