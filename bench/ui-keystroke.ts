// The input half of a keystroke on the main thread (issue 32.1), in the built app in Chromium,
// printed (never a timed test). A generated catalogue layer plus a small `overrides` layer, opened
// with Ctrl+O; keys typed into each layer at a steady pace (not waiting for the worker's answers),
// and for each layer:
//   - the keydown's processing time on the main thread (Event Timing: processingEnd -
//     processingStart), i.e. Monaco's edit, the store, autosave, journal, lineage and the derive
//     message, p50 / p95 / max;
//   - the characters of `derive` messages posted to the worker per keystroke;
//   - the main thread's CPU profile over the typing (Chromium's sampling profiler through CDP): the
//     functions with the most self time, the answers' rendering included.
// Run with `npx vite build && npx tsx bench/ui-keystroke.ts [tools...]` (default 10,000 and 100,000).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { generateScenario } from './check-scale';
import { withPreview } from './ui-server';
import { percentile } from './ui-shell';
import { openFile } from './ui-scale';

const outDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'bench', 'out');

/** The generated catalogue as layer `workspace`, a small `overrides` layer after it, and a few turns. */
function scenario(tools: number): string {
  const text = generateScenario(tools, 3, 'local');
  const at = text.indexOf('[[steps]]');
  const overrides = ['[[layers]]', 'name = "overrides"', "text = '''", '[conversation.tools.t_overrides_probe]', 'source = "local"', 'enable = "on"', "'''", ''].join('\n');
  return `${text.slice(0, at)}${overrides}\n${text.slice(at)}`;
}

