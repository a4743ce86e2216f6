/**
 * The run's history as the oracle (core/engine/history.ts): statements no single rule can judge,
 * because they hold across the answers of different rules and different moments — identifiers the
 * service issues, values that once shown never change, what one endpoint says about an account
 * against what another said before, and what a refusal leaves behind. These rules start once every
 * other rule has ended and fail with the two exchanges that contradict each other, whichever rules
 * made them.
 */
import { RuleFailure } from '../core/engine/failures.js';
import type { HistoryInvariant, HistoryStats } from '../core/engine/history.js';
import { notImplementedError } from '../core/engine/not-implemented.js';
import type { EndpointId } from '../core/spec/index.js';
import { type RuleContext, type RuleInput, defineRules } from '../core/engine/rule.js';
import { curlCommand } from '../core/report/curl.js';

/**
 * What an invariant compares, and the endpoints whose answers show it. A history that holds none of
 * it because those endpoints were found not implemented judged nothing: the rule is not judged, with
 * the endpoint's not-implemented cause like every rule that needed it — a pass there would read as
 * conformance for sections (a business's, a listing's) the target never served.
 */
interface Evidence {
  count: (stats: HistoryStats) => number;
  from: readonly EndpointId[];
}

/** Fails the rule with the first contradiction found, both exchanges in its transcript. */
function judge(ctx: RuleContext, invariant: HistoryInvariant, evidence: Evidence): void {
  const found = ctx.history.contradictions(invariant);
  const { stats } = ctx.history;
  const { exchanges, accounts, businesses, droppedExchanges } = stats;
  const read = `${exchanges} exchanges of the run read (${accounts} accounts, ${businesses} businesses)`;
  if (found.length === 0) {
    if (evidence.count(stats) === 0)
      for (const endpoint of evidence.from) {
        const status = ctx.history.notImplemented(endpoint);
        if (status !== undefined) throw notImplementedError(endpoint, status);
      }
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

const LISTINGS = [
  'allAccountImportProcesses',
  'pendingAccountImportProcesses',
  'importedAccountImportProcesses',
] as const;
const ALL_READS = ['stageAccount', 'processAccount', 'accountTransferStatus', ...LISTINGS] as const;
/** What shows an account's number: the process answers, the status endpoint, the listings. */
const NUMBERS: Evidence = { count: (s) => s.numbers, from: ['processAccount', 'accountTransferStatus', ...LISTINGS] };
const ACCOUNTS: Evidence = { count: (s) => s.accounts, from: ALL_READS };

/** Every history rule judges the whole run, so it starts last and needs no fixture of its own. */
const overHistory = (rules: Omit<RuleInput, 'judgesHistory' | 'needs'>[]): RuleInput[] =>
  rules.map((rule) => ({ ...rule, judgesHistory: true, needs: [] }));

export default defineRules(
  'history',
  overHistory([
    {
      id: 'history.ids.unique',
      spec: '§3, §4.1, §4.3',
      level: 'MUST',
      title:
        'A service_account_number the service issues names one account (supplier code and external number) in every answer that shows it',
      endpoints: [...ALL_READS],
      async check(ctx) {
        judge(ctx, 'ids-unique', NUMBERS);
      },
    },
    {
      id: 'history.business.ids-unique',
      spec: '§4.4, §2.8',
      level: 'MUST',
      title: 'A service_business_id the service issues names one business (its external_business_identifier)',
      endpoints: ['createBusiness'],
      async check(ctx) {
        judge(ctx, 'business-ids-unique', { count: (s) => s.businesses, from: ['createBusiness'] });
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
        judge(ctx, 'number-stable', NUMBERS);
      },
    },
    {
      id: 'history.account.created-at-stable',
      spec: '§2.9, §3',
      level: 'MUST',
      title: "An account's account_created_at, once shown by a listing, never changes: the account is created once",
      endpoints: ['allAccountImportProcesses', 'importedAccountImportProcesses'],
      async check(ctx) {
        judge(ctx, 'created-at-stable', {
          count: (s) => s.createdAts,
          from: ['allAccountImportProcesses', 'importedAccountImportProcesses'],
        });
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
        judge(ctx, 'state-agrees', ACCOUNTS);
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
        judge(ctx, 'refused-leaves-nothing', ACCOUNTS);
      },
    },
  ]),
  { tags: ['history'] },
);
