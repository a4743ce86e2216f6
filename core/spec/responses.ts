/**
 * Documented responses of §4 and the §7.1 validation error body. Responses allow extra fields
 * (§9.2: the interface grows) and never pin message wording (§7.1: `detail` "may change").
 */
import { z } from 'zod';
import type { ModelBuilder } from './builder.js';
import { ResponseDateTime } from './conventions.js';
import {
  ImportStatus,
  NoteCreationStatus,
  TransactionCreationStatus,
  TransactionDataStatus,
  TransactionImportError,
} from './enums.js';

export function defineResponses(b: ModelBuilder) {
  const res = b.response;

  /** §7.1: `{detail, code, errors: [{detail, code, attr}]}`. */
  const ValidationErrorItem = res(
    { id: 'ValidationErrorItem', spec: '§7.1' },
    {
      detail: z.string().meta({ description: 'human-readable; wording may change; never parsed' }),
      code: z.string().meta({ description: 'stable machine-readable identifier, e.g. invalid_phone_number' }),
      attr: z
        .string()
        .meta({ description: 'dot-delimited path to the offending input; numeric parts are zero-based indexes' }),
    },
  );
  const ValidationErrorBody = res(
    { id: 'ValidationErrorBody', spec: '§7.1', description: 'validation error body (400)' },
    {
      detail: z.string(),
      code: z.string().meta({ description: 'e.g. account_failed_validation' }),
      errors: z.array(ValidationErrorItem),
    },
  );

  /** §4.1 validate: "200 with the validated data as body". */
  const ValidatedAccount = res({ id: 'ValidatedAccount', spec: '§4.1 validate' }, {});

  /** §4.1 stage: `{import_supplier, external_account_number}`. */
  const StageAccountResponse = res(
    { id: 'StageAccountResponse', spec: '§4.1 create-or-update' },
    {
      import_supplier: z.string(),
      external_account_number: z.string(),
    },
  );

  /** §4.1 process: 201 `{service_account_number}`. */
  const ProcessAccountResponse = res(
    { id: 'ProcessAccountResponse', spec: '§4.1 process' },
    {
      service_account_number: z.string().min(1),
    },
  );

  /** §4.1 process rule 3: the 400 for an already imported account adds both numbers. */
  const AlreadyImportedBody = res(
    { id: 'AlreadyImportedBody', spec: '§4.1 process rule 3' },
    {
      external_account_number: z.string(),
      service_account_number: z.string().min(1),
    },
  );

  /**
   * §4.2 notes: 201, one `{created_at, body, status}` per note. `body` is optional data of a note
   * (§2.3: "body or document_paths or both"), and §2.1 says "An optional field that carries no data is
   * omitted from the payload entirely": for a note without body it may be absent, null or empty.
   * `created_at` always carries data (§4.2 notes rule 3: it defaults to the current time).
   */
  const NoteResult = res(
    { id: 'NoteResult', spec: '§4.2 notes, §2.1' },
    {
      created_at: ResponseDateTime,
      body: z.string().nullable().optional().meta({
        description: 'absent (§2.1), null or empty is tolerated for a note sent with document_paths only',
      }),
      status: NoteCreationStatus,
    },
  );
  const NotesResponse = z
    .array(NoteResult)
    .meta({ ...(b.mode === 'spec' && { id: 'NotesResponse' }), spec: '§4.2 notes' });

  /** §4.2 transactions: 201 `{results: [{status, transaction_data}]}`. */
  // §3: "TRANSACTION_IMPORT_SUCCESS also appears in a status field inside transaction_data" — it
  // appears; nothing says it is the only value (a skipped item may carry its own status there).
  const TransactionData = res(
    { id: 'TransactionData', spec: '§3, §4.2 transactions' },
    {
      status: z
        .string()
        .optional()
        .meta({ description: `${TransactionDataStatus.value} appears here (§3); other values are not excluded` }),
    },
  );
  const TransactionResult = res(
    { id: 'TransactionResult', spec: '§4.2 transactions' },
    {
      status: TransactionCreationStatus,
      transaction_data: TransactionData,
    },
  );
  const TransactionsResponse = res(
    { id: 'TransactionsResponse', spec: '§4.2 transactions' },
    {
      results: z.array(TransactionResult),
    },
  );
  /** §4.2: the 400 body, for the first failing transaction only. */
  const TransactionImportErrorBody = res(
    { id: 'TransactionImportErrorBody', spec: '§4.2 transactions' },
    {
      status: TransactionImportError,
      error_detail: z.string(),
      transaction_data: res({ spec: '§4.2 transactions' }, {}),
    },
  );

  /** §4.2 historical statements: "body is the validated data". */
  const ValidatedStatements = res({ id: 'ValidatedStatements', spec: '§4.2 historical statements' }, {});

  /** §4.2 payment instruction: 201 `{service_account_number, reference}`. */
  const PaymentInstructionResponse = res(
    { id: 'PaymentInstructionResponse', spec: '§4.2 payment instruction' },
    {
      service_account_number: z.string().min(1),
      reference: z.string(),
    },
  );

  /** §4.3 status: `{status, service_account_number}`; the number is "" until an account exists. */
  const AccountTransferStatus = res(
    { id: 'AccountTransferStatus', spec: '§4.3 status' },
    {
      status: ImportStatus,
      service_account_number: z.string(),
    },
  );

  /** §2.9 account import process record. */
  const AccountImportProcess = res(
    { id: 'AccountImportProcess', spec: '§2.9' },
    {
      external_account_number: z.string(),
      service_account_number: z.string().nullable().meta({ description: 'null or empty until the account exists' }),
      account_created_at: ResponseDateTime.nullable(),
    },
  );
  const AllAccountImportProcesses = z
    .array(AccountImportProcess)
    .meta({ ...(b.mode === 'spec' && { id: 'AllAccountImportProcesses' }), spec: '§4.3 all' });
  /** §4.3: in the pending listing both are "always null". */
  const PendingAccountImportProcess = res(
    { id: 'PendingAccountImportProcess', spec: '§4.3 pending' },
    {
      external_account_number: z.string(),
      service_account_number: z.null(),
      account_created_at: z.null(),
    },
  );
  const PendingAccountImportProcesses = z
    .array(PendingAccountImportProcess)
    .meta({ ...(b.mode === 'spec' && { id: 'PendingAccountImportProcesses' }), spec: '§4.3 pending' });
  /** §4.3 imported listing: 200; "response body: not shown". */
  const ImportedAccountImportProcesses = z
    .unknown()
    .meta({ spec: '§4.3 imported', description: 'response body: not shown' });

  /** §4.4 business: 201 `{service_business_id: integer, external_business_identifier}`. */
  const BusinessResponse = res(
    { id: 'BusinessResponse', spec: '§4.4 business' },
    {
      service_business_id: z.int(),
      external_business_identifier: z.string(),
    },
  );
  /** §4.4 business payment instruction: 201 `{reference, external_business_identifier}`. */
  const BusinessPaymentInstructionResponse = res(
    { id: 'BusinessPaymentInstructionResponse', spec: '§4.4 business payment instruction' },
    {
      reference: z.string(),
      external_business_identifier: z.string(),
    },
  );

  return {
    ValidationErrorItem,
    ValidationErrorBody,
    ValidatedAccount,
    StageAccountResponse,
    ProcessAccountResponse,
    AlreadyImportedBody,
    NoteResult,
    NotesResponse,
    TransactionData,
    TransactionResult,
    TransactionsResponse,
    TransactionImportErrorBody,
    ValidatedStatements,
    PaymentInstructionResponse,
    AccountTransferStatus,
    AccountImportProcess,
    AllAccountImportProcesses,
    PendingAccountImportProcess,
    PendingAccountImportProcesses,
    ImportedAccountImportProcesses,
    BusinessResponse,
    BusinessPaymentInstructionResponse,
  };
}
