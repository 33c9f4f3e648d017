// The findability feature's commands: show the panel, pin the current report as the "before" of a
// comparison, and clear it.
import type { Command } from '../../commands/registry';
import { latestFindability } from '../../derive/findabilityHooks';

export const findabilityCommands: Command[] = [
  { id: 'dock.findability', title: 'Show the findability report', shortcut: 'Alt+8', group: 'View', run: ({ store }) => store.getState().setDockTab('findability') },
  {
    id: 'findability.pin',
    title: 'Findability: pin the current report as "before"',
    group: 'Findability',
    run: ({ store }) => {
      const latest = latestFindability();
      if (!latest) {
        store.getState().showBanner('info', 'The findability report is not ready yet; try again in a moment.');
        return;
      }
      store.getState().setFindabilityBaseline({ label: `revision ${latest.revision}, ${new Date().toLocaleTimeString()}`, report: latest.report });
    },
  },
  {
    id: 'findability.large',
    title: 'Findability: keep the report up to date for a large catalogue too',
    group: 'Findability',
    run: ({ store }) => {
      store.getState().setFindabilityLarge(true);
      store.getState().setDockTab('findability');
    },
  },
  { id: 'findability.clear', title: 'Findability: clear the pinned "before"', group: 'Findability', run: ({ store }) => store.getState().setFindabilityBaseline(undefined) },
];
