// A shared IndexCache must never answer a search with another catalogue's index.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { catalogueFingerprint } from '../search/fingerprint';
import type { RankerIndex, SearchDocument } from '../search/types';
import { parseScenario } from '../scenario/parse';
import { IndexCache, runScenario } from './run';

const scenario = (summary: string) => `name = "cache"
[policy]
ranking = "bm25"
[[layers]]
name = "workspace"
text = '''
[conversation.tools.'*']
enable = "discoverable"
[conversation.tools.alpha]
source = "local"
summary = "${summary}"
[conversation.tools.beta]
source = "local"
summary = "Unrelated helper."
'''
[[steps]]
command = "jp q x"
  [[steps.cycles]]
  calls = [ { tool = "search_tools", args = { query = "kangaroo" } } ]
`;

function returned(text: string, cache: IndexCache, ranker: 'bm25' | 'substring' = 'bm25'): string[] {
  const p = parseScenario(text.replace('ranking = "bm25"', `ranking = "${ranker}"`));
  if (!p.ok) throw new Error(p.errors[0]?.message);
  const t = runScenario({ scenario: p.scenario, indexCache: cache });
  return t.calls[0]?.search?.returned.map((r) => r.name) ?? [];
}

describe('IndexCache across runs', () => {
  for (const ranker of ['bm25', 'substring'] as const) {
    it(`${ranker}: a changed tool text is searched anew, the same text reuses the index`, () => {
      const cache = new IndexCache();
      expect(returned(scenario('Feed the kangaroo.'), cache, ranker)).toEqual(['alpha']);
      expect(returned(scenario('Feed the wombat.'), cache, ranker)).toEqual([]);
      expect(returned(scenario('Feed the kangaroo.'), cache, ranker)).toEqual(['alpha']);
    });
  }
});

describe('IndexCache reuses an index exactly when the catalogue fingerprints alike', () => {
  it('over random sequences of catalogues, lengths differing or not (the length check skips the fingerprint, never changes the answer)', () => {
    const word = fc.constantFrom('', 'a', 'b', 'a b');
    const doc = fc.record({
      name: fc.constantFrom('x', 'y'),
      order: fc.integer({ min: 0, max: 1 }),
      parameterNames: fc.array(word, { maxLength: 2 }),
      summary: word,
      description: word,
      parameterDescriptions: fc.array(word, { maxLength: 2 }),
    });
    fc.assert(
      fc.property(fc.array(fc.array(doc, { maxLength: 3 }), { minLength: 1, maxLength: 8 }), (catalogues) => {
        const cache = new IndexCache();
        const ranker = { id: 'r', label: 'r', build: () => ({ search: () => [] }) as unknown as RankerIndex };
        let last: { docs: readonly SearchDocument[]; index: RankerIndex } | undefined;
        for (const docs of catalogues) {
          let built: RankerIndex | undefined;
          const index = cache.get(ranker, docs, () => (built = ranker.build()));
          if (last && catalogueFingerprint(last.docs) === catalogueFingerprint(docs)) {
            expect(index).toBe(last.index);
            expect(built).toBeUndefined();
          } else {
            expect(index).toBe(built);
          }
          last = { docs, index };
        }
      }),
      { numRuns: 500 },
    );
  });
});
