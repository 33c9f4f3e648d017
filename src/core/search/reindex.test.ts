// An index derived from the previous one by re-indexing the documents an edit changed (IndexCache →
// bm25.reindex → ToolMiniSearch.replaceTexts) against one built afresh: for random catalogues and random
// sequences of edits, additions and removals, the same statistics (document count, field lengths, their
// averages bit for bit, every term's postings and document frequency), prefix matches walked in the same
// order, and every query answered alike (hits, scores bit for bit, order, ties included, fields).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IndexCache } from '../turn/caches';
import type { Bm25Index } from './bm25';
import { bm25, buildBm25Index } from './bm25';
import { ToolMiniSearch } from './index-build';
import { scoringState, termIndex } from './minisearch-internals';
import type MiniSearch from 'minisearch';
import type { MiniSearchDocument } from './minisearch-options';
import { changedDocuments, documentChanges } from './fingerprint';
import { doc } from './test-docs';
import type { SearchDocument, SearchOptions } from './types';

// Shared stems and prefixes (prefix matching from 5 letters), camelCase, stop words, CJK, repeats.
const WORDS = ['deploy', 'deployment', 'deployments', 'deployer', 'deploys', 'weather', 'weathering', 'weatherman', 'run', 'running', 'runs', 'list', 'listing', 'Forecast', 'getWeather', 'the', 'a', 'x1', 'é', '搜索', 'forecasts', 'forecaster'];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }).map((parts) => parts.join(' '));
const words = fc.array(fc.constantFrom(...WORDS), { maxLength: 3 });
const toolDoc = fc.record({ name: fc.constantFrom('deploy', 'getWeather', 'list_runs', 'forecast', 'x'), parameterNames: words, summary: text, description: text, parameterDescriptions: fc.array(text, { maxLength: 2 }) });
type Tool = typeof toolDoc extends fc.Arbitrary<infer T> ? T : never;

/** A catalogue from its tools: names made unique, order = position + a gap, as config order. */
const catalogue = (tools: readonly Tool[]): SearchDocument[] => tools.map((t, i) => doc(`${t.name}_${i}`, i * 2, t));

