/**
 * §5.1: tokens are obtained through a GraphQL mutation named `ObtainServiceToken`, authenticated
 * with the organisation API key. Its address, arguments and result are not shown; the reference
 * serves it at `/v1/graphql/` with the schema below (the runner's default mutation matches it).
 */
import { GraphQLError, type GraphQLSchema, Kind, type SelectionSetNode, buildSchema, graphql, parse } from 'graphql';
import { issueToken } from './auth.js';
import { reply, type Reply } from './reply.js';
import type { ServerEnv } from './handlers/shared.js';

export const GRAPHQL_PATH = '/v1/graphql/';

/** The schema, with the result field that carries the token named as the server chooses (§5: not shown). */
export const graphqlSchemaSdl = (tokenField = 'token') => /* GraphQL */ `
  input ObtainServiceTokenInput {
    "The organisation API key issued by the service operator."
    APIKey: String!
  }

  type ObtainServiceTokenPayload {
    "Epoch seconds at which the token expires; null when it does not."
    exp: Int
  }

  type ObtainServiceToken {
    ${tokenField}: String!
    payload: ObtainServiceTokenPayload!
  }

  type Query {
    "Present because GraphQL requires a query type."
    serviceName: String!
  }

  type Mutation {
    obtainServiceToken(input: ObtainServiceTokenInput!): ObtainServiceToken!
  }
`;

export const GRAPHQL_SCHEMA_SDL = graphqlSchemaSdl();
const schemas = new Map<string, GraphQLSchema>();
const schemaFor = (tokenField: string) => {
  if (!schemas.has(tokenField)) schemas.set(tokenField, buildSchema(graphqlSchemaSdl(tokenField)));
  return schemas.get(tokenField)!;
};

export async function handleGraphql(body: unknown, env: ServerEnv): Promise<Reply> {
  if (typeof body !== 'object' || body === null || typeof (body as { query?: unknown }).query !== 'string') {
    return reply(400, {
      errors: [{ message: 'A GraphQL request body {"query": ..., "variables": ...} is required.' }],
    });
  }
  const { query, variables, operationName } = body as { query: string; variables?: unknown; operationName?: unknown };
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
    return reply(400, { errors: [{ message: '"variables" must be an object.' }] });
  }
  const tooMuch = exceedsLimits(query);
  if (tooMuch) return reply(400, { errors: [{ message: tooMuch }] });
  const rootValue = {
    serviceName: () => 'data-import reference server',
    obtainServiceToken: ({ input }: { input: { APIKey: string } }) => {
      if (env.checks.apiKeyMustBeIssued && !env.store.apiKeys.has(input.APIKey)) {
        throw new GraphQLError('Invalid API key.', { extensions: { code: 'INVALID_API_KEY' } });
      }
      const now = env.now().getTime();
      const { token, expiresAt } = issueToken(env.store, now);
      return {
        [env.choices.graphql.tokenField]: token,
        payload: { exp: expiresAt === null ? null : Math.floor(expiresAt / 1000) },
      };
    },
  };
  const result = await graphql({
    schema: schemaFor(env.choices.graphql.tokenField),
    source: query,
    rootValue,
    variableValues: (variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: typeof operationName === 'string' ? operationName : undefined,
  });
  return reply(200, result);
}

/**
 * A document may ask for so much that executing it would hold up every other client (20,000 aliased
 * mutations, each issuing a token). These bounds are far above what ObtainServiceToken needs.
 */
export const GRAPHQL_LIMITS = { tokens: 2_000, fields: 50, depth: 10 };

/** Why the document is refused, or null. Syntax errors are left to graphql() to report. */
function exceedsLimits(query: string): string | null {
  let document: ReturnType<typeof parse>;
  try {
    document = parse(query, { maxTokens: GRAPHQL_LIMITS.tokens });
  } catch (error) {
    return /more tha[nt] \d+ tokens/i.test((error as Error).message)
      ? `The document has more than ${GRAPHQL_LIMITS.tokens} tokens.`
      : null;
  }
  const fragments = new Map(
    document.definitions.flatMap((d) =>
      d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [],
    ),
  );
  let fields = 0;
  let deepest = 0;
  // Fragments are counted where they are spread, as they would be executed; the walk stops as soon
  // as a limit is passed, so spreads of spreads (or a cycle) cannot make the check itself expensive.
  const walk = (set: SelectionSetNode | undefined, depth: number): void => {
    if (!set || fields > GRAPHQL_LIMITS.fields) return;
    deepest = Math.max(deepest, depth);
    if (depth > GRAPHQL_LIMITS.depth) return;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        fields++;
        walk(selection.selectionSet, depth + 1);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet, depth);
      else if (!expanding.has(selection.name.value)) {
        expanding.add(selection.name.value);
        walk(fragments.get(selection.name.value), depth);
        expanding.delete(selection.name.value);
      }
    }
  };
  const expanding = new Set<string>(); // a fragment spread inside itself is graphql()'s error to report
  for (const definition of document.definitions)
    if (definition.kind === Kind.OPERATION_DEFINITION) walk(definition.selectionSet, 1);
  if (deepest > GRAPHQL_LIMITS.depth) return `The document is nested deeper than ${GRAPHQL_LIMITS.depth} levels.`;
  if (fields > GRAPHQL_LIMITS.fields)
    return `The document selects more than ${GRAPHQL_LIMITS.fields} fields (aliases included).`;
  return null;
}
