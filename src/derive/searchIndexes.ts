// Search indexes shared by every derivation of the worker and by the search lab,
// compared by content (catalogueFingerprint), so an availability change or a re-run
// never rebuilds an index, a text change always does, and the search lab searches
// the very index the run used (never one per query).
import { bm25, substring } from '../core';
import type { Ranker, RankerIndex, SearchDocument } from '../core/search/types';
import { catalogueFingerprint } from '../core/search/fingerprint';

export { catalogueFingerprint };

export class SharedIndexes {
  private readonly entries = new Map<string, { fingerprint: string; index: RankerIndex }>();
  private readonly fingerprints = new WeakMap<readonly SearchDocument[], string>();
  /** How many indexes were built (for tests and the bench). */
  builds = 0;

  constructor(readonly bases: readonly Ranker[] = [substring, bm25]) {}

  fingerprint(docs: readonly SearchDocument[]): string {
    let f = this.fingerprints.get(docs);
    if (f === undefined) {
      f = catalogueFingerprint(docs);
      this.fingerprints.set(docs, f);
    }
    return f;
  }

  /** The index of `ranker` over `docs`, built once per distinct catalogue. */
  index(ranker: Ranker, docs: readonly SearchDocument[]): RankerIndex {
    const fingerprint = this.fingerprint(docs);
    const hit = this.entries.get(ranker.id);
    if (hit && hit.fingerprint === fingerprint) return hit.index;
    const index = ranker.build(docs);
    this.builds++;
    this.entries.set(ranker.id, { fingerprint, index });
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
