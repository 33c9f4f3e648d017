// The page at scale (issue 16), in the built app in Chromium, printed (never a timed test):
// - a generated 100,000-tool, 50-turn scenario (check-scale.ts's local shape) opened as a user opens
//   a file (Ctrl+O, the file chooser): time until the page is interactive, i.e. the sets panel shows
//   the new scenario's counts and a click on the page answers within a frame (target <= 3 s);
// - keystroke → updated sets panel, typing in that layer, at 10,000 and at 100,000 tools
//   (targets p95 <= 50 ms and <= 100 ms);
// - the longest main-thread task while typing and while scrolling the sets panel (target <= 200 ms);
// - tab memory: the memory footprint of the tab's renderer process, the derive worker included, as
//   Chrome's task manager counts it (tab-memory.ts), and the JS heaps at rest (target < 1 GB);
// - bytes per keystroke across the worker boundary (issue 32.4, target < 64 KiB at 100,000 tools): the
//   messages' JSON length, each way, counted by the client (the test hook's meter/traffic) over a few
//   keystrokes and everything the page asks for after them (rows in view, cache statuses), divided by them.
// Run alone with `npx tsx bench/ui-scale.ts [tools...]` after `npx vite build`, or through `npm run bench:ui`.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { withPreview } from './ui-server';
import { generateScenario } from './check-scale';
import { measureKeystrokes, percentile } from './ui-shell';
import { tabMemory, tabMemoryLine } from './tab-memory';

const outDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'bench', 'out');

export async function observeLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __tasks: number[] };
    w.__tasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__tasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
}

export async function takeLongTasks(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __tasks: number[] };
    const t = w.__tasks;
    w.__tasks = [];
    return t;
  });
}

/** Opens a scenario file with Ctrl+O; ms from choosing it to the sets panel counting at least `configured` tools and a responsive page. */
export async function openFile(page: Page, file: string, configured: number): Promise<number> {
  const chooser = page.waitForEvent('filechooser');
  await page.locator('body').press('Control+o');
  const c = await chooser;
  const t0 = Date.now();
  await c.setFiles(file);
  await page.waitForFunction(
    (n) => {
      const m = /configured\s*([\d,\u202f ]+)/.exec(document.querySelector('[data-testid="set-counts"]')?.textContent ?? '');
      return m !== null && Number((m[1] ?? '').replace(/\D/g, '')) >= n;
    },
    configured,
    { timeout: 300_000, polling: 50 },
  );
  // Interactive: the main thread answers (the next frame is painted) once the counts are there.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  return Date.now() - t0;
}

/** Puts the caret before the closing quote of the first `enable = "on"` line of the layer (line 7). */
async function caretInEnable(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'workspace', exact: true }).click();
  await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 120_000 });
  // The editor's own box, not `.view-lines` (as tall as the layer: Playwright scrolled Monaco sideways
  // clicking its middle, and the arrows then put the caret elsewhere; no keystroke changed the counts).
  await page.locator('.monaco-editor').first().click();
  await page.evaluate(() => (window as unknown as { __layerEditor?: { setCursor(l: number, c: number): void } }).__layerEditor?.setCursor(7, 13));
}

/** Keystroke → set-counts mutation, alternating `"on"` → `"o"` (invalid: the tool inherits '*') → `"on"`. */
function keystrokes(page: Page, strokes: number): Promise<number[]> {
  return measureKeystrokes(page, strokes, 'n', 60_000);
}

async function scrollSets(page: Page, steps: number): Promise<void> {
  const list = page.locator('.st-scroll').first();
  await list.hover();
  for (let i = 0; i < steps; i++) {
    await page.mouse.wheel(0, i % 10 === 9 ? 40_000 : 900);
    await page.waitForTimeout(30);
  }
}

