/**
 * §4.1, §2.3: the two boolean request fields outside the account payload (a process request's
 * dry_run, a note's is_pinned) sent as the strings "true" and "false" — a reading (SHOULD), judged
 * with the field-type family's own check (suites/conventions-types.ts) on the endpoints that carry them.
 */
import { TO_IMPORT } from '../core/engine/needs.js';
import { defineRules } from '../core/engine/rule.js';
import { typedEndpoints, typesRefused } from './conventions-types.js';

export default defineRules('conventions', [
  {
    id: 'conventions.types.boolean-strings',
    spec: '§4.1 process (dry_run: boolean), §2.3 note (is_pinned: boolean), §7.2',
    level: 'SHOULD',
    why: 'The fields are booleans, but many frameworks (Django REST framework among them) read the strings "true" and "false" as booleans; refusing them is a reading.',
    title:
      'A boolean request field sent as the string "true" or "false" (dry_run, a note\'s is_pinned) is refused with 400 and leaves nothing behind',
    endpoints: ['processAccount', 'createNotes'],
    needs: TO_IMPORT,
    tags: ['validation'],
    async check(ctx) {
      for (const t of typedEndpoints().filter((x) => x.endpoint === 'processAccount' || x.endpoint === 'createNotes'))
        await typesRefused(ctx, t, ['boolean-as-string']);
    },
  },
]);
