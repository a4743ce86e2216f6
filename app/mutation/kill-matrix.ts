/**
 * The kill matrix (docs/design.md §8): the suite against the faithful reference server and each
 * variant profile (all must be clean of MUST and SHOULD failures, but for the SHOULD rules a profile
 * fails on purpose by taking the other reading) and against every fault of the catalogue. A fault
 * that breaks a rule the spec states (a MUST-level fault) must make a MUST rule fail: caught only
 * by SHOULD rules, a default run (without --strict) would call that server conformant. A
 * SHOULD-level fault (a strong reading, or not observable with certainty) must make some rule fail.
 * Runs faults in parallel worker threads.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { NOT_YET_CAUGHT } from '../../reference/faults/uncaught.js';
import { FAULTS, type FaultDefinition, VARIANT_PROFILES } from '../../reference/index.js';
import { type Selection, selectRules } from '../../core/engine/select.js';
import { allRules } from '../../suites/index.js';
import { type Target, type TaskResult, runTask } from './task.js';
import type { JudgingLevel } from '../../core/engine/verdict.js';

export interface FaultRow {
  id: string;
  spec: string;
  description: string;
  subtle: boolean;
  /** MUST: breaks a stated rule, so a MUST rule must catch it. SHOULD: any rule catching it will do. */
  level: JudgingLevel;
  why?: string;
  caughtBy: string[];
  /** The MUST rules among caughtBy. */
  caughtByMustRules: string[];
  /** Caught by a MUST rule (not only by SHOULD ones). */
  caughtByMust: boolean;
  /** Caught, but only by SHOULD rules: a default run would pass the server. */
  caughtOnlyByShould: boolean;
  errored: string[];
  /** What breaks the fault's placement (see Placement): a named rule that missed it, an older rule that caught it. */
  misplaced?: string[];
}

/**
 * What breaks a fault's placement in one run: a rule of `by` that ran and did not fail at the
 * fault's level, and any other failing rule outside the `beside` prefixes (an older rule saw the
 * fault, so it does not show the family's worth).
 */
/** The rules that judge the run's whole history (suites/history.ts). */
const RUN_WIDE = 'history.';

export function placementProblems(
  fault: Pick<FaultDefinition, 'placement' | 'level'>,
  failed: readonly { rule: string; level: string }[],
  ran: (rule: string) => boolean,
): string[] {
  const placement = fault.placement;
  if (!placement) return [];
  const level = fault.level ?? 'MUST';
  const problems: string[] = [];
  for (const rule of placement.by) {
    if (!ran(rule)) continue;
    const hit = failed.find((f) => f.rule === rule);
    if (!hit) problems.push(`${rule} did not catch it`);
    else if (hit.level !== level) problems.push(`${rule} caught it at ${hit.level}, not ${level}`);
  }
  // The history.* rules judge the whole run's exchanges after every other rule, so they may see the
  // trace of any fault: they are the run-wide oracle, never an older rule that already looked there.
  const beside = [...(placement.beside ?? []), RUN_WIDE];
  for (const f of failed)
    if (!placement.by.includes(f.rule) && !beside.some((prefix) => f.rule.startsWith(prefix)))
      problems.push(`${f.rule} caught it too: an older rule sees it where it is placed`);
  return problems;
}

/**
 * The MUST rules of a run of the whole catalogue that no fault made fail, against those known not to
 * be (reference/faults/uncaught.ts): `unlisted` ones have no fault that shows they can fail and no
 * word why; `stale` entries name a rule a fault now makes fail, or one that no longer exists.
 * `mustRules` are the MUST rules that ran: with a selection, entries for rules left out are not judged.
 */
export function uncaughtRules(
  mustRules: readonly string[],
  caught: ReadonlySet<string>,
  known: Readonly<Record<string, string>>,
  wholeSuite: boolean,
): { uncaught: string[]; unlisted: string[]; stale: string[] } {
  const uncaught = mustRules.filter((r) => !caught.has(r));
  const ran = new Set(mustRules);
  return {
    uncaught,
    unlisted: uncaught.filter((r) => !Object.hasOwn(known, r)),
    stale: Object.keys(known).filter((r) => (ran.has(r) ? caught.has(r) : wholeSuite)),
  };
}

