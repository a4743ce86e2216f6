/**
 * The configuration contract of docs/design.md §5, as a zod schema: `conformance.config.yaml` is
 * validated by it, the JSON Schema for editors is generated from it, and defaults live here only.
 */
import { z } from 'zod';

const nonEmpty = z.string().min(1, 'must not be empty');

export const REPORT_FORMATS = ['console', 'json', 'junit', 'html', 'markdown', 'ctrf', 'sarif'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
/** Written unless formats are named: all but SARIF, which is for uploading to code scanning and is asked for. */
export const DEFAULT_REPORT_FORMATS: readonly ReportFormat[] = REPORT_FORMATS.filter((f) => f !== 'sarif');

export const DEFAULT_MUTATION =
  'mutation ObtainServiceToken($apiKey: String!) { obtainServiceToken(input: {APIKey: $apiKey}) { token } }';

export const AuthConfig = z
  .strictObject({
    token: nonEmpty.optional().describe('Static token, sent as "Authorization: Token <token>" (§5.2).'),
    api_key: nonEmpty
      .optional()
      .describe('Organisation API key, exchanged for a token through the ObtainServiceToken mutation (§5.1).'),
    graphql_url: nonEmpty
      .default('/v1/graphql/')
      .describe('Address of the GraphQL endpoint, relative to base_url or absolute (§5: not shown).'),
    mutation: nonEmpty
      .default(DEFAULT_MUTATION)
      .describe('The mutation text; it receives the API key as $apiKey (§5: arguments not shown).'),
    token_path: nonEmpty
      .default('data.obtainServiceToken.token')
      .describe('Dot path of the token in the GraphQL response (§5: result not shown).'),
  })
  .describe('Authentication (§5). Give token or api_key; CONFORMANCE_TOKEN / CONFORMANCE_API_KEY also work.');

export const FixturesConfig = z
  .strictObject({
    import_suppliers: z
      .strictObject({
        ongoing: nonEmpty.describe('An Ongoing import supplier (§2.2); needed by most rules.'),
        other_ongoing: nonEmpty
          .optional()
          .describe('A second Ongoing supplier, for cross-supplier isolation rules (§4.3).'),
        paused: nonEmpty.optional().describe('A Paused supplier (§2.2).'),
        complete: nonEmpty.optional().describe('A Complete supplier (§2.2).'),
      })
      .optional(),
    operations_team: nonEmpty.optional().describe('An operations team that exists (§4.1 process rule 1).'),
    skipped_account: nonEmpty
      .optional()
      .describe('External account number (ongoing supplier) the operator marked to be skipped (§3, §4.1).'),
    paused_supplier_staged_account: nonEmpty
      .optional()
      .describe('External account number of an account staged for the paused supplier before it was paused (§2.2).'),
    complete_supplier_staged_account: nonEmpty
      .optional()
      .describe(
        'External account number of an account staged for the complete supplier before its migration was marked Complete (§2.2).',
      ),
    payment_instruction: z
      .strictObject({
        vendor: nonEmpty.describe('Upstream payment vendor name (§2.7).'),
        type: nonEmpty.describe('Instruction type (§2.7; a card type is seen).'),
        references: z.strictObject({
          valid: z.array(nonEmpty).min(1).describe('References of instructions that exist upstream.'),
          persistent_failure: nonEmpty
            .optional()
            .describe('A reference for which the vendor has persistent trouble (400).'),
          intermittent_failure: nonEmpty
            .optional()
            .describe('A reference for which the vendor has intermittent trouble (500).'),
        }),
      })
      .optional(),
    concurrency_limit: z
      .int()
      .min(1)
      .optional()
      .describe('The §8 process concurrency limit, when the operator enabled it.'),
  })
  .describe(
    'Preconditions the interface cannot create (docs/design.md §5). A rule whose fixture is missing is skipped and says which key to set.',
  );

/** The request kinds a payload template can be given for, with the §4 endpoint each is the body of. */
export const PAYLOAD_KINDS = {
  account: 'validate-account and create-or-update (§2.3, §4.1)',
  business: 'business (§2.8, §4.4)',
  notes: 'notes/create (§4.2)',
  transactions: 'transactions/create (§2.4, §4.2)',
  historical_billing_documents: 'historical-billing-documents/create (§2.5, §4.2)',
  historical_statements: 'historical-statements/create (§2.6, §4.2)',
  payment_instruction: 'payment-instruction/create (§2.7, §4.2)',
  business_payment_instruction: 'business-payment-instruction/create (§2.7, §4.4)',
  agreements: 'agreements/create (§4.2: payload shape not shown)',
  supply_points: 'supply-points/create (§4.2: payload shape not shown)',
} as const;
export type PayloadKind = keyof typeof PAYLOAD_KINDS;

const PayloadTemplate = (kind: PayloadKind) =>
  z
    .union([nonEmpty, z.record(z.string(), z.unknown())], {
      error: 'must be a file path (JSON or YAML, relative to the config file) or an inline object',
    })
    .optional()
    .describe(
      `A request body your implementation accepts, for ${PAYLOAD_KINDS[kind]}: a file path relative to the config file, or an inline object.`,
    );

export const PayloadsConfig = z
  .strictObject(
    Object.fromEntries(
      Object.keys(PAYLOAD_KINDS).map((kind) => [kind, PayloadTemplate(kind as PayloadKind)]),
    ) as Record<PayloadKind, ReturnType<typeof PayloadTemplate>>,
  )
  .describe(
    'Payload templates (§2.3, §4: required flags and allowed values are "not shown"). The suite uses each as the base of every payload of its kind: it replaces identifiers with run-namespaced ones, links contracts, and derives generated payloads (valid and single-defect) from it, keeping its fields and values. Without one, the suite sends its canonical payload carrying every documented field. agreements and supply_points take {{placeholders}}.',
  );

export const AccountConfig = z.strictObject({
  business_contract_identifier_path: nonEmpty
    .regex(/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/, 'must be a dot path of field names')
    .default('business.business_contract_identifier')
    .describe('Where business.business_contract_identifier sits in the account payload (§2.3: position not shown).'),
});

/** One field's limits: the dot path's last names, or a whole path (`notes.*.body`, `*` for any index). */
export const FieldLimitConfig = z.strictObject({
  max_length: z.int().min(1).optional().describe('Longest string the field takes, in characters.'),
  min: z.int().optional().describe('Smallest integer the field takes.'),
  max: z.int().optional().describe('Largest integer the field takes.'),
  max_items: z.int().min(1).optional().describe('Most items the list takes in one request.'),
});

export const LimitsConfig = z
  .strictObject({
    max_string_length: z
      .int()
      .min(1)
      .optional()
      .describe('Longest string any field takes, in characters (a 255-character text column: 255).'),
    integer_min: z.int().optional().describe('Smallest integer any field takes (32-bit: -2147483648).'),
    integer_max: z.int().optional().describe('Largest integer any field takes (32-bit: 2147483647).'),
    max_items: z.int().min(1).optional().describe('Most items any list takes in one request (notes per request, …).'),
    max_body_bytes: z.int().min(1).optional().describe('Largest request body the target takes, in bytes.'),
    fields: z
      .record(
        z
          .string()
          .regex(/^[A-Za-z_*][\w*]*(\.[A-Za-z_*][\w*]*)*$/, 'must be a field name or a dot path (* for any index)'),
        FieldLimitConfig,
      )
      .optional()
      .describe(
        'Limits of single fields, by field name (display_note) or dot path (ledgers.*.current_statement_transactions.*.display_note); they win over the global ones.',
      ),
  })
  .describe(
    'Limits the implementation has where the spec shows none (§2.3: "validation rules of every account field: not shown"; §8: "payload size limits: not shown"). Generated values stay within them. Undeclared, a §7.1 400 naming exactly the field that carries an edge value is reported as a discovered limit (INFO), with the line that declares it here.',
  );

export const RunConfig = z.strictObject({
  concurrency: z
    .union([z.int().min(1).max(256), z.literal('auto')], {
      error: 'expected a whole number from 1 to 256, or "auto"',
    })
    .default('auto')
    .describe(
      'Rules run at the same time: a number, or "auto" (8, up to 32 while the target answers slowly, back to 8 once it answers 429 or 503).',
    ),
  seed: z.int().optional().describe('fast-check seed; a run is reproducible from it (random when unset).'),
  num_runs: z.int().min(1).max(100_000).default(25).describe('Cases per property rule.'),
  timeout_ms: z.int().min(100).max(600_000).default(10_000).describe('Per-request timeout.'),
  id_prefix: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9]{0,7}$/, 'must be 1-8 letters or digits, starting with a letter')
    .default('cf')
    .describe('Every identifier a run creates starts with this and the run id.'),
  rate_limit: z.number().positive().optional().describe('Maximum requests per second to the target.'),
  retries: z
    .int()
    .min(0)
    .max(5)
    .default(1)
    .describe(
      "How often what got no answer (a reset, a timeout, a gateway's 502-504) is tried again: one probe, one generated case, else the whole rule with fresh identifiers. A rule that passes only so is reported as flaky. 0 turns it off; a fail is never tried again.",
    ),
  max_time_s: z
    .number()
    .positive()
    .max(7 * 24 * 3600)
    .optional()
    .describe(
      'Overall deadline of the run in seconds: rules not finished by then are reported as not judged (error); the report is still written.',
    ),
  expected_failures: nonEmpty
    .optional()
    .describe(
      'YAML baseline of known failures (rule id, reason, comment, until: YYYY-MM-DD); only new failures fail the run. An entry past its until day (UTC) excuses nothing.',
    ),
  strict_baseline: z
    .boolean()
    .optional()
    .describe(
      'Baseline entries whose rule passes now fail the run (exit code 1), so the baseline cannot rot. Needs expected_failures. Flag: --strict-baseline.',
    ),
  allow_skip: z
    .array(nonEmpty)
    .optional()
    .describe(
      'Skips accepted: a run whose skipped MUST rules all match is complete. Each is a rule id or glob, a configuration key (the skips that ask for it, e.g. fixtures.payment_instruction for a mock without payment instructions) or an endpoint operation id (the skips of the rules judging it).',
    ),
  partial: z
    .boolean()
    .optional()
    .describe(
      'Accept a partial implementation: the skips of every endpoint the target answers as not implemented (501, 405, or a 404 where the spec documents none) leave the run complete, and the verdict says "conformant for what is implemented".',
    ),
});

