// The caches a run reuses from the previous one, case by case: LayerCache hands back a loaded layer
// for the same text and edits one it holds, equal to a fresh load; IndexCache reuses an index for the
// same catalogue, has the ranker derive one when a few documents changed, and builds one otherwise.
import { describe, expect, it } from 'vitest';
import { loadLayer } from '../config/layer';
import type { DocumentChanges, Ranker, RankerIndex, SearchDocument } from '../search/types';
import { IndexCache, LayerCache } from './caches';
import { layer } from './test-kit';

const text = layer({ alpha: { summary: 'Feed the kangaroo.' }, beta: { summary: 'Other.' } });
/** What a loaded layer says, without its object identities. */
const canon = (l: unknown): string => JSON.stringify(l, (_k, v: unknown) => (v instanceof Map ? [...v] : v));

describe('LayerCache', () => {
  it('hands back the loaded layer for the same text, and forgets layers the last run did not load', () => {
    const cache = new LayerCache();
    const [a, b] = cache.loadAll([
      { name: 'w', text },
      { name: 'v', text: '' },
    ]);
    expect(cache.parsed).toBe(2);
    expect(canon(a)).toBe(canon(loadLayer({ name: 'w', text })));
    const [again] = cache.loadAll([{ name: 'w', text }]);
    expect(again).toBe(a);
    expect(cache.parsed).toBe(2);
    expect(cache.tablesReparsed).toBe(0);
    expect(cache.text('w')).toBe(text);
    expect(cache.lines('w')?.position(text.indexOf('[conversation.tools.beta]'))).toEqual({ line: text.slice(0, text.indexOf('[conversation.tools.beta]')).split('\n').length, column: 1 });
    // 'v' was not in the last run: it is loaded afresh.
    expect(cache.text('v')).toBeUndefined();
    expect(cache.lines('v')).toBeUndefined();
    const [v] = cache.loadAll([{ name: 'v', text: '' }]);
    expect(v).not.toBe(b);
    expect(cache.parsed).toBe(3);
  });

  it('edits a layer it holds: a summary typed re-reads one table, a new table parses the whole layer', () => {
    const cache = new LayerCache();
    cache.loadAll([{ name: 'w', text }]);
    const typed = text.replace('Feed the', 'Feed the grey');
    const [t] = cache.loadAll([{ name: 'w', text: typed }]);
    expect(canon(t)).toBe(canon(loadLayer({ name: 'w', text: typed })));
    expect({ parsed: cache.parsed, tablesReparsed: cache.tablesReparsed }).toEqual({ parsed: 1, tablesReparsed: 1 });
    const grown = `${typed}\n[conversation.tools.gamma]\nsource = "local"\n`;
    const [g] = cache.loadAll([{ name: 'w', text: grown }]);
    expect(canon(g)).toBe(canon(loadLayer({ name: 'w', text: grown })));
    expect({ parsed: cache.parsed, tablesReparsed: cache.tablesReparsed }).toEqual({ parsed: 2, tablesReparsed: 1 });
    expect(cache.text('w')).toBe(grown);
  });

  it('a name given twice in one run: the second is an edit of the first', () => {
    const cache = new LayerCache();
    const typed = text.replace('Other.', 'Others.');
    const [a, b] = cache.loadAll([
      { name: 'w', text },
      { name: 'w', text: typed },
    ]);
    expect(canon(a)).toBe(canon(loadLayer({ name: 'w', text })));
    expect(canon(b)).toBe(canon(loadLayer({ name: 'w', text: typed })));
    expect({ parsed: cache.parsed, tablesReparsed: cache.tablesReparsed }).toEqual({ parsed: 1, tablesReparsed: 1 });
  });

  it("applies an editor's changes to a layer it holds, and the next run with that text reuses the result", () => {
    const cache = new LayerCache();
    cache.loadAll([{ name: 'w', text }]);
    const at = text.indexOf('kangaroo');
    const edited = cache.applyChanges('w', [{ rangeOffset: at, rangeLength: 0, text: 'red ' }]);
    const now = text.replace('kangaroo', 'red kangaroo');
    expect(cache.text('w')).toBe(now);
    // The line index is the edited text's: its last line is one line further down than the first's.
    expect(cache.lines('w')?.position(now.indexOf('red kangaroo'))).toEqual({ line: now.slice(0, now.indexOf('red')).split('\n').length, column: now.indexOf('red') - now.lastIndexOf('\n', now.indexOf('red')) });
    expect(canon(edited)).toBe(canon(loadLayer({ name: 'w', text: now })));
    expect(cache.tablesReparsed).toBe(1);
    expect(cache.loadAll([{ name: 'w', text: now }])[0]).toBe(edited);
    expect(cache.parsed).toBe(1);
    expect(() => cache.applyChanges('nosuch', [])).toThrow("LayerCache.applyChanges: no layer named 'nosuch' is loaded");
  });
});

const doc = (name: string, summary = `${name} summary`): SearchDocument => ({ name, order: 0, parameterNames: [], summary, description: '', parameterDescriptions: [] });
const docs = (n: number, changed: readonly number[] = []): SearchDocument[] => Array.from({ length: n }, (_, i) => doc(`t${i}`, changed.includes(i) ? 'edited' : undefined));

