/**
 * @pact-foundation/pact is an optional dependency (it carries a native library that may fail to
 * install). Only the pact commands load it, lazily, through `loadPact`; nothing else in the suite
 * imports it. The types below are the small part of its API the suite uses, written out so that the
 * suite builds and type-checks without the package.
 */

export const PACT_PACKAGE = '@pact-foundation/pact';
export const PACT_VERSION_RANGE = '^16';
export const PACT_INSTALL_COMMAND = `npm install ${PACT_PACKAGE}@${PACT_VERSION_RANGE}`;

/** A Pact matcher: a JSON object the Pact core reads (`pact:matcher:type`, …). */
export type Matcher = { 'pact:matcher:type': string; value?: unknown; [key: string]: unknown };

/** MatchersV3 of @pact-foundation/pact: the V3/V4 matchers and generators the contract uses. */
export interface PactMatchers {
  like<T>(template: T): Matcher;
  eachLike<T>(template: T, min?: number): Matcher;
  arrayContaining(...variants: unknown[]): Matcher;
  regex(pattern: string, example: string): Matcher;
  integer(example?: number): Matcher;
  number(example?: number): Matcher;
  boolean(example?: boolean): Matcher;
  string(example?: string): Matcher;
  equal<T>(value: T): Matcher;
  nullValue(): Matcher;
  matchStatus(example: number, status: number[]): Matcher;
  fromProviderState<V>(expression: string, example: V): Matcher;
  /** The example value of a template with matchers. */
  reify(template: unknown): unknown;
}

export interface MockServer {
  url: string;
  port: number;
}

interface RequestBuilder {
  query(query: Record<string, unknown>): RequestBuilder;
  headers(headers: Record<string, unknown>): RequestBuilder;
  jsonBody(body: unknown): RequestBuilder;
}
interface ResponseBuilder {
  headers(headers: Record<string, unknown>): ResponseBuilder;
  jsonBody(body: unknown): ResponseBuilder;
}
interface InteractionWithResponse {
  executeTest<T>(test: (mockServer: MockServer) => Promise<T>): Promise<T | undefined>;
}
interface InteractionWithRequest {
  willRespondWith(status: number | Matcher, builder?: (b: ResponseBuilder) => void): InteractionWithResponse;
}
export interface UnconfiguredInteraction {
  given(state: string, parameters?: Record<string, unknown>): UnconfiguredInteraction;
  uponReceiving(description: string): UnconfiguredInteraction;
  comment(comment: string): UnconfiguredInteraction;
  withRequest(method: string, path: string | Matcher, builder?: (b: RequestBuilder) => void): InteractionWithRequest;
}
export interface PactV4Instance {
  addInteraction(): UnconfiguredInteraction;
}

export type StateHandler = (params?: unknown) => Promise<Record<string, unknown> | undefined>;

export interface VerifierOptions {
  provider: string;
  providerBaseUrl: string;
  pactUrls: string[];
  stateHandlers: Record<string, StateHandler>;
  requestFilter(req: { headers: Record<string, string | string[] | undefined> }, res: unknown, next: () => void): void;
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  timeout?: number;
  providerVersion?: string;
}

/** The parts of the @pact-foundation/pact module the suite uses. */
export interface PactLibrary {
  PactV4: new (options: {
    consumer: string;
    provider: string;
    dir: string;
    logLevel?: string;
    host?: string;
  }) => PactV4Instance;
  MatchersV3: PactMatchers;
  Verifier: new (options: VerifierOptions) => { verifyProvider(): Promise<string> };
}

/** The optional library is not installed, or cannot load on this machine. */
export class PactUnavailableError extends Error {
  constructor(reason: string) {
    super(
      `The pact commands need the optional dependency ${PACT_PACKAGE} (${reason}).\n` +
        `Install it next to the suite:\n\n    ${PACT_INSTALL_COMMAND}\n\n` +
        'It ships a native library; see https://docs.pact.io/implementation_guides/javascript for supported platforms.',
    );
    this.name = 'PactUnavailableError';
  }
}

const MISSING = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND', 'ERR_PACKAGE_PATH_NOT_EXPORTED']);

/**
 * Loads @pact-foundation/pact (or `specifier`, for tests). A missing package, or one whose native
 * part cannot load, is a PactUnavailableError with the command that installs it.
 */
export async function loadPact(specifier: string = PACT_PACKAGE): Promise<PactLibrary> {
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(specifier)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code && MISSING.has(code)) throw new PactUnavailableError('it is not installed');
    throw new PactUnavailableError(`it is installed but could not load: ${(error as Error).message.split('\n')[0]}`);
  }
  // CommonJS interop: the named exports may sit on `default`.
  const pact = (loaded.PactV4
    ? loaded
    : ((loaded.default as Record<string, unknown> | undefined) ?? loaded)) as unknown as PactLibrary;
  if (typeof pact.PactV4 !== 'function' || typeof pact.Verifier !== 'function' || !pact.MatchersV3) {
    throw new PactUnavailableError(
      `${specifier} does not provide PactV4, MatchersV3 and Verifier; version ${PACT_VERSION_RANGE} is needed`,
    );
  }
  return pact;
}

/** Pact's own anonymous usage tracking stays off unless the user asked for it. */
export function quietPact(env: NodeJS.ProcessEnv = process.env): void {
  env.PACT_DO_NOT_TRACK ??= 'true';
}
