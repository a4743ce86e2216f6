/**
 * report.html: one self-contained page (inline CSS and JS, no external URL, works offline) for the
 * engineer triaging a run: verdict, section scores, the capability matrix, and every rule with its
 * failure, replay command and full request/response transcript.
 *
 * The report carries server-controlled text (response bodies, messages quoting them), so markup is
 * only ever built through the `html` template below, which escapes every interpolated value with
 * html-escaper unless it is itself markup built the same way. A Content-Security-Policy that admits
 * only this file's own style and script (by hash) and no network is the second line of defence.
 */
import { LEVELS, isFailing } from '../core/engine/verdict.js';
import { runVerdict } from '../core/report/verdict-line.js';
import { createHash } from 'node:crypto';
import { escape as escapeHtml } from 'html-escaper';
import type { CountsT, Report, RuleResult } from '../core/report/schema.js';
import { curlCommand, failingExchange } from '../core/report/curl.js';
import { firstOf, formatBody, formatDuration, formatScore, formatValue, showControlChars } from './plain-text.js';

/** Markup that is already safe; anything else interpolated into `html` is escaped. */
class Html {
  constructor(readonly markup: string) {}
}

type Part = Html | string | number | boolean | null | undefined | Part[];

function part(value: Part): string {
  if (value instanceof Html) return value.markup;
  if (Array.isArray(value)) return value.map(part).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(showControlChars(String(value)));
}

function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  return new Html(strings.reduce((out, s, i) => out + s + (i < values.length ? part(values[i]) : ''), ''));
}

type Verdict = RuleResult['verdict'];
const VERDICTS: Verdict[] = ['fail', 'error', 'skip', 'pass'];

const timestamp = (iso: string) => iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC');

const countCells = (c: CountsT) =>
  html`<td class="num">${c.pass}</td><td class="num${c.fail ? ' fail-text' : ''}">${c.fail}</td><td class="num${c.error ? ' error-text' : ''}">${c.error}</td><td class="num">${c.skip}</td>`;
const COUNT_HEADS = html`<th class="num">Pass</th><th class="num">Fail</th><th class="num">Error</th><th class="num">Skip</th>`;

/** "28 fail 0 error 177 skip 49 pass": failures first, the counts of failures and errors coloured when not zero. */
const tallyOf = (c: CountsT) =>
  VERDICTS.map(
    (v) =>
      html`<span class="tally-item${c[v] && v !== 'pass' && v !== 'skip' ? ` ${v}-text` : ''}"><b>${c[v]}</b> ${v}</span>`,
  );

/**
 * The first screen: the verdict in words (wrapping at any width), the counts, then every failing
 * MUST rule with its one line; the shared causes, the run's details and the tables come after. A
 * reader sees what broke without scrolling or filtering, however many causes a supplier's run has.
 */
function header(report: Report): Html {
  const { run, summary, target } = report;
  const outcome = runVerdict(report);
  return html`<header class="banner ${summary.conformant ? 'ok' : 'bad'}">
  <h1><span class="muted">Conformance report</span> <span class="target">${target.base_url}${target.embedded ? ' (embedded reference server)' : ''}</span></h1>
  <p class="outcome" id="verdict"><strong>${outcome.title}</strong><span class="why">${outcome.detail} · exit code ${summary.exit_code}</span></p>
  <p class="tally" id="counts"><span class="tally-label">${summary.total} rules:</span> ${tallyOf(summary.counts)}<span class="tally-label">MUST:</span> ${tallyOf(summary.by_level.MUST)}</p>
</header>
${run.bailed ? html`<p class="notice">The run stopped early (--bail) after a MUST failure: rules after it did not run.</p>` : ''}
${failingMust(report)}`;
}

/** The run itself: ids, seed, timing, selection; after the failures and their causes. */
function runDetails(report: Report): Html {
  const { run, summary } = report;
  const selection = Object.entries(run.selection).filter(([, v]) => v !== undefined && (!Array.isArray(v) || v.length));
  return html`<dl class="meta">
  <div><dt>Run id</dt><dd><code>${run.id}</code></dd></div>
  ${run.seed !== undefined ? html`<div><dt>Seed</dt><dd><code>${run.seed}</code></dd></div>` : ''}
  <div><dt>Duration</dt><dd>${formatDuration(run.duration_ms)}</dd></div>
  <div><dt>Started</dt><dd>${timestamp(run.started_at)}</dd></div>
  <div><dt>Rules</dt><dd>${summary.total}</dd></div>
  <div><dt>Strict</dt><dd>${run.strict ? 'yes: SHOULD failures fail the run' : 'no: SHOULD failures are reported only'}</dd></div>
  ${run.num_runs !== undefined ? html`<div><dt>Property runs</dt><dd>${run.num_runs} cases</dd></div>` : ''}
  <div><dt>HTTP</dt><dd>${report.http.requests} requests, ${report.http.failures} without a response</dd></div>
  <div><dt>Tool</dt><dd>${report.tool.name} ${report.tool.version} · Node ${run.node}</dd></div>
  ${selection.length ? html`<div><dt>Selection</dt><dd>${selection.map(([k, v]) => `${k}: ${typeof v === 'object' && !Array.isArray(v) ? JSON.stringify(v) : String(v)}`).join('; ')}</dd></div>` : ''}
</dl>`;
}