// Counts what crosses to the worker: the characters of each derive message's JSON.
const INSTRUMENT = `(() => {
  const post = Worker.prototype.postMessage;
  window.__sent = [];
  Worker.prototype.postMessage = function (m, t) {
    if (m && m.method === 'derive') window.__sent.push(JSON.stringify(m.params).length);
    return post.call(this, m, t);
  };
  window.__keys = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'keydown') window.__keys.push(e.processingEnd - e.processingStart);
  }).observe({ type: 'event', durationThreshold: 16, buffered: false });
  // From the keydown's first listener to the next task: the keystroke's handlers, their microtasks
  // (React's synchronous renders) and any frame rendered before that task.
  const channel = new MessageChannel();
  let t0 = 0;
  channel.port1.onmessage = () => (window.__lastKey = performance.now() - t0);
  window.addEventListener('keydown', () => {
    t0 = performance.now();
    channel.port2.postMessage(0);
  }, { capture: true });
})();`;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Inclusive milliseconds per function of the app's own code (not Monaco's, not the browser's). */
function appInclusive(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }): Map<string, number> {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)?.callFrame;
      if (!f || !f.url || f.url.includes('monaco-') || !f.functionName) continue;
      const key = `${f.functionName} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.set(key, (out.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    }
  });
  return out;
}

/** Self milliseconds per function (name and file) in a CDP CPU profile. */
function selfTimes(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const n = byId.get(id);
    if (!n) return;
    const f = n.callFrame;
    const file = f.url.split('/').pop() ?? '';
    const key = `${f.functionName || '(anonymous)'} ${file}${file ? `:${f.lineNumber + 1}` : ''}`;
    out.set(key, (out.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return out;
}

async function typeInLayer(page: Page, layer: string, strokes: number, paceMs: number): Promise<void> {
  await page.getByRole('tab', { name: layer, exact: true }).click();
  await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 120_000 });
  await page.waitForFunction((name) => document.querySelector('.monaco-editor [role="textbox"]')?.getAttribute('aria-label')?.includes(`Layer ${name} `), layer);
  // A click on line 3 (the editor's test hook says where it is), then the end of the line.
  const point = await page.evaluate(() => (window as unknown as { __layerEditor: { pointAt(l: number, c: number): { x: number; y: number } | undefined } }).__layerEditor.pointAt(3, 1));
  if (!point) throw new Error('no line 3');
  await page.mouse.click(point.x, point.y);
  await page.keyboard.press('End');
  await page.waitForTimeout(1000);
  const length = (): Promise<number> => page.evaluate(() => (window as unknown as { __layerEditor: { value(): string | undefined } }).__layerEditor.value()?.length ?? -1);
  const before = await length();
  await page.keyboard.press('KeyX');
  await page.waitForTimeout(300);
  if ((await length()) !== before + 1) throw new Error(`typing does not reach the ${layer} layer's editor`);
  await page.keyboard.press('Backspace');
  await page.waitForTimeout(1000);
  await page.evaluate(() => {
    const w = window as unknown as { __sent: number[]; __keys: number[] };
    w.__sent = [];
    w.__keys = [];
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const keyMs: number[] = [];
  const t0 = Date.now();
  for (let i = 0; i < strokes; i++) {
    // Backspace and a letter: both are keydowns Monaco handles (insertText would bypass keydown).
    await page.keyboard.press(i % 2 === 0 ? 'KeyX' : 'Backspace');
    await page.waitForTimeout(paceMs);
    keyMs.push(await page.evaluate(() => (window as unknown as { __lastKey: number }).__lastKey));
  }
  const elapsed = Date.now() - t0;
  // Let the last answers land inside the profile.
  await page.waitForTimeout(2000);
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
  await cdp.detach();
  const { sent, slow } = await page.evaluate(() => {
    const w = window as unknown as { __sent: number[]; __keys: number[] };
    return { sent: w.__sent, slow: w.__keys };
  });
  const self = selfTimes(profile);
  const idle = (self.get('(idle) ') ?? 0) + (self.get('(program) ') ?? 0);
  const busy = [...self.entries()].filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(program)')).reduce((n, [, v]) => n + v, 0);
  const top = [...self.entries()].filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(program)')).sort((a, b) => b[1] - a[1]).slice(0, 12);
  console.log(`  typing in ${layer}: ${strokes} keys over ${elapsed} ms`);
  console.log(`    keydown → next task on the main thread: p50 ${percentile(keyMs, 50).toFixed(1)} ms, p95 ${percentile(keyMs, 95).toFixed(1)} ms, max ${Math.max(...keyMs).toFixed(1)} ms`);
  console.log(`    keydowns whose processing took >= 16 ms (Event Timing): ${slow.length}${slow.length ? `, longest ${Math.max(...slow).toFixed(0)} ms` : ''}`);
  console.log(`    derive messages: ${sent.length}, characters each p50 ${percentile(sent, 50).toFixed(0)}, max ${Math.max(0, ...sent)}`);
  console.log(`    main-thread CPU while typing and answering: ${busy.toFixed(0)} ms busy (${(busy / strokes).toFixed(1)} ms a key), ${idle.toFixed(0)} ms idle/program; top self time:`);
  for (const [k, v] of top) console.log(`      ${v.toFixed(1).padStart(8)} ms  ${k}`);
  console.log('    the app\'s own functions by inclusive time:');
  for (const [k, v] of [...appInclusive(profile).entries()].sort((x, y) => y[1] - x[1]).slice(0, 14)) console.log(`      ${v.toFixed(1).padStart(8)} ms  ${k}`);
}

export async function measureAt(browser: Browser, baseURL: string, tools: number): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `ui-keystroke-${tools}.toml`);
  writeFileSync(file, scenario(tools));
  const page = await browser.newPage({ baseURL, viewport: { width: 1440, height: 900 } });
  await page.addInitScript(INSTRUMENT);
  try {
    await page.goto('/');
    await page.getByTestId('check-status').filter({ hasText: 'passed' }).waitFor();
    const open = await openFile(page, file, tools);
    console.log(`${tools.toLocaleString('en-US')} tools: open → counts ${open} ms`);
    const strokes = tools >= 100_000 ? 20 : 40;
    await typeInLayer(page, 'overrides', strokes, tools >= 100_000 ? 400 : 150);
    await typeInLayer(page, 'workspace', strokes, tools >= 100_000 ? 400 : 150);
  } finally {
    await page.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  await withPreview(async (browser, baseURL) => {
    for (const n of sizes.length ? sizes : [10_000, 100_000]) await measureAt(browser, baseURL, n);
  });
}
