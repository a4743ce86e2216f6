/**
 * A connection to one target: the embedded reference server when no base URL is given, the
 * credentials (docs/design.md §5), the redactor that keeps them out of output, the HTTP
 * client and the preconditions. Both the runner's session and `pact verify` stand on it, so the two
 * reach, authenticate and check a target in exactly the same way.
 */
import { TokenSource } from '../auth/token-source.js';
import { AuthError, type AuthSettings, authorizationHeader, obtainServiceToken } from '../auth/token.js';
import { ConfigError } from '../config/errors.js';
import type { FixturesConfig } from '../config/schema.js';
import { DEFAULT_MAX_RESPONSE_BYTES, type ExchangeObserver, HttpClient, Transcript } from '../http/client.js';
import { ExchangeError } from '../http/exchange.js';
import { Redactor, urlCredentials } from '../http/redact.js';
import { clientCertificateRefusal } from '../http/tls-refusal.js';
import {
  clientSecrets,
  createDispatcher,
  needsAgent,
  proxyConfigured,
  type TransportOptions,
} from '../http/transport.js';
import { endpointPath, model } from '../spec/index.js';
import { Preconditions } from './needs.js';
import { PayloadTemplates, type PayloadTemplatesInput } from './templates.js';

/**
 * A target started for the run when no base URL is given, with everything it takes to run every rule
 * on it. The application that wants one hands in how to start it (app/embedded.ts starts the
 * reference server); the engine never imports a server.
 */
export interface EmbeddedTarget {
  baseUrl: string;
  apiKey: string;
  fixtures: NonNullable<FixturesConfig>;
  payloads: PayloadTemplatesInput;
  close(): Promise<void>;
}

/** The target could not be reached before any rule ran: exit code 3. */
export class UnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreachableError';
  }
}

/** What names and reaches a target: shared by a run's options and a bare connection's. */
export interface TargetOptions {
  /** The implementation under test; unset starts the embedded target (`startEmbedded`). */
  baseUrl?: string;
  /**
   * Starts the target to use when no base URL is given. The application hands it in (the library and
   * the CLI hand in the reference server, app/embedded.ts); the engine never imports a server.
   */
  startEmbedded?: () => Promise<EmbeddedTarget>;
  auth?: Partial<AuthSettings>;
  fixtures?: FixturesConfig;
  /** Payload templates per request kind (`payloads:`): bodies the implementation accepts, the base of every payload of that kind. */
  payloads?: PayloadTemplatesInput;
  /** Where business.business_contract_identifier sits in the account payload (§2.3: not shown; default `business.business_contract_identifier`). */
  contractPath?: string;
  rateLimit?: number;
  /** Extra headers and TLS trust for a staging target (HTTPS_PROXY / HTTP_PROXY / NO_PROXY are read from the environment). */
  transport?: TransportOptions;
  /**
   * The redactor to register the run's secrets with (a token obtained mid-run too), for an
   * application that redacts its own output with it (the CLI's console and reports); one of its own otherwise.
   */
  redactor?: Redactor;
  /** Told of every exchange with the target as it completes, in full and redacted (a HAR recording, coverage). */
  onExchange?: ExchangeObserver;
}

export interface ConnectOptions extends TargetOptions {
  timeoutMs: number;
  connections: number;
}

export interface Connection {
  /** The target as given (may hold credentials: pass it through the redactor before showing it). */
  readonly baseUrl: string;
  readonly embedded: boolean;
  readonly auth: AuthSettings;
  readonly redactor: Redactor;
  readonly http: HttpClient;
  readonly preconditions: Preconditions;
  /** Set once authenticate() has obtained the first token. */
  tokens?: TokenSource;
  /**
   * Obtains the first token and checks that the target answers and takes it. Throws
   * UnreachableError when it does not answer, AuthError when it refuses the credentials.
   */
  authenticate(): Promise<TokenSource>;
  close(): Promise<void>;
}

/**
 * Learns whether the target answers at all, and whether it takes the token, before any rule runs.
 * One broken endpoint must not make the whole target "unreachable", so a second one is tried when
 * the first does not answer; a refused connection needs no second try.
 */
async function preflight(
  http: HttpClient,
  token: string,
  supplier: string,
  redactor: Redactor,
  handshakeRefusal: (kind: ExchangeError['kind']) => Promise<string | undefined>,
): Promise<void> {
  const paths = [
    endpointPath(model.endpoints.accountTransferStatus, {
      import_supplier_code: supplier,
      external_account_number: 'conformance-preflight',
    }),
    endpointPath(model.endpoints.pendingAccountImportProcesses, { import_supplier_code: supplier }),
  ];
  let failure: ExchangeError | undefined;
  for (const path of paths) {
    try {
      const { status } = await http.send(
        { method: 'GET', path, headers: { authorization: authorizationHeader(token) } },
        new Transcript(undefined, 'preflight'),
      );
      if (status === 401) throw new AuthError(`The target refused the token: GET ${path} answered 401.`);
      return;
    } catch (error) {
      if (!(error instanceof ExchangeError)) throw error;
      // An answer too large to read is still an answer: the target is there, only hostile.
      if (error.kind === 'too_large') return;
      failure = error;
      if (error.kind === 'refused') break;
    }
  }
  const refused = await handshakeRefusal(failure!.kind);
  if (refused)
    throw new UnreachableError(`The target ${redactor.text(http.origin)} refused the TLS handshake: ${refused}.`);
  throw new UnreachableError(
    `The target ${redactor.text(http.origin)} is unreachable (${failure!.kind}): ${redactor.text(failure!.message)}`,
  );
}

