// Opening the page again: the saved document, with this tab's journal of the last
// keystrokes replayed on it when the save it builds on is still the stored one. A
// journal that no longer fits (another tab saved since) is not applied but kept in
// Recent documents; a journal left by a tab that closed is recovered the same way.
import type { ScenarioDoc } from '../core';
import { clearJournal, journalTabs, readJournal, replayJournal } from './journal';
import type { Journal } from './journal';
import { layoutAfter, layoutOf, setLayout } from './chunks';
import { loadSaved } from './persistence';
import type { SavedRecord } from './persistence';
import type { WorkbenchStore } from './store';
import type { TabChannel } from './tabChannel';

export interface Resumed {
  /** The stored save, if any. */
  readonly saved: SavedRecord | undefined;
  /** The document to open: the save, with this tab's journal replayed when it fits. */
  readonly doc: ScenarioDoc | undefined;
  /** The journal replayed into `doc` (not saved yet). */
  readonly replayed?: Journal;
  /** A journal of this tab that did not fit the stored save (whole, or replayed on its own base). */
  readonly setAside?: ScenarioDoc;
}

/** Decides what a journal means against the stored save. Pure: the tests drive it directly. */
export function resolveJournal(saved: SavedRecord | undefined, journal: Journal | undefined): Omit<Resumed, 'saved'> & { clear: boolean } {
  if (!journal) return { doc: saved?.doc, clear: false };
  if (saved?.journal === journal.id) return { doc: saved.doc, clear: true };
  if ((saved?.rev ?? 0) === journal.base) {
    const doc = replayJournal(saved?.doc, journal);
    if (doc) return { doc, replayed: journal, clear: false };
    return { doc: saved?.doc, clear: true };
  }
  // Another save came in between: the edits are kept aside, never applied over it.
  return { doc: saved?.doc, ...(journal.doc ? { setAside: journal.doc } : {}), clear: true };
}

/**
 * The loaded layers' chunk layouts carried through the journal's splices, so the first save after
 * the replay writes the chunks the splices touched, not every layer they touched whole.
 */
export function carryLayouts(saved: ScenarioDoc, doc: ScenarioDoc, j: Journal): void {
  if (j.doc || j.layers) return;
  const layouts = saved.layers.map(layoutOf);
  try {
    for (const s of j.splices ?? []) {
      const layout = layouts[s.index];
      layouts[s.index] = layout && layoutAfter(layout, [{ rangeOffset: s.start, rangeLength: s.end - s.start, text: s.insert }]);
    }
  } catch {
    // Splices that do not fit a layout: those layers are written whole.
    return;
  }
  doc.layers.forEach((l, i) => {
    const layout = layouts[i];
    if (layout && l !== saved.layers[i]) setLayout(l, layout);
  });
}

export async function resumeSaved(tab: string): Promise<Resumed> {
  const saved = await loadSaved();
  const r = resolveJournal(saved, readJournal(tab));
  if (r.clear) clearJournal(tab);
  if (saved && r.doc && r.replayed) carryLayouts(saved.doc, r.doc, r.replayed);
  return { saved, doc: r.doc, ...(r.replayed ? { replayed: r.replayed } : {}), ...(r.setAside ? { setAside: r.setAside } : {}) };
}

/** How long open tabs have to answer "who is open?": they answer within a task; 500 ms is generous. */
const WHO_WAIT_MS = 500;

/**
 * Answers other tabs' "who is open?", then asks it: the journals of tabs that do not answer were
 * left by closed tabs, and their edits go to Recent documents.
 */
export function recoverClosedTabs(store: WorkbenchStore, channel: TabChannel | undefined, tab: string): Promise<number> {
  if (!channel) return Promise.resolve(0);
  const alive = new Set<string>([tab]);
  channel.listen((m) => {
    if (m.type === 'who') channel.post({ type: 'here', from: channel.instance, tab });
    else if (m.type === 'here') alive.add(m.tab);
    else if (m.type === 'history') void store.getState().refreshRecent();
  });
  channel.post({ type: 'who', from: channel.instance });
  return new Promise((resolve) => {
    setTimeout(() => {
      void (async () => {
        let recovered = 0;
        const orphans = journalTabs().filter((t) => !alive.has(t));
        const saved = orphans.length > 0 ? await loadSaved() : undefined;
        for (const other of orphans) {
          const j = readJournal(other);
          const doc = j?.doc ?? (j && saved?.rev === j.base ? replayJournal(saved.doc, j) : undefined);
          // A journal its own tab's last save covered holds nothing new.
          if (doc && saved?.journal !== j?.id) {
            store.getState().keepInHistory(doc, { kind: 'recovered' });
            recovered += 1;
          }
          clearJournal(other);
        }
        if (recovered > 0) store.getState().showBanner('info', `Recovered the unsaved edits of ${recovered === 1 ? 'a closed tab' : `${recovered} closed tabs`} into Recent documents.`);
        resolve(recovered);
      })();
    }, WHO_WAIT_MS);
  });
}
