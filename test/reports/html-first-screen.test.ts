/**
 * report.html's first screen says it all: in a 1,280 × 800 window the verdict, the counts and the
 * failing MUST rules (each with its one line) are visible without scrolling, ahead of the shared
 * causes that a supplier's partial mock piles up; and at any width the page wraps rather than
 * growing wider than the window. Measured in a real headless Chromium (helpers/browser.ts) on the
 * rendered page; the screenshots are written to the test's temporary directory (kept, and named in
 * the output, when HTML_SCREENSHOTS names a directory to keep them in).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../app/conformance.js';
import type { Report } from '../../core/report/schema.js';
import { renderHtml } from '../../reports/html.js';
import { headlessChromium } from '../helpers/browser.js';
import { sampleReport } from '../helpers/sample-report.js';
import { MOCK_SUPPLIER, MOCK_TEAM, MOCK_TOKEN, startPartialMock } from './partial-mock.js';

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** What the page shows in its window: where the verdict, counts and failing rules lie, and how wide it is. */
interface Screen {
  width: number;
  height: number;
  scrollWidth: number;
  verdict: Box | null;
  verdictText: string;
  counts: Box | null;
  failing: Box[];
  causes: Box | null;
}

const inside = (box: Box | null, screen: Screen) =>
  box !== null && box.top >= 0 && box.left >= 0 && box.bottom <= screen.height && box.right <= screen.width;

let dir: string;
let keep: string | undefined;
let context: BrowserContext;
let page: Page;
let supplier: Report;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'html-first-screen-'));
  keep = process.env.HTML_SCREENSHOTS;
  if (keep) mkdirSync(keep, { recursive: true });
  // A supplier's partial mock: validation that accepts what it should refuse (many MUST failures) and
  // twelve endpoints answering 501, each a shared cause.
  const mock = await startPartialMock();
  try {
    supplier = await runConformance({
      baseUrl: mock.url,
      auth: { token: MOCK_TOKEN },
      fixtures: { import_suppliers: { ongoing: MOCK_SUPPLIER }, operations_team: MOCK_TEAM },
      seed: 7,
      numRuns: 5,
    });
  } finally {
    await mock.close();
  }
  context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    headless: true,
    ...(await headlessChromium()),
  });
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  await context?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Opens `report` in a window of the given size and measures it; the screenshot goes next to it. */
async function open(name: string, report: Report, width: number, height: number): Promise<Screen> {
  const file = join(dir, `${name}.html`);
  writeFileSync(file, renderHtml(report));
  await page.setViewportSize({ width, height });
  await page.goto(pathToFileURL(file).href);
  const shot = join(keep ?? dir, `${name}-${width}x${height}.png`);
  await page.screenshot({ path: shot });
  if (keep) console.log(`screenshot: ${shot}`);
  return page.evaluate(() => {
    const doc = (globalThis as any).document;
    const box = (el: any): Box | null => {
      if (!el) return null;
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    };
    return {
      width: (globalThis as any).innerWidth,
      height: (globalThis as any).innerHeight,
      scrollWidth: doc.documentElement.scrollWidth,
      verdict: box(doc.querySelector('#verdict strong')),
      verdictText: doc.querySelector('#verdict strong')?.textContent ?? '',
      counts: box(doc.querySelector('#counts')),
      failing: [...doc.querySelectorAll('#failing-must li')].map((li) => box(li) as Box),
      causes: box(doc.querySelector('#causes')),
    };
  });
}

const mustFailures = (report: Report) => report.rules.filter((r) => r.level === 'MUST' && r.verdict === 'fail');

describe('the first screen of a failing report, at 1,280 × 800', { timeout: 60_000 }, () => {
  it("a supplier's partial mock: verdict, counts and every failing MUST rule without scrolling, ahead of its causes", async () => {
    // The report is what the issue met: many MUST failures and a dozen shared causes.
    expect(mustFailures(supplier).length).toBeGreaterThan(10);
    expect(supplier.causes.length).toBeGreaterThanOrEqual(11);
    const screen = await open('supplier', supplier, 1280, 800);
    expect(screen.scrollWidth).toBeLessThanOrEqual(screen.width);
    expect(screen.verdictText).toBe('Not conformant');
    expect(inside(screen.verdict, screen)).toBe(true);
    expect(inside(screen.counts, screen)).toBe(true);
    expect(screen.failing).toHaveLength(mustFailures(supplier).length);
    for (const [i, line] of screen.failing.entries()) expect([i, inside(line, screen)]).toEqual([i, true]);
    // The causes come after the failures, wherever they start.
    expect(screen.causes!.top).toBeGreaterThan(screen.failing[screen.failing.length - 1].bottom);
  });

  it('each failing line names its rule and its one line, and leads to the rule', async () => {
    await open('supplier', supplier, 1280, 800);
    const first = mustFailures(supplier)[0];
    const line = page.locator('#failing-must li').first();
    expect(await line.locator('code').innerText()).toBe(first.id);
    expect(await line.locator('.line').innerText()).toBe(first.reason!.replace(/\s+/g, ' ').trim());
    await line.locator('a').click();
    // The page opens the rule on `hashchange`, which fires after the click returns: wait for it.
    const opened = page.locator(`details[id="rule-${first.id}"][open]`);
    await opened.waitFor({ state: 'attached', timeout: 30_000 });
    expect(await opened.count()).toBe(1);
  });

  it('the sample report (failures, errors, a baseline, hostile text): the verdict and first failing MUST rule in view', async () => {
    const report = sampleReport();
    const screen = await open('sample', report, 1280, 800);
    expect(screen.scrollWidth).toBeLessThanOrEqual(screen.width);
    expect(inside(screen.verdict, screen)).toBe(true);
    expect(inside(screen.counts, screen)).toBe(true);
    expect(screen.failing.length).toBeGreaterThan(0);
    expect(inside(screen.failing[0], screen)).toBe(true);
  });
});

describe('no width makes the page wider than its window', { timeout: 60_000 }, () => {
  for (const width of [320, 400, 800, 1400, 1920])
    it(`${width} px`, async () => {
      for (const [name, report] of [
        ['supplier', supplier],
        ['sample', sampleReport()],
      ] as const) {
        const screen = await open(name, report, width, 800);
        expect([name, screen.scrollWidth]).toEqual([name, width]);
        expect(inside(screen.verdict, screen)).toBe(true);
      }
    });
});
