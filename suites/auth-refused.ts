/**
 * §5.3, §7.2: "A missing or invalid token gives 401" — a refused request is not performed. One rule
 * per POST endpoint of the spec model (a new endpoint gets its rule from the model): the request, valid
 * in every respect and aimed at a real account (or a new business), is sent without a token and with
 * a bad one; afterwards what the interface documents about that account — its status, its records
 * in the all and pending listings (the imported listing's body is not shown, so it is left to the
 * SHOULD rules) — is exactly as it was, and where the interface offers a probe the
 * same request sent with the token is answered as a first one (a note created, a transaction added,
 * the ledger's billing documents accepted once, the business created, the account staged or created).
 */
import { endpointSlug } from '../core/spec/index.js';
import { randomBytes } from 'node:crypto';
import { TO_IMPORT } from '../core/engine/needs.js';
import { CATALOGUE, type Catalogue, probeFrom } from '../core/engine/drivers.js';
import { oracle } from '../core/engine/observe.js';
import { defineRules, type Rule } from '../core/engine/rule.js';
import { subjectFor } from '../core/engine/subject.js';
import { eachProbe } from '../core/engine/probes.js';

/** The two refusals of §5.3: no token, and a token the service never issued. */
const refusedCredentials = (): { what: string; auth: 'none' | { authorization: string } }[] => [
  { what: 'without a token', auth: 'none' },
  { what: 'with an invalid token', auth: { authorization: `Token ${randomBytes(20).toString('hex')}` } },
];

/** One rule per POST endpoint of the catalogue: its driver's request refused with 401 changes nothing. */
export const refusedHasNoEffectRules = (c: Catalogue = CATALOGUE): Rule[] =>
  c.endpoints
    .filter((e) => e.method === 'POST')
    .map((e) => ({
      id: `auth.refused-has-no-effect.${endpointSlug(e.id)}`,
      spec: '§5.3, §7.2',
      level: 'MUST',
      title: `${e.method} ${e.path} refused with 401 (no token, an invalid token) leaves the observable state as it was`,
      needs: TO_IMPORT,
      endpoints: [e.id],
      tags: ['auth'],
      async check(ctx) {
        const driver = c.drivers[e.id];
        const { account, request } = await subjectFor(ctx, driver);
        const o = oracle(ctx);
        const before = account && (await o.observe(account, 'before the refused requests'));
        await eachProbe(
          ctx,
          refusedCredentials(),
          async ({ what, auth }) => {
            const res = await ctx.api.call(e.id, { ...request, auth, step: `send ${what}` });
            ctx.expect.status(res, 401, what);
          },
          ({ what }) => `the request with ${what}`,
        );
        // Then the oracle: the account shows what it showed before, and the same request with the token
        // is answered as a first request (the probe, last: it changes state).
        await o.assertState(
          {
            expected: before,
            why: 'requests refused with 401 must change nothing (§5.3, §7.2)',
            probes: [probeFrom(driver, request, account)],
          },
          'after the refused requests',
        );
      },
    }));

export default defineRules('auth', refusedHasNoEffectRules());