interface Made {
  readonly ranker: Ranker;
  readonly reindexed: { previous: RankerIndex; docs: readonly SearchDocument[]; changes: DocumentChanges }[];
}
/** A ranker whose indexes are labelled objects; reindex answers a new index unless `refuse`. */
function ranker(id: string, o: { reindex?: boolean; refuse?: boolean } = {}): Made {
  const reindexed: Made['reindexed'] = [];
  let n = 0;
  const index = (label: string): RankerIndex => ({ label, search: () => [] }) as unknown as RankerIndex;
  const r: Ranker = {
    id,
    label: id,
    build: () => index(`${id} built ${++n}`),
    ...(o.reindex === false
      ? {}
      : {
          reindex: (previous: RankerIndex, d: readonly SearchDocument[], changes: DocumentChanges) => {
            reindexed.push({ previous, docs: d, changes });
            return o.refuse ? undefined : index(`${id} reindexed ${++n}`);
          },
        }),
  } as Ranker;
  return { ranker: r, reindexed };
}
const get = (cache: IndexCache, r: Ranker, d: readonly SearchDocument[]): RankerIndex => cache.get(r, d, () => r.build(d));

describe('IndexCache', () => {
  it('reuses the index for the same array, and for a new array of the same documents', () => {
    const cache = new IndexCache();
    const { ranker: r, reindexed } = ranker('r');
    const d = docs(8);
    const first = get(cache, r, d);
    expect(cache.builds).toBe(1);
    expect(get(cache, r, d)).toBe(first);
    expect(get(cache, r, docs(8))).toBe(first);
    expect(cache.builds).toBe(1);
    expect(cache.reindexed).toBe(0);
    expect(reindexed).toEqual([]);
  });

  it('has the ranker derive the index when a few documents changed, from the last index', () => {
    const cache = new IndexCache();
    const { ranker: r, reindexed } = ranker('r');
    const first = get(cache, r, docs(8));
    const edited = docs(8, [3]);
    const second = get(cache, r, edited);
    expect(reindexed).toHaveLength(1);
    expect(reindexed[0]?.previous).toBe(first);
    expect(reindexed[0]?.docs).toBe(edited);
    expect(reindexed[0]?.changes).toEqual({ replaced: [3] });
    expect(second).toEqual(expect.objectContaining({ label: 'r reindexed 2' }));
    expect({ builds: cache.builds, reindexed: cache.reindexed }).toEqual({ builds: 1, reindexed: 1 });
    // The derived index is the one kept: the same catalogue again reuses it.
    expect(get(cache, r, docs(8, [3]))).toBe(second);
    // A tool added at the end: a splice, from the derived index.
    const third = get(cache, r, [...edited, doc('new')]);
    expect(reindexed[1]?.previous).toBe(second);
    expect(reindexed[1]?.changes).toEqual({ spliced: { start: 8, removed: 0, added: 1 } });
    expect(third).toEqual(expect.objectContaining({ label: 'r reindexed 3' }));
    expect(cache.reindexed).toBe(2);
  });

  it('builds when the ranker cannot derive one, and counts it as a build', () => {
    const cache = new IndexCache();
    const { ranker: r, reindexed } = ranker('r', { refuse: true });
    get(cache, r, docs(8));
    const second = get(cache, r, docs(8, [1]));
    expect(reindexed).toHaveLength(1);
    expect(second).toEqual(expect.objectContaining({ label: 'r built 2' }));
    expect({ builds: cache.builds, reindexed: cache.reindexed }).toEqual({ builds: 2, reindexed: 0 });
  });

  it('derives for up to an eighth of the documents changed (at least 4), builds past that', () => {
    const run = (n: number, changed: number): { builds: number; reindexed: number } => {
      const cache = new IndexCache();
      const { ranker: r } = ranker('r');
      get(cache, r, docs(n));
      get(cache, r, docs(n, Array.from({ length: changed }, (_, i) => i)));
      return { builds: cache.builds, reindexed: cache.reindexed };
    };
    expect(run(8, 4)).toEqual({ builds: 1, reindexed: 1 });
    expect(run(8, 5)).toEqual({ builds: 2, reindexed: 0 });
    expect(run(47, 5)).toEqual({ builds: 1, reindexed: 1 });
    expect(run(47, 6)).toEqual({ builds: 2, reindexed: 0 });
    expect(run(48, 6)).toEqual({ builds: 1, reindexed: 1 });
    expect(run(48, 7)).toEqual({ builds: 2, reindexed: 0 });
  });

  it('a ranker without reindex: the same documents reuse the index, any change builds', () => {
    const cache = new IndexCache();
    const { ranker: r } = ranker('plain', { reindex: false });
    const first = get(cache, r, docs(8));
    expect(get(cache, r, docs(8))).toBe(first);
    expect(cache.builds).toBe(1);
    const second = get(cache, r, docs(8, [0]));
    expect(second).not.toBe(first);
    expect(get(cache, r, docs(9))).not.toBe(second);
    expect({ builds: cache.builds, reindexed: cache.reindexed }).toEqual({ builds: 3, reindexed: 0 });
  });

  it('keeps one index per ranker', () => {
    const cache = new IndexCache();
    const a = ranker('a');
    const b = ranker('b');
    const d = docs(8);
    const ia = get(cache, a.ranker, d);
    const ib = get(cache, b.ranker, d);
    expect(ib).not.toBe(ia);
    expect(get(cache, a.ranker, d)).toBe(ia);
    expect(get(cache, b.ranker, d)).toBe(ib);
    expect(cache.builds).toBe(2);
  });
});
