// What the page does with the bridge, shared by the workspace and servers panels,
// their commands and the tests: open a workspace by path, ask for its plan, start
// the plan the user confirmed, stop servers, reach an HTTP server through the
// bridge. A started server becomes an ordinary scenario server whose live session
// runs at its bridge endpoint (the servers feature's live sync does the rest: tool
// list into the document, what changed); a failed one is said, with the error JP
// would abort with (required) or its warning (optional). Stopping a server, or its
// failing, never rewrites the document's recorded status (issue 24.2). The bridge is
// the truth for what runs (issue 34.5): a reloaded page, or one that opens by path a
// folder whose servers the bridge runs, re-attaches to them instead of starting them
// again, and a second Start says they already run.
import type { QueryClient } from '@tanstack/react-query';
import { snapshotCatalogue, snapshotServersToml } from '../core';
import type { WorkbenchStore } from '../state/store';
import { workspaceOpenedMessage } from '../state/workspaceSlice';
import { bridgeApi, bridgeKeys, endpointUrl } from './bridge';
import { disconnectLive, liveKeys } from './queries';
import type { BridgeServer, BridgeWorkspace } from './bridge';
import { confirmUrl } from './confirmed';

/**
 * Puts one bridge server into the scenario, as `as` (the scenario's name for it; the bridge's own by
 * default): running → connected at its endpoint; failed → said, and a server new to the scenario is
 * added offline (a server already there keeps what it recorded).
 */
export function applyBridgeServer(store: WorkbenchStore, view: BridgeServer, options: { readonly url?: string; readonly as?: string; readonly quiet?: boolean } = {}): void {
  const s = store.getState();
  const name = options.as ?? view.name;
  s.ensureServer({ name, status: view.status === 'running' ? 'running' : 'offline', tools: [], ...(options.url !== undefined ? { url: options.url } : {}) });
  const endpoint = endpointUrl(view);
  s.linkBridge(name, endpoint);
  // The user started this server through the bridge (or asked the bridge to reach it): that is the
  // confirmation its bridge endpoint needs, on this origin, like pressing Connect.
  confirmUrl(endpoint);
  if (view.status === 'running') {
    s.setLiveWanted(name, true);
    return;
  }
  s.setLiveWanted(name, false);
  // Re-attaching (`quiet`) says nothing of a failure the page said when it happened: the card shows it.
  if (view.status === 'failed' && options.quiet !== true) {
    const first = view.error ?? 'it failed to start';
    s.showBanner(
      view.jpStarts === false ? 'info' : 'error',
      view.jpStarts === false
        ? `MCP server ${name} failed to start; JP would not start it (no tool names it), so nothing would abort: ${first}`
        : view.optional
        ? `Optional MCP server ${name} failed to start; JP would warn and go on without its tools: ${first}`
        : `MCP server ${name} failed to start; JP would abort the command with: ${first}`,
    );
  }
}

/** The bridge's servers started from the workspace's plans (whatever the bridge calls them). */
function serversOf(w: BridgeWorkspace, views: readonly BridgeServer[]): BridgeServer[] {
  return views.filter((v) => v.kind === 'stdio' && v.from === `workspace ${w.jpDir}`);
}

const isUp = (v: BridgeServer) => v.status === 'running' || v.status === 'starting';

