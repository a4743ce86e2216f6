/**
 * The run's history as the oracle (core/engine/history.ts): statements no single rule can judge,
 * because they hold across the answers of different rules and different moments — identifiers the
 * service issues, values that once shown never change, what one endpoint says about an account
 * against what another said before, and what a refusal leaves behind. These rules start once every
 * other rule has ended and fail with the two exchanges that contradict each other, whichever rules
 * made them.
 */
import { RuleFailure } from '../core/engine/failures.js';
import type { HistoryInvariant } from '../core/engine/history.js';
import { type RuleContext, type RuleInput, defineRules } from '../core/engine/rule.js';
import { curlCommand } from '../core/report/curl.js';

/** Fails the rule with the first contradiction found, both exchanges in its transcript. */
function judge(ctx: RuleContext, invariant: HistoryInvariant): void {
  const found = ctx.history.contradictions(invariant);
  const { exchanges, accounts, businesses, droppedExchanges } = ctx.history.stats;
  const read = `${exchanges} exchanges of the run read (${accounts} accounts, ${businesses} businesses)`;
  if (found.length === 0) {
    ctx.observe(`${read}: no contradiction`);
    return;
  }
  const [c] = found;
  const first = c.first ? ctx.history.cite(c.first, 'the first exchange to show it') : undefined;
  const then = c.contradicting ? ctx.history.cite(c.contradicting, 'the exchange that contradicts it') : undefined;
  const curl = c.first
    ? ` The first exchange as curl (#${first} of this transcript): ${curlCommand({ ...c.first, seq: first! }, ctx.history.baseUrl)}`
    : ` (the first exchange was not kept: ${droppedExchanges} exchanges past the history's cap)`;
  const more = found.length > 1 ? ` (${found.length - 1} more contradictions of this kind in the run)` : '';
  for (const other of found.slice(1, 5)) ctx.observe(other.message);
  throw new RuleFailure({ message: `${c.message}${more}.${curl}`, ...(then ? { exchange_seq: then } : {}) });
}

const ALL_READS = [
  'stageAccount',
  'processAccount',
  'accountTransferStatus',
  'allAccountImportProcesses',
  'pendingAccountImportProcesses',
  'importedAccountImportProcesses',
] as const;

/** Every history rule judges the whole run, so it starts last and needs no fixture of its own. */
const overHistory = (rules: Omit<RuleInput, 'judgesHistory' | 'needs'>[]): RuleInput[] =>
  rules.map((rule) => ({ ...rule, judgesHistory: true, needs: [] }));

export default defineRules(
  'history',
  overHistory([
    {
      id: 'history.ids.unique',
      spec: '§3, §4.1, §4.4, §2.8',
      level: 'MUST',
      title:
        'An identifier the service issues names one thing: a service_account_number one account (supplier code and external number), a service_business_id one business',
      endpoints: [...ALL_READS, 'createBusiness'],
      async check(ctx) {
        judge(ctx, 'ids-unique');
      },
    },
    {
      id: 'history.account.number-stable',
      spec: '§2.9, §4.1, §4.3',
      level: 'MUST',
      title:
        "An account's service_account_number, once shown (process 201, the already-imported 400, status, listings), is the one every later answer shows",
      endpoints: [...ALL_READS],
      async check(ctx) {
        judge(ctx, 'number-stable');
      },
    },
    {
      id: 'history.account.created-at-stable',
      spec: '§2.9, §3',
      level: 'MUST',
      title: "An account's account_created_at, once shown by a listing, never changes: the account is created once",
      endpoints: ['allAccountImportProcesses', 'importedAccountImportProcesses'],
      async check(ctx) {
        judge(ctx, 'created-at-stable');
      },
    },
    {
      id: 'history.account.state-agrees',
      spec: '§3, §4.3',
      level: 'SHOULD',
      why: '§3 keeps an imported account imported under stage and process, and no call of the interface removes an import process, but it leaves "moves between UNKNOWN, IN_PROGRESS and COMPLETED other than those above" not shown.',
      title:
        'Once an answer showed an account created (or its import process existing), no read sent after it shows it pending, UNKNOWN or without an import process',
      endpoints: [...ALL_READS],
      async check(ctx) {
        judge(ctx, 'state-agrees');
      },
    },
    {
      id: 'history.refused.nothing-appears',
      spec: '§4.1, §7.2',
      level: 'MUST',
      title:
        'An account of the run whose every staging was refused never appears in the status endpoint or a listing, and one whose every process request was refused is never shown created',
      endpoints: [...ALL_READS],
      async check(ctx) {
        judge(ctx, 'refused-leaves-nothing');
      },
    },
  ]),
  { tags: ['history'] },
);