/** Failing MUST rules listed on the first screen; the rest are counted, with a way to them. */
const FIRST_SCREEN_FAILURES = 25;

/**
 * The MUST rules that fail the run (the baseline's excused ones aside), each with its one line: the
 * failures, then the rules not judged for a reason of their own. Rules a shared cause stopped are
 * counted once under it (the Causes section), so a refused setup step does not bury the failures.
 */
function failingMust(report: Report): Html {
  const counted = report.rules.filter((r) => r.level === 'MUST' && isFailing(r.verdict) && !r.expected_failure);
  const own = [
    ...counted.filter((r) => r.verdict === 'fail'),
    ...counted.filter((r) => r.verdict === 'error' && !r.cause),
  ];
  const byCause = counted.filter((r) => r.verdict === 'error' && r.cause);
  if (!own.length && !byCause.length) return html``;
  const shown = own.slice(0, FIRST_SCREEN_FAILURES);
  const causeCount = new Set(byCause.map((r) => r.cause)).size;
  return html`<section id="failing-must" aria-labelledby="failing-must-title"><h2 id="failing-must-title">MUST rules that fail the run <span class="muted">(${counted.length})</span></h2>
${shown.length ? html`<ol class="failing">${shown.map((r) => html`<li><span class="badge ${r.verdict}">${r.verdict}</span> <a href="#rule-${r.id}"><code>${r.id}</code></a> <span class="line">${r.reason}</span></li>`)}</ol>` : ''}
${own.length > shown.length ? html`<p class="muted">and ${own.length - shown.length} more: see <a href="#rules">Rules</a>, filtered by fail and MUST.</p>` : ''}
${byCause.length ? html`<p class="muted">${byCause.length} MUST ${byCause.length === 1 ? 'rule' : 'rules'} not judged because of ${causeCount === 1 ? 'a shared cause' : `${causeCount} shared causes`}: see <a href="#causes">Causes</a>.</p>` : ''}
</section>`;
}

function totals(report: Report): Html {
  const { summary } = report;
  const row = (label: string, c: CountsT) => html`<tr><th scope="row">${label}</th>${countCells(c)}</tr>`;
  return html`<section id="totals"><h2>Totals</h2>
<div class="scroll"><table class="counts"><thead><tr><th>Level</th>${COUNT_HEADS}</tr></thead>
<tbody>${row('MUST', summary.by_level.MUST)}${row('SHOULD', summary.by_level.SHOULD)}${row('INFO', summary.by_level.INFO)}</tbody>
<tfoot>${row('All', summary.counts)}</tfoot></table></div>
<p class="muted">MUST failures fail the run; SHOULD failures fail it only with --strict; INFO rules observe and never fail it.${summary.expected_failures ? ` ${summary.expected_failures} ${summary.expected_failures === 1 ? 'failure is' : 'failures are'} excused by the baseline.` : ''}</p>
</section>`;
}

function sectionScores(report: Report): Html {
  return html`<section id="sections"><h2>Sections</h2>
<div class="scroll"><table class="scores" id="section-scores"><thead><tr><th>Section</th><th>Title</th>${COUNT_HEADS}<th>Score</th></tr></thead>
<tbody>${report.sections.map(
    (s) =>
      html`<tr><td><code>§${s.section}</code></td><td>${s.title}</td>${countCells(s.counts)}<td class="score">${
        s.score === null
          ? html`<span class="muted">not judged</span>`
          : html`<meter min="0" max="1" low="0.5" high="0.999" optimum="1" value="${s.score}"></meter> ${formatScore(s.score)}`
      }</td></tr>`,
  )}</tbody></table></div>
<p class="muted">Score: passed ÷ judged (pass, fail, error) MUST and SHOULD rules; skipped and INFO rules do not count.</p>
</section>`;
}

const STATUS_CLASS: Record<Report['capabilities'][number]['status'], string> = {
  conforms: 'pass',
  deviates: 'fail',
  'not implemented': 'skip',
  'could not be checked': 'error',
  'not checked': 'skip',
};

/** Endpoint paths break after a slash rather than mid-word. */
const breakable = (path: string) => path.split('/').map((segment, i) => (i === 0 ? segment : html`/<wbr>${segment}`));

