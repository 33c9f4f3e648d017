// Blink heap garbage per user action (issue 32's renderer memory): Oilpan (Blink's garbage-collected
// heap: DOM, style, layout and paint objects) is collected only with the main isolate's major GCs, rare
// while the page's JS heap is small, so what each keystroke or scroll step leaves piles up in the tab's
// footprint. The footprint itself moves ±15 MB between runs with when a GC happens; this prints what a
// stage allocates, by type, without that noise: a forced collection before each stage, V8's heap limit
// raised so that no major GC runs inside one, and a memory-infra dump before and after.
// Stages, as bench/ui-live.ts's user: the file opened with Ctrl+O, 40 keys in the small layer, 40 in
// the catalogue layer, 40 wheel steps over the sets list (900 px, every tenth 40,000 px).
// Run with `npx vite build && npx tsx bench/ui-churn.ts [tools] [types shown a stage]`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CDPSession, Page } from '@playwright/test';
import { withPreview } from './ui-server';
import { liveScenario } from './ui-live';
import { openFile } from './ui-scale';
import { measureKeystrokes } from './ui-shell';

interface Heap {
  /** Bytes of live and not yet collected objects in the page's Oilpan heap. */
  readonly allocated: number;
  /** Bytes of each object type (Blink's names), and how many. */
  readonly types: ReadonlyMap<string, { readonly bytes: number; readonly count: number }>;
}

interface TraceAttr {
  readonly value?: string;
}
interface TraceEvent {
  readonly ph?: string;
  readonly args?: { readonly dumps?: { readonly allocators?: Record<string, { readonly attrs?: Record<string, TraceAttr> }> } };
}

const hex = (a: TraceAttr | undefined): number => parseInt(a?.value ?? '0', 16);

async function heapDump(cdp: CDPSession): Promise<Heap> {
  const events: TraceEvent[] = [];
  const onData = (e: { value: TraceEvent[] }): void => {
    events.push(...e.value);
  };
  cdp.on('Tracing.dataCollected', onData);
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  // The protocol's types lack memoryDumpConfig and requestMemoryDump's argument.
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['disabled-by-default-memory-infra'], memoryDumpConfig: { triggers: [] } }, transferMode: 'ReportEvents' } as never);
  await cdp.send('Tracing.requestMemoryDump', { levelOfDetail: 'detailed' } as never);
  await cdp.send('Tracing.end');
  await done;
  cdp.off('Tracing.dataCollected', onData);
  // The page's renderer is the process whose dump has the main thread's Blink heap by type.
  const dump = events.filter((e) => e.ph === 'v' && e.args?.dumps?.allocators?.['blink_objects/blink_gc/main'] !== undefined).at(-1);
  const allocators = dump?.args?.dumps?.allocators ?? {};
  const types = new Map<string, { bytes: number; count: number }>();
  for (const [k, v] of Object.entries(allocators)) {
    const m = /^blink_objects\/blink_gc\/main\/(.+) \(0x[0-9a-f]+\)$/.exec(k);
    if (m?.[1] !== undefined) types.set(m[1].replace(/cppgc::internal::|blink::/g, ''), { bytes: hex(v.attrs?.['allocated_objects_size']), count: hex(v.attrs?.['object_count']) });
  }
  return { allocated: hex(allocators['blink_gc/main/heap']?.attrs?.['allocated_objects_size']), types };
}

async function collect(page: Page): Promise<void> {
  // Twice: the first collection's weak processing and sweeping free more at the second.
  for (let i = 0; i < 2; i++) {
    await page.evaluate('gc()');
    await page.waitForTimeout(200);
  }
}

async function stage(page: Page, cdp: CDPSession, label: string, shown: number, act: () => Promise<void>): Promise<void> {
  await collect(page);
  const before = await heapDump(cdp);
  await act();
  await page.waitForTimeout(500);
  const after = await heapDump(cdp);
  const mb = (b: number): string => (b / 1e6).toFixed(2);
  console.log(`  ${label}: ${mb(after.allocated - before.allocated)} MB allocated in Blink's heap (${mb(before.allocated)} → ${mb(after.allocated)} MB)`);
  const grown = [...after.types].map(([k, v]) => ({ k, bytes: v.bytes - (before.types.get(k)?.bytes ?? 0), count: v.count - (before.types.get(k)?.count ?? 0) })).sort((a, b) => b.bytes - a.bytes);
  for (const g of grown.slice(0, shown)) console.log(`    ${mb(g.bytes).padStart(6)} MB ${String(g.count).padStart(7)}  ${g.k.slice(0, 100)}`);
}

async function measureChurn(tools: number, shown: number): Promise<void> {
  const outDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'bench', 'out');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `ui-churn-${tools}.toml`);
  writeFileSync(file, liveScenario(tools).text);
  // gc() for the collections before each stage; a 1 GB initial heap limit, and no memory reducer, so no
  // major GC runs inside a stage (it would free part of what the stage allocated).
  await withPreview(
    async (browser, baseURL) => {
      const page = await browser.newPage({ baseURL, viewport: { width: 1440, height: 900 } });
      const cdp = await browser.newBrowserCDPSession();
      await page.goto('/');
      await page.getByTestId('check-status').filter({ hasText: 'passed' }).waitFor();
      console.log(`${tools.toLocaleString('en')} tools:`);
      await stage(page, cdp, 'open', shown, async () => {
        await openFile(page, file, tools);
        await page.waitForTimeout(1_000);
      });
      for (const [layer, line, column, letter] of [['overrides', 2, 14, 'f'], ['workspace', 7, 13, 'n']] as const) {
        await page.getByRole('tab', { name: layer, exact: true }).click();
        await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 120_000 });
        await page.locator('.monaco-editor').first().click();
        await page.evaluate(([l, c]) => (window as unknown as { __layerEditor?: { setCursor(l: number, c: number): void } }).__layerEditor?.setCursor(l, c), [line, column] as const);
        await page.waitForTimeout(300);
        await stage(page, cdp, `40 keys in the ${layer} layer`, shown, async () => {
          await measureKeystrokes(page, 40, letter, 60_000);
        });
      }
      await page.locator('.st-scroll').first().hover();
      await stage(page, cdp, '40 wheel steps over the sets list', shown, async () => {
        for (let i = 0; i < 40; i++) {
          await page.mouse.wheel(0, i % 10 === 9 ? 40_000 : 900);
          await page.waitForTimeout(30);
        }
      });
    },
    ['--js-flags=--expose-gc --initial-old-space-size=1024 --no-memory-reducer'],
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await measureChurn(Number(process.argv[2] ?? 1_000), Number(process.argv[3] ?? 8));
}
