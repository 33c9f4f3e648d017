// A keystroke typed while the worker runs settled work of the revision before (issue 32): how long its
// derivation waits. The derive worker's host (DeriveHost, the same code the page runs) at N tools, fed
// the page's messages in the page's order: a keystroke's `derive` (edits of the small layer), the two
// windows asked on its answer, the cost model's cache statuses of that revision (what the page asks once
// typing pauses), and the next keystroke `gap` ms later, while those statuses are still being priced.
// Two dispatches: `fifo` answers each message whole as it arrives (the worker before dispatch.ts), and
// `dispatch` is src/derive/dispatch.ts. Printed, never a timed test:
//   npx tsx bench/settle.ts [tools=10000] [keystrokes=12] [gap=40]
// Measured 2026-12-04 at 10,000 tools on a shared 2-core machine (load average ~20): fifo p50 1,806 ms,
// p95 2,709 ms; dispatch p50 102 ms, p95 525 ms (the derivation itself p50 77-130 ms).
import { DEFAULT_PRICE_TABLE, scenarioDocFromText } from '../src/core';
import type { ScenarioDoc } from '../src/core';
import { DeriveHost } from '../src/derive/host';
import { Dispatcher, noSlices } from '../src/derive/dispatch';
import type { MethodName } from '../src/derive/methods';
import type { RpcMessage, RpcResponse } from '../src/derive/protocol';
import { liveScenario } from './ui-live';

const tools = Number(process.argv[2] ?? 10_000);
const strokes = Number(process.argv[3] ?? 12);
const gap = Number(process.argv[4] ?? 40);

interface Worker {
  receive(m: RpcMessage): void;
}

/** The worker before dispatch.ts: each message answered whole, in arrival order. */
function fifo(host: DeriveHost, post: (r: RpcResponse) => void): Worker {
  return {
    receive(m) {
      if ('batch' in m) {
        for (const one of m.batch) this.receive(one);
        return;
      }
      if ('cancel' in m) return;
      try {
        const result: unknown = host.call(m.method, m.params as never, noSlices);
        if (result instanceof Promise) result.then((v: unknown) => post({ id: m.id, ok: true, result: v }), (e: unknown) => post({ id: m.id, ok: false, error: String(e) }));
        else post({ id: m.id, ok: true, result });
      } catch (e) {
        post({ id: m.id, ok: false, error: String(e) });
      }
    },
  };
}

function dispatched(host: DeriveHost, post: (r: RpcResponse) => void): Worker {
  return new Dispatcher({ answer: (method, params, slicer) => host.call(method, params as never, slicer), post, defer: (fn) => setImmediate(fn), now: () => performance.now() });
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

async function measure(mode: 'fifo' | 'dispatch', doc: ScenarioDoc): Promise<void> {
  const host = new DeriveHost();
  const waiting = new Map<number, (r: RpcResponse) => void>();
  const post = (r: RpcResponse) => {
    waiting.get(r.id)?.(r);
    waiting.delete(r.id);
  };
  const worker = mode === 'fifo' ? fifo(host, post) : dispatched(host, post);
  let next = 1;
  /** A message arriving at `at` (performance.now()): the answer and when it came. */
  const ask = (method: MethodName, params: unknown, at = performance.now()): Promise<{ r: RpcResponse; at: number; answered: number }> =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, (r) => resolve({ r, at, answered: performance.now() }));
      setTimeout(() => worker.receive({ id, method, params }), Math.max(0, at - performance.now()));
    });
  const li = doc.layers.findIndex((l) => l.name === 'overrides');
  const off = doc.layers[li]!.text.indexOf('"off"') + 4;
  let t = performance.now();
  await ask('derive', { revision: 1, doc, entry: null });
  // The tokenizer loads once, and the first pricing warms the code, as the page's first pause does.
  await ask('cacheStatuses', { revision: 1, table: DEFAULT_PRICE_TABLE, from: 0, to: 48 });
  const open = performance.now() - t;
  const latency: number[] = [];
  const own: number[] = [];
  const superseded: string[] = [];
  let rev = 1;
  let keystroke = ask('derive', { revision: 2, edits: { base: 1, edits: [{ kind: 'layer', layer: li, changes: [{ rangeOffset: off - 1, rangeLength: 1, text: '' }] }] }, entry: null });
  for (let i = 0; i < strokes; i++) {
    const d = await keystroke;
    if (i > 0) {
      latency.push(d.answered - d.at);
      own.push((d.r as { result: { millis: number } }).result.millis);
    }
    rev++;
    const entries = (d.r as { result: { entryCount: number } }).result.entryCount;
    await Promise.all([
      ask('setsWindow', { revision: rev, position: 0, offset: 0, limit: 64 }),
      ask('timelineWindow', { revision: rev, offset: Math.max(0, entries - 48), limit: 48, brief: true }),
    ]);
    t = performance.now();
    const statuses = ask('cacheStatuses', { revision: rev, table: DEFAULT_PRICE_TABLE, from: Math.max(0, entries - 48), to: entries });
    const change = i % 2 === 0 ? { rangeOffset: off - 1, rangeLength: 0, text: 'f' } : { rangeOffset: off - 1, rangeLength: 1, text: '' };
    keystroke = ask('derive', { revision: rev + 1, edits: { base: rev, edits: [{ kind: 'layer', layer: li, changes: [change] }] }, entry: null }, t + gap);
    void statuses.then((s) => superseded.push(s.r.ok ? 'answered' : 'superseded' in s.r ? 'superseded' : 'error'));
  }
  await keystroke;
  await new Promise((r) => setTimeout(r, 50));
  const count = (w: string) => superseded.filter((s) => s === w).length;
  console.log(
    `  ${mode.padEnd(8)} keystroke typed ${gap} ms into the cache statuses of the revision before → its derivation answered: p50 ${pct(latency, 50).toFixed(0)} ms, p95 ${pct(latency, 95).toFixed(0)} ms over ${latency.length}, the derivation itself p50 ${pct(own, 50).toFixed(0)} ms` +
      ` (statuses: ${count('answered')} answered, ${count('superseded')} superseded; open + first pricing ${open.toFixed(0)} ms)`,
  );
}

const { text } = liveScenario(tools);
const parsed = scenarioDocFromText(text);
if (!parsed.ok) throw new Error(parsed.errors[0]?.message);
console.log(`${tools.toLocaleString('en')} tools, ${strokes} keystrokes in the small layer:`);
for (const mode of ['fifo', 'dispatch'] as const) await measure(mode, parsed.doc);
