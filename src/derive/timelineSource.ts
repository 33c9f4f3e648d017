// One observer of the derivation for the whole page, moved by the store's document and read by every
// panel. Before, each of ~30 panels ran its own `useQuery` of the same derivation keyed by the store's
// revision, so a keystroke re-rendered all of them twice on the main thread: once when the key moved
// (nothing new to show yet), once when the answer came. Now the key moves in the store's listener,
// outside React (the derivation is asked a render earlier, from the keystroke itself), and a panel
// re-renders only when what it reads changes: the answer (`useTimeline`), or the fetch status for the
// two markers that show it (`useTimelineStatus`).
import { QueryObserver } from '@tanstack/react-query';
import type { QueryClient, QueryObserverResult } from '@tanstack/react-query';
import type { WorkbenchState, WorkbenchStore } from '../state/store';
import { workspaceInput } from '../state/workspaceSlice';
import type { DeriveClient } from './client';
import type { TimelineView } from './protocol';
import { timelineQuery } from './queries';

export type TimelineResult = QueryObserverResult<TimelineView>;

export class TimelineSource {
  private readonly observer: QueryObserver<TimelineView>;
  private readonly listeners = new Set<() => void>();
  private stop: (() => void) | undefined;

  constructor(
    queryClient: QueryClient,
    private readonly store: WorkbenchStore,
    private readonly client: DeriveClient,
  ) {
    this.observer = new QueryObserver<TimelineView>(queryClient, this.options(store.getState()));
  }

  private options(s: WorkbenchState) {
    const workspace = workspaceInput(s);
    return timelineQuery(this.client, s.doc, s.revision, workspace, () => this.store.getState().selectedEntry ?? null);
  }

  /** For useSyncExternalStore: the observer runs (and follows the store) while anyone listens. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        this.stop?.();
        this.stop = undefined;
      }
    };
  };

  private start(): void {
    // The document may have moved while nobody listened.
    this.observer.setOptions(this.options(this.store.getState()));
    const offObserver = this.observer.subscribe(() => {
      for (const l of [...this.listeners]) l();
    });
    const offStore = this.store.subscribe((s, prev) => {
      if (s.revision !== prev.revision || s.doc !== prev.doc || workspaceInput(s) !== workspaceInput(prev)) this.observer.setOptions(this.options(s));
    });
    this.stop = () => {
      offStore();
      offObserver();
    };
  }

  /** The observer's current result: the same object until the query's state changes. */
  readonly result = (): TimelineResult => this.observer.getCurrentResult();

  /** The answer on screen: the same object while a newer revision is being derived (the previous answer is kept). */
  readonly view = (): TimelineView | undefined => this.observer.getCurrentResult().data;
}

const sources = new WeakMap<QueryClient, WeakMap<WorkbenchStore, WeakMap<DeriveClient, TimelineSource>>>();

/** The page's one source for this query client, store and worker (tests mount several pages, each its own). */
export function timelineSource(queryClient: QueryClient, store: WorkbenchStore, client: DeriveClient): TimelineSource {
  let byStore = sources.get(queryClient);
  if (!byStore) sources.set(queryClient, (byStore = new WeakMap()));
  let byClient = byStore.get(store);
  if (!byClient) byStore.set(store, (byClient = new WeakMap()));
  let source = byClient.get(client);
  if (!source) byClient.set(client, (source = new TimelineSource(queryClient, store, client)));
  return source;
}
