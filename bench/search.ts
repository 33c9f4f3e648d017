// search_tools performance at 10,000 and 100,000 tools: index build time, and p50/p95 of a
// search_tools call (the contract, limit 10) with ~90% of the tools searchable, the filter given as
// the turn loop gives it (a name predicate, and the same predicate by catalogue order).
// Targets (issue 36): the bm25 index build <= 300 ms CPU at 10,000 tools and <= 1 s CPU at 100,000
// (CPU time: the machine is often shared), search p95 <= 2 ms and <= 5 ms. The index's memory is
// printed: what the heap and array buffers hold more after a build, both measured after a full
// garbage collection.
//
// Each query is timed three times and its best run kept: on a shared machine a single timing is
// often a preemption, not the search. p95 of single runs and the mean CPU time per call are printed too.
//   npx tsx bench/search.ts [toolCount...]   (or through `npm run bench`)
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { bm25, bm25IndexFromJSON, buildBm25Index } from '../src/core/search/bm25';
import { substring } from '../src/core/search/substring';
import { searchTools } from '../src/core/search/contract';
import type { SearchToolsContext } from '../src/core/search/contract';
import type { Ranker, RankerIndex, SearchDocument } from '../src/core/search/types';
import { generateQueries, generateTools, prng } from './search-fixtures';

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Build CPU ms and search p95 ms (issue 36). */
const TARGETS: ReadonlyMap<number, { build: number; p95: number }> = new Map([
  [10_000, { build: 300, p95: 2 }],
  [100_000, { build: 1000, p95: 5 }],
]);