function capabilities(report: Report): Html {
  return html`<section id="capabilities"><h2>Capabilities</h2>
<div class="scroll"><table class="capabilities" id="capability-matrix"><thead><tr><th>Endpoint</th><th>Method</th><th>Path</th>${COUNT_HEADS}<th>Status</th></tr></thead>
<tbody>${report.capabilities.map(
    (c) =>
      html`<tr><td>${c.endpoint}</td><td><code>${c.method}</code></td><td><code class="path">${breakable(c.path)}</code></td>${countCells(c.counts)}<td><span class="badge ${STATUS_CLASS[c.status]}">${c.status}</span></td></tr>`,
  )}</tbody></table></div>
<p class="muted">Counts MUST and SHOULD rules that judge each endpoint; a failure counts at the endpoint whose answer broke the rule. An endpoint conforms when a rule of its behaviour passed, not a §5 token rule alone.</p>
</section>`;
}

/** Each shared cause once: the refused setup step or broken exchange, its fix, the rules it stopped. */
function causes(report: Report): Html {
  if (!report.causes?.length) return html``;
  return html`<section id="causes"><h2>Causes</h2>
<p class="muted">Each cause stopped several rules; they are not judged until it is fixed.</p>
<ul class="causes">${report.causes.map(
    (cause) => html`<li class="cause" id="cause-${cause.id}"><p><strong>${cause.step}</strong>: ${cause.answer}</p>
<p>${cause.fix.length ? html`Fix: ${cause.fix.map((key, i) => html`${i ? ' or ' : ''}<code>${key}</code>`)} — ` : ''}${cause.hint}</p>
<details><summary>${cause.rules.length} ${cause.rules.length === 1 ? 'rule' : 'rules'} not judged because of it</summary><ul class="ids">${cause.rules.map((id) => html`<li><a href="#rule-${id}"><code>${id}</code></a></li>`)}</ul></details></li>`,
  )}</ul>
${report.setup?.transcript.length ? html`<details><summary>Setup chain transcript (${report.setup.transcript.length} exchanges)</summary><ol class="transcript">${report.setup.transcript.map((x) => exchange(x, false))}</ol></details>` : ''}
</section>`;
}

function headers(h: Record<string, string>): Html {
  const lines = Object.entries(h).map(([name, value]) => `${name}: ${value}`);
  return lines.length ? html`<pre class="headers">${lines.join('\n')}</pre>` : html``;
}

const body = (text: string | undefined, truncated?: boolean) =>
  text === undefined || text === ''
    ? html`<p class="muted">no body</p>`
    : html`<pre class="body">${formatBody(text, truncated)}</pre>`;

function exchange(x: RuleResult['transcript'][number], culprit: boolean): Html {
  const { request: req, response: res, error } = x;
  const status = res
    ? html`<span class="status s${Math.floor(res.status / 100)}xx">${res.status}</span>`
    : html`<span class="status none">no response</span>`;
  return html`<li class="exchange${culprit ? ' culprit' : ''}">
<div class="xhead"><span class="seq">#${x.seq}</span>${x.step ? html`<span class="step">${x.step}</span>` : ''}<code class="request-line">${req.method} ${req.url}</code><span class="arrow">→</span>${status}<span class="muted">${formatDuration(x.duration_ms)}${res ? ` · ${res.bytes} bytes` : ''}</span>${culprit ? html`<span class="badge fail">the failure is about this exchange</span>` : ''}</div>
${
  x.brief
    ? error
      ? html`<p class="xerror"><strong>${error.kind}</strong>: ${error.message}</p>`
      : ''
    : html`<div class="xparts">
  <div class="xpart"><h5>Request</h5>${headers(req.headers)}${body(req.body, req.body_truncated)}</div>
  <div class="xpart"><h5>Response</h5>${res ? html`${headers(res.headers)}${body(res.body, res.body_truncated)}` : ''}${error ? html`<p class="xerror"><strong>${error.kind}</strong>: ${error.message}</p>` : ''}</div>
</div>`
}
</li>`;
}

