// The bm25 fast path reads MiniSearch's private state, so it runs only on the MiniSearch release it
// was written against; on any other, the ranking goes through MiniSearch's public API and ranks the same.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { describe, expect, it, vi } from 'vitest';
import { buildBm25Index } from './bm25';
import * as score from './bm25-score';
import { fastPathProblem, IdentityIds, INSTALLED_MINISEARCH, termIndex, WRITTEN_AGAINST } from './minisearch-internals';
import { buildCatalogueIndex, buildIndex, toMiniSearchDocument } from './minisearch-options';
import type { SearchDocument } from './types';

vi.mock('./bm25-score', async (original) => {
  const real = await original<typeof score>();
  return { ...real, scoreQuery: vi.fn(real.scoreQuery) };
});

/** The version npm installed, read from the package's own package.json. */
function installed(): string {
  const path = createRequire(import.meta.url).resolve('minisearch').replace(/dist[/\\].*$/u, 'package.json');
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}

const OTHER = '7.3.0';

const WORDS = ['deploy', 'deployment', 'deployer', 'weather', 'getWeather', 'run', 'running', 'list', 'Forecast', 'the', 'x1', 'é', '搜索'];
const text = fc.array(fc.constantFrom(...WORDS, ' ', '_'), { maxLength: 8 }).map((parts) => parts.join(' '));
const catalogue = fc
  .uniqueArray(fc.record({ name: text, parameterNames: fc.array(text, { maxLength: 2 }), summary: text, description: text, parameterDescriptions: fc.array(text, { maxLength: 2 }) }), {
    selector: (d) => d.name,
    minLength: 1,
    maxLength: 20,
  })
  .map((docs): SearchDocument[] => docs.map((d, i) => ({ ...d, order: (i * 7) % 5 })));
const query = fc.array(fc.constantFrom(...WORDS, 'absent', 'deplo', 'weath'), { minLength: 1, maxLength: 5 }).map((q) => q.join(' '));

describe('the MiniSearch release the fast path reads', () => {
  it('is the one installed', () => {
    const problem = fastPathProblem(installed());
    if (problem !== undefined) expect.fail(problem);
    expect(INSTALLED_MINISEARCH).toBe(installed());
  });

  it('names both releases when they differ', () => {
    expect(fastPathProblem(OTHER)).toBe(`the bm25 fast path was written against MiniSearch ${WRITTEN_AGAINST}; found ${OTHER}`);
    expect(fastPathProblem(WRITTEN_AGAINST)).toBeUndefined();
  });
});

