/**
 * A token request that goes wrong names the setting its symptom points to: an address with no
 * GraphQL endpoint → auth.graphql_url; errors where the target's schema refuses the mutation's text →
 * auth.mutation; an answer without a token where the run looks → auth.token_path; errors of another
 * kind (the key refused) → the API key first. Never the key or a token in the message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, type AuthSettings, obtainServiceToken } from '../../core/auth/token.js';
import { DEFAULT_MUTATION } from '../../core/config/schema.js';
import { Redactor } from '../../core/http/redact.js';
import { DEFAULT_API_KEY, type ReferenceServer, startReferenceServer } from '../../reference/index.js';
import { type Listening, listen } from '../helpers/listen.js';

const SETTINGS: AuthSettings = {
  apiKey: DEFAULT_API_KEY,
  graphqlUrl: '/v1/graphql/',
  mutation: DEFAULT_MUTATION,
  tokenPath: 'data.obtainServiceToken.token',
};

let server: ReferenceServer;
/** A GraphQL server whose mutation takes the key as a bare argument: the default text's `input` is unknown to it. */
let bare: Listening;

beforeAll(async () => {
  server = await startReferenceServer();
  bare = await listen((_req, res) => {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        errors: [{ message: 'Unknown argument "input" on field "Mutation.obtainServiceToken".' }],
      }),
    );
  });
});
afterAll(async () => {
  await Promise.all([server?.close(), bare?.close()]);
});

async function refusal(baseUrl: string, settings: Partial<AuthSettings>): Promise<string> {
  try {
    await obtainServiceToken(baseUrl, { ...SETTINGS, ...settings }, 5_000, new Redactor());
  } catch (error) {
    expect(error).toBeInstanceOf(AuthError);
    const message = (error as Error).message;
    expect(message).not.toContain(settings.apiKey ?? DEFAULT_API_KEY);
    return message;
  }
  throw new Error('a token was obtained');
}

describe('token request hints', () => {
  it('an address with no GraphQL endpoint (404) names auth.graphql_url, not auth.token_path', async () => {
    const message = await refusal(server.url, { graphqlUrl: '/v1/graphql-elsewhere/' });
    expect(message).toMatch(/answered 404 .*set auth\.graphql_url/);
    expect(message).not.toContain('auth.token_path');
  });

  it('the target schema refusing the mutation text names auth.mutation', async () => {
    const unknownArgument = await refusal(bare.url, {});
    expect(unknownArgument).toContain('Unknown argument "input"');
    expect(unknownArgument).toMatch(/set auth\.mutation/);
    const reference = await refusal(server.url, {
      mutation: 'mutation ObtainServiceToken($apiKey: String!) { obtainServiceToken(key: $apiKey) { token } }',
    });
    expect(reference).toMatch(/Unknown argument "key".*set auth\.mutation/);
  });

  it('an answer without a token where the run looks names auth.token_path', async () => {
    const message = await refusal(server.url, { tokenPath: 'data.token' });
    expect(message).toMatch(/no string at data\.token \(set auth\.token_path/);
  });

  it('a refused key names the API key first, not the mutation', async () => {
    const message = await refusal(server.url, { apiKey: 'wrong-api-key-9876' });
    expect(message).toMatch(/errors: Invalid API key\. \(check the API key, auth\.api_key/);
    expect(message).not.toContain('set auth.mutation');
  });
});
