// The bridge's commands (toolbar buttons, the palette and tests run these same records).
import type { Command } from '../../commands/registry';
import { askToStartServers, bridgeSnapshot, stopWorkspaceServers } from '../../live/bridgeSession';
import { downloadBlob } from '../../components/download';
import { bridgeApi } from '../../live/bridge';

const failed = (store: Parameters<Command['run']>[0]['store'], what: string) => (e: unknown) =>
  store.getState().showBanner('error', `${what}: ${e instanceof Error ? e.message : String(e)}`);

export const bridgeCommands: Command[] = [
  {
    id: 'bridge.startServers',
    title: 'Start the workspace’s MCP servers… (asks first)',
    group: 'Servers',
    run: ({ store }) => askToStartServers(store).catch(failed(store, 'The bridge could not list the servers')),
  },
  {
    id: 'bridge.stopServers',
    title: 'Stop the workspace’s MCP servers',
    group: 'Servers',
    run: ({ store }) => stopWorkspaceServers(store).catch(failed(store, 'The bridge could not stop the servers')),
  },
  {
    id: 'bridge.snapshot',
    title: 'Save a snapshot of the live servers’ tool lists (.json)',
    group: 'Servers',
    run: async ({ store }) => {
      // The bridge's view adds each server's serverInfo and protocol version, as the command line writes them.
      const views = await bridgeApi.servers().catch(() => []);
      const snap = bridgeSnapshot(store, views);
      if (snap.servers.length === 0) {
        store.getState().showBanner('info', 'No server is reached through the bridge yet: start the workspace’s servers or connect one first.');
        return;
      }
      downloadBlob('snapshot.json', new Blob([snap.text], { type: 'application/json' }));
      store.getState().showBanner('info', `Saved snapshot.json with ${snap.servers.join(', ')}. A scenario replays it offline with: ${snap.toml.replace(/\n+/gu, ' ').trim()}`);
    },
  },
];