/** "fs", "fs and mem", "fs, mem and git". */
function names(list: readonly string[]): string {
  return list.length <= 1 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} and ${list.at(-1) ?? ''}`;
}

/**
 * Puts the servers the bridge holds for the workspace into the scenario, each under the workspace's
 * name for it, as a Start would have (running ones connected, the others shown as the bridge has them):
 * the bridge is the truth for what runs. The servers that run, by the scenario's name.
 */
export function attachWorkspaceServers(store: WorkbenchStore, w: BridgeWorkspace, views: readonly BridgeServer[], options: { readonly onlyNamed?: boolean } = {}): string[] {
  const doc = store.getState().doc;
  const mine = serversOf(w, views).filter((v) => options.onlyNamed !== true || doc.servers.some((x) => x.name === (v.declaredAs ?? v.name)));
  for (const v of mine) applyBridgeServer(store, v, { as: v.declaredAs ?? v.name, quiet: true });
  return mine.filter(isUp).map((v) => v.declaredAs ?? v.name);
}

/**
 * After a reload (the tab keeps its session, the page forgot the rest): when the folder the page
 * restored is one the bridge opened by path, the page takes it up again and re-attaches to the
 * servers the bridge runs for it. Nothing without a session of the bridge (the bridge answers such a
 * tab nothing). Whether it re-attached.
 */
export async function reattachBridge(store: WorkbenchStore, queryClient?: QueryClient): Promise<boolean> {
  const folder = store.getState().workspace;
  if (!folder) return false;
  const [opened, views] = await Promise.all([bridgeApi.workspaces(), bridgeApi.servers()]);
  const w = opened.find((x) => x.jpDir === folder.source);
  // The folder changed meanwhile (another was opened): that one's opening decides.
  if (!w || store.getState().workspace?.source !== folder.source) return false;
  store.getState().setBridgeWorkspace(w);
  // A document that does not use the workspace (the demo, say, with the folder still open) gets no
  // server added by a reload: only those it already names are linked.
  const onlyNamed = store.getState().doc.workspace === undefined;
  attachWorkspaceServers(store, w, views, { onlyNamed });
  await queryClient?.invalidateQueries({ queryKey: bridgeKeys.servers() });
  // Reloaded while a server was still starting (an `npx` server's first run can take a minute): once it
  // runs, the page's session follows it, as after a Start.
  if (serversOf(w, views).some((v) => v.status === 'starting')) void attachWhenStarted(store, w, onlyNamed);
  return true;
}

const STARTING_POLL_MS = 1000;
/** Longer than any startup timeout a workspace sets in practice; the Servers tab shows it meanwhile. */
const STARTING_WAIT_MS = 5 * 60_000;

/** Waits until none of the workspace's servers is starting, then attaches them as they are. */
async function attachWhenStarted(store: WorkbenchStore, w: BridgeWorkspace, onlyNamed: boolean): Promise<void> {
  for (let waited = 0; waited < STARTING_WAIT_MS; waited += STARTING_POLL_MS) {
    await new Promise((r) => setTimeout(r, STARTING_POLL_MS));
    const views = await bridgeApi.servers().catch(() => undefined);
    // The user opened another folder meanwhile: that one's servers are what the page follows.
    if (!views || store.getState().bridgeWorkspace?.id !== w.id) return;
    if (!serversOf(w, views).some((v) => v.status === 'starting')) {
      attachWorkspaceServers(store, w, views, { onlyNamed });
      return;
    }
  }
}

/** Opens a `.jp` folder (or the project holding one) on this machine through the bridge. */
export async function openWorkspaceByPath(store: WorkbenchStore, path: string): Promise<void> {
  const { workspace, files } = await bridgeApi.openWorkspace(path);
  const kept = store.getState().doc.workspace !== undefined;
  store.getState().openWorkspace({ source: workspace.jpDir, files });
  store.getState().setBridgeWorkspace(workspace);
  // The bridge may already run its servers (started from another document, or before a reload): this
  // document takes them up, rather than showing them as not running and starting them a second time.
  const running = attachWorkspaceServers(store, workspace, await bridgeApi.servers().catch(() => []));
  // As every other way of opening one says: the banner names this folder, not the one before it.
  const attached = running.length === 0 ? '' : ` The bridge already runs its server${running.length === 1 ? '' : 's'} ${names(running)}: attached.`;
  store.getState().showBanner('info', `${workspaceOpenedMessage(workspace.jpDir, Object.keys(files).length, kept)}${attached}`);
}

/** Asks the bridge what "Start servers" would run (for the persona picked), and opens the confirmation. */
export async function askToStartServers(store: WorkbenchStore): Promise<void> {
  const s = store.getState();
  const w = s.bridgeWorkspace;
  if (!w) {
    s.showBanner('info', 'Open the workspace through the bridge first (Workspace tab, "Open a folder on this machine"): the bridge reads its commands from disk.');
    return;
  }
  const [plan, views] = await Promise.all([bridgeApi.plan(w.id, s.doc.workspace?.persona), bridgeApi.servers()]);
  // What the bridge already runs for this workspace, with the very command the plan has, is not
  // started again: when that is every planned server, nothing is asked, and the page says so.
  const mine = serversOf(w, views);
  const runs = plan.servers.filter((p) => mine.some((v) => isUp(v) && (v.declaredAs ?? v.name) === p.name && v.commandLine === p.commandLine && v.cwd === p.cwd));
  if (plan.servers.length > 0 && runs.length === plan.servers.length) {
    attachWorkspaceServers(store, w, views);
    const list = runs.map((p) => p.name);
    s.showBanner('info', `${names(list)} already run${list.length === 1 ? 's' : ''} in the bridge, with the command shown: nothing was started again. To restart ${list.length === 1 ? 'it' : 'them'}, press Stop servers first.`);
    return;
  }
  s.setBridgeConfirm({
    planId: plan.id,
    workspace: w.id,
    jpDir: w.jpDir,
    ...(plan.persona !== undefined ? { persona: plan.persona } : {}),
    servers: plan.servers,
    problems: plan.problems.map((p) => `${p.layer !== undefined ? `${p.layer}: ` : ''}${p.message}`),
    notStarted: plan.notStarted,
    hidden: plan.hidden,
    ...(runs.length > 0 ? { running: runs.map((p) => p.name) } : {}),
  });
}

/**
 * The user confirmed: the bridge starts exactly the plan it showed. `hiddenConfirmed`: the user also
 * confirmed, a second time, the hidden characters the dialog showed escaped (the bridge refuses such
 * a plan without it).
 */
export async function startConfirmed(store: WorkbenchStore, queryClient?: QueryClient, hiddenConfirmed = false): Promise<void> {
  const c = store.getState().bridgeConfirm;
  if (!c) return;
  store.getState().setBridgeConfirm(undefined);
  const { servers: views, alreadyRunning } = await bridgeApi.startPlan(c.workspace, { plan: c.planId, ...(hiddenConfirmed ? { hiddenConfirmed } : {}) });
  // The workspace's name for each server is the scenario's (`source = "mcp.fs"`), even when the
  // bridge holds another workspace's `fs` and calls this one `fs-2`.
  for (const v of views) applyBridgeServer(store, v, { as: v.declaredAs ?? v.name });
  if (alreadyRunning.length > 0) {
    store.getState().showBanner('info', `${names(alreadyRunning)} already ran in the bridge, with the same command: not started again (press Stop servers first to restart ${alreadyRunning.length === 1 ? 'it' : 'them'}).`);
  }
  await queryClient?.invalidateQueries({ queryKey: bridgeKeys.servers() });
}

/** A scenario server and the bridge's server behind it (their names differ when the user renamed it on import). */
export interface BridgedPair {
  /** The scenario's name. */
  readonly server: string;
  /** The bridge's name (its endpoint's path). */
  readonly bridged: string;
}

/** Stops one server in the bridge; its session ends, and the document keeps what it recorded of it. */
export async function stopBridged(store: WorkbenchStore, pair: BridgedPair, queryClient?: QueryClient): Promise<void> {
  // Not wanted first: the page's session then does not try to reconnect to a server it stopped.
  store.getState().setLiveWanted(pair.server, false);
  await bridgeApi.stop(pair.bridged);
  await queryClient?.invalidateQueries({ queryKey: bridgeKeys.servers() });
}

export async function startBridged(store: WorkbenchStore, pair: BridgedPair, queryClient?: QueryClient): Promise<void> {
  applyBridgeServer(store, await bridgeApi.start(pair.bridged), { as: pair.server });
  await queryClient?.invalidateQueries({ queryKey: bridgeKeys.servers() });
}

/**
 * Forwards the server's sampling, elicitation and roots to the page, or declares JP's capabilities
 * (issue 34.3): the bridge reconnects it (asking its terminal first, with --confirm-in-terminal), and
 * the page's session follows as after a Start.
 */
export async function forwardBridged(store: WorkbenchStore, pair: BridgedPair, forward: boolean, queryClient?: QueryClient): Promise<void> {
  const view = await bridgeApi.setForwarding(pair.bridged, { forward });
  applyBridgeServer(store, view, { as: pair.server });
  // The reconnect closed the page's session, and its own reconnect may have met the server still
  // starting: a fresh session now lists what the server offers with the new capabilities.
  await queryClient?.invalidateQueries({ queryKey: liveKeys.connection(endpointUrl(view)) });
  await queryClient?.invalidateQueries({ queryKey: bridgeKeys.servers() });
}

/** Stops every server of the open workspace. */
export async function stopWorkspaceServers(store: WorkbenchStore, queryClient?: QueryClient): Promise<void> {
  const w = store.getState().bridgeWorkspace;
  if (!w) return;
  const mine = (await bridgeApi.servers()).filter((v) => v.kind === 'stdio' && v.from === `workspace ${w.jpDir}`);
  for (const v of mine) store.getState().setLiveWanted(v.declaredAs ?? v.name, false);
  await bridgeApi.stopWorkspace(w.id);
  await queryClient?.invalidateQueries({ queryKey: bridgeKeys.servers() });
}

/** Reaches an HTTP MCP server from the bridge (no CORS), with headers that stay in the bridge. */
export async function connectThroughBridge(store: WorkbenchStore, input: { url: string; name?: string; headers?: Record<string, string> }, queryClient?: QueryClient): Promise<BridgeServer> {
  const view = await bridgeApi.connectHttp(input);
  if (view.status === 'running') applyBridgeServer(store, view, { url: input.url });
  await queryClient?.invalidateQueries({ queryKey: bridgeKeys.servers() });
  return view;
}

/** The import dialog imported a server it reached through the bridge: the scenario's server runs at the bridge's endpoint. */
export function linkImported(store: WorkbenchStore, server: string, view: BridgeServer): void {
  store.getState().linkBridge(server, endpointUrl(view));
  store.getState().setLiveWanted(server, true);
}

/**
 * A server the import dialog reached through the bridge and did not import: its page session ends,
 * then the bridge lets it go (ends its session with the server), unless a scenario server uses it.
 */
export async function releaseBridged(store: WorkbenchStore, queryClient: QueryClient, view: BridgeServer): Promise<void> {
  const endpoint = endpointUrl(view);
  const s = store.getState();
  if (s.doc.servers.some((x) => s.bridgeLinks.get(x.name) === endpoint)) return;
  // The page's session first, so its own DELETE reaches a bridge that still knows the server.
  await disconnectLive(queryClient, endpoint);
  await bridgeApi.remove(view.name).catch(() => undefined);
  await queryClient.invalidateQueries({ queryKey: bridgeKeys.servers() });
}

/** `Name: value` lines into headers; a line that is not one is an error with its line number. */
export function parseHeaderLines(text: string): { headers: Record<string, string> } | { error: string } {
  const headers: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === '') continue;
    const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*(.*)$/u.exec(line);
    if (!m) return { error: `line ${i + 1}: write a header as Name: value` };
    headers[m[1] as string] = m[2] as string;
  }
  return { headers };
}

/**
 * The snapshot file of the servers reached through the bridge (their tools as last listed), in the
 * form `tool-workbench snapshot` writes: with each server's serverInfo and protocol version when the
 * bridge's `views` of them are given.
 */
export function bridgeSnapshot(store: WorkbenchStore, views: readonly BridgeServer[] = []): { text: string; servers: string[]; toml: string } {
  const s = store.getState();
  const servers = s.doc.servers.filter((x) => s.bridgeLinks.has(x.name));
  const viewOf = (name: string) => views.find((v) => endpointUrl(v) === s.bridgeLinks.get(name));
  const entries = servers.map((x) => {
    const v = viewOf(x.name);
    return {
      name: x.name,
      tools: x.tools,
      ...(v?.serverInfo ? { serverInfo: v.serverInfo } : {}),
      ...(v?.protocolVersion !== undefined ? { protocolVersion: v.protocolVersion } : {}),
      ...(v?.instructions !== undefined ? { instructions: v.instructions } : {}),
      ...(v?.capabilities ? { capabilities: v.capabilities } : {}),
    };
  });
  const snap = snapshotCatalogue(`snapshot of ${s.bridgeWorkspace?.root ?? 'the bridge'}`, 'The tool lists of servers reached through the workbench bridge, saved from the page.', entries);
  const names = servers.map((x) => x.name);
  return { text: `${JSON.stringify(snap.value, null, 2)}\n`, servers: names, toml: snapshotServersToml('snapshot.json', names) };
}
