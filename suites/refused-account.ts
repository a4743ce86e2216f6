/**
 * "Refused means nothing happened" for the 404 of §7.2 ("account not found"): one MUST rule per §4.2
 * endpoint of the catalogue whose effect its driver can see (notes, transactions, historical billing
 * documents: the probes of core/engine/drivers.ts). Another moment than the refusal itself is looked
 * at: what a refused request leaves behind shows when the account comes to exist.
 *
 * 1. The request, valid in every other respect, names an account that does not exist (never staged):
 *    it is refused (§7.2: 404 account not found; the status itself is judged by `errors.404.*`), and
 *    nothing shows: no status, no listing record.
 * 2. The account is staged, and the request sent again: for notes it is refused (§4.2 notes rule 1:
 *    "The account must be imported, not merely staged"); for the other endpoints refusing it is a
 *    reading (`errors.404.staged-only`, SHOULD), so when they take it the rule stops there. Refused,
 *    it leaves the account as staging left it.
 * 3. The account is processed (201), and the same request is answered as a first request: neither
 *    refusal stored anything to be applied later. Where the driver sees no effect (agreements,
 *    supply points, historical statements, payment instructions: nothing the interface shows tells a
 *    stored one from one not stored), the same request is accepted with its documented status (§4):
 *    a refusal that stored it half, or left the account unable to take it, shows there. The request
 *    is then made to be accepted (§2.7: with a reference the vendor knows).
 */
import { NotJudged } from '../core/engine/failures.js';
import { CATALOGUE, type Catalogue, observes, probeFrom } from '../core/engine/drivers.js';
import { oracle } from '../core/engine/observe.js';
import { defineRules, type Rule } from '../core/engine/rule.js';
import { acceptedProbe, refusalNeeds, requestAbout } from '../core/engine/subject.js';
import { endpointSlug, type EndpointSpec } from '../core/spec/index.js';

/**
 * The endpoint's own documented 404, when the spec states one for it (§4.2 notes rules 1 and 5: the
 * account must be imported, not merely staged): then a staged-only account must be refused with it.
 */
const stated404 = (e: EndpointSpec) => e.responses.find((r) => r.status === 404);

/** The sections a documented response cites, less the §7.2 table the rule cites anyway. */
const beyondTable = (spec: string) =>
  spec
    .split(', ')
    .filter((part) => part !== '§7.2')
    .join(', ');

/**
 * One rule per endpoint of the catalogue about an imported account (§4.2: "All request bodies carry
 * the supplier code and the external account number"): the last word its driver's probe, or the
 * valid request accepted where nothing shows its effect.
 */
export const unknownAccountRules = (c: Catalogue = CATALOGUE): Rule[] =>
  c.endpoints
    .filter((e) => e.method === 'POST' && c.drivers[e.id].scope === 'imported')
    .map((e) => ({
      id: `refused.unknown-account.${endpointSlug(e.id)}`,
      // Where §4.2 states the endpoint's own 404 ("must be imported, not merely staged", "wrong …
      // external number gives 404": notes), that statement; for the other endpoints the section's own
      // heading, data added to an imported account.
      spec: `§7.2 (404: account not found), ${stated404(e) ? beyondTable(stated404(e)!.spec) : '§4.2 (data added to an imported account)'}, §3`,
      level: 'MUST',
      title: observes(c.drivers[e.id])
        ? `${e.method} ${e.path} refused for an account that does not exist, or is only staged, stores nothing: once the account is created the same request is answered as a first request`
        : `${e.method} ${e.path} refused for an account that does not exist, or is only staged, leaves nothing behind: once the account is created the same request is accepted with its documented status`,
      needs: refusalNeeds(c.drivers[e.id], observes(c.drivers[e.id])),
      endpoints: [e.id],
      tags: ['refused', 'errors'],
      async check(ctx) {
        const payload = ctx.given.account();
        const account = { supplier: payload.import_supplier, ext: payload.external_account_number, payload };
        const driver = c.drivers[e.id];
        // Without a probe the last word is the request accepted: it is made to be (§2.7).
        const request = requestAbout(ctx, driver, account, !observes(driver));
        const o = oracle(ctx);

        const none = await o.observe(account, 'before anything was sent');
        const unknown = await ctx.api.call(e.id, {
          ...request,
          step: 'the request, for an account that does not exist',
        });
        ctx.expect.refused(unknown, 'a request for an account that does not exist (§7.2: 404 account not found)');
        await o.expectUnchanged(
          none,
          'after the refused request',
          'a request refused for an unknown account must create nothing (§7.2)',
        );

        await ctx.given.staged(payload);
        const staged = await o.observe(account, 'once staged');
        const early = await ctx.api.call(e.id, {
          ...request,
          step: 'the request, for the account staged but not imported',
        });
        const stated = stated404(e);
        if (stated)
          ctx.expect.status(
            early,
            404,
            `${e.words} for a staged account (${beyondTable(stated.spec)}: the account must be imported)`,
          );
        else if (early.status < 400 || early.status >= 500) {
          ctx.observe(
            `${e.id} for a staged-only account answered ${early.status}: taken, not refused; nothing more to judge`,
          );
          return;
        }
        await o.expectUnchanged(
          staged,
          'after the refused request',
          'a request refused for a staged account must change nothing (§7.2)',
        );

        const created = await ctx.given.process(account.supplier, account.ext, {}, 'process the account');
        if (created.status !== 201)
          throw new NotJudged(
            `processing the staged account answered ${created.status}, not 201; the probe cannot run`,
          );
        await o.assertState(
          {
            why: 'refused requests store nothing',
            probes: [
              observes(driver)
                ? probeFrom(driver, request, account)
                : acceptedProbe(e.id, driver, request, e.words, 'once the account is imported'),
            ],
          },
          'once imported',
        );
      },
    }));

export default defineRules('refused', unknownAccountRules());
