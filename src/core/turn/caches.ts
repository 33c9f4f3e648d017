// What one run of a scenario may reuse from the previous run of the same document: loaded layers
// and search indexes. (Tool definitions have their own cache, in definitions.ts.)
import type { Layer, LoadedLayer } from '../config/layer';
import type { EditHow, LayerState, TextChange } from '../config/incremental';
import { applyTextChanges, editLayer, loadLayerState } from '../config/incremental';
import type { LineIndex } from '../config/toml-ast';
import { catalogueFingerprint } from '../search/fingerprint';
import type { Ranker, RankerIndex, SearchDocument } from '../search/types';

/**
 * Loaded layers by name and text, kept from one run to the next. Loading is pure, so a layer with the
 * same text loads the same. A new text for a layer it holds is an edit: when it lies inside one tool's
 * tables only those are read again (config/incremental.ts); the result always equals loadLayer of the
 * new text. `layerChange(previous, next)` (config/incremental.ts) tells which tools such an edit re-read.
 */
export class LayerCache {
  private entries = new Map<string, LayerState>();
  /** How many layers were parsed whole (not reused, not edited table by table) since the cache was made: for tests and benches. */
  parsed = 0;
  /** How many edits re-read only the tables of the one tool they touched. */
  tablesReparsed = 0;
  /** The layers loaded, reusing the previous run's where the text is the same; keeps only these. */
  loadAll(layers: readonly Layer[]): LoadedLayer[] {
    const next = new Map<string, LayerState>();
    const loaded = layers.map((layer) => {
      const hit = this.entries.get(layer.name) ?? next.get(layer.name);
      const entry = hit ? this.edited(editLayer(hit, layer.text)) : this.load(layer);
      next.set(layer.name, entry);
      return entry.loaded;
    });
    this.entries = next;
    return loaded;
  }

  /**
   * Applies Monaco's content changes of one event (each relative to the layer's text before it) to a
   * layer this cache holds, and returns it loaded. The next loadAll with the new text reuses it; `text`
   * gives that text without the caller building it again.
   */
  applyChanges(name: string, changes: readonly TextChange[]): LoadedLayer {
    const hit = this.entries.get(name);
    if (!hit) throw new Error(`LayerCache.applyChanges: no layer named '${name}' is loaded`);
    const applied = applyTextChanges(hit.text, changes);
    const entry = this.edited(editLayer(hit, applied.text, applied.range));
    this.entries.set(name, entry);
    return entry.loaded;
  }

  /** The text of a layer this cache holds (after applyChanges, the edited text). */
  text(name: string): string | undefined {
    return this.entries.get(name)?.text;
  }

  /** The line index of that text, carried over edits read table by table (a catalogue's lines are found once, not per keystroke). */
  lines(name: string): LineIndex | undefined {
    return this.entries.get(name)?.lines;
  }

  private load(layer: Layer): LayerState {
    this.parsed++;
    return loadLayerState(layer);
  }

  private edited(edit: { readonly state: LayerState; readonly how: EditHow }): LayerState {
    if (edit.how === 'whole') this.parsed++;
    else if (edit.how === 'table') this.tablesReparsed++;
    return edit.state;
  }
}

/**
 * Search indexes keyed by ranker and catalogue, so a re-run with new availability never rebuilds.
 * Within a run the same documents array hits by identity; across runs the catalogues are compared
 * by content, so a changed tool text always rebuilds.
 */
export class IndexCache {
  private readonly entries = new Map<string, { docs: readonly SearchDocument[]; fingerprint?: string; index: RankerIndex }>();
  /** How many indexes were built since the cache was made: for tests and benches. */
  builds = 0;
  get(ranker: Ranker, docs: readonly SearchDocument[], build: () => RankerIndex): RankerIndex {
    const counted = (): RankerIndex => {
      this.builds++;
      return build();
    };
    const hit = this.entries.get(ranker.id);
    if (hit) {
      // The same document objects (definitions reused across runs keep theirs): no text compared.
      if (hit.docs === docs || sameObjects(hit.docs, docs)) {
        if (hit.docs !== docs) this.entries.set(ranker.id, { docs, ...(hit.fingerprint !== undefined ? { fingerprint: hit.fingerprint } : {}), index: hit.index });
        return hit.index;
      }
      // Catalogues of different sizes never fingerprint alike (the fingerprint starts with the count):
      // an opened catalogue replacing the demo's is not written out whole (5 MB at 10,000 tools) to tell.
      if (hit.docs.length !== docs.length) {
        const index = counted();
        this.entries.set(ranker.id, { docs, index });
        return index;
      }
      hit.fingerprint ??= catalogueFingerprint(hit.docs);
      const fingerprint = catalogueFingerprint(docs);
      if (hit.fingerprint === fingerprint) {
        this.entries.set(ranker.id, { docs, fingerprint, index: hit.index });
        return hit.index;
      }
      const index = counted();
      this.entries.set(ranker.id, { docs, fingerprint, index });
      return index;
    }
    const index = counted();
    this.entries.set(ranker.id, { docs, index });
    return index;
  }
}

function sameObjects<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
