// HTTP MCP servers reached through the local bridge (issue 19): from the Servers panel's one flow and
// from the import dialog, against `tool-workbench serve` started here. server-everything, and a
// server that sends no CORS headers and wants an Authorization header (CORS never matters through
// the bridge; the header's value stays in it: never in autosave, a share link, a saved scenario, a
// snapshot, the page or a log). "Save snapshot" writes what `tool-workbench snapshot` writes, and a
// scenario naming it passes `tool-workbench check` offline.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, startNoCorsMcp } from './mcpServers';
import { expectConsoleErrors } from './fixtures';
import { jpWorkspace, serverBin, startServe } from './bridgeServe';
import type { Serve } from './bridgeServe';
import { screenshotsAtTwoSizes } from './screens';
import { decodeShared } from '../src/features/share/codec';

const SECRET = 'sk-live-7f3a9c1e5b2d';
const AUTH = `Bearer ${SECRET}`;
const CLI = resolve('cli-bin', 'tool-workbench.cjs');

/**
 * Everything the page keeps in this browser, as text: `documents` what IndexedDB holds (the autosaved
 * document, its history), `all` that and localStorage and sessionStorage (where the bridge's session token is
 * kept on purpose, for this origin only).
 */
async function storedText(page: Page): Promise<{ all: string; documents: string }> {
  const [storage, documents] = await page.evaluate(async () => {
    const out: string[] = [];
    const plain = (_k: string, v: unknown) => (v instanceof Map ? [...v.entries()] : v instanceof Set ? [...v] : v);
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((ok, fail) => {
        const req = indexedDB.open(info.name as string);
        req.onsuccess = () => ok(req.result);
        req.onerror = () => fail(req.error ?? new Error('open failed'));
      });
      for (const store of [...db.objectStoreNames]) {
        const all = await new Promise<unknown[]>((ok, fail) => {
          const req = db.transaction(store).objectStore(store).getAll();
          req.onsuccess = () => ok(req.result);
          req.onerror = () => fail(req.error ?? new Error('read failed'));
        });
        out.push(JSON.stringify(all, plain));
      }
      db.close();
    }
    return [JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }), out.join('\n')] as const;
  });
  return { all: `${storage}\n${documents}`, documents };
}

function cli(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 90_000 });
}

