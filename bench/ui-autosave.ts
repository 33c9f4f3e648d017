// Autosave's main-thread cost at scale, in the built app in Chromium: the ui-live scenario (an
// N-tool catalogue layer `workspace` and a small `overrides` layer) opened with Ctrl+O, the first
// save written, then a key typed in each layer and saved at once (the autosave's pause skipped),
// each timed. Printed, never a timed test. For each save: the longest main-thread task from the key
// to the save's end (the keystroke's own work included; target: 50 ms at 10,000 tools, 100 ms at
// 100,000, the longest task while typing), the time spent inside IndexedDB `put` calls
// (where the structured clone happens), and the characters put.
// Run with `npx tsx bench/ui-autosave.ts [tools...]` after `npx vite build`.
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { withPreview } from './ui-server';
import { liveScenario } from './ui-live';
import { observeLongTasks, openFile, takeLongTasks } from './ui-scale';

const outDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'bench', 'out');

interface SaveFigures {
  readonly wallMs: number;
  readonly longestTaskMs: number;
  readonly putMs: number;
  /** The most put() time in one task. */
  readonly taskPutMs: number;
  readonly puts: number;
  readonly chars: number;
}

/**
 * Counts IndexedDB puts on the page: how many, the time inside them (in all, and the most in one
 * task: puts made in one task add up, a timer reset at the next task starts the next sum), and the
 * characters put (a string's, or a whole-document record's layer texts). A string, not a function:
 * tsx would wrap a function's inner names in a helper the page does not have.
 */
export const METER_PUTS = `(() => {
  const w = window;
  w.__puts = { n: 0, ms: 0, chars: 0, task: 0, taskMax: 0 };
  let inTask = false;
  const put = IDBObjectStore.prototype.put;
  const size = (v) => {
    if (typeof v === 'string') return v.length;
    let n = 0;
    for (const l of (v && v.doc && Array.isArray(v.doc.layers) ? v.doc.layers : [])) n += typeof l.text === 'string' ? l.text.length : 0;
    return n;
  };
  IDBObjectStore.prototype.put = function (value, key) {
    const t0 = performance.now();
    try {
      return put.call(this, value, key);
    } finally {
      const ms = performance.now() - t0;
      if (!inTask) {
        inTask = true;
        w.__puts.task = 0;
        setTimeout(() => { inTask = false; }, 0);
      }
      w.__puts.task += ms;
      w.__puts.taskMax = Math.max(w.__puts.taskMax, w.__puts.task);
      w.__puts.ms += ms;
      w.__puts.n += 1;
      w.__puts.chars += size(value);
    }
  };
})();`;

/** Saves now (the autosave's own pause skipped) and times it; the long tasks counted began at the key typed before. */
export async function timedSave(page: Page): Promise<SaveFigures> {
  const t0 = Date.now();
  await page.evaluate(() => window.__workbench?.flushAutosave());
  const wallMs = Date.now() - t0;
  const tasks = await takeLongTasks(page);
  const p = await page.evaluate(() => {
    const w = window as unknown as { __puts: { n: number; ms: number; chars: number; task: number; taskMax: number } };
    const taken = w.__puts;
    w.__puts = { n: 0, ms: 0, chars: 0, task: 0, taskMax: 0 };
    return taken;
  });
  return { wallMs, longestTaskMs: Math.max(0, ...tasks), putMs: p.ms, taskPutMs: p.taskMax, puts: p.n, chars: p.chars };
}

export async function typeKey(page: Page, layer: string, line: number, column: number, key: string): Promise<void> {
  // By the layer's name (the tab's accessible name also counts its problems).
  await page.locator(`[role="tab"][data-layer="${layer}"]`).click();
  await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 120_000 });
  await page.locator('.monaco-editor').first().click();
  await page.evaluate(([l, c]) => (window as unknown as { __layerEditor?: { setCursor(l: number, c: number): void } }).__layerEditor?.setCursor(l, c), [line, column] as const);
  // Settled before the key: the tasks measured are the keystroke's and its save's.
  await page.waitForTimeout(1_000);
  await takeLongTasks(page);
  await page.keyboard.type(key);
}

function describe(name: string, saves: readonly SaveFigures[]): string {
  const longest = Math.max(...saves.map((s) => s.longestTaskMs));
  const put = Math.max(...saves.map((s) => s.putMs));
  const taskPut = Math.max(...saves.map((s) => s.taskPutMs));
  const chars = Math.max(...saves.map((s) => s.chars));
  const wall = Math.max(...saves.map((s) => s.wallMs));
  return `  ${name}: ${saves.length} saves; longest main-thread task from the key to saved ${longest.toFixed(0)} ms (long tasks only, ≥ 50 ms); most time inside put() ${put.toFixed(1)} ms (${taskPut.toFixed(1)} ms in one task); most characters put ${chars.toLocaleString('en-US')}; slowest save ${wall} ms`;
}

export async function measureAutosave(browser: Browser, baseURL: string, n: number): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `ui-live-${n}.toml`);
  writeFileSync(file, liveScenario(n).text);
  const page = await browser.newPage({ baseURL, viewport: { width: 1440, height: 900 } });
  try {
    await page.addInitScript(METER_PUTS);
    await page.goto('/');
    await page.getByTestId('check-status').filter({ hasText: 'passed' }).waitFor();
    await observeLongTasks(page);
    await openFile(page, file, n);
    await page.waitForTimeout(n >= 100_000 ? 4_000 : 1_500);
    // The first save may have run already (after its pause): its puts are counted since the page
    // loaded, its long tasks are the opening's too.
    const first = await timedSave(page);
    console.log(`${n.toLocaleString('en-US')} tools:`);
    console.log(describe('the first save after opening the file (tasks: the opening\'s too)', [first]));
    const small: SaveFigures[] = [];
    for (let i = 0; i < 5; i++) {
      await typeKey(page, 'overrides', 2, 14, 'f');
      small.push(await timedSave(page));
    }
    console.log(describe('a key typed in the small layer, then its save', small));
    const big: SaveFigures[] = [];
    for (let i = 0; i < 5; i++) {
      await typeKey(page, 'workspace', 7, 13, 'n');
      big.push(await timedSave(page));
    }
    console.log(describe('a key typed in the catalogue layer, then its save', big));
  } finally {
    await page.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter((x) => x > 0);
  await withPreview(async (browser, baseURL) => {
    for (const n of sizes.length ? sizes : [10_000, 100_000]) await measureAutosave(browser, baseURL, n);
  });
}