const step = fc.oneof(
  fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), tool: toolDoc }),
  fc.record({ kind: fc.constant('order' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('same' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('add' as const), at: fc.nat(), tool: toolDoc }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

function apply(docs: readonly SearchDocument[], s: Step): SearchDocument[] {
  const next = [...docs];
  const at = s.at % Math.max(1, docs.length);
  const old = docs[at];
  if (s.kind === 'edit' && old) next[at] = doc(old.name, old.order, s.tool);
  else if (s.kind === 'order' && old) next[at] = { ...old, order: old.order + 1 };
  else if (s.kind === 'same' && old) next[at] = { ...old, parameterNames: [...old.parameterNames] };
  else if (s.kind === 'add') next.splice(at, 0, doc(`added_${docs.length}_${at}`, at * 2 - 1, s.tool));
  else if (s.kind === 'remove' && docs.length > 1) next.splice(at, 1);
  return next;
}

const query = fc.array(fc.constantFrom(...WORDS, 'absent', 'deplo', 'weath', 'forec', 'runni'), { minLength: 1, maxLength: 4 }).map((q) => q.join(' '));

/** What a search reads of an index, in a comparable form. */
function statistics(index: Bm25Index): unknown {
  const mini = index.miniSearch;
  const s = scoringState(mini);
  const terms: Record<string, Record<number, [number, number][]>> = {};
  const frequencies: Record<string, number> = {};
  for (const [term, data] of s.index) {
    const fields: Record<number, [number, number][]> = {};
    for (const [fieldId, postings] of data) fields[fieldId] = [...postings.entries()];
    terms[term] = fields;
    frequencies[term] = (mini as ToolMiniSearch).documentFrequency(term);
  }
  const lengths = [...s.fieldLength.entries()].sort((a, b) => a[0] - b[0]);
  return { documentCount: s.documentCount, nextId: s.nextId, ids: [...s.documentIds.entries()].sort((a, b) => a[0] - b[0]), lengths, averages: [...s.avgFieldLength], terms, frequencies };
}

/** Every term's prefix matches (a term of 5+ letters prefixes its own), in the order a search walks them. */
function prefixOrders(mini: MiniSearch<MiniSearchDocument>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const term of termIndex(mini).keys()) {
    for (let n = 1; n <= term.length; n++) {
      const prefix = term.slice(0, n);
      const walk = mini instanceof ToolMiniSearch ? mini.prefixExtensions(prefix) : termIndex(mini).atPrefix(prefix);
      out[prefix] = [...walk].map(([t]) => t);
    }
  }
  return out;
}

function answers(index: Bm25Index, queries: readonly string[], filter: SearchOptions): unknown {
  return queries.map((q) => ({
    all: index.search(q, filter).map((h) => ({ name: h.name, score: h.score, fields: [...h.fields] })),
    top: index.searchTop(q, filter, 3),
  }));
}

describe('an index derived by re-indexing changed documents equals a fresh build', () => {
  it('through random edits, additions and removals', () => {
    let reindexed = 0;
    fc.assert(
      fc.property(fc.array(toolDoc, { minLength: 1, maxLength: 20 }), fc.array(step, { minLength: 1, maxLength: 8 }), fc.array(query, { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 7 }), (tools, steps, queries, hide) => {
        const cache = new IndexCache();
        let docs = catalogue(tools);
        cache.get(bm25, docs, () => bm25.build(docs));
        const filter: SearchOptions = { filter: (name) => name.length % 8 !== hide };
        // Warm the first index's kept results, so a reindex must not answer from them.
        answers(cache.get(bm25, docs, () => bm25.build(docs)) as Bm25Index, queries, filter);
        const earlier: { docs: SearchDocument[]; index: Bm25Index }[] = [];
        for (const s of steps) {
          const previous = cache.get(bm25, docs, () => bm25.build(docs)) as Bm25Index;
          earlier.push({ docs, index: previous });
          docs = apply(docs, s);
          const current = docs;
          const index = cache.get(bm25, current, () => bm25.build(current)) as Bm25Index;
          const fresh = buildBm25Index(current);
          expect(statistics(index)).toEqual(statistics(fresh));
          expect(prefixOrders(index.miniSearch)).toEqual(prefixOrders(fresh.miniSearch));
          expect(answers(index, queries, filter)).toEqual(answers(fresh, queries, filter));
        }
        reindexed += cache.reindexed;
        // An earlier revision whose index was taken still answers as its own catalogue's fresh build.
        const first = earlier[0];
        if (first) expect(answers(first.index, queries, filter)).toEqual(answers(buildBm25Index(first.docs), queries, filter));
      }),
      { numRuns: 150 },
    );
    expect(reindexed).toBeGreaterThan(100);
  });

  it('reindexes a catalogue with a few documents changed, added or removed, and builds one with many changed', () => {
    const docs = Array.from({ length: 40 }, (_, i) => doc(`tool_${i}`, i, { description: `deploy the weather ${i}` }));
    const cache = new IndexCache();
    cache.get(bm25, docs, () => bm25.build(docs));
    const edited = docs.map((d, i) => (i === 7 ? { ...d, description: 'deployment forecasts' } : d));
    cache.get(bm25, edited, () => bm25.build(edited));
    expect([cache.builds, cache.reindexed]).toEqual([1, 1]);
    const copied = edited.map((d) => ({ ...d }));
    cache.get(bm25, copied, () => bm25.build(copied));
    expect([cache.builds, cache.reindexed]).toEqual([1, 1]);
    const shorter = copied.slice(1);
    cache.get(bm25, shorter, () => bm25.build(shorter));
    expect([cache.builds, cache.reindexed]).toEqual([1, 2]);
    const longer = [...shorter.slice(0, 9), doc('added', 100, { description: 'weatherman deploys' }), ...shorter.slice(9)];
    cache.get(bm25, longer, () => bm25.build(longer));
    expect([cache.builds, cache.reindexed]).toEqual([1, 3]);
    const manyChanged = longer.map((d, i) => (i % 2 === 0 ? { ...d, description: `${d.description} run` } : d));
    cache.get(bm25, manyChanged, () => bm25.build(manyChanged));
    expect([cache.builds, cache.reindexed]).toEqual([2, 3]);
  });
});

describe('changedDocuments', () => {
  it('names the positions whose documents differ in any field, and gives up past the limit or on another length', () => {
    const a = [doc('a', 0, { parameterNames: ['x'] }), doc('b', 1), doc('c', 2)];
    expect(changedDocuments(a, a.map((d) => ({ ...d, parameterNames: [...d.parameterNames] })))).toEqual([]);
    expect(changedDocuments(a, [a[0] as SearchDocument, { ...(a[1] as SearchDocument), order: 5 }, { ...(a[2] as SearchDocument), parameterDescriptions: ['p'] }])).toEqual([1, 2]);
    expect(changedDocuments(a, [{ ...(a[0] as SearchDocument), parameterNames: ['y'] }, ...a.slice(1)], 0)).toBeUndefined();
    expect(changedDocuments(a, a.slice(1))).toBeUndefined();
  });
});

describe('documentChanges', () => {
  const a = [doc('a', 0), doc('b', 1), doc('c', 2), doc('d', 3)];
  it.each([
    ['the same', a.map((d) => ({ ...d })), { replaced: [] }],
    ['one replaced', [a[0], { ...a[1], description: 'x' }, a[2], a[3]], { replaced: [1] }],
    ['one added in the middle', [a[0], doc('new', 9), a[1], a[2], a[3]], { spliced: { start: 1, removed: 0, added: 1 } }],
    ['one added at the end', [...a, doc('new', 9)], { spliced: { start: 4, removed: 0, added: 1 } }],
    ['one removed at the start', a.slice(1), { spliced: { start: 0, removed: 1, added: 0 } }],
    ['two replaced by one', [a[0], doc('new', 9), a[3]], { spliced: { start: 1, removed: 2, added: 1 } }],
  ] as [string, SearchDocument[], unknown][])('%s', (_, after, expected) => {
    expect(documentChanges(a, after)).toEqual(expected);
  });
  it('gives up past the limit', () => {
    expect(documentChanges(a, [doc('new', 9), doc('new2', 10), ...a.slice(2), doc('x', 11)], 2)).toBeUndefined();
  });
});
