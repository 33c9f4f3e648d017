// The servers feature's commands.
import type { Command } from '../../commands/registry';
import { exportJpZip } from './exportJp';

export const serversCommands: Command[] = [
  { id: 'dock.servers', title: 'Show the MCP servers', shortcut: 'Alt+7', group: 'View', run: ({ store }) => store.getState().setDockTab('servers') },
  { id: 'export.jp', title: 'Export the catalogue as JP config files (.zip)', group: 'File', run: ({ store }) => exportJpZip(store) },
];
