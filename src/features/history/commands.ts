// The document history's and the tabs' commands: the palette, the shortcuts, the
// toolbar and the tests run these. Every recent document is a command of its own.
import type { Command, CommandSource } from '../../commands/registry';
import { reasonText } from '../../state/history';

export function timeOf(at: number): string {
  return new Date(at).toLocaleTimeString();
}

export const historyCommands: Command[] = [
  { id: 'history.open', title: 'Recent documents: restore one that was replaced…', shortcut: 'Alt+H', group: 'File', run: ({ store }) => store.getState().setRecentOpen(true) },
  {
    id: 'history.restoreNewest',
    title: 'Restore the document replaced last',
    group: 'File',
    run: async ({ store }) => {
      const newest = store.getState().recent[0];
      if (!newest) store.getState().showBanner('info', 'No document was replaced yet.');
      else await store.getState().restoreRecent(newest.id);
    },
  },
  {
    id: 'tabs.reloadTheirs',
    title: "Reload the other tab's version of the document",
    group: 'File',
    run: async ({ store }) => {
      const s = store.getState();
      if (!s.tabConflict || !s.tabSync) s.showBanner('info', 'No other tab changed the document.');
      else await s.tabSync.reloadTheirs();
    },
  },
  {
    id: 'tabs.keepMine',
    title: "Keep this tab's version as a copy (the other tab's goes to Recent documents)",
    group: 'File',
    run: async ({ store }) => {
      const s = store.getState();
      if (!s.tabConflict || !s.tabSync) s.showBanner('info', 'No other tab changed the document.');
      else await s.tabSync.keepMine();
    },
  },
];

/** One palette command per recent document. */
export const recentDocumentCommands: CommandSource = ({ store }) =>
  store.getState().recent.map((e) => ({
    id: `history.restore.${e.id}`,
    title: `Restore recent document “${e.title}” (${timeOf(e.at)}, ${reasonText(e.reason)})`,
    group: 'Recent documents',
    run: async () => {
      await store.getState().restoreRecent(e.id);
    },
  }));