/** A full garbage collection, without --expose-gc on the command line (npm run bench runs through tsx). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Bytes the heap and array buffers hold, after a full collection. */
function heldBytes(gc: () => void): number {
  // Array buffers are swept after a collection: a second one counts those the first found dead.
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** What an index built now holds: measured around one more build, the catalogue already in memory. */
export function indexMemoryMb(ranker: Ranker, docs: readonly SearchDocument[]): number {
  const gc = collector();
  const before = heldBytes(gc);
  // Held in a list outside until measured: a local no longer read may be collected before the measurement.
  held.push(ranker.build(docs));
  const after = heldBytes(gc);
  held.length = 0;
  return (after - before) / 1e6;
}
const held: RankerIndex[] = [];

export interface SearchFigures {
  readonly tools: number;
  readonly ranker: string;
  readonly buildMs: number;
  readonly buildCpuMs: number;
  readonly p50: number;
  readonly p95: number;
  readonly meanCpuMs: number;
  /** The index's memory, MB (see indexMemoryMb). */
  readonly indexMb: number;
}

/** The searchable set as the turn loop hands it to search_tools: by name, and by catalogue order. */
export function searchContext(docs: readonly { name: string; order: number }[], seed = 7): SearchToolsContext {
  const rand = prng(seed);
  const byOrder = new Uint8Array(docs.length);
  const names = new Set<string>();
  for (const d of docs) {
    if (rand() < 0.9) {
      names.add(d.name);
      byOrder[d.order] = 1;
    }
  }
  return { filter: (name) => names.has(name), filterOrder: (order) => byOrder[order] === 1, reportMatchCount: true };
}

/** `docs`: the catalogue of `toolCount` generated tools, when the caller has it (a second copy would double the heap every collection walks). */
export function measure(ranker: Ranker, toolCount: number, quiet = false, docs: readonly SearchDocument[] = generateTools(toolCount)): SearchFigures {
  const ctx = searchContext(docs);
  const queries = generateQueries(2_000);
  // Warm the JIT on a small catalogue first, so the build time is steady-state.
  ranker.build(docs.slice(0, 500));
  const builds: number[] = [];
  const buildCpu: number[] = [];
  let index: RankerIndex | undefined;
  for (let i = 0; i < 3; i++) {
    // A full collection before each build was tried: its sweeping, on helper threads, then ran into
    // the build's CPU time (process-wide), 150 -> 240 ms at 10,000 tools.
    index = undefined;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    index = ranker.build(docs);
    builds.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    buildCpu.push((c.user + c.system) / 1000);
  }
  const built = index as RankerIndex;
  index = undefined;
  const indexMb = indexMemoryMb(ranker, docs);
  for (const q of queries.slice(0, 200)) searchTools(built, { query: q }, ctx);
  const best: number[] = [];
  const single: number[] = [];
  const c0 = process.cpuUsage();
  let totalHits = 0;
  for (const q of queries) {
    let min = Infinity;
    for (let r = 0; r < 3; r++) {
      const t0 = performance.now();
      const result = searchTools(built, { query: q, limit: 10 }, ctx);
      const ms = performance.now() - t0;
      if (r === 0) {
        single.push(ms);
        if (result.ok) totalHits += result.total ?? 0;
      }
      min = Math.min(min, ms);
    }
    best.push(min);
  }
  const c1 = process.cpuUsage(c0);
  const meanCpuMs = (c1.user + c1.system) / 1000 / (3 * queries.length);
  best.sort((a, b) => a - b);
  single.sort((a, b) => a - b);
  const sortedBuilds = [...builds].sort((a, b) => a - b);
  const figures: SearchFigures = {
    tools: toolCount,
    ranker: ranker.id,
    buildMs: sortedBuilds[1] ?? NaN,
    buildCpuMs: [...buildCpu].sort((a, b) => a - b)[1] ?? NaN,
    p50: percentile(best, 50),
    p95: percentile(best, 95),
    meanCpuMs,
    indexMb,
  };
  if (!quiet) {
    const ms = (x: number): string => `${x.toFixed(2)} ms`;
    const target = ranker.id === 'bm25' ? TARGETS.get(toolCount) : undefined;
    const verdict = target ? `  target build CPU <= ${target.build} ms ${figures.buildCpuMs <= target.build ? 'ok' : 'OVER'}, p95 <= ${target.p95} ms ${figures.p95 <= target.p95 ? 'ok' : 'OVER'}` : '';
    console.log(
      `  ${ranker.id.padEnd(18)} build ${ms(figures.buildMs).padStart(11)} wall (median of 3; CPU ${ms(figures.buildCpuMs)})` +
        `  search p50 ${ms(figures.p50)}  p95 ${ms(figures.p95)} (best of 3 per query; single runs p95 ${ms(percentile(single, 95))}, max ${ms(single[single.length - 1] ?? NaN)})` +
        `  CPU mean ${ms(meanCpuMs)}  mean total ${(totalHits / queries.length).toFixed(0)}  index memory ${indexMb.toFixed(1)} MB${verdict}`,
    );
  }
  return figures;
}

export function run(counts: readonly number[] = [10_000, 100_000]): SearchFigures[] {
  const out: SearchFigures[] = [];
  for (const toolCount of counts) {
    const docs = generateTools(toolCount);
    console.log(`search: ${docs.length} tools, ~90% searchable, 2,000 queries`);
    console.log(`  e.g. ${docs[0]?.name}: ${docs[0]?.description}`);
    // bm25 as it runs on a MiniSearch release the fast path was not written against (minisearch-internals.ts):
    // MiniSearch's own addAll and search. The gap to the bm25 line is what the fast path buys. Slow at 100,000.
    const publicApi: Ranker = { id: 'bm25 (public API)', label: 'bm25 through MiniSearch\'s public API', build: (d) => buildBm25Index(d, 'another release') };
    // The index a build wrote, read back through MiniSearch's public serialised form (JSON.parse and
    // MiniSearch.loadJS): what a prebuilt index file would cost check to read, against building it.
    const serialized = JSON.stringify(buildBm25Index(docs).miniSearch);
    const loaded: Ranker = { id: 'bm25 (loaded)', label: 'bm25 read back from its serialised form', build: (d) => bm25IndexFromJSON(d === docs ? serialized : JSON.stringify(buildBm25Index(d).miniSearch), d) };
    for (const ranker of toolCount <= 10_000 ? [substring, bm25, publicApi, loaded] : [substring, bm25]) out.push(measure(ranker, toolCount, false, docs));
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const counts = process.argv.slice(2).map(Number).filter((n) => n > 0);
  run(counts.length > 0 ? counts : undefined);
}
