// Search indexes shared by every derivation of the worker and by the search lab,
// compared by content, so an availability change or a re-run never rebuilds an
// index, a text change always does, and the search lab searches the very index the
// run used (never one per query).
//
// A catalogue's content is named by a number (catalogueId), not by a fingerprint text: the text of
// every field of every document was 5 MB at 10,000 tools (50 MB at 100,000), kept per catalogue and
// flattened again by each comparison. Two arrays get the same number when their documents index alike
// field by field (changedDocuments, which compares what the fingerprint covers).
import { bm25, substring } from '../core';
import type { Ranker, RankerIndex, SearchDocument } from '../core/search/types';
import { changedDocuments } from '../core/search/fingerprint';

/** How many catalogues a new array of documents is compared with before it gets a number of its own. */
const RECENT = 3;

export class SharedIndexes {
  private readonly entries = new Map<string, { catalogue: number; index: RankerIndex }>();
  private readonly ids = new WeakMap<readonly SearchDocument[], number>();
  /** The newest catalogues given a number, newest last. */
  private recent: { readonly docs: readonly SearchDocument[]; readonly id: number }[] = [];
  private nextId = 1;
  /** How many indexes were built (for tests and the bench). */
  builds = 0;

  constructor(readonly bases: readonly Ranker[] = [substring, bm25]) {}

  /** A number naming the content of `docs`: equal for two arrays whose documents index alike. */
  catalogueId(docs: readonly SearchDocument[]): number {
    const known = this.ids.get(docs);
    if (known !== undefined) return known;
    const id = this.recent.find((r) => changedDocuments(r.docs, docs, 0)?.length === 0)?.id ?? this.nextId++;
    this.ids.set(docs, id);
    this.recent = [...this.recent.filter((r) => r.id !== id), { docs, id }].slice(-RECENT);
    return id;
  }

  /** The index of `ranker` over `docs`, built once per distinct catalogue. */
  index(ranker: Ranker, docs: readonly SearchDocument[]): RankerIndex {
    const catalogue = this.catalogueId(docs);
    const hit = this.entries.get(ranker.id);
    if (hit && hit.catalogue === catalogue) return hit.index;
    const index = ranker.build(docs);
    this.builds++;
    this.entries.set(ranker.id, { catalogue, index });
    return index;
  }

  /** Rankers whose build goes through this cache (for runScenario and runEval). */
  rankers(): Ranker[] {
    return this.bases.map((r) => ({ id: r.id, label: r.label, build: (docs: readonly SearchDocument[]) => this.index(r, docs) }));
  }

  rankerMap(): ReadonlyMap<string, Ranker> {
    return new Map(this.rankers().map((r) => [r.id, r]));
  }
}
