/**
 * §3, the account state table, as statements both kinds of judge apply: the rules, which drive an
 * account through its states, and the traffic checks, which watch a client drive one. One function
 * per row, so the two cannot read the table differently.
 */

/** What the table knows of an account: never staged, staged (pending), or imported. */
export type AccountPhase = 'none' | 'staged' | 'imported';

/**
 * §3 stage rows: none → staged answers 201, staged → staged (data replaced) 200, imported → refused
 * with 400 (§4.1 failures of staging). A payload the spec refuses is 400 in any state (§7.2).
 */
export function stageAnswer(phase: AccountPhase, valid = true): 201 | 200 | 400 {
  if (!valid || phase === 'imported') return 400;
  return phase === 'none' ? 201 : 200;
}

/** §3 process rows and §4.1 process rule 3: processing an imported account is refused with 400. */
export const processRefused = (phase: AccountPhase): boolean => phase === 'imported';

/**
 * §3 account import status: COMPLETED once "an account has been created"; moves other than those of
 * the table (COMPLETED back to UNKNOWN or IN_PROGRESS) are "not shown" (a reading, SHOULD: no
 * operation of the interface removes an account). Whether `later` may follow `earlier`.
 */
export const statusMayFollow = (earlier: string, later: string): boolean =>
  earlier !== 'COMPLETED' || later === 'COMPLETED';

/** §4.3: the status an account in `phase` reports (UNKNOWN until it is imported). */
export const statusOf = (phase: Exclude<AccountPhase, 'none'>): 'COMPLETED' | 'UNKNOWN' =>
  phase === 'imported' ? 'COMPLETED' : 'UNKNOWN';
