// UI speed for issue 4, measured in the built app in Chromium and printed:
// - keystroke → updated sets panel, 1,000-tool layer (target p95 < 50 ms);
// - the longest main-thread task while typing in a 10,000-tool layer (target < 200 ms);
// - the JavaScript needed for first paint, Monaco and workers excluded (target ≤ 250 KB gzip).
// Run alone with `npx tsx bench/ui-shell.ts` after `npx vite build`, or through `npm run bench:ui`.
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from '@playwright/test';
import { withPreview } from './ui-server';

function layer(tools: number): string {
  let s = '[conversation.tools.tool_0]\nenable = "off"\nsource = "local"\nsummary = "The tool the benchmark types into."\n\n';
  for (let i = 1; i < tools; i++) {
    s += `[conversation.tools.tool_${i}]\nsource = "local"\nsummary = "Manage widget ${i} in the inventory service."\n[conversation.tools.tool_${i}.parameters.id]\ntype = "string"\nrequired = true\nsummary = "The widget id."\n\n`;
  }
  return `${s}[conversation.tools.'*']\nenable = "discoverable"\n`;
}

function scenario(tools: number): string {
  return `name = "Typing benchmark, ${tools} tools"\n\n[[layers]]\nname = "workspace"\ntext = '''\n${layer(tools)}'''\n\n[[steps]]\ncommand = "jp q 'hello'"\n`;
}

async function load(page: Page, tools: number): Promise<void> {
  await page.goto('/');
  await page.waitForFunction(() => window.__workbench !== undefined);
  await page.evaluate((text) => window.__workbench?.loadScenario(text, 'bench.toml'), scenario(tools));
  await page.getByRole('tab', { name: 'workspace', exact: true }).click();
  await page.locator('.monaco-editor .view-lines').first().waitFor();
  await page.waitForFunction((n) => document.querySelector('[data-testid="set-counts"]')?.textContent?.includes(`permitted ${n}`), tools + 1);
  await page.locator('.monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
}

export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

/**
 * Keystroke → set-counts mutation, in the layer editor where the caret already stands: alternately
 * Backspace, then `letter` put back (the first stroke makes the value invalid, so the tool inherits
 * '*' and its sets change; the second restores it). A stroke whose update never comes within
 * `timeoutMs` ends the run with Infinity: a p95 over the strokes that did answer would hide it.
 */
export async function measureKeystrokes(page: Page, strokes: number, letter: string, timeoutMs: number): Promise<number[]> {
  await page.evaluate(() => {
    const w = window as unknown as { __keyAt: number; __paintAt: number };
    w.__keyAt = 0;
    w.__paintAt = 0;
    window.addEventListener('keydown', () => (w.__keyAt = performance.now()), { capture: true });
    const target = document.querySelector('[data-testid="set-counts"]');
    if (!target) throw new Error('no set counts');
    new MutationObserver(() => (w.__paintAt = performance.now())).observe(target, { subtree: true, characterData: true, childList: true });
  });
  const latencies: number[] = [];
  for (let i = 0; i < strokes; i++) {
    const before = await page.evaluate(() => (window as unknown as { __paintAt: number }).__paintAt);
    if (i % 2 === 0) await page.keyboard.press('Backspace');
    else {
      // insertText dispatches no keydown (Monaco's EditContext gets it directly): stamp the keystroke
      // just before sending it, else this sample would run from the previous Backspace.
      await page.evaluate(() => ((window as unknown as { __keyAt: number }).__keyAt = performance.now()));
      await page.keyboard.insertText(letter);
    }
    const updated = await page
      .waitForFunction((b) => (window as unknown as { __paintAt: number }).__paintAt > b, before, { timeout: timeoutMs })
      .then(() => true, () => false);
    if (!updated) {
      latencies.push(Infinity);
      break;
    }
    latencies.push(await page.evaluate(() => {
      const w = window as unknown as { __keyAt: number; __paintAt: number };
      return w.__paintAt - w.__keyAt;
    }));
  }
  return latencies;
}

/** Alternate `"off"` → `"of"` (invalid: the tool inherits '*' and becomes permitted) → `"off"`. */
async function keystrokeLatency(page: Page, tools: number, strokes: number): Promise<number[]> {
  await load(page, tools);
  const latencies = await measureKeystrokes(page, strokes, 'f', 10_000);
  if (latencies.includes(Infinity)) throw new Error(`keystroke ${latencies.length} brought no sets update within 10 s`);
  return latencies;
}

async function longestTaskWhileTyping(page: Page, tools: number, strokes: number): Promise<{ longest: number; count: number }> {
  await load(page, tools);
  await page.evaluate(() => {
    const w = window as unknown as { __tasks: number[] };
    w.__tasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__tasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
  for (let i = 0; i < strokes; i++) {
    if (i % 2 === 0) await page.keyboard.press('Backspace');
    else await page.keyboard.insertText('f');
    await page.waitForTimeout(60);
  }
  await page.waitForTimeout(1500);
  const tasks = await page.evaluate(() => (window as unknown as { __tasks: number[] }).__tasks);
  return { longest: tasks.length ? Math.max(...tasks) : 0, count: tasks.length };
}

async function firstPaintJs(browser: Browser, baseURL: string): Promise<{ bytes: number; gzip: number; files: string[] }> {
  const page = await browser.newPage({ baseURL });
  const files: { url: string; body: Buffer }[] = [];
  let painted = false;
  page.on('response', async (r) => {
    const url = r.url();
    if (painted || !url.endsWith('.js')) return;
    // Playwright reports a dedicated worker's fetches as the page's; the o200k_base chunk is imported
    // only by the derive worker (dist: only worker-*.js names it), so it is the worker's, not first paint's.
    if (/LayerEditor|monaco|editor\.worker|worker-|o200k_base-/u.test(url)) return;
    try {
      files.push({ url, body: await r.body() });
    } catch {
      // A response without a body (a redirect) carries no script.
    }
  });
  await page.goto('/');
  await page.getByTestId('check-status').filter({ hasText: 'passed' }).waitFor();
  painted = true;
  await page.close();
  return {
    bytes: files.reduce((n, f) => n + f.body.length, 0),
    gzip: files.reduce((n, f) => n + gzipSync(f.body).length, 0),
    files: files.map((f) => f.url.replace(/^.*\/assets\//u, '')),
  };
}

export async function run(browser: Browser, baseURL: string): Promise<void> {
  const page = await browser.newPage({ baseURL, viewport: { width: 1440, height: 900 } });
  const lat = await keystrokeLatency(page, 1000, 60);
  console.log(`  (each keystroke, ms: ${lat.map((x) => x.toFixed(0)).join(" ")})`);
  console.log(`keystroke → sets panel, 1,000-tool layer: p50 ${percentile(lat, 50).toFixed(1)} ms, p95 ${percentile(lat, 95).toFixed(1)} ms (target p95 < 50 ms, ${lat.length} keystrokes)`);
  const long = await longestTaskWhileTyping(page, 10_000, 12);
  console.log(`typing in a 10,000-tool layer: longest main-thread task ${long.longest.toFixed(0)} ms over ${long.count} long tasks (target < 200 ms)`);
  await page.close();
  const js = await firstPaintJs(browser, baseURL);
  console.log(`first-paint JavaScript (Monaco and workers excluded): ${(js.gzip / 1024).toFixed(1)} KB gzip, ${(js.bytes / 1024).toFixed(1)} KB raw in ${js.files.length} file(s) (target ≤ 250 KB gzip)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await withPreview(run);
}
