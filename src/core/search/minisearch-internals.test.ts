// The bm25 fast path reads MiniSearch's private state, so it runs only on the MiniSearch release it
// was written against; on any other, the ranking goes through MiniSearch's public API and ranks the same.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { describe, expect, it, vi } from 'vitest';
import { buildBm25Index } from './bm25';
import * as score from './bm25-score';
import { fastPathProblem, INSTALLED_MINISEARCH, WRITTEN_AGAINST } from './minisearch-internals';
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
