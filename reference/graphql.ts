/**
 * §5.1: tokens are obtained through a GraphQL mutation named `ObtainServiceToken`, authenticated
 * with the organisation API key. Its address, arguments and result are not shown; the reference
 * serves it at `/v1/graphql/` with the schema below (the runner's default mutation matches it).
 */
import { GraphQLError, type GraphQLSchema, buildSchema, graphql } from 'graphql';
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
    return reply(400, { errors: [{ message: 'A GraphQL request body {"query": ..., "variables": ...} is required.' }] });
  }
  const { query, variables, operationName } = body as { query: string; variables?: unknown; operationName?: unknown };
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
    return reply(400, { errors: [{ message: '"variables" must be an object.' }] });
  }
  const rootValue = {
    serviceName: () => 'data-import reference server',
    obtainServiceToken: ({ input }: { input: { APIKey: string } }) => {
      if (!env.store.apiKeys.has(input.APIKey) && !env.faults.has('auth.unknown-api-key-token')) {
        throw new GraphQLError('Invalid API key.', { extensions: { code: 'INVALID_API_KEY' } });
      }
      const now = env.now().getTime();
      const { token, expiresAt } = issueToken(env.store, now);
      return { [env.choices.graphql.tokenField]: token, payload: { exp: expiresAt === null ? null : Math.floor(expiresAt / 1000) } };
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
