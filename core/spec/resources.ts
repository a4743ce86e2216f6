/**
 * The resources of §2: account payload with every sub-object, transaction, historical billing
 * document and statement, payment instructions, business. Each field carries its presence (see
 * meta.ts); where the spec only gives an example value, the field stays an open string.
 */
import { z } from 'zod';
import type { ModelBuilder } from './builder.js';
import { DecimalString, DocumentPath, Email, IsoDate, IsoDateTime, PhoneNumber } from './conventions.js';
import { BillingDocumentType, SupplyType, TransactionType, openString, seen } from './enums.js';

const IDENTITY = 'identifies the account the request is about (§3, §4.3 key it by supplier code and external number)';
const ITEM_KEY = "not shown; the item's own identifier, without which it cannot be referred to";
const RANGE_KEY = 'not shown; the value the item is about';

export function defineResources(b: ModelBuilder) {
  const { field } = b;

  // §2.3 customer ------------------------------------------------------------------------------
  const NamespacedValue = b.request(
    { id: 'NamespacedValue', spec: '§2.3' },
    {
      namespace: field(z.string(), 'expected', RANGE_KEY),
      value: field(z.string(), 'expected', RANGE_KEY),
    },
  );
  const UserDetail = NamespacedValue.meta({ spec: '§2.3 customer.user_details', seen: seen.userDetailNamespaces });

  const Customer = b.request(
    { id: 'Customer', spec: '§2.3 customer' },
    {
      account_roles: field(z.array(openString('§2.3 customer', seen.accountRoles)), 'unspecified'),
      user_details: field(z.array(UserDetail), 'unspecified'),
      given_name: field(z.string(), 'unspecified'),
      family_name: field(z.string(), 'unspecified'),
      email: field(Email, 'unspecified'),
      mobile: field(PhoneNumber, 'unspecified'),
      landline: field(PhoneNumber, 'unspecified'),
    },
  );

  // §2.3 supply address group -----------------------------------------------------------------
  const StructuredStreetAddress = b.request(
    { id: 'StructuredStreetAddress', spec: '§2.3 supply_address.structured_street_address' },
    {
      street_type: field(z.string(), 'unspecified'),
      street_name: field(z.string(), 'unspecified'),
      street_number: field(z.string(), 'unspecified'),
      door: field(z.string(), 'unspecified'),
      floor: field(z.string(), 'unspecified'),
      gate: field(z.string(), 'unspecified'),
      stair: field(z.string(), 'unspecified'),
      block: field(z.string(), 'unspecified'),
      address_extra_info: field(z.string(), 'unspecified'),
    },
  );

  const SupplyAddress = b.request(
    { id: 'SupplyAddress', spec: '§2.3 supply_address' },
    {
      locality: field(z.string(), 'unspecified'),
      administrative_area: field(z.string(), 'unspecified'),
      postal_code: field(z.string(), 'unspecified'),
      country: field(z.string().meta({ description: 'two-letter code in the examples' }), 'unspecified'),
      structured_street_address: field(StructuredStreetAddress, 'unspecified'),
    },
  );

  const Agreement = b.request(
    { id: 'Agreement', spec: '§2.3 agreement' },
    {
      tariff_code: field(z.string(), 'expected', RANGE_KEY),
      effective_from: field(IsoDate, 'expected', 'not shown; an agreement is about a period that starts somewhere'),
      effective_to: field(IsoDate, 'unspecified'),
      cnae: field(z.string(), 'unspecified'),
      params: field(z.record(z.string(), z.number()), 'unspecified'),
      contractual_max_power: field(z.array(z.int()), 'unspecified'),
      annual_consumption: field(z.string(), 'unspecified'),
      estimated_monthly_fee_in_cents: field(z.int(), 'unspecified'),
      atr_type: field(z.string(), 'unspecified'),
    },
  );

  const Reading = b.request(
    { id: 'Reading', spec: '§2.3 reading' },
    {
      meter_serial_number: field(z.string(), 'unspecified'),
      interval_start: field(IsoDateTime, 'expected', RANGE_KEY),
      interval_end: field(IsoDateTime, 'expected', RANGE_KEY),
      consumption_delta: field(DecimalString, 'expected', RANGE_KEY),
      source: field(z.int(), 'unspecified'),
    },
  );

  const BillableItem = b.request(
    { id: 'BillableItem', spec: '§2.3 billable item' },
    {
      net_amount: field(z.number(), 'expected', RANGE_KEY),
      billable_item_type: field(z.string(), 'unspecified'),
      interval_start: field(IsoDate, 'unspecified'),
      interval_end: field(IsoDate, 'unspecified'),
      number_of_units: field(z.number(), 'unspecified'),
      price_per_unit: field(z.number(), 'unspecified'),
      unit_type: field(openString('§2.3 billable item', seen.unitTypes), 'unspecified'),
    },
  );

  const SupplyPoint = b.request(
    { id: 'SupplyPoint', spec: '§2.3 supply point' },
    {
      identifier: field(z.string().min(1), 'expected', ITEM_KEY),
      distributor_ree_code: field(z.string(), 'unspecified'),
      supply_type: field(SupplyType, 'expected', 'not shown; what is supplied decides everything else about the point'),
      supply_start_date: field(IsoDate, 'unspecified'),
      last_billed_to_date: field(IsoDate, 'unspecified'),
      atr: field(z.string(), 'unspecified'),
      agreements: field(z.array(Agreement), 'unspecified'),
      readings: field(z.array(Reading), 'unspecified'),
      billable_items: field(z.array(BillableItem), 'unspecified'),
    },
  );

  const SupplyAddressGroup = b.request(
    { id: 'SupplyAddressGroup', spec: '§2.3 supply address group' },
    {
      supply_address: field(SupplyAddress, 'expected', 'not shown; the group is about an address'),
      customer_at_supply_address_from_date: field(IsoDate, 'unspecified'),
      supply_points: field(z.array(SupplyPoint), 'unspecified'),
    },
  );

  // §2.3 note ------------------------------------------------------------------------------------
  const DocumentReference = b.request(
    { id: 'DocumentReference', spec: '§2.3 note.document_paths' },
    {
      document_path: field(DocumentPath, 'expected', 'not shown; an item of document_paths names a document'),
    },
  );

  const Note = b
    .request(
      { id: 'Note', spec: '§2.3 note' },
      {
        body: field(z.string(), 'unspecified', 'a note must have body or document_paths or both (§2.3)'),
        created_at: field(IsoDateTime, 'optional'),
        is_pinned: field(z.boolean(), 'optional'),
        unpin_at: field(IsoDateTime, 'unspecified'),
        document_paths: field(
          z.array(DocumentReference),
          'unspecified',
          'a note must have body or document_paths or both (§2.3)',
        ),
      },
    )
    .check((ctx) => {
      // §2.3 / §4.2 notes rule 4: "A note must have body or document_paths or both."
      const note = ctx.value;
      if (note.body === undefined && note.document_paths === undefined) {
        ctx.issues.push({
          code: 'custom',
          input: note,
          message: 'A note must have body or document_paths or both.',
          params: { code: 'note_without_content' },
          path: [],
        });
      }
    });

  // §2.4 transaction -------------------------------------------------------------------------
  const LineItem = b.request(
    { id: 'LineItem', spec: '§2.4 line item' },
    {
      rate_band: field(openString('§2.4 line item', seen.rateBands), 'unspecified'),
      start_date: field(IsoDate, 'unspecified'),
      end_date: field(IsoDate, 'unspecified'),
      number_of_units: field(z.number(), 'unspecified'),
      net_amount: field(z.number(), 'unspecified'),
      price_per_unit: field(z.number(), 'unspecified'),
      units: field(z.array(z.number()), 'unspecified'),
    },
  );

  const TaxItem = b.request(
    { id: 'TaxItem', spec: '§2.4 tax item' },
    {
      amount: field(z.number(), 'unspecified'),
      tax_type: field(openString('§2.4 tax item', seen.taxTypes), 'unspecified'),
      value_taxed: field(z.number(), 'unspecified'),
      rate: field(z.number(), 'unspecified'),
      unit_type: field(openString('§2.4 tax item', seen.taxUnitTypes), 'unspecified'),
    },
  );

  const Amount = z
    .union([z.number(), DecimalString])
    .meta({ spec: '§2.4 transaction.amount', description: 'number or decimal string' });

  const Transaction = b.request(
    { id: 'Transaction', spec: '§2.4 transaction' },
    {
      transaction_id: field(
        z.string().min(1),
        'expected',
        'not shown; dedup (§4.2) needs a way to recognise a transaction',
      ),
      transaction_date: field(
        IsoDate,
        'expected',
        'not shown; the open statement period rules (§4.2) are about this date',
      ),
      amount: field(Amount, 'expected', RANGE_KEY),
      type: field(TransactionType, 'expected', RANGE_KEY),
      reason: field(
        openString('§2.4 transaction', seen.transactionReasons),
        'unspecified',
        'valid reasons per type: not shown (§2.4)',
      ),
      payment_type: field(
        openString('§2.4 transaction', seen.paymentTypes),
        'unspecified',
        'valid payment types per type: not shown (§2.4)',
      ),
      reference: field(z.string(), 'unspecified'),
      display_note: field(z.string(), 'unspecified'),
      note: field(z.string(), 'unspecified'),
      product_code: field(z.string(), 'unspecified', 'shown on SUPPLY_CHARGE'),
      line_items: field(z.array(LineItem), 'unspecified', 'shown on SUPPLY_CHARGE'),
      tax_items: field(z.array(TaxItem), 'unspecified', 'shown on SUPPLY_CHARGE'),
    },
  );

  // §2.3 ledger, payment schedule, statement -------------------------------------------------------
  const Ledger = b.request(
    { id: 'Ledger', spec: '§2.3 ledger' },
    {
      ledger_code: field(z.string().min(1), 'expected', ITEM_KEY),
      last_statement_balance: field(z.number(), 'unspecified'),
      last_statement_closing_date: field(IsoDate, 'unspecified'),
      ledger_balance: field(z.number(), 'unspecified'),
      current_statement_transactions: field(z.array(Transaction), 'unspecified'),
      historical_statement_transactions: field(z.array(Transaction), 'unspecified'),
    },
  );

  const PaymentSchedule = b.request(
    { id: 'PaymentSchedule', spec: '§2.3 payment schedule' },
    {
      means: field(openString('§2.3 payment schedule', seen.paymentScheduleMeans), 'unspecified'),
      start_date: field(IsoDate, 'unspecified'),
      trigger: field(openString('§2.3 payment schedule', seen.paymentScheduleTriggers), 'unspecified'),
    },
  );

  const AccountStatement = b.request(
    { id: 'AccountStatement', spec: '§2.3 statement' },
    {
      bill_period_from_date: field(IsoDate, 'expected', RANGE_KEY),
      bill_period_to_date: field(IsoDate, 'expected', RANGE_KEY),
      statement_path: field(DocumentPath, 'unspecified'),
      statement_id: field(z.string().min(1), 'expected', ITEM_KEY),
      supply_type: field(SupplyType, 'unspecified'),
    },
  );

  const Metadata = b.request(
    { id: 'Metadata', spec: '§2.3 metadata' },
    {
      key: field(z.string(), 'expected', RANGE_KEY),
      value: field(z.record(z.string(), z.unknown()).meta({ description: 'a JSON object' }), 'expected', RANGE_KEY),
    },
  );

  const Reference = NamespacedValue.meta({ spec: '§2.3 references' });

  /**
   * §2.3: the account carries `business.business_contract_identifier`; its position is not shown.
   * The model places it in a top-level `business` object (the runner's default, configurable with
   * `account.business_contract_identifier_path`).
   */
  const AccountBusinessLink = b.request(
    { id: 'AccountBusinessLink', spec: '§2.3 business.business_contract_identifier' },
    {
      business_contract_identifier: field(z.string().min(1), 'expected', 'the only documented content of the link'),
    },
  );

  // §2.3 account payload ----------------------------------------------------------------------
  const AccountPayload = b.request(
    {
      id: 'AccountPayload',
      spec: '§2.3 account payload',
      description: 'one account, sent to validate and stage (§4.1)',
    },
    {
      import_supplier: field(z.string().min(1), 'required', IDENTITY),
      external_account_number: field(z.string().min(1), 'required', IDENTITY),
      account_type: field(z.string(), 'unspecified', 'a domestic type appears in the examples; values not shown'),
      customers: field(z.array(Customer), 'unspecified'),
      supply_addresses: field(z.array(SupplyAddressGroup), 'unspecified'),
      notes: field(z.array(Note), 'unspecified'),
      ledgers: field(z.array(Ledger), 'unspecified'),
      payment_schedules: field(z.array(PaymentSchedule), 'unspecified'),
      statements: field(z.array(AccountStatement), 'unspecified'),
      metadata: field(z.array(Metadata), 'unspecified'),
      references: field(z.array(Reference), 'unspecified'),
      billing_name: field(z.string(), 'unspecified'),
      billing_address1: field(z.string(), 'unspecified'),
      billing_address4: field(z.string(), 'unspecified'),
      billing_postcode: field(z.string(), 'unspecified'),
      sales_channel: field(z.string(), 'unspecified'),
      sales_subchannel: field(z.string(), 'unspecified'),
      unknown_occupier: field(z.boolean(), 'unspecified'),
      communication_preference: field(
        z.string(),
        'unspecified',
        'an online value appears in the examples; values not shown',
      ),
      business: field(
        AccountBusinessLink,
        'unspecified',
        'position of business.business_contract_identifier: not shown (§2.3)',
      ),
    },
  );

  // §2.5 historical billing document ---------------------------------------------------------
  const HistoricalBillingDocument = b
    .request(
      { id: 'HistoricalBillingDocument', spec: '§2.5 historical billing document' },
      {
        billing_document_identifier: field(z.string().min(1), 'expected', ITEM_KEY),
        billing_document_type: field(
          BillingDocumentType,
          'expected',
          'each document takes ITEM_BASED or PERIOD_BASED (§4.2)',
        ),
        issued_date: field(IsoDate, 'unspecified'),
        bill_period_from_date: field(IsoDate, 'unspecified', 'on period-based documents'),
        bill_period_to_date: field(IsoDate, 'unspecified', 'on period-based documents'),
        transactions: field(z.array(Transaction), 'unspecified'),
      },
    )
    .check((ctx) => {
      // §2.5: the bill period is what a PERIOD_BASED document is about; the strict reading wants it.
      if (b.mode !== 'strict' || ctx.value.billing_document_type !== 'PERIOD_BASED') return;
      for (const key of ['bill_period_from_date', 'bill_period_to_date'] as const) {
        if (ctx.value[key] === undefined) {
          ctx.issues.push({
            code: 'custom',
            input: undefined,
            message: 'Required on a period-based document.',
            params: { code: 'required' },
            path: [key],
          });
        }
      }
    });

  // §2.6 historical statement -------------------------------------------------------------------
  const HistoricalStatement = b.request(
    { id: 'HistoricalStatement', spec: '§2.6 historical statement' },
    {
      bill_period_from_date: field(IsoDate, 'expected', RANGE_KEY),
      bill_period_to_date: field(IsoDate, 'expected', RANGE_KEY),
      statement_id: field(z.string().min(1), 'expected', ITEM_KEY),
      issued_date: field(IsoDate, 'unspecified'),
      number: field(z.string(), 'unspecified'),
      gross_amount: field(z.number(), 'unspecified'),
      statement_path: field(DocumentPath, 'optional'),
    },
  );

  // §2.8 business ------------------------------------------------------------------------------------
  const ContractVersion = b.request(
    { id: 'BusinessContractVersion', spec: '§2.8 business contract version' },
    {
      applicable_at_date: field(IsoDate, 'expected', RANGE_KEY),
      terms: field(z.array(z.unknown()).meta({ description: 'structure of items: not shown (§2.8)' }), 'unspecified'),
    },
  );

  const BusinessContract = b.request(
    { id: 'BusinessContract', spec: '§2.8 business contract' },
    {
      valid_from_date: field(IsoDate, 'unspecified'),
      signed_at_date: field(IsoDate, 'unspecified'),
      identifier: field(z.string().min(1), 'expected', 'accounts link to a contract by this identifier (§2.3)'),
      versions: field(z.array(ContractVersion), 'unspecified'),
    },
  );

  const BusinessDetail = b.request(
    { id: 'BusinessDetail', spec: '§2.8 business.details' },
    {
      key: field(z.string(), 'expected', RANGE_KEY),
      value: field(z.string(), 'expected', RANGE_KEY),
    },
  );

  const Business = b.request(
    { id: 'BusinessDetails', spec: '§2.8 business' },
    {
      business_type: field(
        z.string().meta({ description: 'a limited-company type is seen; full list not shown' }),
        'expected',
        'a key attribute of uniqueness (§2.8)',
      ),
      company_number: field(z.string(), 'expected', 'a key attribute of uniqueness (§2.8)'),
      company_name: field(z.string(), 'expected', 'a key attribute of uniqueness (§2.8)'),
      details: field(z.array(BusinessDetail), 'unspecified'),
      business_contracts: field(z.array(BusinessContract), 'unspecified'),
    },
  );

  return {
    Customer,
    UserDetail,
    StructuredStreetAddress,
    SupplyAddress,
    SupplyAddressGroup,
    SupplyPoint,
    Agreement,
    Reading,
    BillableItem,
    Note,
    DocumentReference,
    LineItem,
    TaxItem,
    Amount,
    Transaction,
    Ledger,
    PaymentSchedule,
    AccountStatement,
    Metadata,
    Reference,
    AccountBusinessLink,
    AccountPayload,
    HistoricalBillingDocument,
    HistoricalStatement,
    ContractVersion,
    BusinessContract,
    BusinessDetail,
    Business,
  };
}
