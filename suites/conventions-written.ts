/**
 * How the service writes what it answers: the media type of its bodies (§4: "Bodies are JSON") and
 * the datetimes of the account import process records (§2.1, §2.9). The rules elsewhere parse every
 * body whatever it is labelled and compare datetimes as instants, so a server that labels its JSON
 * as text, or writes `+00:00` where §2.1 shows `Z`, passed them all.
 *
 * Both are SHOULD: §4 says the bodies are JSON but names no header (the label is HTTP's, RFC 9110
 * §8.3), and §2.1 shows the form `YYYY-MM-DDTHH:MM:SSZ` of "ISO 8601", which also spells the same
 * instant with an offset or fractions (docs/freedoms.md: the variant writes microseconds and
 * `+00:00`, and takes the other reading of the datetime rule, as the kill matrix lists).
 */
import type { RuleContext } from '../core/engine/context.js';
import { readListing, recordsFor } from '../core/engine/observe.js';
import { defineRules } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import type { HttpResponse } from '../core/http/client.js';
import { model } from '../core/spec/index.js';
import { status } from './support.js';

/** `application/json`, or a `+json` type, with any parameters (charset). */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/** §2.1: `YYYY-MM-DDTHH:MM:SSZ`, exactly. */
const DATETIME_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Exchanges with a documented JSON body, one per kind of answer: 200, 201, a listing, a §7.1 400. */
async function answersWithBodies(ctx: RuleContext): Promise<HttpResponse[]> {
  const account = ctx.given.account();
  const validated = await ctx.api.call('validateAccount', { body: account, step: 'validate a valid account' });
  const staged = await ctx.given.stage(account, 'stage it');
  const read = await status(ctx, account.import_supplier, account.external_account_number, 'its status');
  const listing = await readListing(ctx, 'pending', account.import_supplier, 'the pending listing');
  const invalid = await ctx.api.call('validateAccount', {
    body: { ...account, unknown_occupier: [] },
    defective: true,
    step: 'validate an account with a list for a boolean',
  });
  return [validated, staged, read, listing.first, invalid].filter((r) => r.text.length > 0);
}

export default defineRules(
  'conventions',
  [
    {
      id: 'conventions.media-type.json',
      spec: '§4 (Bodies are JSON)',
      level: 'SHOULD',
      why: '§4 says the bodies are JSON but names no header; that a JSON body is labelled application/json is HTTP (RFC 9110 §8.3), which clients rely on, not the spec',
      title: 'Response bodies are labelled as JSON: Content-Type application/json (or a +json type)',
      endpoints: ['validateAccount', 'stageAccount', 'accountTransferStatus', 'pendingAccountImportProcesses'],
      async check(ctx) {
        for (const res of await answersWithBodies(ctx)) {
          const type = res.headers['content-type'] ?? '';
          ctx.expect.that(
            JSON_MEDIA_TYPE.test(type),
            `${res.exchange.request.method} ${res.exchange.request.url} answered ${res.status} with a body labelled ${type ? JSON.stringify(type.slice(0, 100)) : 'with no Content-Type'}; bodies are JSON (§4), so application/json`,
            { res, expected: 'application/json', actual: type.slice(0, 100) || '(none)' },
          );
        }
      },
    },
    {
      id: 'conventions.datetime.written-with-z',
      spec: '§2.1 (Datetimes use ISO 8601 YYYY-MM-DDTHH:MM:SSZ), §2.9, §4.3',
      level: 'SHOULD',
      why: '§2.1 shows the form YYYY-MM-DDTHH:MM:SSZ for datetimes, but calls it ISO 8601, which spells the same instant with an offset or fractions too (docs/freedoms.md)',
      title: "A created account's account_created_at in the all-accounts listing is written YYYY-MM-DDTHH:MM:SSZ",
      endpoints: ['processAccount', 'allAccountImportProcesses'],
      async check(ctx) {
        const account = await ctx.given.imported();
        const read = await readListing(ctx, 'all', account.supplier, 'the all-accounts listing');
        ctx.expect.status(read.first, 200);
        ctx.expect.body(read.first, model.AllAccountImportProcesses, 'all listing');
        const [record] = recordsFor(read.items, account.ext);
        ctx.expect.that(record !== undefined, `the all-accounts listing shows ${account.ext}`, { res: read.first });
        const at = record.account_created_at;
        ctx.expect.that(
          typeof at === 'string' && DATETIME_Z.test(at),
          `account_created_at of ${account.ext} is ${JSON.stringify(at)}; §2.1 writes datetimes YYYY-MM-DDTHH:MM:SSZ`,
          { res: read.first, expected: 'YYYY-MM-DDTHH:MM:SSZ', actual: at },
        );
      },
    },
  ],
  { tags: ['conventions'], needs: TO_IMPORT },
);
