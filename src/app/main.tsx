// The composition root: the store, the derive worker, react-query, the
// commands, autosave and the test hook, then the React tree.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { notifyManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from './App';
import { createCommands, demoDoc } from './commands';
import { installTestHook } from './testHook';
import { createWorkbenchStore } from '../state/store';
import { StoreProvider } from '../state/context';
import { startAutosave } from '../state/persistence';
import { recoverClosedTabs, resumeSaved } from '../state/resume';
import { indexedDbHistory } from '../state/historyDb';
import { openTabChannel, tabId } from '../state/tabChannel';
import { loadSavedWorkspace, startWorkspaceAutosave } from '../state/workspacePersistence';
import { installWorkspaceDrop } from '../features/workspace/open';
import { installShareLinks } from '../features/share/share';
import { createWorkerClient } from '../derive/client';
import { DeriveContext } from '../derive/queries';
import { timelineSource } from '../derive/timelineSource';
import { CommandsContext } from '../commands/context';
import { adoptBridgeCode, startBridgeHeartbeat } from '../live/bridge';
import { reattachBridge } from '../live/bridgeSession';
import './styles.css';

// react-query tells the panels about a finished query in a setTimeout(0) by default: a task of its
// own, queued behind Monaco's frames and timers while typing. A microtask delivers a derivation
// in the task that received it (the notifications of one tick are still batched).
notifyManager.setScheduler((cb) => queueMicrotask(cb));

async function boot() {
  // Before anything reads the address: `#code=` is the bridge's, not a share link (its exchange runs meanwhile).
  void adoptBridgeCode();
  // Keeps the bridge's servers while this tab is open, whatever document it shows.
  startBridgeHeartbeat();
  const tab = tabId();
  const channel = openTabChannel();
  const [resumed, savedWorkspace] = await Promise.all([resumeSaved(tab), loadSavedWorkspace()]);
  const store = createWorkbenchStore(resumed.doc ?? demoDoc(), {
    history: { storage: indexedDbHistory(), ...(channel ? { onChanged: () => channel.post({ type: 'history', from: channel.instance }) } : {}) },
  });
  void store.getState().refreshRecent();
  if (resumed.setAside) {
    store.getState().keepInHistory(resumed.setAside, { kind: 'recovered' });
    store.getState().showBanner('info', 'Your last edits before the page closed were made over a version another tab has since replaced; they are kept in Recent documents.');
  }
  if (savedWorkspace) store.getState().restoreWorkspace(savedWorkspace);
  // A reload keeps control (issue 34.5): the folder the bridge opened by path, and the servers it runs
  // for it, are taken up again (nothing without this tab's session of the bridge).
  if (savedWorkspace) void reattachBridge(store).catch(() => undefined);
  const client = createWorkerClient();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
  // The page's one observer of the derivation runs for the page's life: each edit asks the worker from
  // the store's change itself, before React or Monaco render it (timelineSource.ts).
  timelineSource(queryClient, store, client).subscribe(() => undefined);
  const commands = createCommands();
  const autosave = startAutosave(store, { tab, base: resumed.saved, ...(resumed.replayed ? { replayed: resumed.replayed } : {}), ...(channel ? { channel } : {}) });
  void recoverClosedTabs(store, channel, tab);
  const workspaceAutosave = startWorkspaceAutosave(store);
  installWorkspaceDrop(store);
  void installShareLinks(store);
  installTestHook({ store, client, queryClient, commands, flush: () => Promise.all([autosave.flush(), workspaceAutosave.flush()]).then(() => undefined) });
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root element');
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <DeriveContext.Provider value={client}>
          <CommandsContext.Provider value={commands}>
            <StoreProvider store={store}>
              <App />
            </StoreProvider>
          </CommandsContext.Provider>
        </DeriveContext.Provider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

void boot();