describe('on another MiniSearch release, the public API', () => {
  it('builds with stock MiniSearch, counting the same document frequencies', () => {
    fc.assert(
      fc.property(catalogue, (docs) => {
        const fast = buildCatalogueIndex(docs);
        const other = buildCatalogueIndex(docs, OTHER);
        expect(fast.fast).toBe(true);
        expect(other.fast).toBe(false);
        expect(Object.getPrototypeOf(other.mini)).toBe(MiniSearch.prototype);
        expect(JSON.stringify(other.mini)).toBe(JSON.stringify(fast.mini));
        const plain = buildIndex(docs.map(toMiniSearchDocument), OTHER);
        for (const term of WORDS.map((w) => w.toLowerCase()).concat(['deploy', 'weather', 'run', 'list', 'forecast', 'getweath'])) {
          expect(other.documentFrequency(term), term).toBe(fast.documentFrequency(term));
          expect(plain.documentFrequency(term), term).toBe(fast.documentFrequency(term));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('ranks exactly as the fast path, without ever calling it', () => {
    const scoreQuery = vi.mocked(score.scoreQuery);
    fc.assert(
      fc.property(catalogue, query, fc.integer({ min: 1, max: 10 }), (docs, q, limit) => {
        const keep = (name: string): boolean => name.length % 3 !== 1;
        scoreQuery.mockClear();
        const fastIndex = buildBm25Index(docs);
        const fast = fastIndex.search(q, { filter: keep }).map((h) => ({ name: h.name, score: h.score, fields: h.fields }));
        const fastTop = fastIndex.searchTop(q, { filter: keep }, limit);
        const usedFastPath = scoreQuery.mock.calls.length;
        scoreQuery.mockClear();
        const otherIndex = buildBm25Index(docs, OTHER);
        const other = otherIndex.search(q, { filter: keep }).map((h) => ({ name: h.name, score: h.score, fields: h.fields }));
        const otherTop = otherIndex.searchTop(q, { filter: keep }, limit);
        expect(scoreQuery).not.toHaveBeenCalled();
        // The fast path scores the query once: searchTop reads the index's kept unfiltered results.
        expect(usedFastPath).toBe(1);
        expect(other).toEqual(fast);
        expect(otherTop.total).toBe(fastTop.total);
        expect(otherTop.hits.map((h) => [h.name, h.score, h.fields])).toEqual(fastTop.hits.map((h) => [h.name, h.score, h.fields]));
      }),
      { numRuns: 200 },
    );
  });
});

describe('the fast path keeps a query unfiltered', () => {
  it('so a search under one filter, then another, answers as a fresh index does under each', () => {
    fc.assert(
      fc.property(catalogue, fc.array(fc.tuple(query, fc.func(fc.boolean()), fc.integer({ min: 1, max: 10 })), { minLength: 1, maxLength: 6 }), (docs, searches) => {
        const kept = buildBm25Index(docs);
        for (const [q, keepFn, limit] of searches) {
          const keep = (name: string): boolean => keepFn(name);
          const fresh = buildBm25Index(docs);
          const shape = (hits: readonly { name: string; score: number; fields: readonly string[] }[]) => hits.map((h) => [h.name, h.score, [...h.fields]]);
          expect(shape(kept.search(q, { filter: keep }))).toEqual(shape(fresh.search(q, { filter: keep })));
          const a = kept.searchTop(q, { filter: keep }, limit);
          const b = buildBm25Index(docs).searchTop(q, { filter: keep }, limit);
          expect(a.total).toBe(b.total);
          expect(shape(a.hits)).toEqual(shape(b.hits));
        }
      }),
      { numRuns: 150 },
    );
  });

  it.each([
    ['its best hits taken from the head, as large as its hits', undefined],
    // A head smaller than most hit lists: the hits come from it, or the list is ranked when it holds too few admitted.
    ['its best hits taken from a small head', 2],
  ])('and a query asked again (%s) answers searchTop by a walk that admits: the same hits and count, by name or by order, and the same hits when not counting', (_, headMin) => {
    fc.assert(
      fc.property(catalogue, fc.array(fc.tuple(query, fc.func(fc.boolean()), fc.integer({ min: 0, max: 10 })), { minLength: 1, maxLength: 6 }), (docs, searches) => {
        const kept = buildBm25Index(docs, undefined, headMin);
        const shape = (hits: readonly { name: string; score: number; fields: readonly string[] }[]) => hits.map((h) => [h.name, h.score, [...h.fields]]);
        for (let round = 0; round < 3; round++) {
          for (const [q, keepFn, limit] of searches) {
            const keep = (name: string): boolean => keepFn(name);
            const keepOrder = (order: number): boolean => keepFn(`order ${order}`);
            const fresh = buildBm25Index(docs).searchTop(q, { filter: keep }, limit);
            const freshByOrder = buildBm25Index(docs).searchTop(q, { filter: () => false, filterOrder: keepOrder }, limit);
            const a = kept.searchTop(q, { filter: keep }, limit);
            const b = kept.searchTop(q, { filter: () => false, filterOrder: keepOrder }, limit);
            const c = kept.searchTop(q, { filter: keep }, limit, false);
            expect(a.total).toBe(fresh.total);
            expect(b.total).toBe(freshByOrder.total);
            expect(shape(a.hits)).toEqual(shape(fresh.hits));
            expect(shape(b.hits)).toEqual(shape(freshByOrder.hits));
            expect(shape(c.hits)).toEqual(shape(fresh.hits));
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("the one-pass build ranks as MiniSearch's own build", () => {
  // Hits as a search returns them, in order (ties keep config order, then catalogue position).
  const hits = (docs: SearchDocument[], q: string, version?: string): [string, number, readonly string[]][] =>
    buildBm25Index(docs, version)
      .search(q, { filter: (name) => name.length % 4 !== 1 })
      .map((h) => [h.name, h.score, h.fields]);

  it('on catalogues whose texts repeat across tools and parts (equal documents tie), for random queries', () => {
    // Few distinct texts: tools share parameter names and descriptions, and some tools are the same
    // but for their name, so their scores tie.
    const pool = fc.constantFrom('', 'the page number', 'owner of the repository', 'getWeather', 'run_deploy', 'list runs', 'Forecast é 搜索', 'deploy deployment deployer');
    const repeated = fc
      .array(fc.record({ parameterNames: fc.array(pool, { maxLength: 3 }), summary: pool, description: pool, parameterDescriptions: fc.array(pool, { maxLength: 3 }), copies: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 12 })
      .map((tools): SearchDocument[] => tools.flatMap(({ copies, ...t }, i) => Array.from({ length: copies }, (_, c) => ({ ...t, name: `tool${i}_${c}`, order: (i * 3 + c) % 4 }))));
    fc.assert(
      fc.property(repeated, query, (docs, q) => {
        expect(JSON.stringify(buildCatalogueIndex(docs).mini)).toBe(JSON.stringify(buildCatalogueIndex(docs, OTHER).mini));
        expect(hits(docs, q)).toEqual(hits(docs, q, OTHER));
      }),
      { numRuns: 200 },
    );
  });

  it('on a catalogue of more occurrences than one chunk of the build’s record holds', () => {
    // ~4,000 tools of ~40 tokens: the record of occurrences runs over several chunks (65,536 each).
    const words = ['deploy', 'deployment', 'weather', 'forecast', 'getWeather', 'run', 'running', 'list', 'issue', 'pull_request', 'the', 'of', 'x1', 'é', 'repository', 'owner'];
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const sentence = (length: number): string => Array.from({ length }, () => words[next(words.length)]).join(' ');
    const docs: SearchDocument[] = Array.from({ length: 4_000 }, (_, i) => ({
      name: `${words[next(words.length)]}_${i}`,
      order: i % 7,
      parameterNames: Array.from({ length: next(4) }, () => words[next(words.length)] as string),
      summary: sentence(next(6)),
      description: sentence(10 + next(30)),
      parameterDescriptions: Array.from({ length: next(3) }, () => sentence(next(8))),
    }));
    expect(JSON.stringify(buildCatalogueIndex(docs).mini)).toBe(JSON.stringify(buildCatalogueIndex(docs, OTHER).mini));
    fc.assert(
      fc.property(query, (q) => {
        expect(hits(docs, q)).toEqual(hits(docs, q, OTHER));
      }),
      { numRuns: 25 },
    );
  });

  it('past 65,536 (term, field) keys, where the build’s record widens from 16 to 32 bits', () => {
    // Letters only, so each word is a token and a term of its own (the stemmer leaves "q…z" words be).
    const word = (i: number): string => `q${Array.from({ length: 4 }, (_, k) => String.fromCharCode(97 + (Math.floor(i / 26 ** k) % 26))).join('')}z`;
    let w = 0;
    const words = (count: number): string => Array.from({ length: count }, () => word(w++)).join(' ');
    const docs: SearchDocument[] = Array.from({ length: 3_000 }, (_, i) => ({
      name: `tool_${i} ${words(4)}`,
      order: i,
      parameterNames: [words(5)],
      summary: words(5),
      description: `${words(5)} ${word(i % 50)} ${word(i % 7)}`,
      parameterDescriptions: [words(5)],
    }));
    // Each index built once (stock MiniSearch's build of 72,000 keys takes seconds).
    const fast = buildBm25Index(docs);
    const other = buildBm25Index(docs, OTHER);
    const keys = [...termIndex(fast.miniSearch).values()].reduce((sum, byField) => sum + byField.size, 0);
    expect(keys).toBeGreaterThan(0x10000);
    expect(JSON.stringify(fast.miniSearch)).toBe(JSON.stringify(other.miniSearch));
    const ranked = (index: typeof fast, q: string): [string, number, readonly string[]][] => index.search(q, { filter: (name) => name.length % 4 !== 1 }).map((h) => [h.name, h.score, h.fields]);
    for (const q of [word(3), `${word(70_000)} ${word(5)}`, word(12_345)]) expect(ranked(fast, q)).toEqual(ranked(other, q));
  });
});

describe('IdentityIds (a catalogue index’s ids both ways)', () => {
  type Op = { kind: 'set'; key: number; value: number } | { kind: 'delete'; key: number } | { kind: 'resize'; count: number } | { kind: 'clear' };
  const key = fc.oneof(fc.integer({ min: -2, max: 12 }), fc.constant(-0), fc.constant(0.5));
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('set' as const), key, value: fc.integer({ min: 0, max: 20 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), key }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('resize' as const), count: fc.integer({ min: 0, max: 10 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const) }) },
  );

  it('answers as a Map of i → i would, through sets, deletes, resizes (while still i → i) and clears', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 }), fc.array(op, { maxLength: 12 }), (count, ops) => {
        const ids = new IdentityIds(count);
        const model = new Map<number, number>(Array.from({ length: count }, (_, i) => [i, i]));
        // Everything a Map answers, in one value (one comparison: expect is the cost of this test).
        const answers = (map: Map<number, number>): unknown => {
          const seen: [number, number, boolean][] = [];
          map.forEach((value, k, m) => seen.push([k, value, m === map]));
          const lookups = [-1, -0, 0, 0.5, 1, 3, 9, 10, 11, Number.NaN].map((k) => [map.has(k), map.get(k)]);
          return { size: map.size, entries: [...map], keys: [...map.keys()], values: [...map.values()], object: Object.fromEntries(map), seen, lookups };
        };
        const same = (): void => {
          expect(answers(ids)).toEqual(answers(model));
        };
        same();
        for (const o of ops) {
          if (o.kind === 'set') {
            expect(ids.set(o.key, o.value)).toBe(ids);
            model.set(o.key, o.value);
          } else if (o.kind === 'delete') expect(ids.delete(o.key)).toBe(model.delete(o.key));
          else if (o.kind === 'clear') {
            ids.clear();
            model.clear();
          } else if (ids.identity) {
            ids.resize(o.count);
            model.clear();
            for (let i = 0; i < o.count; i++) model.set(i, i);
          } else expect(() => ids.resize(o.count)).toThrow('after a change');
          same();
        }
      }),
      { numRuns: 300 },
    );
  });
});
