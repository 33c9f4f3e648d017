// Properties of both rankers and of the search_tools contract, over arbitrary
// catalogues, queries, limits and filters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bm25 } from './bm25';
import { MAX_LIMIT, MIN_LIMIT, searchTools } from './contract';
import { substring } from './substring';
import type { Ranker, SearchDocument, SubstringMatch } from './types';
import { SEARCH_FIELDS } from './types';

const RANKERS: readonly Ranker[] = [substring, bm25];

// A small alphabet makes matches likely; binary strings bring lone surrogates,
// NULs and every other oddity.
const smallText = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'é', ' ', '_', '-', '.', '*', '(', '\u0000', '搜', 'X'), maxLength: 24 });
const anyText = fc.oneof(smallText, fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }));
const toolName = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'), smallText, anyText);

const catalogue = fc.uniqueArray(
  fc.record({
    name: toolName,
    parameterNames: fc.array(anyText, { maxLength: 3 }),
    summary: anyText,
    description: anyText,
    parameterDescriptions: fc.array(anyText, { maxLength: 2 }),
  }),
  { selector: (d) => d.name, maxLength: 12 },
).map((docs): SearchDocument[] => docs.map((d, i) => ({ ...d, order: docs.length - i })));

const scenario = fc.record({
  docs: catalogue,
  query: anyText,
  limit: fc.oneof(fc.integer({ min: -5, max: 80 }), fc.constant(undefined)),
  keep: fc.func(fc.boolean()),
  drop: fc.func(fc.boolean()),
  mode: fc.constantFrom<SubstringMatch>('all_terms', 'whole_query'),
  report: fc.boolean(),
});

const clamp = (limit: number | undefined) => Math.min(MAX_LIMIT, Math.max(MIN_LIMIT, limit ?? 10));

for (const ranker of RANKERS) {
  describe(`properties of searchTools over ${ranker.id}`, () => {
    it('never throws; returns at most the clamped limit; respects filter and exclude; total counts at least the hits', () => {
      fc.assert(
        fc.property(scenario, ({ docs, query, limit, keep, drop, mode, report }) => {
          const index = ranker.build(docs);
          const filter = (name: string) => keep(name);
          const exclude = (name: string) => drop(name);
          const result = searchTools(index, limit === undefined ? { query } : { query, limit }, {
            filter,
            exclude,
            substringMatch: mode,
            reportMatchCount: report,
          });
          if (query.trim() === '') {
            expect(result).toEqual({ ok: false, error: 'query must not be empty' });
            return;
          }
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          expect(result.hits.length).toBeLessThanOrEqual(clamp(limit));
          const names = new Set(docs.map((d) => d.name));
          for (const hit of result.hits) {
            expect(names.has(hit.name)).toBe(true);
            expect(filter(hit.name)).toBe(true);
            expect(exclude(hit.name)).toBe(false);
            expect(Number.isFinite(hit.score)).toBe(true);
            expect(hit.fields.length).toBeGreaterThan(0);
            expect([...hit.fields].sort((a, b) => SEARCH_FIELDS.indexOf(a) - SEARCH_FIELDS.indexOf(b))).toEqual(hit.fields);
          }
          expect(new Set(result.hits.map((h) => h.name)).size).toBe(result.hits.length);
          if (report) expect(result.total).toBeGreaterThanOrEqual(result.hits.length);
          else expect('total' in result).toBe(false);
        }),
        { numRuns: 150 },
      );
    });

    it('the ranker itself never throws on arbitrary strings, and hits stay inside the filter', () => {
      fc.assert(
        fc.property(catalogue, fc.array(anyText, { maxLength: 6 }), fc.func(fc.boolean()), (docs, queries, keep) => {
          const index = ranker.build(docs);
          for (const query of queries) {
            for (const substringMatch of ['all_terms', 'whole_query'] as const) {
              for (const hit of index.search(query, { filter: (n) => keep(n), substringMatch })) expect(keep(hit.name)).toBe(true);
            }
          }
        }),
        { numRuns: 100 },
      );
    });
  });
}

describe('substring agrees with a naive oracle', () => {
  const fieldsOf = (d: SearchDocument) => [[d.name], d.parameterNames, [d.summary], [d.description], d.parameterDescriptions];
  it('all_terms: a tool matches when every term is in some field; its rank is the best field any term hit', () => {
    fc.assert(
      fc.property(catalogue, smallText, (docs, query) => {
        const terms = query.toLowerCase().split(/\s+/u).filter((t) => t !== '');
        const expected = docs
          .map((d, i) => {
            const masks = terms.map((t) => fieldsOf(d).map((texts) => texts.some((x) => x.toLowerCase().includes(t))));
            if (terms.length === 0 || masks.some((m) => !m.includes(true))) return undefined;
            const best = Math.min(...masks.map((m) => m.indexOf(true)));
            return { name: d.name, best, order: d.order, i };
          })
          .filter((x) => x !== undefined)
          .sort((a, b) => a.best - b.best || a.order - b.order || a.i - b.i)
          .map((x) => x.name);
        expect(substring.build(docs).search(query, { filter: () => true }).map((h) => h.name)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
