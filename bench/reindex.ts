// The search index after an edit of one tool (its description replaced, a tool added, a tool removed):
// built afresh vs derived from the previous index (IndexCache → bm25.reindex), p50 ms CPU of this
// process, then ten first searches on each (the derived index answers exactly as the fresh one:
// src/core/search/reindex.test.ts).
//
//   npx tsx bench/reindex.ts [N ...]
import { bm25 } from '../src/core/search/bm25';
import type { SearchDocument } from '../src/core/search/types';
import { IndexCache } from '../src/core/turn/caches';
import { generateQueries, generateTools } from './search-fixtures';

const cpu = (f: () => void): number => {
  const u = process.cpuUsage();
  f();
  const v = process.cpuUsage(u);
  return (v.user + v.system) / 1000;
};
const p50 = (xs: number[]): string => [...xs].sort((a, b) => a - b)[xs.length >> 1]!.toFixed(1);

for (const n of process.argv.slice(2).map(Number).concat(process.argv.length > 2 ? [] : [10000, 100000])) {
  const base = generateTools(n);
  const queries = generateQueries(10);
  /** The index for `docs` from `cache`, then ten searches on it: ms CPU of each part. */
  const search = (docs: readonly SearchDocument[], cache: IndexCache): [number, number] => {
    let index = undefined as ReturnType<IndexCache['get']> | undefined;
    const made = cpu(() => (index = cache.get(bm25, docs, () => bm25.build(docs))));
    const searched = cpu(() => {
      for (const q of queries) index?.search(q, { filter: () => true });
    });
    return [made, searched];
  };
  const edits: Record<string, (docs: readonly SearchDocument[], i: number) => SearchDocument[]> = {
    description: (docs, i) => docs.map((d, k) => (k === n >> 1 ? { ...d, description: `${d.description} typed ${'abcdefghij'.slice(0, (i % 10) + 1)}` } : d)),
    'tool added': (docs, i) => (i % 2 === 0 ? [...docs.slice(0, n >> 1), { ...(docs[0] as SearchDocument), name: 'added_tool', order: -1 }, ...docs.slice(n >> 1)] : [...base]),
    'tool removed': (docs, i) => (i % 2 === 0 ? [...docs.slice(0, n >> 1), ...docs.slice((n >> 1) + 1)] : [...base]),
  };
  for (const [label, edit] of Object.entries(edits)) {
    const fresh: number[] = [];
    const derived: number[] = [];
    const freshSearch: number[] = [];
    const derivedSearch: number[] = [];
    const cache = new IndexCache();
    let docs: SearchDocument[] = [...base];
    search(docs, cache);
    for (let i = 0; i < 11; i++) {
      docs = edit(base, i);
      const current = docs;
      const [builtMs, builtSearchMs] = search(current, new IndexCache());
      const [derivedMs, derivedSearchMs] = search(current, cache);
      if (i === 0) continue;
      fresh.push(builtMs);
      freshSearch.push(builtSearchMs);
      derived.push(derivedMs);
      derivedSearch.push(derivedSearchMs);
    }
    console.log(`${n} tools, ${label}: index built afresh p50 ${p50(fresh)} ms, derived p50 ${p50(derived)} ms CPU; then 10 searches ${p50(freshSearch)} / ${p50(derivedSearch)} ms (${cache.reindexed} reindexed, ${cache.builds} built)`);
  }
}
