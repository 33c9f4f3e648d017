// The one screen: header, layers | timeline | sets, and the dock below.
import { lazy, Suspense, useEffect, useState } from 'react';
import { Split } from '../components/Split';
import { useCommands } from '../commands/context';
import { matchesShortcut } from '../commands/registry';
import { Banner } from '../features/header/Banner';
import { Header } from '../features/header/Header';
import { ScenarioAbout } from '../features/header/About';
import { ShareButton, SharedBanner } from '../features/share/ShareControls';
import { RfdButton, ReturnBanner } from '../features/rfd/RfdControls';
import { GuideButtons } from '../features/guide/GuideButtons';
import { Welcome, welcomeDismissed } from '../features/guide/Welcome';
import { RecentButton, RecentDocuments } from '../features/history/RecentDocuments';
import { TabConflictBanner } from '../features/history/TabConflictBanner';
import { LayersPanel } from '../features/layers/LayersPanel';
import { TimelinePanel } from '../features/timeline/TimelinePanel';
import { SetsPanel } from '../features/sets/SetsPanel';
import { Dock } from '../features/dock/Dock';
import { Palette } from '../features/palette/Palette';
import { DropZone } from '../features/files/DropZone';
import { useWorkbench, useWorkbenchStore } from '../state/context';
import { dockPanels } from './dockPanels';

// Loaded when first needed, not for the first paint: the import dialog when it opens, the live
// servers' sync (and its MCP client) when a scenario server has a url.
const ImportDialog = lazy(() => import('../features/import/ImportDialog').then((m) => ({ default: m.ImportDialog })));
const RfdPage = lazy(() => import('../features/rfd/RfdPage').then((m) => ({ default: m.RfdPage })));
const LiveServers = lazy(() => import('../features/servers/live').then((m) => ({ default: m.LiveServers })));
const StartServersDialog = lazy(() => import('../features/bridge/StartServersDialog').then((m) => ({ default: m.StartServersDialog })));

function WhenNeeded() {
  const importing = useWorkbench((s) => s.importDialog !== undefined);
  const live = useWorkbench((s) => s.doc.servers.some((x) => x.url !== undefined) || s.bridgeLinks.size > 0);
  const confirming = useWorkbench((s) => s.bridgeConfirm !== undefined);
  return (
    <Suspense fallback={null}>
      {importing && <ImportDialog />}
      {live && <LiveServers />}
      {confirming && <StartServersDialog />}
    </Suspense>
  );
}

function useShortcuts() {
  const registry = useCommands();
  const store = useWorkbenchStore();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      for (const c of registry.list()) {
        if (c.shortcut && matchesShortcut(e, c.shortcut)) {
          e.preventDefault();
          void c.run({ store });
          return;
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [registry, store]);
}

/**
 * The dock's first height, in percent of the window below the header: about 380 px, so the simulator's
 * form and log show without scrolling at 900 px, between a third and 45% (47% while the first screen's
 * paragraph shows; the panels above keep the rest).
 */
function dockShare(welcome: boolean): number {
  // The first screen's paragraph (two lines at 1440 px, three at 1024) stands where the one-line description goes.
  const h = typeof window === 'undefined' ? 900 : window.innerHeight - 40 - (welcome ? 25 : 0);
  return Math.round(Math.min(welcome ? 47 : 45, Math.max(33, (380 / Math.max(h, 1)) * 100)));
}

export function App() {
  useShortcuts();
  const [welcome, setWelcome] = useState(() => !welcomeDismissed());
  const [dock] = useState(() => dockShare(welcome));
  const page = useWorkbench((s) => s.page);
  const setTourStep = useWorkbench((s) => s.setTourStep);
  return (
    <div className="app">
      <Header
        actions={
          <>
            <RfdButton />
            <RecentButton />
            <ShareButton />
            <GuideButtons />
          </>
        }
      />
      <div className="banners">
        {welcome ? <Welcome onTour={() => setTourStep(0)} onDismiss={() => setWelcome(false)} /> : <ScenarioAbout />}
        <TabConflictBanner />
        <Banner />
        <SharedBanner />
        <ReturnBanner />
      </div>
      <main className="workspace">
        {page === 'rfd' && (
          <Suspense fallback={<div className="empty" role="status">Loading…</div>}>
            <RfdPage />
          </Suspense>
        )}
        {/* Under the RFD view the panels stay mounted (Monaco, selections) but out of reach. */}
        <div className="workspace-panes" inert={page === 'rfd'}>
          <Split id="main-v" direction="vertical" initial={[100 - dock, dock]}>
            <Split id="main-h" initial={[36, 30, 34]}>
              <LayersPanel />
              <TimelinePanel />
              <SetsPanel />
            </Split>
            <Dock panels={dockPanels} />
          </Split>
        </div>
      </main>
      <Palette />
      <RecentDocuments />
      <DropZone />
      <WhenNeeded />
    </div>
  );
}