function details(rule: RuleResult, baseUrl: string): Html {
  const culprit = failingExchange(rule);
  const f = rule.failure;
  const cx = rule.counterexample;
  return html`<div class="detail">
${rule.reason ? html`<p class="reason">${rule.reason}</p>` : ''}
${rule.expected_failure ? html`<p class="notice">Expected failure, excused by the baseline: ${rule.expected_failure.comment}</p>` : ''}
${rule.error_kind ? html`<p class="muted">Error kind: ${rule.error_kind}. The rule could not be judged, so this says nothing about conformance.${rule.cause ? html` Cause: <a href="#cause-${rule.cause}">${rule.cause}</a>.` : ''}</p>` : ''}
${
  f
    ? html`<div class="failure">
  ${f.message !== rule.reason ? html`<p>${f.message}</p>` : ''}
  ${f.path ? html`<p>At <code>${f.path}</code></p>` : ''}
  ${'expected' in f || 'actual' in f ? html`<div class="diff"><div><h5>Expected</h5><pre class="expected">${formatValue(f.expected)}</pre></div><div><h5>Actual</h5><pre class="actual">${formatValue(f.actual)}</pre></div></div>` : ''}
</div>`
    : ''
}
${rule.why ? html`<p class="muted">Why ${rule.level}: ${rule.why}</p>` : ''}
${rule.observations.length ? html`<h4>Observations</h4><ul class="observations">${rule.observations.map((o) => html`<li>${o}</li>`)}</ul>` : ''}
${cx ? html`<h4>Counterexample</h4><p>Seed <code>${cx.seed}</code>, path <code>${cx.path}</code>${cx.shrinks !== undefined ? `, after ${cx.shrinks} shrinks` : ''}</p><pre class="counterexample">${formatValue(cx.value)}</pre>` : ''}
${rule.replay ? html`<h4>Replay</h4><div class="replay"><pre><code>${rule.replay}</code></pre><button type="button" class="copy">Copy</button></div>` : ''}
${culprit ? html`<h4>As curl (exchange #${culprit.seq})</h4><div class="curl"><pre><code>${curlCommand(culprit, baseUrl)}</code></pre><button type="button" class="copy">Copy</button></div>` : ''}
${rule.transcript.length ? html`<h4>Transcript (${rule.transcript.length} ${rule.transcript.length === 1 ? 'exchange' : 'exchanges'})</h4><ol class="transcript">${rule.transcript.map((x) => exchange(x, x.seq === f?.exchange_seq))}</ol>` : ''}
</div>`;
}

function ruleRow(rule: RuleResult, baseUrl: string): Html {
  const expandable = isFailing(rule.verdict) || rule.observations.length > 0;
  const cells = html`<span class="chevron" aria-hidden="true"></span><a class="id" href="#rule-${rule.id}"><code>${rule.id}</code></a><span class="spec">${rule.spec}</span><span class="level level-${rule.level}">${rule.level}</span><span class="title">${rule.title}${
    rule.verdict === 'skip'
      ? html`<span class="note">${rule.reason}${rule.skip_key && !(rule.reason ?? '').includes(rule.skip_key) ? html` — set <code>${rule.skip_key}</code>` : ''}${rule.skip_accepted ? ' (skip accepted)' : ''}</span>`
      : ''
  }</span><span class="verdict"><span class="badge ${rule.verdict}">${rule.verdict}</span>${rule.expected_failure ? html`<span class="badge expected">expected</span>` : ''}</span>`;
  const attrs = html`id="rule-${rule.id}" data-verdict="${rule.verdict}" data-level="${rule.level}" data-text="${`${rule.id} ${rule.title} ${rule.spec} ${rule.level}`.toLowerCase()}"`;
  return expandable
    ? html`<details class="rule" ${attrs}><summary>${cells}</summary>${details(rule, baseUrl)}</details>`
    : html`<div class="rule" ${attrs}>${cells}</div>`;
}

function rules(report: Report): Html {
  return html`<section id="rules"><h2>Rules</h2>
<div class="toolbar" role="toolbar" aria-label="Filter rules">
  <button type="button" data-filter="all" aria-pressed="true">All <span class="n">${report.rules.length}</span></button>
  ${VERDICTS.map((v) => html`<button type="button" data-filter="${v}" aria-pressed="false">${v} <span class="n">${report.summary.counts[v]}</span></button>`)}
  <span class="sep" aria-hidden="true"></span>
  ${LEVELS.map((l) => html`<button type="button" data-level-filter="${l}" aria-pressed="false" title="only ${l} rules">${l} <span class="n">${report.rules.filter((r) => r.level === l).length}</span></button>`)}
  <input type="search" id="rule-search" placeholder="Filter by id, title, spec or level" aria-label="Filter by id, title, spec or level">
  <span id="shown" class="muted" aria-live="polite"></span>
</div>
<div class="rule-list" id="rule-list">
<div class="rule rule-head" aria-hidden="true"><span></span><span>Rule</span><span>Spec</span><span>Level</span><span>Title</span><span>Verdict</span></div>
${report.rules.map((rule) => ruleRow(rule, report.target.base_url))}
</div>
</section>`;
}

function baseline(report: Report): Html {
  const b = report.baseline;
  if (!b) return html``;
  return html`<section id="baseline"><h2>Baseline</h2>
<p><code>${b.file}</code>: ${b.entries} ${b.entries === 1 ? 'entry' : 'entries'}; ${report.summary.expected_failures} excused ${report.summary.expected_failures === 1 ? 'failure' : 'failures'} in this run.</p>
${b.now_passing.length ? html`<h3>Now passing — remove these entries${b.strict ? ' (they fail the run under --strict-baseline)' : ''}</h3><ul>${b.now_passing.map((e) => html`<li><code>${e.rule}</code> — ${e.comment}</li>`)}</ul>` : ''}
${b.expired?.length ? html`<h3>Past their until day — they excuse nothing, a failure counts as new</h3><ul>${b.expired.map((e) => html`<li><code>${e.rule}</code> expired on ${e.until} — ${e.comment}</li>`)}</ul>` : ''}
${b.unknown_rules.length ? unknownRules(b.unknown_rules) : ''}
</section>`;
}

/** The first entries that name no rule, then how many more: a generated baseline may hold thousands. */
function unknownRules(ids: string[]): Html {
  const { first, more } = firstOf(ids);
  return html`<h3>Entries that name no rule</h3><ul>${first.map((r) => html`<li><code>${r}</code></li>`)}${more ? html`<li>and ${more} more (report.json lists them all)</li>` : ''}</ul>`;
}

/** Limits the target showed where the spec shows none (§2.3, §8): INFO, each with the config line that declares it. */
function discoveredLimits(report: Report): Html {
  const limits = report.discovered_limits ?? [];
  if (!limits.length) return html``;
  return html`<section id="discovered-limits"><h2>Discovered limits <span class="muted">(${limits.length}, INFO)</span></h2>
<p class="muted">A §7.1 400 naming exactly the field that carried an edge value: the case was replayed inside the limit and judged on that. Declare them under <code>limits:</code> and generated values stay inside.</p>
<ul>${limits.map((l) => html`<li><code>${l.endpoint}</code> <code>${l.field}</code>: ${l.refused} refused (<code>${l.code}</code>)${l.accepted ? html`, ${l.accepted} accepted` : ''} — <code>${l.declare}</code></li>`)}</ul>
</section>`;
}

function created(report: Report): Html {
  const c = report.created_identifiers;
  const list = (label: string, ids: string[]) =>
    ids.length
      ? html`<details><summary>${label} (${ids.length})</summary><ul class="ids">${ids.map((id) => html`<li><code>${id}</code></li>`)}</ul></details>`
      : html`<p class="muted">No ${label.toLowerCase()}.</p>`;
  return html`<section id="created"><h2>Created identifiers</h2>
<p class="muted">What this run created on the target, for clean-up. Every identifier carries the run id <code>${report.run.id}</code>; ${c.other} other namespaced values (transactions, notes, supply points, …) are counted only.</p>
${list('External account numbers', c.external_account_numbers)}${list('Business identifiers', c.business_identifiers)}${list('Contract identifiers', c.contract_identifiers)}
</section>`;
}

/** Relation coverage (core/engine/relations.ts): per kind, the places instantiated of those it applies to, and the missing ones. */
function relations(report: Report): Html {
  const r = report.relations;
  if (!r?.length) return html``;
  return html`<section id="relations"><h2>Relations</h2>
<div class="scroll"><table class="capabilities" id="relations-table"><thead><tr><th>Relation</th><th>Spec</th><th class="num">Places</th><th>Missing</th></tr></thead>
<tbody>${r.map(
    (k) =>
      html`<tr><td>${k.kind}</td><td>${k.spec}</td><td class="num">${k.covered} of ${k.applies}</td><td>${
        k.missing.length
          ? html`<ul class="ids">${k.missing.map((p) => html`<li><code>${p.endpoint}${p.field ? ` ${p.field}` : ''}</code></li>`)}</ul>`
          : html`<span class="muted">none</span>`
      }</td></tr>`,
  )}</tbody></table></div>
<p class="muted">Each relation the spec states, applied at every place of the model it holds at: the places derived from the spec model and the driver table, and those the suite's rules instantiate.</p>
</section>`;
}

/**
 * Status and field coverage (core/report/coverage.ts): per endpoint, the documented statuses seen
 * and never seen (with the situation each documents), undocumented statuses, and the documented
 * request fields sent, the never-sent ones folded away.
 */
function coverage(report: Report): Html {
  const c = report.coverage;
  if (!c) return html``;
  const pct = (share: number | null) => (share === null ? html`<span class="muted">—</span>` : formatScore(share));
  return html`<section id="coverage"><h2>Coverage</h2>
<p>${c.exchanges} exchanges${c.unrouted ? html` (${c.unrouted} to no endpoint of §4)` : ''}. Documented statuses observed: <strong>${c.statuses.observed} of ${c.statuses.documented}</strong> (${pct(c.statuses.share)}); documented request fields sent: <strong>${c.fields.sent} of ${c.fields.documented}</strong> (${pct(c.fields.share)}).</p>
<div class="scroll"><table class="capabilities" id="coverage-matrix"><thead><tr><th>Endpoint</th><th class="num">Requests</th><th>Documented statuses</th><th>Undocumented</th><th>Request fields sent</th></tr></thead>
<tbody>${c.endpoints.map(
    (e) =>
      html`<tr><td>${e.endpoint}<br><code class="path">${e.method} ${breakable(e.path)}</code></td><td class="num">${e.requests}${e.no_response ? html`<br><span class="error-text">${e.no_response} unanswered</span>` : ''}</td><td>${e.statuses.map(
        (s) =>
          html`<span class="badge ${s.observed ? 'pass' : 'skip'}" title="${s.spec}: ${s.situation}">${s.status} ${s.observed ? html`× ${s.observed}` : 'never'}</span> `,
      )}</td><td>${e.undocumented.length ? e.undocumented.map((u) => html`<span class="badge fail">${u.status} × ${u.observed}</span> `) : html`<span class="muted">none</span>`}</td><td>${
        e.fields.sent.length + e.fields.never_sent.length === 0
          ? html`<span class="muted">no body</span>`
          : html`${e.fields.sent.length} of ${e.fields.sent.length + e.fields.never_sent.length} (${pct(e.fields.share)})${
              e.fields.never_sent.length
                ? html`<details><summary>never sent (${e.fields.never_sent.length})</summary><ul class="ids">${e.fields.never_sent.map((f) => html`<li><code>${f}</code></li>`)}</ul></details>`
                : ''
            }`
      }</td></tr>`,
  )}</tbody></table></div>
<p class="muted">Counted from every exchange, not the transcripts kept above. Hover a status for the situation the spec documents it for; <code>*</code> in a field path stands for every element of an array.</p>
</section>`;
}

const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--border:#d1d9e0;--panel:#f6f8fa;--accent:#0969da;
--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--error:#9a6700;--error-bg:#fff8c5;--skip:#59636e;--skip-bg:#eaeef2;
--mono:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--border:#3d444d;--panel:#151b23;--accent:#4493f8;
--pass:#3fb950;--pass-bg:#12261e;--fail:#f85149;--fail-bg:#2d1719;--error:#d29922;--error-bg:#2b2111;--skip:#9198a1;--skip-bg:#212830}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1280px;padding:1.5rem;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
h1{font-size:1.5rem;margin:0}h2{font-size:1.15rem;margin:2rem 0 .75rem;padding-bottom:.3rem;border-bottom:1px solid var(--border)}
h3{font-size:1rem}h4{font-size:.9rem;margin:1rem 0 .4rem}h5{font-size:.75rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);margin:0 0 .3rem}
code,pre{font-family:var(--mono);font-size:12.5px}
pre{margin:0 0 .5rem;padding:.6rem .75rem;background:var(--panel);border:1px solid var(--border);border-radius:6px;overflow:auto;max-height:28rem;white-space:pre-wrap;overflow-wrap:anywhere}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
[hidden]{display:none!important}
.muted{color:var(--muted)}
.banner{padding:.75rem 1.25rem;border-radius:8px;border:1px solid;overflow-wrap:anywhere}
.banner.ok{background:var(--pass-bg);border-color:var(--pass)}.banner.bad{background:var(--fail-bg);border-color:var(--fail)}
.banner h1{font-size:.9rem;font-weight:400}.target{font-family:var(--mono)}
.outcome{margin:.1rem 0 .3rem;font-size:13px;line-height:1.45}.outcome strong{display:block;font-size:1.5rem;line-height:1.3}
.banner.ok .outcome strong{color:var(--pass)}.banner.bad .outcome strong{color:var(--fail)}
.tally{margin:0;display:flex;flex-wrap:wrap;gap:.2rem .9rem;align-items:baseline}.tally-label{color:var(--muted)}.tally-label:not(:first-child){margin-left:.6rem}
.tally-item b{font-variant-numeric:tabular-nums}
#failing-must h2{margin:.9rem 0 .5rem}
.failing{margin:0;padding:0;list-style:none;border:1px solid var(--border);border-radius:8px}
.failing li{padding:.1rem .6rem;font-size:13px;line-height:1.45;border-bottom:1px solid var(--border);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}.failing li:last-child{border-bottom:0}
.failing code{font-size:12px}.failing .line{color:var(--muted)}.failing .badge{line-height:1.3;font-size:.7rem}
.meta{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:.5rem 1.5rem;margin:1rem 0}
.meta dt{font-size:.75rem;color:var(--muted)}.meta dd{margin:0;overflow-wrap:anywhere}
.notice{padding:.5rem .75rem;border-left:3px solid var(--error);background:var(--error-bg);border-radius:4px}
table{border-collapse:collapse;width:100%;margin-bottom:.5rem}
th,td{padding:.35rem .6rem;border-bottom:1px solid var(--border);text-align:left;vertical-align:middle}
thead th{font-size:.75rem;color:var(--muted);font-weight:600}tfoot th,tfoot td{font-weight:600;border-bottom:0}
.num{text-align:right;font-variant-numeric:tabular-nums;width:4.5rem}
table.counts{width:auto;min-width:28rem}
.scroll{overflow-x:auto}table.scores{min-width:44rem}table.capabilities{min-width:60rem}
.fail-text{color:var(--fail);font-weight:600}.error-text{color:var(--error);font-weight:600}
.score{white-space:nowrap;width:11rem}.score meter{width:6rem;vertical-align:middle}
.badge{display:inline-block;padding:0 .5rem;border-radius:999px;font-size:.75rem;font-weight:600;line-height:1.6;border:1px solid transparent;white-space:nowrap}
.badge.pass{color:var(--pass);background:var(--pass-bg);border-color:var(--pass)}
.badge.fail{color:var(--fail);background:var(--fail-bg);border-color:var(--fail)}
.badge.error{color:var(--error);background:var(--error-bg);border-color:var(--error)}
.badge.skip{color:var(--skip);background:var(--skip-bg);border-color:var(--border)}
.badge.expected{color:var(--muted);border-color:var(--border);margin-left:.3rem}
.toolbar{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin-bottom:.75rem;position:sticky;top:0;background:var(--bg);padding:.5rem 0;z-index:1}
.toolbar .sep{width:.6rem}
.rule{scroll-margin-top:var(--toolbar-height,4rem)}
.toolbar button{font:inherit;padding:.25rem .75rem;border-radius:6px;border:1px solid var(--border);background:var(--panel);color:var(--fg);cursor:pointer;text-transform:capitalize}
.toolbar button[aria-pressed=true]{background:var(--accent);border-color:var(--accent);color:#fff}
.toolbar .n{opacity:.75;margin-left:.2rem}
.toolbar input{font:inherit;padding:.25rem .6rem;border-radius:6px;border:1px solid var(--border);background:var(--bg);color:var(--fg);min-width:16rem;margin-left:auto}
.rule-list{border:1px solid var(--border);border-radius:8px;overflow:hidden}
.rule>summary,div.rule{display:grid;grid-template-columns:1rem minmax(12rem,2.2fr) minmax(6rem,1fr) 4.5rem minmax(12rem,4fr) 9rem;gap:.75rem;align-items:baseline;padding:.45rem .75rem}
.rule{border-bottom:1px solid var(--border)}.rule:last-child{border-bottom:0}
.rule-head{font-size:.75rem;color:var(--muted);font-weight:600;background:var(--panel)}
details.rule>summary{cursor:pointer;list-style:none}details.rule>summary::-webkit-details-marker{display:none}
details.rule>summary:hover{background:var(--panel)}
details.rule .chevron::before{content:"▸";color:var(--muted)}details.rule[open] .chevron::before{content:"▾"}
details.rule[open]>summary{background:var(--panel);border-bottom:1px solid var(--border)}
.rule[data-verdict=fail]>summary{box-shadow:inset 3px 0 var(--fail)}.rule[data-verdict=error]>summary{box-shadow:inset 3px 0 var(--error)}
.id code{font-size:12px;overflow-wrap:anywhere}.spec{color:var(--muted);font-size:.85rem;min-width:0;overflow-wrap:anywhere}.rule .title{min-width:0;overflow-wrap:anywhere}
.rule .verdict{white-space:nowrap}.level{font-size:.75rem;font-weight:600}.level-SHOULD{color:var(--error)}.level-INFO{color:var(--muted)}
.note{display:block;color:var(--muted);font-size:.85rem}
.detail{padding:.75rem 1rem 1rem 2.5rem}
.reason{font-weight:600;color:var(--fail);white-space:pre-wrap;overflow-wrap:anywhere}
.diff{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}
.expected{border-left:3px solid var(--pass)}.actual{border-left:3px solid var(--fail)}
.replay,.curl{display:flex;gap:.5rem;align-items:flex-start}.replay pre,.curl pre{flex:1;margin:0}
.replay button,.curl button{font:inherit;padding:.3rem .75rem;border-radius:6px;border:1px solid var(--border);background:var(--panel);color:var(--fg);cursor:pointer}
.transcript{list-style:none;padding:0;margin:0}
.exchange{border:1px solid var(--border);border-radius:6px;margin-bottom:.75rem}
.exchange.culprit{border-color:var(--fail)}
.xhead{display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline;padding:.4rem .6rem;background:var(--panel);border-bottom:1px solid var(--border);border-radius:6px 6px 0 0}
.seq{color:var(--muted);font-family:var(--mono)}.step{font-weight:600}.request-line{overflow-wrap:anywhere}.arrow{color:var(--muted)}
.status{font-family:var(--mono);font-weight:700}.s2xx{color:var(--pass)}.s4xx{color:var(--error)}.s5xx,.status.none{color:var(--fail)}
.xparts{display:grid;grid-template-columns:1fr 1fr;gap:.75rem;padding:.6rem}
.xpart{min-width:0}.xerror{color:var(--fail)}
.ids{columns:3 14rem;font-size:.85rem}
footer{margin-top:2.5rem;color:var(--muted);font-size:.8rem}
@media (max-width:800px){body{padding:.75rem}.banner{padding:.6rem .75rem}
.failing li{white-space:normal;overflow-wrap:anywhere;display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;line-clamp:2}
.rule>summary,div.rule{grid-template-columns:1rem 1fr auto}.rule .spec,.rule .level,div.rule-head{display:none}
.rule .title{grid-column:2/4}.xparts,.diff{grid-template-columns:1fr}.detail{padding-left:1rem}}
`;

const SCRIPT = `
(() => {
  const rows = [...document.querySelectorAll('#rule-list .rule[data-verdict]')];
  const buttons = [...document.querySelectorAll('[data-filter]')];
  const search = document.getElementById('rule-search');
  const shown = document.getElementById('shown');
  const levels = [...document.querySelectorAll('[data-level-filter]')];
  let filter = 'all';
  // Levels narrow the verdict filter: "fail" with MUST pressed shows only the failures that count.
  const level = () => levels.find((b) => b.getAttribute('aria-pressed') === 'true')?.dataset.levelFilter;
  const apply = () => {
    const q = search.value.trim().toLowerCase();
    const l = level();
    let n = 0;
    for (const row of rows) {
      row.hidden = !(
        (filter === 'all' || row.dataset.verdict === filter) &&
        (!l || row.dataset.level === l) &&
        (!q || row.dataset.text.includes(q))
      );
      if (!row.hidden) n++;
    }
    shown.textContent = n + ' of ' + rows.length + ' shown';
  };
  for (const button of buttons) {
    button.addEventListener('click', () => {
      filter = button.dataset.filter;
      for (const b of buttons) b.setAttribute('aria-pressed', String(b === button));
      apply();
    });
  }
  for (const button of levels) {
    button.addEventListener('click', () => {
      const on = button.getAttribute('aria-pressed') !== 'true';
      for (const b of levels) b.setAttribute('aria-pressed', String(on && b === button));
      apply();
    });
  }
  // An anchor to a rule scrolls it below the sticky toolbar, whatever height the toolbar wraps to.
  const toolbar = document.querySelector('.toolbar');
  const measure = () => document.documentElement.style.setProperty('--toolbar-height', toolbar.offsetHeight + 8 + 'px');
  measure();
  // The bar's final height is known only after layout: once it is, a link to a rule is followed again.
  let first = true;
  new ResizeObserver(() => {
    measure();
    if (first && location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
    first = false;
  }).observe(toolbar);
  search.addEventListener('input', apply);
  // Copying falls back to selecting the command: file:// pages may not get clipboard access.
  const select = (node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
  };
  document.addEventListener('click', (event) => {
    const button = event.target.closest('button.copy');
    if (!button) return;
    const code = button.parentElement.querySelector('code');
    const copied = () => { button.textContent = 'Copied'; setTimeout(() => { button.textContent = 'Copy'; }, 1500); };
    if (navigator.clipboard) navigator.clipboard.writeText(code.textContent).then(copied, () => select(code));
    else select(code);
  });
  // A link to #rule-<id> opens that rule, so a failure can be shared by URL.
  const openFromHash = () => {
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && target.tagName === 'DETAILS') {
      target.hidden = false;
      target.open = true;
      target.scrollIntoView();
    }
  };
  window.addEventListener('hashchange', openFromHash);
  apply();
  openFromHash();
})();
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

const CSP = `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; base-uri 'none'; form-action 'none'`;

export function renderHtml(report: Report): string {
  const title = `${runVerdict(report).title} — ${report.target.base_url} — run ${report.run.id}`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${title}</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
${header(report)}
${causes(report)}
${runDetails(report)}
${totals(report)}
${sectionScores(report)}
${capabilities(report)}
${rules(report)}
${baseline(report)}
${discoveredLimits(report)}
${created(report)}
${coverage(report)}
${relations(report)}
<footer>${report.tool.name} ${report.tool.version} · report schema ${report.schema_version} · finished ${timestamp(report.run.finished_at)}</footer>
<script>${new Html(SCRIPT)}</script>
</body>
</html>
`.markup;
}
