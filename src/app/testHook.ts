// window.__workbench: a read-only snapshot and a loader, so Playwright and
// reviewers' scripts drive the app without scraping Monaco.
import type { QueryClient } from '@tanstack/react-query';
import type { ScenarioDoc } from '../core';
import type { DeriveClient } from '../derive/client';
import type { DeriveStats, SetsView, TimelineSnapshot } from '../derive/protocol';
import type { Traffic } from '../derive/client';
import type { CommandRegistry } from '../commands/registry';
import type { WorkbenchStore } from '../state/store';
import { workspaceInput } from '../state/workspaceSlice';
import type { HistoryEntry } from '../state/history';
import { openScenarioText } from '../features/files/files';
import { liveKeys } from '../live/keys';

export interface WorkbenchSnapshot {
  readonly revision: number;
  readonly doc: ScenarioDoc;
  readonly layers: readonly { name: string; text: string }[];
  readonly selectedEntry: number | undefined;
  readonly position: number;
  /** The whole timeline (every row and request, assembled for the snapshot; the page reads windows). */
  readonly timeline: TimelineSnapshot;
  readonly sets: SetsView;
  readonly diagnostics: TimelineSnapshot['diagnostics'];
  /** Recent documents, newest first. */
  readonly recent: readonly HistoryEntry[];
}

/**
 * One live server's connection query, as react-query holds it: the one door to `connect` (src/live/queries.ts).
 * A test proves "nothing was sent" with it instead of waiting a while: once a panel observes a URL's query
 * and it is not active, nothing will fetch it until the user acts; once it is not fetching, every request
 * its fetches made has been made.
 */
export interface LiveConnectionView {
  readonly url: string;
  /** How many components use the query (a server row, the badge): 0 before the panel has mounted them. */
  readonly observers: number;
  /** Whether any observer lets it fetch (the URL confirmed and the server wanted running). */
  readonly active: boolean;
  readonly fetching: boolean;
  /** Fetches that have ended, each with data or an error. */
  readonly fetches: number;
}

export interface WorkbenchHook {
  /** Waits for the derivation of the current revision, then returns a snapshot. */
  snapshot(): Promise<WorkbenchSnapshot>;
  /** Opens scenario text as if from a file; false (and a banner) when it is refused. */
  loadScenario(text: string, fileName?: string): boolean;
  runCommand(id: string): Promise<void>;
  /** Resolves once autosave has written the current revision. */
  flushAutosave(): Promise<void>;
  /** The connection queries of the given URLs (a URL with no query yet is left out). */
  liveConnections(urls: readonly string[]): LiveConnectionView[];
  /** Starts counting the bytes crossing the worker boundary (from zero). */
  meter(): void;
  /** The bytes counted since `meter()`, each way. */
  traffic(): Traffic;
  /** What the worker computed for the page (request facts built), without deriving anything. */
  stats(): Promise<DeriveStats>;
}

declare global {
  interface Window {
    __workbench?: WorkbenchHook;
  }
}

export function installTestHook(deps: { store: WorkbenchStore; client: DeriveClient; queryClient: QueryClient; commands: CommandRegistry; flush: () => Promise<void> }): void {
  const { store, client, commands, queryClient } = deps;
  window.__workbench = Object.freeze({
    async snapshot() {
      const s = store.getState();
      const workspace = workspaceInput(s);
      const timeline = await client.derive({ doc: s.doc, revision: s.revision, ...(workspace ? { workspace } : {}) });
      const entry = s.selectedEntry === undefined ? timeline.entryCount - 1 : Math.min(s.selectedEntry, timeline.entryCount - 1);
      const position = timeline.spine.positions[entry] ?? 0;
      const [whole, sets] = await Promise.all([client.call('timelineSnapshot', { revision: timeline.revision }), client.call('sets', { revision: timeline.revision, position })]);
      return {
        revision: s.revision,
        doc: s.doc,
        layers: s.doc.layers.map((l) => ({ name: l.name, text: l.text })),
        selectedEntry: s.selectedEntry,
        position,
        timeline: whole,
        sets,
        diagnostics: whole.diagnostics,
        recent: s.recent,
      };
    },
    loadScenario: (text: string, fileName = 'scenario.toml') => openScenarioText(store, fileName, text),
    async runCommand(id: string) {
      await commands.run(id, { store });
    },
    flushAutosave: () => deps.flush(),
    meter: () => client.meter?.(true),
    traffic: () => client.traffic?.() ?? { sent: 0, transferred: 0, received: 0, messages: 0, byMethod: {} },
    stats: () => client.call('stats', {}),
    liveConnections: (urls: readonly string[]) =>
      urls.flatMap((url) => {
        const query = queryClient.getQueryCache().find({ queryKey: liveKeys.connection(url), exact: true });
        if (!query) return [];
        const { fetchStatus, dataUpdateCount, errorUpdateCount } = query.state;
        return [{ url, observers: query.getObserversCount(), active: query.isActive(), fetching: fetchStatus === 'fetching', fetches: dataUpdateCount + errorUpdateCount }];
      }),
  });
}
