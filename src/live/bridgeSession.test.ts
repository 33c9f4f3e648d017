// Headers typed for an HTTP server reached through the bridge (`Name: value` lines), the page's snapshot
// file, and the bridge as the truth for what runs: re-attaching after a reload, a second Start.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_DOC } from '../core';
import { createWorkbenchStore } from '../state/store';
import { bridgeApi } from './bridge';
import { askToStartServers, bridgeSnapshot, openWorkspaceByPath, parseHeaderLines, reattachBridge, startConfirmed, stopWorkspaceServers } from './bridgeSession';
import type { BridgeServer } from './bridge';

describe('parseHeaderLines', () => {
  it('reads one header a line, skipping blank lines, keeping colons in values', () => {
    expect(parseHeaderLines('Authorization: Bearer a:b\n\n  X-Api-Key:k  \n')).toEqual({ headers: { Authorization: 'Bearer a:b', 'X-Api-Key': 'k' } });
  });

  it('names the line that is not a header', () => {
    expect(parseHeaderLines('X-Ok: 1\nnot a header')).toEqual({ error: 'line 2: write a header as Name: value' });
    expect(parseHeaderLines('Bad Name: 1')).toEqual({ error: 'line 1: write a header as Name: value' });
  });
});

describe('bridgeSnapshot', () => {
  const view = (name: string, extra: Partial<BridgeServer> = {}): BridgeServer => ({ name, kind: 'http', status: 'running', optional: false, lastLog: 0, endpoint: `/bridge/servers/${name}/mcp`, ...extra });
  const tool = (name: string) => ({ name, description: `${name} things.`, inputSchema: { type: 'object' } });

  it('holds the bridged servers only, as the scenario names them, with serverInfo (whole) and protocol version from the bridge', () => {
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:4173' });
    try {
      const store = createWorkbenchStore(EMPTY_DOC);
      const s = store.getState();
      s.ensureServer({ name: 'notes', status: 'running', tools: [tool('notes_read')] });
      s.ensureServer({ name: 'simulated', status: 'running', tools: [tool('other')] });
      s.ensureServer({ name: 'plain', status: 'running', tools: [tool('plain_read')] });
      // Renamed on import: the bridge knows it as notes-server.
      s.linkBridge('notes', 'http://127.0.0.1:4173/bridge/servers/notes-server/mcp');
      s.linkBridge('plain', 'http://127.0.0.1:4173/bridge/servers/plain/mcp');
      const snap = bridgeSnapshot(store, [view('notes-server', { serverInfo: { name: 'notes-server', version: '2.1.0', title: 'Notes' }, protocolVersion: '2025-11-25' })]);
      expect(snap.servers).toEqual(['notes', 'plain']);
      const [entry] = JSON.parse(snap.text) as [{ tools: Record<string, unknown> }];
      expect(entry.tools).toEqual({
        notes: { serverInfo: { name: 'notes-server', version: '2.1.0', title: 'Notes' }, protocolVersion: '2025-11-25', tools: [expect.objectContaining({ name: 'notes_read' })] },
        plain: { tools: [expect.objectContaining({ name: 'plain_read' })] },
      });
      expect(snap.toml).toBe('[servers.notes]\ncatalogue = "snapshot.json#notes"\n\n[servers.plain]\ncatalogue = "snapshot.json#plain"\n');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('one name per server', () => {
  const view = (name: string, extra: Partial<BridgeServer> = {}): BridgeServer => ({ name, kind: 'stdio', status: 'running', optional: false, lastLog: 0, endpoint: `/bridge/servers/${name}/mcp`, ...extra });

  it("binds the workspace's name to the server the bridge started, whatever the bridge calls it (fs in workspace B while A's fs is known to the bridge)", async () => {
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:4173' });
    // Workspace A's fs, stopped: the bridge still holds it as fs, so B's runs as fs-2.
    const started = vi.spyOn(bridgeApi, 'startPlan').mockResolvedValue({ servers: [view('fs-2', { declaredAs: 'fs', from: 'workspace /b/.jp' })], alreadyRunning: [] });
    const servers = vi.spyOn(bridgeApi, 'servers').mockResolvedValue([view('fs', { declaredAs: 'fs', status: 'stopped', from: 'workspace /a/.jp' }), view('fs-2', { declaredAs: 'fs', from: 'workspace /b/.jp' })]);
    const stopped = vi.spyOn(bridgeApi, 'stopWorkspace').mockResolvedValue([view('fs-2', { declaredAs: 'fs', status: 'stopped', from: 'workspace /b/.jp' })]);
    try {
      const store = createWorkbenchStore(EMPTY_DOC);
      const s = store.getState();
      s.ensureServer({ name: 'fs', status: 'offline', tools: [] });
      s.linkBridge('fs', 'http://127.0.0.1:4173/bridge/servers/fs/mcp');
      s.setBridgeWorkspace({ id: 'b', root: '/b', jpDir: '/b/.jp' });
      s.setBridgeConfirm({ planId: 'p', workspace: 'b', jpDir: '/b/.jp', servers: [], problems: [], notStarted: [], hidden: [] });
      await startConfirmed(store);
      const after = store.getState();
      expect(after.doc.servers.map((x) => x.name)).toEqual(['fs']);
      expect(after.bridgeLinks.get('fs')).toBe('http://127.0.0.1:4173/bridge/servers/fs-2/mcp');
      expect(after.liveWanted.get('fs')).toBe(true);
      await stopWorkspaceServers(store);
      expect(store.getState().liveWanted.get('fs')).toBe(false);
      expect(store.getState().doc.servers.find((x) => x.name === 'fs')?.status).toBe('offline');
      expect(store.getState().doc.servers.map((x) => x.name)).toEqual(['fs']);
    } finally {
      started.mockRestore();
      servers.mockRestore();
      stopped.mockRestore();
      vi.unstubAllGlobals();
    }
  });
});

describe('a workspace opened by its path', () => {
  it('is the one the banner and the About text name, also after a .zip was opened (issue 35)', async () => {
    const opened = vi.spyOn(bridgeApi, 'openWorkspace').mockResolvedValue({ workspace: { id: 'w1', root: '/home/me/proj', jpDir: '/home/me/proj/.jp' }, files: { 'config.toml': '' } } as Awaited<ReturnType<typeof bridgeApi.openWorkspace>>);
    try {
      const store = createWorkbenchStore(EMPTY_DOC);
      store.getState().openWorkspace({ source: 'proj.zip: proj/.jp', files: { 'config.toml': '' } });
      store.getState().showBanner('info', 'Opened the workspace proj.zip: proj/.jp: 1 .toml file. Pick a persona in the Workspace tab.');
      await openWorkspaceByPath(store, '/home/me/proj');
      const s = store.getState();
      expect(s.banner?.message).toContain('Opened the workspace /home/me/proj/.jp: 1 .toml file');
      expect(s.banner?.message).not.toContain('proj.zip');
      expect(s.doc.description).toContain('/home/me/proj/.jp');
      expect(s.doc.description).not.toContain('proj.zip');
    } finally {
      opened.mockRestore();
    }
  });
});

describe('the bridge is the truth for what runs (issue 34.5)', () => {
  const origin = 'http://127.0.0.1:4173';
  const view = (name: string, extra: Partial<BridgeServer> = {}): BridgeServer => ({ name, declaredAs: name, kind: 'stdio', status: 'running', optional: false, lastLog: 0, endpoint: `/bridge/servers/${name}/mcp`, commandLine: `node ${name}.js`, cwd: '/b', from: 'workspace /b/.jp', ...extra });
  const b = { id: 'b', root: '/b', jpDir: '/b/.jp' };
  const mocks: { mockRestore(): void }[] = [];
  const mock = <T extends { mockRestore(): void }>(m: T): T => {
    mocks.push(m);
    return m;
  };
  beforeEach(() => void vi.stubGlobal('location', { origin }));
  afterEach(() => {
    for (const m of mocks.splice(0)) m.mockRestore();
    vi.unstubAllGlobals();
  });

  it('a reloaded page takes up the folder the bridge opened by path, and re-attaches to the servers it runs for it (not another workspace\'s)', async () => {
    mock(vi.spyOn(bridgeApi, 'workspaces').mockResolvedValue([{ id: 'a', root: '/a', jpDir: '/a/.jp' }, b]));
    mock(vi.spyOn(bridgeApi, 'servers').mockResolvedValue([view('fs'), view('mem', { status: 'stopped' }), view('fs-2', { declaredAs: 'fs', from: 'workspace /a/.jp' })]));
    const store = createWorkbenchStore(EMPTY_DOC);
    store.getState().openWorkspace({ source: '/b/.jp', files: { 'config.toml': '' } });
    store.getState().ensureServer({ name: 'fs', status: 'running', tools: [] });
    expect(await reattachBridge(store)).toBe(true);
    const s = store.getState();
    expect(s.bridgeWorkspace).toEqual(b);
    expect(s.bridgeLinks.get('fs')).toBe(`${origin}/bridge/servers/fs/mcp`);
    expect(s.liveWanted.get('fs')).toBe(true);
    // A stopped one is shown as the bridge has it (Start), not simulated.
    expect(s.bridgeLinks.get('mem')).toBe(`${origin}/bridge/servers/mem/mcp`);
    expect(s.liveWanted.get('mem')).toBe(false);
    expect([...s.bridgeLinks.values()]).not.toContain(`${origin}/bridge/servers/fs-2/mcp`);
  });

  it('reloaded while a server was still starting, the page follows it once it runs', async () => {
    vi.useFakeTimers();
    try {
      mock(vi.spyOn(bridgeApi, 'workspaces').mockResolvedValue([b]));
      const servers = mock(vi.spyOn(bridgeApi, 'servers').mockResolvedValue([view('fs', { status: 'starting' })]));
      const store = createWorkbenchStore(EMPTY_DOC);
      store.getState().openWorkspace({ source: '/b/.jp', files: { 'config.toml': '' } });
      expect(await reattachBridge(store)).toBe(true);
      expect(store.getState().bridgeLinks.get('fs')).toBe(`${origin}/bridge/servers/fs/mcp`);
      expect(store.getState().liveWanted.get('fs')).toBe(false);
      await vi.advanceTimersByTimeAsync(3000);
      expect(store.getState().liveWanted.get('fs')).toBe(false);
      servers.mockResolvedValue([view('fs')]);
      await vi.advanceTimersByTimeAsync(1500);
      expect(store.getState().liveWanted.get('fs')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a document that does not use the workspace gets no server added by a reload (one it names is linked)', async () => {
    mock(vi.spyOn(bridgeApi, 'workspaces').mockResolvedValue([b]));
    mock(vi.spyOn(bridgeApi, 'servers').mockResolvedValue([view('fs'), view('mem')]));
    const store = createWorkbenchStore(EMPTY_DOC);
    store.getState().openWorkspace({ source: '/b/.jp', files: { 'config.toml': '' } });
    store.getState().replaceDoc({ ...EMPTY_DOC, servers: [{ name: 'mem', status: 'running', tools: [] }] }, { kind: 'demo' });
    expect(store.getState().doc.workspace).toBeUndefined();
    expect(await reattachBridge(store)).toBe(true);
    expect(store.getState().doc.servers.map((x) => x.name)).toEqual(['mem']);
    expect([...store.getState().bridgeLinks.keys()]).toEqual(['mem']);
  });

  it('a folder the bridge did not open (the browser\'s picker) is left as it is', async () => {
    mock(vi.spyOn(bridgeApi, 'workspaces').mockResolvedValue([b]));
    mock(vi.spyOn(bridgeApi, 'servers').mockResolvedValue([view('fs')]));
    const store = createWorkbenchStore(EMPTY_DOC);
    store.getState().openWorkspace({ source: '.jp', files: { 'config.toml': '' } });
    expect(await reattachBridge(store)).toBe(false);
    expect(store.getState().bridgeWorkspace).toBeUndefined();
    expect(store.getState().bridgeLinks.size).toBe(0);
  });

  it('the same folder opened by path from another document: its running servers join that document, and the banner says so', async () => {
    mock(vi.spyOn(bridgeApi, 'openWorkspace').mockResolvedValue({ workspace: b, files: { 'config.toml': '' } }));
    mock(vi.spyOn(bridgeApi, 'servers').mockResolvedValue([view('fs')]));
    const store = createWorkbenchStore(EMPTY_DOC);
    await openWorkspaceByPath(store, '/b');
    const s = store.getState();
    expect(s.doc.servers.map((x) => [x.name, x.status])).toEqual([['fs', 'running']]);
    expect(s.bridgeLinks.get('fs')).toBe(`${origin}/bridge/servers/fs/mcp`);
    expect(s.banner?.message).toContain('The bridge already runs its server fs: attached.');
  });

  it('a second Start, when every planned server runs with its command, asks nothing and says they run; a changed command asks', async () => {
    const planned = (commandLine: string) => ({ id: 'p', workspace: 'b', servers: [{ name: 'fs', commandLine, command: 'node', arguments: ['fs.js'], cwd: '/b', variables: [], optional: false, jpStarts: true, startupTimeoutSecs: 10 }], problems: [], notStarted: [], cwd: '/b', hidden: [], expiresAt: 0 });
    const plan = mock(vi.spyOn(bridgeApi, 'plan').mockResolvedValue(planned('node fs.js')));
    mock(vi.spyOn(bridgeApi, 'servers').mockResolvedValue([view('fs')]));
    const store = createWorkbenchStore(EMPTY_DOC);
    store.getState().setBridgeWorkspace(b);
    await askToStartServers(store);
    expect(store.getState().bridgeConfirm).toBeUndefined();
    expect(store.getState().banner?.message).toMatch(/^fs already runs in the bridge, with the command shown: nothing was started again/u);
    expect(store.getState().bridgeLinks.get('fs')).toBe(`${origin}/bridge/servers/fs/mcp`);
    plan.mockResolvedValue(planned('node fs.js --changed'));
    await askToStartServers(store);
    expect(store.getState().bridgeConfirm?.servers.map((x) => x.name)).toEqual(['fs']);
    expect(store.getState().bridgeConfirm?.running).toBeUndefined();
    // One of two runs: the dialog asks for the other, and marks the one left as it is.
    const two = planned('node fs.js');
    plan.mockResolvedValue({ ...two, servers: [...two.servers, { ...two.servers[0]!, name: 'mem', commandLine: 'node mem.js' }] });
    await askToStartServers(store);
    expect(store.getState().bridgeConfirm?.servers.map((x) => x.name)).toEqual(['fs', 'mem']);
    expect(store.getState().bridgeConfirm?.running).toEqual(['fs']);
  });

  it('says which servers the bridge did not start again because they ran', async () => {
    mock(vi.spyOn(bridgeApi, 'startPlan').mockResolvedValue({ servers: [view('fs'), view('mem')], alreadyRunning: ['fs'] }));
    const store = createWorkbenchStore(EMPTY_DOC);
    store.getState().setBridgeConfirm({ planId: 'p', workspace: 'b', jpDir: '/b/.jp', servers: [], problems: [], notStarted: [], hidden: [] });
    await startConfirmed(store);
    expect(store.getState().banner?.message).toContain('fs already ran in the bridge, with the same command: not started again');
    expect(store.getState().liveWanted.get('mem')).toBe(true);
  });
});
