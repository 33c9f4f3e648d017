import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import MiniSearch from 'minisearch';
import type { MiniSearchDocument } from './minisearch-options';
import { buildIndex, loadIndex, MINISEARCH_OPTIONS } from './minisearch-options';
import { scoreQuery } from './bm25-score';

// Words with shared stems and prefixes, so queries exercise prefix matching (5+ letters), terms two
// tokens process alike ("run", "running", "runs"), stop words and terms absent from the catalogue.
const WORDS = ['deploy', 'deployment', 'deployments', 'deployer', 'weather', 'weathering', 'run', 'running', 'runs', 'list', 'listing', 'Forecast', 'getWeather', 'the', 'a', 'x1', 'é', '搜索'];
const text = fc.array(fc.constantFrom(...WORDS, ' ', '_'), { maxLength: 10 }).map((parts) => parts.join(' '));
const docs = fc
  .array(fc.record({ name: text, parameter_name: text, summary: text, description: text, parameter_description: text }), { minLength: 1, maxLength: 25 })
  .map((ds): MiniSearchDocument[] => ds.map((d, id) => ({ id, ...d })));
const query = fc.array(fc.constantFrom(...WORDS, 'absent', 'deplo', 'weath'), { minLength: 1, maxLength: 6 });
const weights = fc.dictionary(fc.constantFrom('deploy', 'run', 'weather', 'list', 'deplo', 'weath'), fc.double({ min: 0.1, max: 5, noNaN: true }));

type Case = { index: MiniSearch<MiniSearchDocument>; tokens: string[]; admitted: Set<number>; weight: Record<string, number> };

/** scoreQuery against MiniSearch.search with the same options: the same hits, scores bit for bit, terms and matches. */
function agrees({ index, tokens, admitted, weight }: Case): void {
  const boostTerm = (term: string): number => weight[term] ?? 1;
  const admit = (id: number): boolean => admitted.has(id);
  const expected = index.search('', { tokenize: () => tokens, boostTerm, boostDocument: (id: number) => (admit(id) ? 1 : 0) });
  const scored = scoreQuery(index, tokens, { boostTerm, admit });
  expect(scored).toBeDefined();
  if (!scored) return;
  const got = scored.ids.map((id, i) => ({ id, score: scored.scores[i], terms: scored.termCounts[i], match: scored.matchOf(id) }));
  const want = expected.map((r) => ({ id: r.id as number, score: r.score, terms: r.queryTerms.length, match: r.match }));
  const byId = (a: { id: number }, b: { id: number }): number => a.id - b.id;
  expect(got.sort(byId)).toEqual(want.sort(byId));
}

const cases = fc.record({ ds: docs, tokens: query, weight: weights, admittedShare: fc.double({ min: 0, max: 1, noNaN: true }), seed: fc.integer() });

function admittedOf(ds: readonly MiniSearchDocument[], share: number, seed: number): Set<number> {
  return new Set(ds.filter((d) => ((d.id * 7919 + seed) % 1000) / 1000 < share).map((d) => d.id));
}

describe('scoreQuery computes what MiniSearch.search computes', () => {
  it('on the built index (postings in PostingLists)', () => {
    fc.assert(
      fc.property(cases, ({ ds, tokens, weight, admittedShare, seed }) => {
        agrees({ index: buildIndex(ds).mini, tokens, admitted: admittedOf(ds, admittedShare, seed), weight });
      }),
      { numRuns: 400 },
    );
  });

  it("on stock MiniSearch's index and on a loaded one (postings in Maps)", () => {
    fc.assert(
      fc.property(cases, ({ ds, tokens, weight, admittedShare, seed }) => {
        const plain = new MiniSearch<MiniSearchDocument>(MINISEARCH_OPTIONS);
        plain.addAll(ds);
        const admitted = admittedOf(ds, admittedShare, seed);
        agrees({ index: plain, tokens, admitted, weight });
        agrees({ index: loadIndex(JSON.stringify(plain)), tokens, admitted, weight });
      }),
      { numRuns: 200 },
    );
  });

  it('after documents are added to an index it already searched', () => {
    const first: MiniSearchDocument[] = [{ id: 0, name: 'deploy', parameter_name: '', summary: '', description: 'run the deployment', parameter_description: '' }];
    const index = buildIndex(first).mini;
    const admitted = new Set([0, 1]);
    agrees({ index, tokens: ['deploy'], admitted, weight: {} });
    index.add({ id: 1, name: 'deployer', parameter_name: '', summary: '', description: 'deploy deploy', parameter_description: '' });
    agrees({ index, tokens: ['deploy'], admitted, weight: {} });
  });

  it('leaves an index with discarded documents to MiniSearch', () => {
    const ds: MiniSearchDocument[] = [0, 1].map((id) => ({ id, name: 'deploy', parameter_name: '', summary: '', description: '', parameter_description: '' }));
    const index = buildIndex(ds).mini;
    index.discard(1);
    expect(scoreQuery(index, ['deploy'], { boostTerm: () => 1, admit: () => true })).toBeUndefined();
  });
});