export const ReportConfig = z.strictObject({
  dir: nonEmpty.default('conformance-report').describe('Where report files are written.'),
  formats: z
    .array(z.enum(REPORT_FORMATS))
    .min(1)
    .default([...DEFAULT_REPORT_FORMATS])
    .describe(
      'Report formats to write (default: all but sarif). sarif writes report.sarif (SARIF 2.1.0) for code scanning.',
    ),
  har: nonEmpty
    .optional()
    .describe(
      'Also write every exchange of the run as HAR 1.2 to this file (redacted like the reports), written as exchanges complete. Flag: --har.',
    ),
});

export const TlsConfig = z
  .strictObject({
    ca_cert: nonEmpty
      .optional()
      .describe(
        'PEM file of a certificate authority to trust besides the system ones (a staging server with its own CA), relative to the config file. Flag: --ca-cert.',
      ),
    insecure: z
      .boolean()
      .default(false)
      .describe('Accept any server certificate. Never against production. Flag: --insecure.'),
    client_cert: nonEmpty
      .optional()
      .describe(
        'PEM file of the client certificate (with its chain) for a server behind mutual TLS, relative to the config file; needs client_key. Flag: --client-cert.',
      ),
    client_key: nonEmpty
      .optional()
      .describe("PEM file of the client certificate's private key, relative to the config file. Flag: --client-key."),
    client_key_passphrase_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable')
      .optional()
      .describe(
        "The name of the environment variable that holds the client key's passphrase, when the key is encrypted (the passphrase itself is never written here). Flag: --client-key-passphrase-env.",
      ),
  })
  .describe('TLS for an https base_url: what to trust, and the client certificate for mutual TLS.');

export const ConformanceConfig = z
  .strictObject({
    $schema: z.string().optional(),
    base_url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .optional()
      .describe('The implementation under test; unset runs the embedded reference server.'),
    auth: AuthConfig.optional(),
    headers: z
      .record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be a header name'), z.string())
      .optional()
      .describe(
        'Extra headers sent with every request to the target, e.g. a gateway key (use ${VAR}). Values are redacted from output. Flag: --header "Name: value".',
      ),
    tls: TlsConfig.optional(),
    fixtures: FixturesConfig.optional(),
    payloads: PayloadsConfig.optional(),
    account: AccountConfig.optional(),
    limits: LimitsConfig.optional(),
    run: RunConfig.optional(),
    report: ReportConfig.optional(),
  })
  .describe('Configuration of the data-import conformance suite (conformance.config.yaml).');

export type ConformanceConfig = z.output<typeof ConformanceConfig>;
export type ConformanceConfigInput = z.input<typeof ConformanceConfig>;
export type FixturesConfig = z.output<typeof FixturesConfig>;
export type PayloadsConfig = z.output<typeof PayloadsConfig>;
export type TlsConfig = z.output<typeof TlsConfig>;
export type LimitsConfig = z.output<typeof LimitsConfig>;
