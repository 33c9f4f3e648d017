// The simulator's commands (palette, shortcuts, tests).
import type { Command } from '../../commands/registry';

export const simulatorCommands: Command[] = [
  {
    id: 'sim.prompt',
    title: 'Type a jp command (simulator prompt)',
    shortcut: 'Alt+P',
    group: 'Simulator',
    run: ({ store }) => {
      store.getState().setDockTab('simulator');
      requestAnimationFrame(() => document.querySelector<HTMLInputElement>('[data-testid="sim-prompt"]')?.focus());
    },
  },
];