/** Bytes crossing the worker boundary per keystroke, each way, over `strokes` keystrokes and what follows them. */
async function bytesPerKeystroke(page: Page, strokes: number): Promise<{ received: number; sent: number; byMethod: Record<string, number> }> {
  await page.evaluate(() => window.__workbench?.meter());
  const lat = await measureKeystrokes(page, strokes, 'n', 120_000);
  if (lat.includes(Infinity)) throw new Error('a metered keystroke brought no update');
  // The windows and statuses asked after the last answer, and what typing's pause asks.
  await page.waitForTimeout(2_000);
  const t = await page.evaluate(() => window.__workbench?.traffic());
  if (!t) throw new Error('no test hook');
  const per = (n: number): number => Math.round(n / strokes);
  return { received: per(t.received), sent: per(t.sent), byMethod: Object.fromEntries(Object.entries(t.byMethod).map(([k, v]) => [k, per(v)])) };
}

const kib = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;

export async function measureAt(browser: Browser, baseURL: string, tools: number): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `ui-scale-local-${tools}.toml`);
  writeFileSync(file, generateScenario(tools, 50, 'local'));
  const page = await browser.newPage({ baseURL, viewport: { width: 1440, height: 900 } });
  try {
    await page.goto('/');
    await page.getByTestId('check-status').filter({ hasText: 'passed' }).waitFor();
    await observeLongTasks(page);
    const configured = tools; // at least the generated layer's tools
    const open = await openFile(page, file, configured).catch(async () => {
      const counts = await page.getByTestId('set-counts').textContent();
      throw new Error(`the counts never showed configured ${configured} (they show: ${counts})`);
    });
    const loadTasks = await takeLongTasks(page);
    console.log(`${tools.toLocaleString('en-US')} tools: open → interactive ${open} ms (target <= 3,000 ms); longest task while loading ${Math.max(0, ...loadTasks).toFixed(0)} ms`);
    await page.screenshot({ path: `/tmp/ui-scale-${tools}.png` });
    await caretInEnable(page);
    await page.waitForTimeout(500);
    await takeLongTasks(page);
    const lat = await keystrokes(page, tools >= 100_000 ? 20 : 40);
    const typingTasks = await takeLongTasks(page);
    const target = tools >= 100_000 ? 100 : 50;
    if (lat.includes(Infinity)) console.log(`  keystroke → sets panel: no update within 60 s after ${lat.length - 1} answered keystroke(s)`);
    else console.log(`  keystroke → sets panel: p50 ${percentile(lat, 50).toFixed(0)} ms, p95 ${percentile(lat, 95).toFixed(0)} ms over ${lat.length} (target p95 <= ${target} ms); longest task while typing ${Math.max(0, ...typingTasks).toFixed(0)} ms (target <= 200 ms)`);
    const bytes = await bytesPerKeystroke(page, 6);
    console.log(
      `  bytes per keystroke across the worker boundary: answers ${kib(bytes.received)} (target < 64 KiB at 100,000 tools; ${Object.entries(bytes.byMethod).map(([m, n]) => `${m} ${kib(n)}`).join(', ')}); ` +
        `params ${kib(bytes.sent)} (a keystroke's derive sends Monaco's changes, issue 32.1)`,
    );
    await scrollSets(page, 40);
    await page.waitForTimeout(300);
    const scrollTasks = await takeLongTasks(page);
    console.log(`  scrolling the sets panel: longest task ${Math.max(0, ...scrollTasks).toFixed(0)} ms over ${scrollTasks.length} long tasks (target <= 200 ms)`);
    console.log(`  ${tabMemoryLine(await tabMemory(page), 1024)}`);
  } finally {
    await page.close();
  }
}

export async function run(browser: Browser, baseURL: string): Promise<void> {
  for (const n of [10_000, 100_000]) await measureAt(browser, baseURL, n);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  await withPreview(async (browser, baseURL) => {
    for (const n of sizes.length ? sizes : [10_000, 100_000]) await measureAt(browser, baseURL, n);
  });
}