export interface KillMatrix {
  seed: number;
  numRuns: number;
  workers: number;
  durationMs: number;
  rules: number;
  faithful: TaskResult;
  /** The first variant profile (`variant`). */
  variant: TaskResult;
  /** Every variant profile, in VARIANT_PROFILES order. */
  variants: TaskResult[];
  faults: FaultRow[];
  totals: {
    faults: number;
    subtle: number;
    caught: number;
    /** Faults a MUST rule caught. */
    caughtByMust: number;
    /** Faults caught only by SHOULD rules. */
    caughtOnlyByShould: number;
    /** Faults breaking a stated rule (MUST level) / only a reading (SHOULD level). */
    mustLevel: number;
    shouldLevel: number;
    missed: string[];
    /** MUST-level faults caught only by SHOULD rules: the suite would call these servers conformant. */
    mustLevelCaughtOnlyByShould: string[];
    /** Faults whose placement did not hold (see FaultRow.misplaced). */
    misplaced: string[];
    /**
     * MUST rules no fault made fail (uncaughtRules), judged when the whole catalogue ran: those not
     * in reference/faults/uncaught.ts (the run fails), and its entries that are stale (said, not
     * failed: a rule some fault makes fail only in some runs, one caught by a race, is listed, and
     * would otherwise fail every other run). Undefined with `--fault`.
     */
    uncaught?: { rules: string[]; unlisted: string[]; stale: string[] };
  };
  /**
   * Faithful and every variant profile clean, every fault caught, every MUST-level fault by a MUST
   * rule, every placement held, and no MUST rule without a fault that makes it fail unless listed why
   * (a listed rule a fault made fail this time is said, not failed: see `uncaught`).
   */
  ok: boolean;
}

export interface KillMatrixOptions {
  faults?: readonly string[];
  seed?: number;
  numRuns?: number;
  /** Worker threads; 0 runs everything in this thread. */
  workers?: number;
  /** The rules to run (default: all). */
  selection?: Selection;
  onTask?: (result: TaskResult, done: number, total: number) => void;
}

/** Runs the tasks on a pool of worker threads (or in this thread when workers is 0). */
async function runAll(
  targets: Target[],
  workers: number,
  task: { seed: number; numRuns: number; selection?: Selection },
  onTask?: KillMatrixOptions['onTask'],
): Promise<TaskResult[]> {
  const results: TaskResult[] = new Array(targets.length);
  let next = 0;
  let done = 0;
  const finish = (i: number, r: TaskResult) => {
    results[i] = r;
    onTask?.(r, ++done, targets.length);
  };
  if (workers === 0) {
    for (let i = 0; i < targets.length; i++) finish(i, await runTask(targets[i], task));
    return results;
  }
  const url = new URL('./worker.js', import.meta.url);
  await Promise.all(
    Array.from({ length: Math.min(workers, targets.length) }, async () => {
      const worker = new Worker(url);
      try {
        while (next < targets.length) {
          const i = next++;
          // Both listeners go when either fires: a worker runs dozens of tasks.
          const reply = await new Promise<{ ok: boolean; result?: TaskResult; error?: string }>((resolve, reject) => {
            const onMessage = (message: { ok: boolean; result?: TaskResult; error?: string }) => {
              worker.off('error', onError);
              resolve(message);
            };
            const onError = (error: Error) => {
              worker.off('message', onMessage);
              reject(error);
            };
            worker.once('message', onMessage);
            worker.once('error', onError);
            worker.postMessage({ target: targets[i], ...task });
          });
          if (!reply.ok) throw new Error(`kill matrix task ${JSON.stringify(targets[i])} failed: ${reply.error}`);
          finish(i, reply.result!);
        }
      } finally {
        await worker.terminate();
      }
    }),
  );
  return results;
}

