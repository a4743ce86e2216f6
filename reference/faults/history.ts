/**
 * Faults no single probe sees: each answer is right when a rule reads it, and only the run's
 * history, read across rules and moments, shows the contradiction (suites/history.ts).
 */
import { body } from './helpers.js';
import type { FaultDefinition } from './types.js';

export const historyFaults: FaultDefinition[] = [
  {
    id: 'history.created-at-follows-notes',
    spec: '§2.9, §3 (an account is created once)',
    subtle: true,
    placement: { by: ['history.account.created-at-stable'] },
    description:
      "Adding notes saves the account and rewrites its account_created_at with the newest note's created_at (an updated-at mistaken for the creation time).",
    create: () => ({
      around: {
        createNotes: async (req, env, next) => {
          const r = await next(req);
          const b = body(req.body);
          const account = env.store.importedAccount(String(b.import_supplier), String(b.external_account_number));
          if (r.status === 201 && account?.notes.length)
            account.createdAt = account.notes.map((n) => n.createdAt).reduce((a, n) => (n > a ? n : a));
          return r;
        },
      },
    }),
  },
];
