/**
 * report.html: the markup itself (escaping, self-containment), then the page as a person uses it,
 * in a real headless Chromium (the one the project's install ships, or CHROMIUM_PATH; see helpers/browser.ts),
 * driven by playwright-core.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { unescape as unescapeHtml } from 'html-escaper';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderHtml } from '../../reports/html.js';
import { headlessChromium } from '../helpers/browser.js';
import { conformantReport, RAW_SECRET, REPLAY, sampleReport, URLS } from '../helpers/sample-report.js';

const report = sampleReport();
const page0 = renderHtml(report);

describe('renderHtml markup', () => {
  it('escapes server-controlled text, so the only script element is the page’s own', () => {
    expect(page0).not.toContain('<script>alert(1)</script>');
    expect(page0).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page0.match(/<script/g)).toHaveLength(1);
    expect(page0).toContain('&quot;quotes&quot;');
  });

  it('is self-contained: no URL but in-page anchors, and a policy that forbids the network', () => {
    const references = [...page0.matchAll(/\b(?:src|href|action)\s*=\s*"([^"]*)"/g)].map((m) => m[1]);
    expect(references.length).toBeGreaterThan(0);
    for (const ref of references) expect(ref.startsWith('#')).toBe(true);
    expect(page0).not.toMatch(/@import|url\(/);
    const csp = unescapeHtml(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page0)?.[1] ?? '');
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+';/);
  });

  it('shows control characters by their code instead of writing them raw', () => {
    expect(page0).not.toMatch(/[\u0000\u001b]/);
    expect(page0).toContain('second line \\u0000\\u001b[31m');
  });

  it('says whether the target conforms, with the exit code', () => {
    expect(page0).toContain(
      '<strong>Not conformant</strong><span class="why">2 MUST failures and 1 MUST rule not judged (error); 1 MUST failure excused by the baseline; 1 MUST rule not judged (skipped): set fixtures.concurrency_limit, or accept the skips with --allow-skip; 1 SHOULD failure, not counted without --strict · exit code 1</span>',
    );
    // A conformant run says what it rests on too: here, skips that --allow-skip accepted.
    expect(renderHtml(conformantReport())).toContain(
      '<strong>Conformant</strong><span class="why">every MUST rule that ran was judged and none failed; 1 MUST rule skipped, accepted by --allow-skip · exit code 0</span>',
    );
  });

  it('lists the baseline entries to remove, unknown entries and the created identifiers', () => {
    expect(page0).toMatch(
      /Now passing — remove these entries<\/h3><ul><li><code>migration\.validate\.accepts-valid<\/code> — TICKET-9: fixed in 2\.3<\/li>/,
    );
    expect(page0).toContain('<li><code>retired.rule.that-no-longer-exists</code></li>');
    expect(page0).toContain('<summary>External account numbers (2)</summary>');
    expect(page0).toContain('<li><code>cf-k3x9q2-B2</code></li>');
    expect(page0).toContain('17 other namespaced values');
  });

  it('contains the redacted placeholder and never the secret', () => {
    expect(page0).toContain('authorization: Token ***');
    expect(page0).not.toContain(RAW_SECRET);
  });
});

describe('renderHtml in Chromium', { timeout: 60_000 }, () => {
  let dir: string;
  let fileUrl: string;
  let context: BrowserContext;
  let page: Page;
  let requests: string[];
  let dialogs: string[];
  let problems: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'html-report-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, page0);
    fileUrl = pathToFileURL(file).href;
    // Without the background-networking flags Chromium phones home, which this network refuses.
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      headless: true,
      ...(await headlessChromium()),
    });
    page = await context.newPage();
    page.on('request', (r) => requests.push(r.url()));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    // A CSP violation (our own script or style blocked) shows as a console error.
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    requests = [];
    dialogs = [];
    problems = [];
    await page.goto(fileUrl);
  });

  const visibleRuleVerdicts = () =>
    page
      .locator('#rule-list .rule[data-verdict]:visible')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-verdict')));

  it('shows a score per spec section', async () => {
    const rows = page.locator('#section-scores tbody tr');
    await expect.poll(() => rows.count()).toBe(report.sections.length);
    const migration = await rows.filter({ hasText: 'Account migration' }).innerText();
    expect(migration.split('\t').map((c) => c.trim())).toEqual([
      '§4.1',
      'Account migration',
      '1',
      '2',
      '0',
      '1',
      '33 %',
    ]);
    expect(await rows.filter({ hasText: 'Payment instruction' }).innerText()).toContain('not judged');
  });

  it('shows the capability matrix', async () => {
    const rows = page.locator('#capability-matrix tbody tr');
    expect(await rows.count()).toBe(report.capabilities.length);
    const stage = await rows.filter({ hasText: 'stageAccount' }).innerText();
    expect(stage).toContain('/v1/data-import/account-import-process/create-or-update/');
    expect(stage).toContain('deviates');
  });

  it('filters the rules by verdict and by text', async () => {
    expect(await visibleRuleVerdicts()).toHaveLength(report.rules.length);
    await page.click('button[data-filter="fail"]');
    expect(await visibleRuleVerdicts()).toEqual(Array(report.summary.counts.fail).fill('fail'));
    expect(await page.locator('#shown').innerText()).toBe(`4 of ${report.rules.length} shown`);
    await page.click('button[data-filter="error"]');
    expect(await visibleRuleVerdicts()).toEqual(['error', 'error']);
    await page.click('button[data-filter="all"]');
    await page.fill('#rule-search', 'notes.dedup');
    expect(await visibleRuleVerdicts()).toEqual(['fail']);
    expect(problems).toEqual([]);
  });

  it('narrows a verdict filter to one level, so the failures that count are apart from SHOULD ones', async () => {
    const levelsOf = (verdict: string) => report.rules.filter((r) => r.verdict === verdict).map((r) => r.level);
    expect(new Set(levelsOf('fail')).size).toBeGreaterThan(1);
    await page.click('button[data-filter="fail"]');
    await page.click('button[data-level-filter="MUST"]');
    const must = await page
      .locator('#rule-list .rule[data-verdict]:visible')
      .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-verdict')} ${r.getAttribute('data-level')}`));
    expect(must).toEqual(
      levelsOf('fail')
        .filter((l) => l === 'MUST')
        .map((l) => `fail ${l}`),
    );
    await page.click('button[data-level-filter="SHOULD"]');
    expect(await visibleRuleVerdicts()).toHaveLength(levelsOf('fail').filter((l) => l === 'SHOULD').length);
    await page.click('button[data-level-filter="SHOULD"]');
    expect(await visibleRuleVerdicts()).toHaveLength(levelsOf('fail').length);
    expect(problems).toEqual([]);
  });

  it('an anchor to a rule shows its header below the sticky filter bar', async () => {
    const last = report.rules[report.rules.length - 1];
    await page.setViewportSize({ width: 1000, height: 400 });
    // A fresh load, as when a link from a CI log is followed.
    await page.goto('about:blank');
    await page.goto(`${fileUrl}#rule-${last.id}`);
    // The page measures its bar once laid out, then follows the link again.
    await page.waitForFunction(() => {
      const doc = (globalThis as any).document;
      return (
        Number.parseFloat(doc.documentElement.style.getPropertyValue('--toolbar-height')) >=
        doc.querySelector('.toolbar').offsetHeight
      );
    });
    const [bar, row] = await Promise.all([
      page.locator('.toolbar').boundingBox(),
      page.locator(`[id="rule-${last.id}"]`).boundingBox(),
    ]);
    expect(row!.y).toBeGreaterThanOrEqual(bar!.y + bar!.height);
  });

  it('expands a failure to its reason, expected and actual, replay command and full transcript', async () => {
    const rule = page.locator('[id="rule-conventions.date.impossible-day"]');
    const transcript = rule.locator('.transcript');
    await expect.poll(() => transcript.isVisible()).toBe(false);
    await rule.locator('summary').click();
    expect(await transcript.isVisible()).toBe(true);
    expect(await rule.locator('.reason').innerText()).toContain('expected status 400, got 201');
    expect(await rule.locator('pre.expected').innerText()).toBe('400');
    expect(await rule.locator('pre.actual').innerText()).toBe('201');
    expect(await rule.locator('.replay code').innerText()).toBe(REPLAY.stage);
    expect(await rule.locator('.replay button.copy').isVisible()).toBe(true);
    const exchanges = transcript.locator('.exchange');
    expect(await exchanges.count()).toBe(2);
    const second = exchanges.nth(1);
    expect(await second.locator('.request-line').innerText()).toBe(`POST ${URLS.stage}?token=***`);
    expect(await second.locator('.step').innerText()).toBe('stage the account');
    expect(await second.innerText()).toContain('authorization: Token ***');
    expect(await second.locator('.xpart').nth(1).locator('pre.body').innerText()).toContain(
      '{"detail":"<script>alert(1)</script> ]]>',
    );
    expect(await second.getAttribute('class')).toContain('culprit');
  });

  it('renders a hostile response body as text, never running it', async () => {
    await page.locator('[id="rule-conventions.date.impossible-day"] summary').click();
    await page.locator('[id="rule-conventions.date.impossible-day"] .transcript').waitFor();
    expect(dialogs).toEqual([]);
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.content()).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('shows a property counterexample and an exchange that got no response', async () => {
    const property = page.locator('[id="rule-properties.account.single-defect-refused"]');
    await property.locator('summary').click();
    expect(await property.locator('.detail').innerText()).toMatch(/Seed 4242, path 3:1:0, after 12 shrinks/);
    expect(await property.locator('pre.counterexample').innerText()).toContain('"email": "not-an-email"');
    const timedOut = page.locator('[id="rule-status.listing-imported-excludes-pending"]');
    await timedOut.locator('summary').click();
    expect(await timedOut.locator('.xerror').innerText()).toBe('timeout: no response within 10 s');
  });

  it('opens the rule a link points at', async () => {
    await page.goto(`${fileUrl}#rule-notes.dedup.same-body-and-created-at`);
    expect(await page.locator('[id="rule-notes.dedup.same-body-and-created-at"]').getAttribute('open')).not.toBeNull();
    expect(await page.locator('[id="rule-notes.dedup.same-body-and-created-at"] .notice').innerText()).toContain(
      'TICKET-17',
    );
  });

  it('loads nothing but the file itself and runs without errors', async () => {
    await page.locator('[id="rule-conventions.date.impossible-day"] summary').click();
    await page.click('button[data-filter="skip"]');
    expect(requests).toEqual([fileUrl]);
    expect(problems).toEqual([]);
  });
});
