// Live at every size (issue 32), in the built app in Chromium, as a user meets it: a scenario file
// holding a generated N-tool catalogue layer (`workspace`, 50 turns) and a small `overrides` layer,
// opened with Ctrl+O; keys typed into each layer; the sets panel's counts watched. Printed, never a
// timed test. Figures and targets (issue 32's table):
//   open → counts shown                       ≤ 1 s / 3 s / 10 s       (1,000 / 10,000 / 100,000 tools)
//   keystroke in the small layer → counts, p95 ≤ 30 / 50 / 150 ms
//   keystroke in the catalogue layer, p95     ≤ 50 / 100 / 300 ms
//   longest main-thread task, typing/scrolling ≤ 50 / 50 / 100 ms
//   tab memory (the worker included)          < 300 MB / 500 MB / 1.5 GB
//     (Chrome's task manager's figure for the tab's renderer: tab-memory.ts; earlier rounds summed
//     the resident memory of every renderer, the spare one and shared pages included)
//   bytes across the worker boundary a keystroke (when the page counts them) < 64 KiB
// Run alone with `npx tsx bench/ui-live.ts [tools...]` after `npx vite build`, or through `npm run bench:ui`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { withPreview } from './ui-server';
import { generateScenario } from './check-scale';
import { generateCatalogue } from './search-fixtures';
import { measureKeystrokes, percentile } from './ui-shell';
import { openFile, takeLongTasks, observeLongTasks } from './ui-scale';
import { tabMemory, tabMemoryLine } from './tab-memory';

const outDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'bench', 'out');

interface Targets {
  open: number;
  small: number;
  catalogue: number;
  task: number;
  memory: number;
}

function targetsFor(tools: number): Targets {
  if (tools >= 100_000) return { open: 10_000, small: 150, catalogue: 300, task: 100, memory: 1536 };
  if (tools >= 10_000) return { open: 3_000, small: 50, catalogue: 100, task: 50, memory: 500 };
  return { open: 1_000, small: 30, catalogue: 50, task: 50, memory: 300 };
}

/** The scale scenario with a small `overrides` layer after the catalogue: one tool set off by name. */
export function liveScenario(tools: number): { text: string; overridden: string } {
  const text = generateScenario(tools, 50, 'local');
  const overridden = generateCatalogue(tools)[1]?.name ?? 'tool';
  const layer = ['[[layers]]', 'name = "overrides"', `text = '''`, `[conversation.tools.${JSON.stringify(overridden)}]`, 'enable = "off"', `'''`, '', ''].join('\n');
  const at = text.indexOf('[[steps]]');
  return { text: at < 0 ? `${text}\n${layer}` : `${text.slice(0, at)}${layer}${text.slice(at)}`, overridden };
}

/** The caret at `line`:`column` of the named layer's editor (through the editor's test hook: arrow keys in a tall model land elsewhere). */
async function caretAt(page: Page, layer: string, line: number, column: number): Promise<void> {
  await page.getByRole('tab', { name: layer, exact: true }).click();
  await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 120_000 });
  await page.locator('.monaco-editor').first().click();
  await page.evaluate(([l, c]) => (window as unknown as { __layerEditor?: { setCursor(l: number, c: number): void } }).__layerEditor?.setCursor(l, c), [line, column] as const);
}

async function typeIn(page: Page, layer: string, line: number, column: number, letter: string, strokes: number): Promise<{ lat: number[]; tasks: number[]; bytes?: number }> {
  await caretAt(page, layer, line, column);
  await page.waitForTimeout(300);
  await takeLongTasks(page);
  await page.evaluate(() => window.__workbench?.meter());
  const lat = await measureKeystrokes(page, strokes, letter, 60_000);
  const tasks = await takeLongTasks(page);
  // What the lists and the inspector ask after an answer belongs to its keystroke.
  await page.waitForTimeout(1_000);
  const t = await page.evaluate(() => window.__workbench?.traffic());
  const answered = lat.filter((x) => Number.isFinite(x)).length;
  return { lat, tasks, ...(t && answered > 0 ? { bytes: (t.received + t.sent) / answered } : {}) };
}

function line(name: string, r: { lat: number[]; tasks: number[]; bytes?: number }, target: number, taskTarget: number): string {
  const longest = Math.max(0, ...r.tasks).toFixed(0);
  const bytes = r.bytes !== undefined ? `; ${(r.bytes / 1024).toFixed(1)} KiB across the worker boundary a keystroke, both ways (target < 64 KiB)` : '';
  if (r.lat.includes(Infinity)) return `  keystroke in ${name} → counts: no update within 60 s after ${r.lat.length - 1} answered keystroke(s)`;
  return `  keystroke in ${name} → counts: p50 ${percentile(r.lat, 50).toFixed(0)} ms, p95 ${percentile(r.lat, 95).toFixed(0)} ms over ${r.lat.length} (target p95 ≤ ${target} ms); longest task ${longest} ms (target ≤ ${taskTarget} ms)${bytes}`;
}

export async function measureLive(browser: Browser, baseURL: string, tools: number): Promise<void> {
  const t = targetsFor(tools);
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `ui-live-${tools}.toml`);
  writeFileSync(file, liveScenario(tools).text);
  const page = await browser.newPage({ baseURL, viewport: { width: 1440, height: 900 } });
  try {
    await page.goto('/');
    await page.getByTestId('check-status').filter({ hasText: 'passed' }).waitFor();
    await observeLongTasks(page);
    const open = await openFile(page, file, tools);
    await takeLongTasks(page);
    console.log(`${tools.toLocaleString('en-US')} tools: open → counts shown ${open} ms (target ≤ ${t.open.toLocaleString('en-US')} ms)`);
    const strokes = tools >= 100_000 ? 20 : 40;
    console.log(line('the small layer', await typeIn(page, 'overrides', 2, 14, 'f', strokes), t.small, t.task));
    console.log(line('the catalogue layer', await typeIn(page, 'workspace', 7, 13, 'n', strokes), t.catalogue, t.task));
    const list = page.locator('.st-scroll').first();
    await list.hover();
    for (let i = 0; i < 40; i++) {
      await page.mouse.wheel(0, i % 10 === 9 ? 40_000 : 900);
      await page.waitForTimeout(30);
    }
    await page.waitForTimeout(300);
    const scroll = await takeLongTasks(page);
    console.log(`  scrolling the sets panel: longest task ${Math.max(0, ...scroll).toFixed(0)} ms (target ≤ ${t.task} ms)`);
    console.log(`  ${tabMemoryLine(await tabMemory(page), t.memory)}`);
  } finally {
    await page.close();
  }
}

export async function run(browser: Browser, baseURL: string): Promise<void> {
  for (const n of [1_000, 10_000, 100_000]) await measureLive(browser, baseURL, n);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  await withPreview(async (browser, baseURL) => {
    for (const n of sizes.length ? sizes : [1_000, 10_000, 100_000]) await measureLive(browser, baseURL, n);
  });
}
