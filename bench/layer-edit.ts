// A keystroke inside a catalogue layer (issue 32.2): loadLayer of the whole new text against the
// incremental edit of LayerCache (the one tool's tables re-read, the anchors of the spans after them
// moved by the keystroke's length, config/anchors.ts), at 10,000 and 100,000 tools (bench/check-scale.ts's layer: '*' and one table per
// tool and per parameter). Keystrokes land inside tools' summaries spread through the layer, so on
// average half the layer lies after them. Each incremental figure is checked equal to the whole parse
// (once per size) before it is timed. Times are CPU time of this process (steadier than wall time on a
// shared machine; garbage collection included), with wall time's median beside them.
//
//   npx tsx bench/layer-edit.ts [--tools N]   (default: 10,000 and 100,000)
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { layerText } from './check-scale';
import { generateCatalogue } from './search-fixtures';
import { applyTextChanges, layerChange, noteTextEdit } from '../src/core/config/incremental';
import type { Layer } from '../src/core/config/layer';
import { loadLayer } from '../src/core/config/layer';
import { LayerCache } from '../src/core/turn/caches';

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

/** A time: CPU (this process's user + system) and wall, in ms. */
interface Sample {
  readonly cpu: number;
  readonly wall: number;
}

function timed(fn: () => unknown): Sample {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1000, wall };
}

function line(label: string, xs: readonly Sample[]): string {
  const cpu = xs.map((x) => x.cpu);
  const wall = xs.map((x) => x.wall);
  const out = `  ${label.padEnd(52)} CPU p50 ${quantile(cpu, 0.5).toFixed(1).padStart(7)} ms  p95 ${quantile(cpu, 0.95).toFixed(1).padStart(7)} ms   (wall p50 ${quantile(wall, 0.5).toFixed(1)} ms; ${xs.length} keystrokes)`;
  console.log(out);
  return out;
}

/** Offsets inside the summaries of `count` tools spread through the layer. */
function keystrokeOffsets(text: string, names: readonly string[], count: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < count; k++) {
    const name = names[Math.floor(((k + 0.5) * names.length) / count)] ?? '';
    const header = text.indexOf(`[conversation.tools.${/^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name)}]`);
    out.push(text.indexOf('summary = "', header) + 'summary = "'.length + 3);
  }
  return out;
}

export interface LayerEditResult {
  readonly tools: number;
  readonly whole: readonly Sample[];
  readonly insert: readonly Sample[];
  readonly insertByText: readonly Sample[];
  readonly insertNoted: readonly Sample[];
  readonly typedOver: readonly Sample[];
}

export function measure(tools: number): LayerEditResult {
  const catalogue = generateCatalogue(tools);
  const layer: Layer = { name: 'catalogue', text: layerText(catalogue) };
  const names = catalogue.map((t) => t.name);
  console.log(`layer edit: ${tools.toLocaleString('en')} tools, ${(layer.text.length / 1e6).toFixed(1)} M chars`);
  const wholeRuns = tools >= 100_000 ? 7 : 21;
  const offsets = keystrokeOffsets(layer.text, names, 41);

  // Correctness first: one keystroke of each kind equals the whole parse.
  {
    const cache = new LayerCache();
    const [before] = cache.loadAll([layer]);
    const at = offsets[offsets.length >> 1] ?? 0;
    const got = cache.applyChanges(layer.name, [{ rangeOffset: at, rangeLength: 0, text: 'x' }]);
    const text = cache.text(layer.name) ?? '';
    if (cache.tablesReparsed !== 1 || !isDeepStrictEqual(got, loadLayer({ name: layer.name, text }))) throw new Error('incremental keystroke differs from the whole parse');
    const changed = before && layerChange(before, got)?.changedTools;
    if (!(changed instanceof Set) || changed.size !== 1) throw new Error('a keystroke in one tool must change that tool only');
  }

  const whole: Sample[] = [];
  for (let k = 0; k < wholeRuns; k++) {
    const at = offsets[k % offsets.length] ?? 0;
    const text = `${layer.text.slice(0, at)}x${layer.text.slice(at)}`;
    whole.push(timed(() => loadLayer({ name: layer.name, text })));
  }

  // Keystrokes as Monaco sends them: each one more character typed at its place.
  const cache = new LayerCache();
  cache.loadAll([layer]);
  const insert: Sample[] = [];
  const typedOver: Sample[] = [];
  const insertByText: Sample[] = [];
  offsets.forEach((at, k) => {
    const shifted = at + k; // each earlier keystroke added one character before it
    insert.push(timed(() => cache.applyChanges(layer.name, [{ rangeOffset: shifted, rangeLength: 0, text: 'x' }])));
    typedOver.push(timed(() => cache.applyChanges(layer.name, [{ rangeOffset: shifted, rangeLength: 1, text: 'y' }])));
  });
  // The shell gives the whole new text (loadAll): the changed range is found by comparing.
  let text = cache.text(layer.name) ?? '';
  offsets.forEach((at, k) => {
    const shifted = at + 2 * k; // a 'y' and a 'z' before it for each earlier keystroke
    text = `${text.slice(0, shifted)}z${text.slice(shifted)}`;
    const next = text;
    insertByText.push(timed(() => cache.loadAll([{ name: layer.name, text: next }])));
  });
  // As the worker does (derive/document.ts): the whole new text, with the range its changes noted.
  const insertNoted: Sample[] = [];
  offsets.forEach((at, k) => {
    const shifted = at + 3 * k; // 'y', 'z' and 'w' before it for each earlier keystroke
    const applied = applyTextChanges(text, [{ rangeOffset: shifted, rangeLength: 0, text: 'w' }]);
    noteTextEdit(text, applied.text, applied.range);
    text = applied.text;
    const next = text;
    insertNoted.push(timed(() => cache.loadAll([{ name: layer.name, text: next }])));
  });
  if (cache.parsed !== 1) throw new Error(`expected no whole parse after the first, got ${cache.parsed - 1}`);
  line('whole parse (loadLayer)', whole);
  line('incremental, a character inserted (applyChanges)', insert);
  line('incremental, a character typed over (applyChanges)', typedOver);
  line('incremental, a character inserted (loadAll, text)', insertByText);
  line('incremental, a character inserted (loadAll, noted)', insertNoted);
  return { tools, whole, insert, insertByText, insertNoted, typedOver };
}

export function run(): LayerEditResult[] {
  const i = process.argv.indexOf('--tools');
  const sizes = i >= 0 ? [Number(process.argv[i + 1])] : [10_000, 100_000];
  return sizes.map(measure);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) run();
