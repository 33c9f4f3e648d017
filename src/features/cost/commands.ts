// The cost feature's commands.
import type { Command } from '../../commands/registry';
import { usePrices } from '../../state/prices';

export const costCommands: Command[] = [
  { id: 'dock.cost', title: 'Show what discovery costs (prompt cache, break-even, prices)', shortcut: 'Alt+9', group: 'View', run: ({ store }) => store.getState().setDockTab('cost') },
  { id: 'prices.reset', title: 'Reset the price table to its dated defaults', group: 'Cost', run: () => usePrices.getState().reset() },
];
