// Stable identities for layers. The document's layers are plain { name, text }
// records addressed by position, but an editor model (and its undo history)
// must follow a layer through renames, reorders, removals of its neighbours and
// tab switches. Layer records are immutable: an edit of one layer replaces that
// record and keeps every other, so identity follows the records; a replaced
// record inherits the id of the record it replaced at the same position, unless
// the whole document was replaced (a file was opened).
// No Monaco here: the main chunk uses it before the editor arrives.
import type { LayerDoc, ScenarioDoc } from '../core';
import type { WorkbenchStore } from '../state/store';

export interface IdState {
  readonly doc: ScenarioDoc;
  readonly ids: readonly string[];
}

/** Whether `next` is an edit of `prev` rather than another document (a file opened, a scenario loaded). */
function sameDocument(prev: ScenarioDoc, next: ScenarioDoc): boolean {
  return prev.steps === next.steps || prev.servers === next.servers;
}

/** The ids of `next`'s layers, given `prev`'s. `fresh` makes a new id. */
export function reconcileLayerIds(prev: IdState, next: ScenarioDoc, fresh: () => string): string[] {
  if (prev.doc.layers === next.layers) return [...prev.ids];
  const byRecord = new Map<LayerDoc, string>();
  prev.doc.layers.forEach((l, i) => {
    const id = prev.ids[i];
    if (id !== undefined) byRecord.set(l, id);
  });
  const used = new Set<string>();
  const ids: (string | undefined)[] = next.layers.map((l) => {
    const id = byRecord.get(l);
    if (id === undefined || used.has(id)) return undefined;
    used.add(id);
    return id;
  });
  const nextRecords = new Set(next.layers);
  const edit = sameDocument(prev.doc, next);
  return ids.map((id, i) => {
    if (id !== undefined) return id;
    const old = prev.ids[i];
    const oldRecord = prev.doc.layers[i];
    if (edit && old !== undefined && !used.has(old) && oldRecord !== undefined && !nextRecords.has(oldRecord)) {
      used.add(old);
      return old;
    }
    const made = fresh();
    used.add(made);
    return made;
  });
}

/** The layer ids of one store, kept current as the document changes. */
export class LayerIds {
  private state: IdState;
  private counter = 0;
  constructor(private readonly store: WorkbenchStore) {
    const doc = store.getState().doc;
    this.state = { doc, ids: doc.layers.map(() => this.fresh()) };
    store.subscribe((s) => this.update(s.doc));
  }

  private fresh(): string {
    this.counter += 1;
    return `L${this.counter}`;
  }

  private update(doc: ScenarioDoc): void {
    if (doc === this.state.doc) return;
    this.state = { doc, ids: reconcileLayerIds(this.state, doc, () => this.fresh()) };
  }

  /** The ids of the current layers, in order. */
  all(): readonly string[] {
    this.update(this.store.getState().doc);
    return this.state.ids;
  }

  idAt(index: number): string | undefined {
    return this.all()[index];
  }

  indexOf(id: string): number {
    return this.all().indexOf(id);
  }
}

const registry = new WeakMap<WorkbenchStore, LayerIds>();

export function layerIdsFor(store: WorkbenchStore): LayerIds {
  let ids = registry.get(store);
  if (!ids) {
    ids = new LayerIds(store);
    registry.set(store, ids);
  }
  return ids;
}
