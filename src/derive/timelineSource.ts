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

/**
 * Runs `f` once the browser has painted what the current task rendered: a frame's callback, then a task
 * after it. Where no frame comes (a hidden tab, a test's DOM), a task.
 */
function afterPaint(f: () => void): void {
  const visible = typeof document !== 'undefined' && document.visibilityState === 'visible';
  if (visible && typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(f, 0));
  else setTimeout(f, 0);
}

export class TimelineSource {
  private readonly observer: QueryObserver<TimelineView>;
  /** Told at once of every change: the set counts and the fetch status, each cheap to render. */
  private readonly urgent = new Set<() => void>();
  /** Told after the counts are painted: every other panel (see `publish`). */
  private readonly listeners = new Set<() => void>();
  private stop: (() => void) | undefined;
  /**
   * The answer the panels show. An answer reaches the set counts at once and the other panels once the
   * counts are painted: rendered together, the timeline, the layers' markers and the lists held the
   * counts' update back by their render (~4 ms a keystroke at 1,000 tools, a keystroke's budget being 30).
   */
  private published: TimelineResult;
  private publishing = false;

  constructor(
    queryClient: QueryClient,
    private readonly store: WorkbenchStore,
    private readonly client: DeriveClient,
  ) {
    this.observer = new QueryObserver<TimelineView>(queryClient, this.options(store.getState()));
    this.published = this.observer.getCurrentResult();
  }

  private options(s: WorkbenchState) {
    const workspace = workspaceInput(s);
    return timelineQuery(this.client, s.doc, s.revision, workspace, () => this.store.getState().selectedEntry ?? null);
  }

  /** For useSyncExternalStore, with `view`: the observer runs (and follows the store) while anyone listens. */
  readonly subscribe = (listener: () => void): (() => void) => this.listen(this.listeners, listener);

  /** For useSyncExternalStore, with `result` and `viewNow`: told of every change at once. */
  readonly subscribeNow = (listener: () => void): (() => void) => this.listen(this.urgent, listener);

  private listen(set: Set<() => void>, listener: () => void): () => void {
    set.add(listener);
    if (this.listeners.size + this.urgent.size === 1) this.start();
    return () => {
      set.delete(listener);
      if (this.listeners.size + this.urgent.size === 0) {
        this.stop?.();
        this.stop = undefined;
      }
    };
  }

  private publish(): void {
    if (this.publishing) return;
    this.publishing = true;
    afterPaint(() => {
      this.publishing = false;
      const r = this.observer.getCurrentResult();
      if (r === this.published) return;
      this.published = r;
      for (const l of [...this.listeners]) l();
    });
  }

  private start(): void {
    // The document may have moved while nobody listened.
    this.observer.setOptions(this.options(this.store.getState()));
    this.published = this.observer.getCurrentResult();
    const offObserver = this.observer.subscribe(() => {
      for (const l of [...this.urgent]) l();
      this.publish();
    });
    const offStore = this.store.subscribe((s, prev) => {
      if (s.revision !== prev.revision || s.doc !== prev.doc || workspaceInput(s) !== workspaceInput(prev)) this.observer.setOptions(this.options(s));
    });
    this.stop = () => {
      offStore();
      offObserver();
    };
  }

  /** The observer's current result (at once): the same object until the query's state changes. */
  readonly result = (): TimelineResult => this.observer.getCurrentResult();

  /** The newest answer (at once), for the set counts. */
  readonly viewNow = (): TimelineView | undefined => this.observer.getCurrentResult().data;

  /**
   * The answer the panels show, once the counts are painted: the same object while a newer revision is
   * being derived (the previous answer is kept).
   */
  readonly view = (): TimelineView | undefined => this.published.data;
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
