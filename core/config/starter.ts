/**
 * The commented starter configuration: what `conformance init` writes, and (with the schema path
 * of this repository) the repository's own conformance.config.yaml. base_url is left unset so that
 * `npx conformance` runs against the embedded reference server until it is set.
 */
/**
 * The stand-in values the starter file carries (set or commented out): a run against a real target
 * that still uses one would judge a supplier or account that does not exist, so it is said first.
 */
export const STARTER_PLACEHOLDERS: readonly string[] = [
  'SUPPLIER_ONGOING',
  'SUPPLIER_OTHER',
  'SUPPLIER_PAUSED',
  'SUPPLIER_COMPLETE',
  'EXT-SKIPPED-1',
  'EXT-P-1',
  'EXT-C-1',
];

/** `fixtures.…` keys whose value is still a starter placeholder. */
export function placeholdersIn(fixtures: unknown, at = 'fixtures'): { key: string; value: string }[] {
  if (typeof fixtures === 'string')
    return STARTER_PLACEHOLDERS.includes(fixtures) ? [{ key: at, value: fixtures }] : [];
  if (typeof fixtures !== 'object' || fixtures === null) return [];
  return Object.entries(fixtures).flatMap(([k, v]) => placeholdersIn(v, `${at}.${k}`));
}

export function starterConfig(schemaPath: string): string {
  return `# yaml-language-server: $schema=${schemaPath}
# Configuration of the data-import conformance suite (docs/design.md §5).
# Every key is optional; flags override environment variables, which override this file.
# \${VAR} and \${VAR:-default} are replaced from the environment.

# The implementation under test. Unset: "npx conformance" runs against the embedded reference
# server. Also: --base-url, CONFORMANCE_BASE_URL.
# base_url: https://staging.example.com

auth:
  # §5: a token sent as "Authorization: Token <token>" (also: CONFORMANCE_TOKEN) ...
  # token: \${CONFORMANCE_TOKEN}
  # ... or the organisation API key, exchanged through the ObtainServiceToken mutation
  # (also: CONFORMANCE_API_KEY). The spec does not show the mutation, so all of it is configurable.
  # api_key: \${CONFORMANCE_API_KEY}
  graphql_url: /v1/graphql/                   # relative to base_url, or absolute
  # mutation: "mutation ObtainServiceToken($apiKey: String!) { obtainServiceToken(input: {APIKey: $apiKey}) { token } }"
  # token_path: data.obtainServiceToken.token

# Extra headers on every request to the target, e.g. a gateway key (also: --header 'Name: value',
# repeatable). Their values are treated as secrets: redacted from output and reports.
# headers:
#   X-Gateway-Key: \${GATEWAY_KEY}

# TLS for an https base_url. Proxies: HTTPS_PROXY, HTTP_PROXY and NO_PROXY are honoured.
# tls:
#   ca_cert: staging-ca.pem                   # a CA to trust too, relative to this file (also: --ca-cert)
#   insecure: false                           # accept any certificate; never for production (also: --insecure)
#   # Mutual TLS: the client certificate a server behind it asks for (also: --client-cert, --client-key).
#   client_cert: client.pem                   # PEM, with its chain; relative to this file
#   client_key: client-key.pem                # its private key, PEM
#   client_key_passphrase_env: CLIENT_KEY_PASSPHRASE  # the variable holding the key's passphrase, if encrypted

# Preconditions the interface cannot create. A rule whose fixture is missing is skipped, and the
# report says which key to set.
fixtures:
  import_suppliers:
    ongoing: SUPPLIER_ONGOING                 # an Ongoing supplier; needed by most rules
    # other_ongoing: SUPPLIER_OTHER           # a second Ongoing supplier: listing isolation rules
    # paused: SUPPLIER_PAUSED                 # a Paused supplier (§2.2)
    # complete: SUPPLIER_COMPLETE             # a Complete supplier (§2.2)
  operations_team: Migrations                 # an operations team that exists (§4.1)
  # skipped_account: EXT-SKIPPED-1            # an account the operator marked to be skipped
  # paused_supplier_staged_account: EXT-P-1   # staged for the paused supplier before it was paused
  # complete_supplier_staged_account: EXT-C-1 # staged for the complete supplier before it was marked Complete
  # payment_instruction:                      # instructions that exist at the upstream vendor (§2.7)
  #   vendor: STRIPE
  #   type: CARD
  #   references:
  #     valid: [REF-OK-1, REF-OK-2]
  #     persistent_failure: REF-FAIL          # the vendor has persistent trouble with it (400)
  #     intermittent_failure: REF-FLAKY       # the vendor has intermittent trouble with it (500)
  # concurrency_limit: 2                      # when the operator enabled the §8 limit

# Payload templates: a request body your implementation accepts, per request kind, as a file
# (JSON or YAML, relative to this file) or inline. The spec does not show required fields or
# allowed values, so your implementation may refuse the suite's canonical payloads (which carry
# every documented field); the run then says "Setup refused: ..." and names the key to set here.
# The suite keeps the template's fields and values and replaces only identifiers (namespaced per
# run), the supplier and account keys, and the contract link.
# payloads:
#   account: payloads/account.json            # validate and stage (§2.3, §4.1)
#   business: payloads/business.json          # §2.8, §4.4
#   notes: payloads/notes.json                # also: transactions, historical_billing_documents,
#                                             # historical_statements, payment_instruction,
#                                             # business_payment_instruction
#   # The two bodies §4.2 does not show; {{import_supplier}}, {{external_account_number}},
#   # {{supply_point_identifier}} and {{new_supply_point_identifier}} are filled in:
#   agreements: { import_supplier: "{{import_supplier}}", external_account_number: "{{external_account_number}}", supply_point_identifier: "{{supply_point_identifier}}", agreements: [...] }
#   supply_points: { import_supplier: "{{import_supplier}}", external_account_number: "{{external_account_number}}", supply_points: [{ identifier: "{{new_supply_point_identifier}}", ... }] }

account:
  # §2.3 does not show where business.business_contract_identifier sits in the account payload.
  business_contract_identifier_path: business.business_contract_identifier

# Limits your implementation has where the spec shows none (§2.3 validation rules, §8 payload size
# limits: "not shown"). Generated values stay inside them. Left out, a 400 naming exactly the field
# that carried a long text, a large integer or a long list is reported as a discovered limit (INFO,
# the case replayed inside it), with the line to put here.
# limits:
#   max_string_length: 255                    # text columns of 255 characters
#   integer_min: -2147483648                  # 32-bit integers
#   integer_max: 2147483647
#   max_items: 100                            # items in one list of one request (notes per request, ...)
#   max_body_bytes: 262144                    # request bodies up to 256 KiB
#   fields:                                   # per field, by name or dot path; wins over the above
#     display_note: { max_length: 255 }

run:
  concurrency: auto                           # rules at the same time: auto (8, up to 32 for a slow target) or a number
  # seed: 1234                                # fast-check seed; a run is reproducible from it
  num_runs: 25                                # cases per property (nightly: 1000)
  timeout_ms: 10000                           # per request
  id_prefix: cf                               # every identifier the run creates starts with it
  # rate_limit: 20                            # requests per second, to protect a shared server
  # max_time_s: 1800                          # overall deadline; unfinished rules are reported as not judged
  # expected_failures: conformance-baseline.yaml # known failures (rule, comment, until: YYYY-MM-DD)
  # strict_baseline: true                     # baseline entries that pass now fail the run
  # allow_skip: [fixtures.payment_instruction] # skips you accept, by rule glob, config key or endpoint:
  #                                           # without this, a run whose MUST rules were skipped is
  #                                           # "incomplete" (exit 4), not conformant
  # partial: true                             # a partial implementation: accept the skips of endpoints
  #                                           # answering 501/405 ("conformant for what is implemented")

report:
  dir: conformance-report
  formats: [console, json, junit, html, markdown, ctrf] # add sarif for code scanning (report.sarif)
`;
}
