// What one run of a scenario may reuse from the previous run of the same document: loaded layers
// and search indexes. (Tool definitions have their own cache, in definitions.ts.)
import type { Layer, LoadedLayer } from '../config/layer';
import { loadLayer } from '../config/layer';
import { catalogueFingerprint } from '../search/fingerprint';
import type { Ranker, RankerIndex, SearchDocument } from '../search/types';

/** Loaded layers by name and text, kept from one run to the next. Loading is pure, so a layer with the same text loads the same. */
export class LayerCache {
  private entries = new Map<string, { readonly text: string; readonly loaded: LoadedLayer }>();
  /** The layers loaded, reusing the previous run's where the text is the same; keeps only these. */
  loadAll(layers: readonly Layer[]): LoadedLayer[] {
    const next = new Map<string, { readonly text: string; readonly loaded: LoadedLayer }>();
    const loaded = layers.map((layer) => {
      const hit = this.entries.get(layer.name) ?? next.get(layer.name);
      const entry = hit && hit.text === layer.text ? hit : { text: layer.text, loaded: loadLayer(layer) };
      next.set(layer.name, entry);
      return entry.loaded;
    });
    this.entries = next;
    return loaded;
  }
}

/**
 * Search indexes keyed by ranker and catalogue, so a re-run with new availability never rebuilds.
 * Within a run the same documents array hits by identity; across runs the catalogues are compared
 * by content, so a changed tool text always rebuilds.
 */
export class IndexCache {
  private readonly entries = new Map<string, { docs: readonly SearchDocument[]; fingerprint?: string; index: RankerIndex }>();
  get(ranker: Ranker, docs: readonly SearchDocument[], build: () => RankerIndex): RankerIndex {
    const hit = this.entries.get(ranker.id);
    if (hit) {
      if (hit.docs === docs) return hit.index;
      hit.fingerprint ??= catalogueFingerprint(hit.docs);
      const fingerprint = catalogueFingerprint(docs);
      if (hit.fingerprint === fingerprint) {
        this.entries.set(ranker.id, { docs, fingerprint, index: hit.index });
        return hit.index;
      }
      const index = build();
      this.entries.set(ranker.id, { docs, fingerprint, index });
      return index;
    }
    const index = build();
    this.entries.set(ranker.id, { docs, index });
    return index;
  }
}
