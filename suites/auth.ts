/**
 * §5 Authentication. Every endpoint gets its own rule so the report shows which one is open. The
 * requests are valid in every respect but the credentials, so the only reason to refuse is §5.
 */
import { randomBytes } from 'node:crypto';
import { defineRules, type Rule } from '../core/engine/rule.js';
import { CATALOGUE, type Catalogue } from '../core/engine/drivers.js';
import { endpointSlug, type EndpointSpec } from '../core/spec/index.js';
import { eachProbe } from '../core/engine/probes.js';
import endpointStatements from './auth-statements.js';

/** Credentials that are missing or invalid in the sense of §5.3 / §7.2. */
const badCredentials = (): { what: string; auth: 'none' | { authorization: string } }[] => [
  { what: 'no Authorization header', auth: 'none' },
  { what: 'an invalid token', auth: { authorization: `Token ${randomBytes(20).toString('hex')}` } },
  { what: 'the Token scheme without a token', auth: { authorization: 'Token' } },
  { what: 'an empty Authorization header', auth: { authorization: '' } },
];

/** Whether the spec states the 401 for this endpoint itself (its documented 401 says so). */
const stated401 = (e: EndpointSpec) =>
  e.responses.some((r) => r.status === 401 && r.spec.includes('stated for this endpoint'));

/** One 401 rule per endpoint of the catalogue, each with the driver's valid request. */
export const unauthorizedRules = (c: Catalogue = CATALOGUE): Rule[] =>
  c.endpoints.map((e) => ({
    id: `auth.401.${endpointSlug(e.id)}`,
    // §5.3 covers every endpoint §4 lists; one whose own 401 the spec states needs no §4 reading.
    spec: stated401(e) ? '§5.3, §7.2' : '§5.3, §7.2, §4',
    level: 'MUST',
    title: `${e.method} ${e.path} answers 401 to a missing or invalid token`,
    endpoints: [e.id],
    tags: ['auth'],
    async check(ctx) {
      await eachProbe(
        ctx,
        badCredentials(),
        async ({ what, auth }) => {
          const res = await ctx.api.call(e.id, { ...c.drivers[e.id].sample(ctx), auth, step: `send ${what}` });
          ctx.expect.status(res, 401, `with ${what}`);
        },
        ({ what }) => `the request with ${what}`,
      );
    },
  }));

export default defineRules('auth', [
  ...unauthorizedRules(),
  ...endpointStatements,
  {
    id: 'auth.other-schemes.refused',
    spec: '§5.2',
    level: 'SHOULD',
    why: 'The spec shows the "Token" form as the documented example; it does not say other schemes are refused.',
    title: 'A valid token sent under another scheme, or without one, is refused with 401',
    needs: ['ongoingSupplier'],
    endpoints: CATALOGUE.endpoints.map((e) => e.id),
    tags: ['auth'],
    async check(ctx) {
      const probes = CATALOGUE.endpoints.flatMap((e) =>
        ['Bearer', 'Basic', 'JWT', ''].map((scheme) => ({ e, scheme })),
      );
      const under = (scheme: string) => (scheme ? `the ${scheme} scheme` : 'no scheme');
      await eachProbe(
        ctx,
        probes,
        async ({ e, scheme }) => {
          const res = await ctx.api.call(e.id, {
            ...CATALOGUE.drivers[e.id].sample(ctx),
            auth: { scheme },
            step: `${e.id} with the token under ${under(scheme)}`,
          });
          ctx.expect.status(
            res,
            401,
            `${e.method} ${e.path} with ${scheme ? `"${scheme} <token>"` : 'the bare token'}`,
          );
        },
        ({ e, scheme }) => `${e.id} with the token under ${under(scheme)}`,
      );
    },
  },
]);
