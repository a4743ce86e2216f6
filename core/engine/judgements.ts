/**
 * The spec statements about one exchange that both kinds of judge apply: the rules, through their
 * assertions (expect.ts), and the traffic checks (app/traffic), which watch a client and a server
 * without us. One function per statement, fed what the exchange holds, each answering what breaks
 * the statement in words (or nothing): the two judges cannot read the spec differently.
 */
import { z } from 'zod';
import { authorizationHeader } from '../auth/token.js';
import { capText, quoteJson, showControls } from '../http/bounds.js';
import type { DocumentedResponse, EndpointSpec } from '../spec/index.js';

/** A value quoted in a message: JSON, cut at 300 characters with its size said. */
export const quote = (value: unknown, max = 300) => showControls(quoteJson(value, max));

/** `body.results[0].status` from a zod path. */
export function jsonPath(root: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : `${acc}.${String(part)}`),
    root,
  );
}

function describeIssue(issue: z.core.$ZodIssue, root: string): string {
  const at = jsonPath(root, issue.path);
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type':
      return `${at}: expected ${issue.expected}, got ${input === undefined ? 'nothing (missing)' : quote(input)}`;
    case 'invalid_value':
      return `${at}: expected ${issue.values.map((v) => quote(v)).join(' or ')}, got ${quote(input)}`;
    default:
      return `${at}: ${showControls(capText(issue.message, 300))}${input !== undefined ? ` (got ${quote(input)})` : ''}`;
  }
}

export type Shape<T> = { ok: true; data: T } | { ok: false; issues: readonly z.core.$ZodIssue[] };

/**
 * §2.1, §4, §7.1: a body has the documented fields and shapes of its schema (a request schema
 * refuses fields the spec does not document; response schemas let the interface grow, §9).
 */
export function documentedShape<S extends z.ZodType>(schema: S, value: unknown): Shape<z.output<S>> {
  const documented = documentedPart(schema, value);
  const result = schema.safeParse(documented ?? value, { reportInput: true });
  if (!result.success) return { ok: false, issues: result.error.issues };
  return { ok: true, data: documented ? (value as z.output<S>) : result.data };
}

/**
 * The documented fields of a response object, when checking them alone says what checking the whole
 * object says: a response schema lets any other field through unchecked (§9.2), so leaving them out
 * changes no issue. Zod rebuilds a loose object key by key, and a body of a million undocumented keys
 * (15 MiB of them is some 125 MB parsed) would be copied whole to check a few fields: that copy was
 * the largest value a run held. The value itself is then the data, not zod's copy: no schema of the
 * model transforms a value (core/spec), so the copy differed only in the order of its keys.
 */
function documentedPart(schema: z.ZodType, value: unknown): Record<string, unknown> | undefined {
  if (!(schema instanceof z.ZodObject)) return undefined;
  const { catchall, checks } = schema.def;
  if (catchall?._zod.def.type !== 'unknown' || checks?.length) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const part: Record<string, unknown> = {};
  for (const key of Object.keys(schema.shape))
    if (Object.hasOwn(value, key)) part[key] = (value as Record<string, unknown>)[key];
  return part;
}

/** The first `max` issues of a body, described from `root` as a rule's failure says them. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], root = 'body', max = 5) {
  const said = issues.slice(0, max).map((i) => describeIssue(i, root));
  return { problems: `${said.join('; ')}${issues.length > max ? '; …' : ''}`, path: jsonPath(root, issues[0].path) };
}

/** §4, §5.2: every request carries `Authorization: Token <ACCESS_TOKEN>`; what is wrong with the one sent. */
export function authorizationProblem(
  headers: Record<string, string>,
): { missing: true } | { missing: false; scheme: string } | undefined {
  const value = headers.authorization ?? headers.Authorization;
  if (!value) return { missing: true };
  const documented = authorizationHeader('');
  if (value.startsWith(documented) && /^\S+$/.test(value.slice(documented.length))) return undefined;
  return { missing: false, scheme: value.split(' ')[0] };
}

/** A request body as text, read as §4 asks for it: JSON, or why it is not. */
export function jsonBody(
  text: string | undefined,
): { json: unknown; problem?: undefined } | { json?: undefined; problem: 'empty' | 'not JSON' } {
  if (text === undefined || text === '') return { problem: 'empty' };
  try {
    return { json: JSON.parse(text) };
  } catch {
    return { problem: 'not JSON' };
  }
}

/**
 * §4, §7.2: a success status is one the spec documents for the endpoint. The documented response
 * for `status` (undefined when there is none), and, for an undocumented success, what the spec
 * documents instead.
 */
export function documentedStatus(
  endpoint: EndpointSpec,
  status: number,
): { documented?: DocumentedResponse; problem?: string } {
  const documented = endpoint.responses.find((r) => r.status === status);
  if (documented || status < 200 || status >= 300) return { documented };
  const successes = endpoint.responses.filter((r) => r.status < 300).map((r) => r.status);
  return {
    problem: `${endpoint.method} ${endpoint.path} answered ${status}; the spec documents ${successes.join(' or ')}`,
  };
}