/** Starts the embedded target if needed and prepares the client; nothing is sent yet. */
export async function connect(options: ConnectOptions): Promise<Connection> {
  if (options.baseUrl === undefined && !options.startEmbedded)
    throw new ConfigError('No target: set base_url in the config, --base-url or CONFORMANCE_BASE_URL.');
  const embedded = options.baseUrl === undefined ? await options.startEmbedded!() : undefined;
  // Extra header values are often gateway keys: kept out of output like the token.
  const redactor = options.redactor ?? new Redactor();
  for (const secret of [
    options.auth?.token,
    options.auth?.apiKey,
    embedded?.apiKey,
    // Credentials written into a base URL (`https://user:secret@host`) are secrets too.
    ...(options.baseUrl ? urlCredentials(options.baseUrl) : []),
    ...Object.values(options.transport?.headers ?? {}),
    ...clientSecrets(options.transport),
  ])
    redactor.add(secret);
  let http: HttpClient | undefined;
  // The embedded server is on loopback in this process: no proxy, no TLS, no gateway headers.
  const transport = embedded ? undefined : (options.transport ?? {});
  // The mutation goes the same way as the rules' requests: through the proxy, with the TLS trust and
  // client certificate asked for.
  const mutationDispatcher =
    transport && needsAgent(transport)
      ? createDispatcher(transport ?? {}, {
          maxResponseSize: DEFAULT_MAX_RESPONSE_BYTES,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        })
      : undefined;
  const close = async () => {
    await http?.close();
    await mutationDispatcher?.close();
    await embedded?.close();
  };
  try {
    const baseUrl = embedded?.baseUrl ?? options.baseUrl!;
    // A target that sent no answer over https may have refused the TLS handshake over the client
    // certificate: asked once the first exchange got none, with a connection of its own (a proxy's
    // tunnel is not probed).
    const handshakeRefusal = async (kind: ExchangeError['kind']) =>
      transport && (kind === 'reset' || kind === 'other') && !proxyConfigured()
        ? clientCertificateRefusal(baseUrl, transport, options.timeoutMs)
        : undefined;
    const auth: AuthSettings = {
      graphqlUrl: '/v1/graphql/',
      mutation: '',
      tokenPath: 'data.obtainServiceToken.token',
      ...options.auth,
      ...(embedded ? { token: undefined, apiKey: embedded.apiKey } : {}),
    };
    if (!auth.token && !auth.apiKey)
      throw new ConfigError(
        'No credentials for the target: set auth.token or auth.api_key in the config, or CONFORMANCE_TOKEN / CONFORMANCE_API_KEY.',
      );
    if (!auth.mutation) auth.mutation = (await import('../config/schema.js')).DEFAULT_MUTATION;
    const client = (http = new HttpClient({
      baseUrl,
      timeoutMs: options.timeoutMs,
      connections: options.connections,
      redactor,
      rateLimit: options.rateLimit,
      transport,
      onExchange: options.onExchange,
    }));
    // The embedded server's shapes for the payloads §4.2 does not show; the user's templates win.
    const payloads = new PayloadTemplates({ ...embedded?.payloads, ...options.payloads }, options.contractPath);
    const preconditions = new Preconditions(embedded?.fixtures ?? options.fixtures ?? {}, payloads);
    const connection: Connection = {
      baseUrl,
      embedded: !!embedded,
      auth,
      redactor,
      http: client,
      preconditions,
      async authenticate() {
        const obtain = auth.apiKey
          ? () =>
              obtainServiceToken(baseUrl, auth, options.timeoutMs, redactor, {
                dispatcher: mutationDispatcher,
                headers: transport?.headers,
                onExchange: options.onExchange,
                handshakeRefusal,
              })
          : undefined;
        const tokens = (connection.tokens = new TokenSource(auth.token ?? (await obtain!()), obtain));
        await preflight(
          client,
          tokens.current(),
          preconditions.config.import_suppliers?.ongoing ?? 'conformance-preflight',
          redactor,
          handshakeRefusal,
        );
        return tokens;
      },
      close,
    };
    return connection;
  } catch (error) {
    await close();
    throw error;
  }
}