export async function runKillMatrix(options: KillMatrixOptions = {}): Promise<KillMatrix> {
  const started = performance.now();
  const seed = options.seed ?? 20261121;
  const numRuns = options.numRuns ?? 10;
  const workers = options.workers ?? Math.max(1, availableParallelism());
  const faults = options.faults ? FAULTS.filter((f) => options.faults!.includes(f.id)) : [...FAULTS];
  const unknown = (options.faults ?? []).filter((id) => !FAULTS.some((f) => f.id === id));
  if (unknown.length) throw new Error(`Unknown fault ${unknown.join(', ')}.`);
  const profiles = VARIANT_PROFILES.map((p) => ({ kind: 'variant' as const, profile: p.id }));
  const targets: Target[] = [
    { kind: 'faithful' },
    ...profiles,
    ...faults.map((f) => ({ kind: 'fault' as const, id: f.id })),
  ];
  const results = await runAll(targets, workers, { seed, numRuns, selection: options.selection }, options.onTask);

  const selected = selectRules(allRules, options.selection ?? {}).rules;
  const ran = new Set(selected.map((r) => r.id));
  const rows: FaultRow[] = faults.map((f, i) => {
    const r = results[i + 1 + profiles.length];
    const mustRules = r.failed.filter((x) => x.level === 'MUST').map((x) => x.rule);
    const misplaced = placementProblems(f, r.failed, (rule) => ran.has(rule));
    return {
      id: f.id,
      spec: f.spec,
      description: f.description,
      subtle: f.subtle,
      level: f.level ?? 'MUST',
      ...(f.why ? { why: f.why } : {}),
      caughtBy: r.failed.map((x) => x.rule),
      caughtByMustRules: mustRules,
      caughtByMust: mustRules.length > 0,
      caughtOnlyByShould: r.failed.length > 0 && mustRules.length === 0,
      errored: r.errored.map((x) => x.rule),
      ...(misplaced.length ? { misplaced } : {}),
    };
  });
  const misplaced = rows.filter((r) => r.misplaced).map((r) => r.id);
  // Whether every MUST rule can be made to fail is a question about the whole catalogue.
  const uncaught = options.faults
    ? undefined
    : uncaughtRules(
        selected.filter((r) => r.level === 'MUST').map((r) => r.id),
        new Set(rows.flatMap((r) => r.caughtBy)),
        NOT_YET_CAUGHT,
        !options.selection,
      );
  const missed = rows.filter((r) => r.caughtBy.length === 0).map((r) => r.id);
  const mustLevelCaughtOnlyByShould = rows.filter((r) => r.level === 'MUST' && r.caughtOnlyByShould).map((r) => r.id);
  const [faithful, ...rest] = results;
  const variants = rest.slice(0, profiles.length);
  const clean = (t: TaskResult) => t.failed.length === 0 && t.errored.length === 0;
  return {
    seed,
    numRuns,
    workers,
    durationMs: performance.now() - started,
    rules: faithful.rules,
    faithful,
    variant: variants[0],
    variants,
    faults: rows,
    totals: {
      faults: rows.length,
      subtle: rows.filter((r) => r.subtle).length,
      caught: rows.length - missed.length,
      caughtByMust: rows.filter((r) => r.caughtByMust).length,
      caughtOnlyByShould: rows.filter((r) => r.caughtOnlyByShould).length,
      mustLevel: rows.filter((r) => r.level === 'MUST').length,
      shouldLevel: rows.filter((r) => r.level === 'SHOULD').length,
      missed,
      mustLevelCaughtOnlyByShould,
      misplaced,
      ...(uncaught
        ? { uncaught: { rules: uncaught.uncaught, unlisted: uncaught.unlisted, stale: uncaught.stale } }
        : {}),
    },
    ok:
      clean(faithful) &&
      variants.every(clean) &&
      missed.length === 0 &&
      mustLevelCaughtOnlyByShould.length === 0 &&
      misplaced.length === 0 &&
      !uncaught?.unlisted.length,
  };
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderKillMatrixMarkdown(m: KillMatrix): string {
  const lines = [
    `# Kill matrix ${m.ok ? '✅' : '❌'}`,
    '',
    `${m.totals.caught} of ${m.totals.faults} faults caught: ${m.totals.caughtByMust} by a MUST rule, ${m.totals.caughtOnlyByShould} only by SHOULD rules. ` +
      `${m.totals.mustLevel} faults break a stated rule (MUST level: a MUST rule must catch them), ${m.totals.shouldLevel} only a reading (SHOULD level); ${m.totals.subtle} are subtle. ` +
      `Faithful server: ${m.faithful.failed.length + m.faithful.errored.length === 0 ? 'clean' : `${m.faithful.failed.length} failed, ${m.faithful.errored.length} errored`}. ` +
      m.variants
        .map(
          (v) =>
            `Variant \`${v.target.kind === 'variant' ? v.target.profile : '?'}\`: ${v.failed.length + v.errored.length === 0 ? 'clean' : `${v.failed.length} failed, ${v.errored.length} errored`}.`,
        )
        .join(' '),
    '',
    `${m.rules} rules, seed ${m.seed}, ${m.numRuns} cases per property, ${m.workers} workers, ${(m.durationMs / 1000).toFixed(1)} s.`,
    '',
  ];
  const servers = [
    ['faithful', m.faithful] as const,
    ...m.variants.map((v) => [v.target.kind === 'variant' ? v.target.profile : '?', v] as const),
  ];
  for (const [name, t] of servers) {
    for (const f of [...t.failed, ...t.errored])
      lines.push(`- **${name}**: \`${f.rule}\` (${f.level}) — ${cell(f.reason)}`);
    // A SHOULD rule a profile fails on purpose: the profile takes the other legal reading.
    for (const f of t.otherReadings ?? [])
      lines.push(`- **${name}** takes the other reading of \`${f.rule}\` (SHOULD, expected): ${cell(f.why)}`);
  }
  if (m.totals.missed.length) lines.push('', `**Missed:** ${m.totals.missed.map((id) => `\`${id}\``).join(', ')}`, '');
  if (m.totals.mustLevelCaughtOnlyByShould.length) {
    lines.push(
      '',
      `**Breaks a stated rule but caught only by SHOULD rules:** ${m.totals.mustLevelCaughtOnlyByShould.map((id) => `\`${id}\``).join(', ')}`,
      '',
    );
  }
  if (m.totals.misplaced.length) {
    lines.push('', '**Placed where only a family looks, but:**');
    for (const r of m.faults) for (const problem of r.misplaced ?? []) lines.push(`- \`${r.id}\`: ${cell(problem)}`);
    lines.push('');
  }
  const u = m.totals.uncaught;
  if (u) {
    lines.push(
      '',
      `${u.rules.length} MUST rules no fault makes fail, each listed with why in reference/faults/uncaught.ts.`,
    );
    if (u.unlisted.length)
      lines.push(
        '',
        `**MUST rules no fault makes fail, not listed:** ${u.unlisted.map((id) => `\`${id}\``).join(', ')} — add a fault that breaks each, or say why in reference/faults/uncaught.ts.`,
      );
    if (u.stale.length)
      lines.push(
        '',
        `**Listed in reference/faults/uncaught.ts, but a fault makes them fail (or they are gone):** ${u.stale.map((id) => `\`${id}\``).join(', ')} — take them out once no run leaves them uncaught.`,
      );
    lines.push('');
  }
  lines.push(
    '| Fault | Spec | Level | Subtle | Caught by MUST rules | Caught by SHOULD rules |',
    '|---|---|---|---|---|---|',
  );
  const list = (ids: string[]) =>
    ids
      .slice(0, 6)
      .map((id) => `\`${id}\``)
      .join(', ') + (ids.length > 6 ? ` +${ids.length - 6}` : '');
  for (const r of m.faults) {
    const should = r.caughtBy.filter((id) => !r.caughtByMustRules.includes(id));
    const byMust = r.caughtByMustRules.length
      ? list(r.caughtByMustRules)
      : r.caughtBy.length === 0
        ? '**not caught**'
        : r.level === 'MUST'
          ? '**none**'
          : '';
    const level = r.level === 'SHOULD' ? `SHOULD${r.why ? `: ${cell(r.why)}` : ''}` : 'MUST';
    lines.push(
      `| \`${r.id}\` — ${cell(r.description)} | ${cell(r.spec)} | ${level} | ${r.subtle ? 'yes' : ''} | ${byMust} | ${list(should)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