test.describe('HTTP servers through the bridge', () => {
  let serve: Serve;
  test.beforeEach(async () => {
    serve = await startServe();
  });
  test.afterEach(async ({ page }) => {
    // The page first: its polls of a bridge that is gone would be console errors.
    await page.close();
    await serve.stop();
  });

  test('the Servers panel reaches server-everything and a server without CORS; its header never leaves the bridge', async ({ workbench, everything, page, consoleErrors }, info) => {
    test.setTimeout(150_000);
    const bridge = workbench.bridge;
    const notes = await startNoCorsMcp(AUTH);
    try {
      await bridge.open(serve.url);
      const token = await bridge.sessionToken();

      await test.step('server-everything (streamableHttp): named from its serverInfo, its tools listed', async () => {
        await bridge.reachHttp(everything.url);
        await expect.poll(async () => (await workbench.snapshot()).doc.servers.map((s) => s.name), { timeout: 20_000 }).toContain('mcp-servers_everything');
        await expect(bridge.status('mcp-servers_everything')).toHaveText('running');
        await expect
          .poll(async () => (await workbench.snapshot()).doc.servers.find((s) => s.name === 'mcp-servers_everything')?.tools.map((t) => t.name), { timeout: 20_000 })
          .toEqual(expect.arrayContaining(['echo', 'get-sum']));
        const doc = (await workbench.snapshot()).doc.servers.find((s) => s.name === 'mcp-servers_everything');
        // The scenario records the server's own URL; the bridge's endpoint belongs to this session.
        expect(doc?.url).toBe(everything.url);
        // Its generated layer names the server once (it had been `mcp-mcp-servers_everything`).
        await expect(workbench.layers.tab('mcp-servers_everything')).toBeVisible();
        await expect(workbench.layers.tabs().filter({ hasText: 'mcp-mcp-' })).toHaveCount(0);
      });

      await test.step('a server without CORS, with an Authorization header the user adds', async () => {
        await bridge.fillHttp(notes.url, { headers: `Authorization: ${AUTH}` });
        await screenshotsAtTwoSizes(page, info, 'bridge-http-form');
        await bridge.submitHttp();
        await expect(bridge.status('notes-server')).toHaveText('running', { timeout: 20_000 });
        await expect
          .poll(async () => (await workbench.snapshot()).doc.servers.find((s) => s.name === 'notes-server')?.tools.map((t) => t.name), { timeout: 20_000 })
          .toEqual(['notes_search', 'notes_read', 'whoami']);
        // Every request came from the bridge (no browser preflight), each with the header.
        expect(notes.requests.filter((r) => r.startsWith('OPTIONS'))).toEqual([]);
        expect(new Set(notes.authorizations)).toEqual(new Set([AUTH]));
        // Its name is shown, never its value; the reply that echoed the key reaches the page masked.
        await expect(bridge.controls('notes-server')).toContainText('(headers: Authorization)');
        const whoami = (await workbench.snapshot()).doc.servers.find((s) => s.name === 'notes-server')?.tools.find((t) => t.name === 'whoami');
        expect(whoami?.description).toBe('Says who you are (you sent ***).');
      });

      await test.step('its tool list diffs as for a direct connection', async () => {
        notes.setTools([
          { name: 'notes_search', description: 'Search the notes by words in their title or text.' },
          { name: 'notes_read', description: 'Read one note by its id.' },
          { name: 'notes_delete', description: 'Delete one note by its id.' },
        ]);
        await workbench.servers.button('notes-server', 'server-refetch').click();
        const change = workbench.servers.change('notes-server');
        await expect(change).toContainText('live list differs now: +1 ·', { timeout: 20_000 });
        await expect(change).toContainText('+1 added (notes_delete)');
        await expect(workbench.servers.liveList('notes-server')).toHaveText('live list differs now: +1');
        // Beside the recording, never over it (issue 24.2): the document keeps the list it recorded.
        expect((await workbench.snapshot()).doc.servers.find((s) => s.name === 'notes-server')?.tools.map((t) => t.name)).toEqual(['notes_search', 'notes_read', 'whoami']);
      });

      await test.step('the log shows the traffic, masked', async () => {
        const log = await bridge.log('notes-server');
        await expect(log).toContainText('tools/list');
        await expect(log).toContainText('(you sent ***)');
        await screenshotsAtTwoSizes(page, info, 'bridge-http-servers');
      });

      await test.step('the header is in no save, link, file, snapshot, page or log', async () => {
        await workbench.flushAutosave();
        const stored = await storedText(page);
        expect(stored.documents).toContain('notes-server');
        expect(stored.all).not.toContain(SECRET);
        expect(stored.documents).not.toContain(token);
        const link = await workbench.share.link();
        const shared = decodeShared(new URL(link).hash);
        expect(shared.ok && shared.text.includes('notes-server')).toBe(true);
        expect(shared.ok && !shared.text.includes(SECRET) && !shared.text.includes(token)).toBe(true);
        const file = await workbench.saveScenarioFile();
        expect(file).toContain('notes-server');
        expect(file).not.toContain(SECRET);
        const snap = readFileSync(await (await bridge.saveSnapshot()).path(), 'utf8');
        expect(snap).toContain('"notes-server"');
        expect(snap).not.toContain(SECRET);
        expect(snap).not.toContain(token);
        expect(await page.content()).not.toContain(SECRET);
        expect(serve.stdout()).toContain(`${notes.url} with headers Authorization`);
        expect(serve.stdout()).not.toContain(SECRET);
      });

      await test.step('stopping the server is seen as failed, beside the recording, which stays (issue 24.2)', async () => {
        const before = consoleErrors.length;
        // The page's session with the bridge's endpoint for it is refused from then on (503): the
        // browser logs that, as it should, as often and as late as the page's client tries again;
        // nothing else may be logged, to the end of the test.
        expectConsoleErrors((text, url) => url.includes('/bridge/servers/notes-server/') && text.includes('status of 503 (Service Unavailable)'));
        const stoppedAt = Date.now();
        await notes.close();
        await expect(bridge.status('notes-server')).toHaveText('failed', { timeout: 20_000 });
        const seenAfterMs = Date.now() - stoppedAt;
        info.annotations.push({ type: 'offline seen after', description: `${seenAfterMs} ms (the issue asks for 5,000 ms)` });
        await expect(bridge.controls('notes-server').getByTestId('bridge-error')).toContainText('stopped answering');
        await expect(workbench.servers.liveNow('notes-server')).toContainText('server failed now');
        expect((await workbench.snapshot()).sets.rows.some((r) => r.name === 'notes_search' && r.permitted)).toBe(true);
        expect(consoleErrors.slice(before)).toEqual([]);
      });
    } finally {
      await notes.close();
    }
  });

  test('Save snapshot downloads what tool-workbench snapshot writes, and a scenario naming it passes check offline', async ({ workbench }) => {
    test.setTimeout(150_000);
    const root = jpWorkspace((r) => ({
      '.jp/config.toml': `[providers.mcp.fs]\ntype = "stdio"\ncommand = ${JSON.stringify(process.execPath)}\narguments = [${JSON.stringify(serverBin('filesystem'))}, ${JSON.stringify(`${r}/data`)}]\n`,
    }));
    const bridge = workbench.bridge;
    await bridge.open(serve.url);
    const token = await bridge.sessionToken();
    await bridge.openWorkspace(root);
    await bridge.askToStart();
    await bridge.confirmStart();
    await expect(bridge.workspaceServer('fs').getByTestId('bridge-status')).toHaveText('running', { timeout: 20_000 });
    await expect.poll(async () => (await workbench.snapshot()).doc.servers.find((s) => s.name === 'fs')?.tools.length, { timeout: 20_000 }).toBe(14);

    const dir = mkdtempSync(join(tmpdir(), 'wb-snap-'));
    const fromPage = readFileSync(await (await bridge.saveSnapshot()).path(), 'utf8');
    await expect(workbench.banner()).toContainText('catalogue = "snapshot.json#fs"');
    writeFileSync(join(dir, 'snap.json'), fromPage);
    expect(fromPage).not.toContain(token);

    await test.step("the command line's snapshot of the same workspace is the same catalogue", () => {
      const r = cli('snapshot', '--workspace', root, '--out', join(dir, 'cli.json'));
      expect(r.status, r.stderr).toBe(0);
      type Snap = [{ name: string; description: string; tools: Record<string, unknown> }];
      const page = JSON.parse(fromPage) as Snap;
      const line = JSON.parse(readFileSync(join(dir, 'cli.json'), 'utf8')) as Snap;
      expect(page).toHaveLength(1);
      expect(Object.keys(page[0].tools)).toEqual(['fs']);
      expect(page[0].tools.fs).toEqual(line[0].tools.fs);
      expect(page[0].tools.fs).toMatchObject({ serverInfo: { name: 'secure-filesystem-server' }, protocolVersion: expect.any(String) });
    });

    await test.step('a scenario naming it passes check, offline', () => {
      // The command line's own replay scenario (src/bridge/snapshot.test.ts), naming the page's file.
      writeFileSync(join(dir, 'replay.toml'), readFileSync(resolve('src/bridge/fixtures/replay-fs.toml'), 'utf8'));
      const check = cli('check', join(dir, 'replay.toml'));
      expect(check.stdout).toMatch(/\b0 failed/u);
      expect(check.status, check.stdout + check.stderr).toBe(0);
    });
  });

  test('the import dialog connects through the bridge: no CORS needed, the header kept there', async ({ workbench, page }, info) => {
    test.setTimeout(120_000);
    const notes = await startNoCorsMcp(AUTH);
    try {
      await workbench.bridge.open(serve.url);
      await workbench.checkStatus().filter({ hasText: 'passed' }).waitFor();
      await workbench.importer.openLiveFromServersTab();
      const dialog = workbench.importer.dialog();
      await expect(dialog.getByTestId('import-via-bridge')).toBeChecked({ timeout: 20_000 });
      await dialog.getByTestId('import-headers').fill(`Authorization: ${AUTH}`);
      await workbench.importer.connect(notes.url);
      await expect(workbench.importer.liveStatus()).toHaveAttribute('data-status', 'running', { timeout: 20_000 });
      await expect(dialog.getByTestId('import-bridge-status')).toContainText('through the bridge as notes-server');
      await expect(dialog.getByTestId('import-server-name')).toHaveValue('notes-server');
      await expect(workbench.importer.tool('whoami')).toContainText('(you sent ***)');
      await screenshotsAtTwoSizes(page, info, 'import-through-bridge');
      await workbench.importer.confirm();

      await expect(workbench.bridge.status('notes-server')).toHaveText('running');
      const s = await workbench.snapshot();
      const server = s.doc.servers.find((x) => x.name === 'notes-server');
      expect(server?.url).toBe(notes.url);
      expect(server?.tools.map((t) => t.name)).toEqual(['notes_search', 'notes_read', 'whoami']);
      expect(s.doc.layers.some((l) => l.text.includes('notes_search'))).toBe(true);
      expect(notes.requests.filter((r) => r.startsWith('OPTIONS'))).toEqual([]);
      await workbench.flushAutosave();
      expect((await storedText(page)).all).not.toContain(SECRET);

      await test.step('a server reached from the dialog and not imported is let go by the bridge', async () => {
        const held = async () => {
          const origin = new URL(serve.url).origin;
          const res = await fetch(`${origin}/bridge/servers`, { headers: { Authorization: `Bearer ${await workbench.bridge.sessionToken()}` } });
          return ((await res.json()) as { servers: { name: string }[] }).servers.map((x) => x.name);
        };
        // Another server (the one imported is the bridge's already: asked again, it is the same).
        const other = await startNoCorsMcp(AUTH);
        try {
          await workbench.importer.openLiveFromServersTab();
          await dialog.getByTestId('import-headers').fill(`Authorization: ${AUTH}`);
          await workbench.importer.connect(other.url);
          await expect(workbench.importer.liveStatus()).toHaveAttribute('data-status', 'running', { timeout: 20_000 });
          await expect.poll(held).toHaveLength(2);
          await workbench.importer.close();
          await expect.poll(held, { timeout: 20_000 }).toEqual(['notes-server']);
        } finally {
          await other.close();
        }
      });
    } finally {
      await notes.close();
    }
  });
});

test('served without the bridge, the import dialog says what npm start adds', async ({ workbench }) => {
  await workbench.open();
  await workbench.runCommand('import.live');
  await expect(workbench.importer.dialog().getByTestId('import-bridge-absent')).toContainText('npm start');
  await expect(workbench.importer.dialog().getByTestId('import-via-bridge')).toHaveCount(0);
});
