// The local bridge from the page (issue 19): a temporary JP workspace whose [providers.mcp.fs]
// runs @modelcontextprotocol/server-filesystem over stdio, started from the page after one
// confirmation; its tools permitted and searchable for the persona, found with search_tools, run
// for real (the result recorded in the step), then stopped: the live state shows beside the recorded
// one, and the sets and the recorded results stay as recorded (issue 24.2).
// Served without the bridge (vite preview), the page says that stdio servers need npm start.
import { test, expect } from './fixtures';
import type { Page } from '@playwright/test';
import { BridgePage } from './pages/BridgePage';
import { strToU8, zipSync } from 'fflate';
import { hostileBin, jpWorkspace, serverBin, startServe } from './bridgeServe';
import type { Serve } from './bridgeServe';
import type { WorkbenchPage } from './pages/WorkbenchPage';

const workspace = () =>
  jpWorkspace((root) => ({
    '.jp/config.toml': `config_load_paths = [".jp/personas"]\n\n[providers.mcp.fs]\ntype = "stdio"\ncommand = "node"\narguments = [${JSON.stringify(serverBin('filesystem'))}, ${JSON.stringify(`${root}/data`)}]\n`,
    '.jp/personas/dev.toml': ['read_text_file', 'list_directory', 'write_file'].map((t) => `[conversation.tools.${t}]\nsource = "mcp.fs"\nenable = "discoverable"\n`).join('\n'),
  }));

const shots = process.env.BRIDGE_SCREENSHOTS;

/** BRIDGE_SCREENSHOTS=DIR: the page at 1024×768 and 1440×900, as NAME-WIDTH.png. */
async function shotsAt(page: Page, name: string): Promise<void> {
  if (!shots) return;
  for (const [w, h] of [[1024, 768], [1440, 900]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `${shots}/${name}-${w}.png` });
  }
}

test.describe('the local bridge', () => {
  let serve: Serve;
  test.beforeEach(async () => {
    serve = await startServe();
  });
  test.afterEach(async () => {
    await serve.stop();
  });

  test('starts a workspace server from the page, runs its tool for real, and stops it', async ({ workbench, page }) => {
    test.setTimeout(180_000);
    const root = workspace();
    const bridge = workbench.bridge;
    await bridge.open(serve.url);
    await expect(page).not.toHaveURL(/code=/u);
    const token = await bridge.sessionToken();

    await test.step('open the workspace by its path and pick the persona', async () => {
      await bridge.openWorkspace(root);
      await workbench.workspace.pickPersona('dev');
      await expect(bridge.workspaceServer('fs').getByTestId('workspace-server-command')).toHaveText(`node ${serverBin('filesystem')} ${root}/data`);
      await expect(bridge.workspaceServer('fs').getByTestId('bridge-status')).toHaveText('not started');
      const before = await workbench.snapshot();
      expect(before.sets.rows.find((r) => r.name === 'read_text_file')?.permitted).toBe(false);
    });

    await test.step('Start servers asks once, showing the command, its folder and the environment', async () => {
      const dialog = await bridge.askToStart();
      await expect(dialog.getByTestId('planned-command')).toHaveText(`node ${serverBin('filesystem')} ${root}/data`);
      // JP runs its servers as if launched from the workspace's root, the folder holding .jp (RFD 087; issue 34.1).
      await expect(dialog.getByTestId('planned-cwd')).toHaveText(root);
      await expect(dialog.getByTestId('planned-variables')).toHaveText('inherited, nothing added');
      expect(serve.stdout()).not.toContain('starting fs');
      if (shots) {
        for (const [w, h] of [[1024, 768], [1440, 900]] as const) {
          await page.setViewportSize({ width: w, height: h });
          await page.screenshot({ path: `${shots}/bridge-confirm-${w}.png` });
        }
      }
      await bridge.confirmStart();
      await expect(bridge.workspaceServer('fs').getByTestId('bridge-status')).toHaveText('running', { timeout: 20_000 });
      // What started it, truthfully: the plan, and the request that confirmed it with this tab's session.
      expect(serve.stdout()).toMatch(new RegExp(`starting fs \\(from workspace ${root}/\\.jp; plan \\S+, confirmed by POST /bridge/workspaces/\\S+/start from session 1\\): `, 'u'));
      expect(serve.stdout()).toContain(`): node ${serverBin('filesystem')} ${root}/data  [in ${root}]`);
    });

    await test.step("the server's real tools are permitted and searchable for the persona", async () => {
      await expect
        .poll(async () => {
          const s = await workbench.snapshot();
          const row = s.sets.rows.find((r) => r.name === 'read_text_file');
          return row ? { permitted: row.permitted, searchable: row.searchable } : undefined;
        }, { timeout: 20_000 })
        .toEqual({ permitted: true, searchable: true });
      const s = await workbench.snapshot();
      expect(s.doc.servers.find((x) => x.name === 'fs')?.tools.length).toBe(14);
    });

    await test.step('search_tools finds it, and it runs on the server for real', async () => {
      const sim = workbench.simulator;
      await sim.open();
      await sim.addStep("jp q 'What does the hello file say?'");
      await sim.search('read text file');
      await expect(page.getByTestId('sim-search-result').locator('[data-tool="read_text_file"]')).toBeVisible();
      await bridge.pickTool('read_text_file');
      await bridge.field('path').fill(`${root}/data/hello.txt`);
      expect(await bridge.run()).toContain('hello from the workspace');
      const s = await workbench.snapshot();
      const calls = s.doc.steps.at(-1)?.cycles.flatMap((c) => c.calls) ?? [];
      expect(calls.at(-1)).toMatchObject({ tool: 'read_text_file', args: { path: `${root}/data/hello.txt` }, result: expect.stringContaining('hello from the workspace') });
    });

    await test.step('a destructive tool asks before it runs', async () => {
      await bridge.pickTool('write_file');
      await bridge.runner().getByTestId('run-raw').check();
      await bridge.runner().getByTestId('run-raw-text').fill(JSON.stringify({ path: `${root}/data/new.txt`, content: 'x' }));
      await bridge.runner().getByTestId('run-submit').click();
      await expect(bridge.runner().getByTestId('run-confirm')).toContainText('write_file is annotated destructive');
      if (shots) {
        for (const [w, h] of [[1024, 768], [1440, 900]] as const) {
          await page.setViewportSize({ width: w, height: h });
          await page.screenshot({ path: `${shots}/bridge-run-${w}.png` });
        }
      }
      await bridge.runner().getByRole('button', { name: 'Cancel' }).click();
      await expect(bridge.runner().getByTestId('run-result')).toHaveCount(0);
    });

    await test.step('Stop: the live state shows beside the recorded one; the sets stay as recorded', async () => {
      await workbench.workspace.show();
      await bridge.stopServers();
      await expect(bridge.workspaceServer('fs').getByTestId('bridge-status')).toHaveText('stopped', { timeout: 20_000 });
      await workbench.servers.show();
      await expect(workbench.servers.liveNow('fs')).toHaveText('server stopped now', { timeout: 20_000 });
      const s = await workbench.snapshot();
      expect(s.doc.servers.find((x) => x.name === 'fs')?.status).toBe('running');
      expect(s.sets.rows.find((r) => r.name === 'read_text_file')?.permitted).toBe(true);
      if (shots) {
        await workbench.servers.show();
        for (const [w, h] of [[1024, 768], [1440, 900]] as const) {
          await page.setViewportSize({ width: w, height: h });
          await page.screenshot({ path: `${shots}/bridge-servers-${w}.png` });
        }
      }
    });

    await test.step('the code is spent: a reload keeps the tab its session; the same address in another tab opens none, and says how to get one', async () => {
      await page.reload();
      await page.waitForFunction(() => window.__workbench !== undefined);
      expect(await bridge.sessionToken()).toBe(token);
      // Not shared with the origin: another tab, or another page, never finds it.
      expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(token);
      const second = await page.context().newPage();
      await new BridgePage(second).open(serve.url);
      await expect(second).not.toHaveURL(/code=/u);
      await second.getByRole('tab', { name: 'Servers' }).click();
      await expect(second.getByTestId('bridge-absent')).toContainText('spent or wrong');
      await second.close();
      // A new address from the terminal opens a session in another tab.
      const third = await page.context().newPage();
      await new BridgePage(third).open(await serve.newAddress());
      await third.getByRole('tab', { name: 'Servers' }).click();
      await expect(third.getByTestId('bridge-bar')).toContainText('speaks MCP 2025-11-25');
      await third.close();
      // The first tab kept its own session all along.
      expect(await bridge.sessionToken()).toBe(token);
    });
  });
});

test.describe('what the bridge will not let a command or a server hide', () => {
  let serve: Serve;
  test.beforeEach(async () => {
    serve = await startServe();
  });
  test.afterEach(async ({ page }) => {
    await page.close();
    await serve.stop();
  });

  test('the confirmation shows hidden characters escaped and asks twice; Run on server shows progress and answers an elicitation', async ({ workbench, page }) => {
    test.setTimeout(120_000);
    // A harmless server whose arguments carry bidi controls: the dialog must show them, not obey them.
    const spoof = '\u202e\u2066; echo hidden\u2069 \u2066 # asks\u2069\u202c';
    const root = jpWorkspace(() => ({
      '.jp/config.toml': `[providers.mcp.asks]\ntype = "stdio"\ncommand = "node"\narguments = [${JSON.stringify(hostileBin)}, "asks", ${JSON.stringify(spoof)}]\n\n[conversation.tools.ask]\nsource = "mcp.asks"\nenable = true\n`,
    }));
    const bridge = workbench.bridge;
    await bridge.open(serve.url);
    await bridge.openWorkspace(root);

    await test.step('the command line shows each hidden character escaped, with a warning naming them', async () => {
      const dialog = await bridge.askToStart();
      await expect(dialog.getByTestId('planned-command')).toHaveText(`node ${hostileBin} asks '\\u202E\\u2066; echo hidden\\u2069 \\u2066 # asks\\u2069\\u202C'`);
      await expect(dialog.getByTestId('planned-command').getByTestId('hidden-char')).toHaveCount(6);
      await expect(dialog.getByTestId('planned-hidden')).toContainText('asks, argument 3: U+202E RIGHT-TO-LEFT OVERRIDE, U+2066 LEFT-TO-RIGHT ISOLATE, U+2069 POP DIRECTIONAL ISOLATE, U+202C POP DIRECTIONAL FORMATTING');
      await shotsAt(page, 'bridge-hidden');
    });

    await test.step('Start asks a second time, and only then runs it', async () => {
      await page.getByTestId('start-servers-confirm').click();
      const again = page.getByTestId('start-servers-again');
      await expect(again).toContainText('hidden characters');
      await expect(page.getByTestId('start-servers-cancel-again')).toBeFocused();
      expect(serve.stdout()).not.toContain('starting asks');
      await shotsAt(page, 'bridge-hidden-again');
      await page.getByTestId('start-servers-confirm-hidden').click();
      await expect(bridge.workspaceServer('asks').getByTestId('bridge-status')).toHaveText('running', { timeout: 20_000 });
      const line = serve.stdout().split('\n').find((l) => l.startsWith('starting asks')) ?? '';
      expect(line).toContain("'\\u202E\\u2066; echo hidden\\u2069 \\u2066 # asks\\u2069\\u202C'");
      expect(line).toContain('WARNING: hidden characters');
    });

    await test.step('Run on server: the progress shows, the server asks with a form from its schema (defaults filled), the answer returns and is recorded in the step', async () => {
      await expect.poll(async () => (await workbench.snapshot()).doc.servers.find((x) => x.name === 'asks')?.tools.length, { timeout: 20_000 }).toBe(1);
      const sim = workbench.simulator;
      await sim.open();
      await sim.addStep("jp q 'ask me'");
      await bridge.pickTool('ask');
      await bridge.runner().getByTestId('run-submit').click();
      const form = bridge.runner().getByTestId('run-ask');
      await expect(form.getByTestId('run-ask-message')).toHaveText('Which colour?');
      await expect(bridge.runner().getByTestId('run-progress')).toContainText('1 of 2: asking');
      await expect(form.getByLabel('colour', { exact: true })).toHaveValue('1');
      await expect(form.getByLabel('count', { exact: true })).toHaveValue('3');
      // It comes into view, its first field focused, wherever the dock was scrolled.
      await expect(form.getByLabel('colour', { exact: true })).toBeFocused();
      await expect(form).toBeInViewport();
      await shotsAt(page, 'bridge-elicitation');
      await form.getByLabel('colour', { exact: true }).selectOption({ label: 'red' });
      await form.getByTestId('run-ask-accept').click();
      await expect(bridge.runner().getByTestId('run-result')).toContainText('answered {"action":"accept","content":{"count":3,"colour":"red"}}');
      const s = await workbench.snapshot();
      const call = s.doc.steps.at(-1)?.cycles.flatMap((c) => c.calls).at(-1);
      expect(call).toMatchObject({ tool: 'ask', asked: [{ kind: 'elicitation', message: 'Which colour?', action: 'accept', content: { colour: 'red', count: 3 } }] });
    });
  });
});

test('served without the bridge, the page says stdio servers need npm start', async ({ workbench, page }) => {
  await workbench.open();
  await workbench.workspace.openFolder(`${workspace()}/.jp`);
  await expect(page.getByTestId('workspace-needs-bridge')).toContainText('declares 1 stdio MCP server');
  await expect(page.getByTestId('workspace-needs-bridge')).toContainText('npm start');
  await workbench.servers.show();
  await expect(page.getByTestId('bridge-absent')).toContainText('npm start');
});

/** The served page opens the test workspace as `dev` and starts its servers, confirmed in the page. */
async function startDevServers(workbench: WorkbenchPage, url: string, root: string): Promise<void> {
  await workbench.bridge.open(url);
  await workbench.bridge.openWorkspace(root);
  await workbench.workspace.pickPersona('dev');
  await workbench.bridge.askToStart();
  await workbench.bridge.confirmStart();
  await expect(workbench.bridge.workspaceServer('fs').getByTestId('bridge-status')).toHaveText('running', { timeout: 20_000 });
}

test('the bridge keeps the page\'s servers while the page is open on another document (issue 24.3)', async ({ workbench, page }) => {
  test.setTimeout(120_000);
  // A 3-second idle stop: the page's heartbeat must reach the bridge well within it, whatever it shows.
  const serve = await startServe({}, ['--idle-stop', '3']);
  try {
    const root = workspace();
    const bridge = workbench.bridge;
    await startDevServers(workbench, serve.url, root);

    await test.step('another document, and a tab that polls nothing of the bridge', async () => {
      await workbench.runCommand('file.demo');
      await workbench.simulator.open();
      await expect(page.getByTestId('workspace-panel')).toHaveCount(0);
    });

    await test.step('four idle periods later the servers still run', async () => {
      // Waiting out the bridge's idle stop is the behaviour under test, not a time assertion.
      await page.waitForTimeout(12_000);
      expect(serve.stdout()).not.toContain('no page for');
      const token = await bridge.sessionToken();
      const listed = await page.evaluate(async (t) => (await fetch('/bridge/servers', { headers: { authorization: `Bearer ${t}` } })).json() as Promise<{ servers: { name: string; status: string }[] }>, token);
      expect(listed.servers.find((s) => s.name === 'fs')?.status).toBe('running');
    });
  } finally {
    await serve.stop();
  }
});

test('a recording replays as recorded: stopping the servers shows "stopped now" beside the recorded search and call (issue 24.2)', async ({ workbench, page }) => {
  test.setTimeout(180_000);
  const serve = await startServe();
  try {
    const root = workspace();
    const bridge = workbench.bridge;
    const sim = workbench.simulator;
    const servers = workbench.servers;
    await startDevServers(workbench, serve.url, root);
    await expect.poll(async () => (await workbench.snapshot()).sets.rows.find((r) => r.name === 'read_text_file')?.permitted, { timeout: 20_000 }).toBe(true);

    let caption = '';
    await test.step('record a real search and a real call', async () => {
      await sim.open();
      await sim.addStep("jp q 'What does the hello file say?'");
      await sim.search('read text file');
      await expect(sim.searchResults().locator('[data-tool="read_text_file"]')).toBeVisible();
      caption = (await sim.searchResults().locator('caption').textContent()) ?? '';
      expect(caption).toMatch(/^[1-9]\d* returned of [1-9]\d* matches/u);
      await bridge.pickTool('read_text_file');
      await bridge.field('path').fill(`${root}/data/hello.txt`);
      expect(await bridge.run()).toContain('hello from the workspace');
      await expect(sim.callRow('read_text_file')).toHaveAttribute('data-call-status', 'ok');
      await expect(sim.liveNow()).toHaveCount(0);
    });

    await test.step('stop the servers: the recording stays, the live state shows beside it', async () => {
      await workbench.workspace.show();
      await bridge.stopServers();
      await expect(bridge.workspaceServer('fs').getByTestId('bridge-status')).toHaveText('stopped', { timeout: 20_000 });
      await servers.show();
      await expect(servers.liveNow('fs')).toHaveText('server stopped now', { timeout: 20_000 });
      await expect(servers.recorded('fs')).toContainText('recorded running · 14 tools listed');
      await shotsAt(page, 'replay-servers-stopped');
      await sim.open();
      await expect(sim.searchResults().locator('caption')).toHaveText(caption);
      await expect(sim.searchResults().locator('[data-tool="read_text_file"]')).toBeVisible();
      await expect(sim.callRow('read_text_file')).toHaveAttribute('data-call-status', 'ok');
      await expect(sim.liveNow().first()).toHaveText('fs: server stopped now');
      await shotsAt(page, 'replay-sim-stopped');
      const s = await workbench.snapshot();
      expect(s.doc.servers.find((x) => x.name === 'fs')).toMatchObject({ status: 'running' });
      expect(s.doc.servers.find((x) => x.name === 'fs')?.tools.length).toBe(14);
      expect(s.sets.rows.find((r) => r.name === 'read_text_file')?.permitted).toBe(true);
    });

    await test.step('start them again: the live state agrees with the recording, and nothing shows beside it', async () => {
      await workbench.workspace.show();
      await bridge.askToStart();
      await bridge.confirmStart();
      await expect(bridge.workspaceServer('fs').getByTestId('bridge-status')).toHaveText('running', { timeout: 20_000 });
      await sim.open();
      await expect(sim.liveNow()).toHaveCount(0, { timeout: 20_000 });
      await expect(sim.searchResults().locator('caption')).toHaveText(caption);
      await expect(sim.callRow('read_text_file')).toHaveAttribute('data-call-status', 'ok');
    });
  } finally {
    // The page first: it would otherwise poll a bridge that is gone.
    await page.close();
    await serve.stop();
  }
});

test('after a .zip, a folder opened by its path is the one the banner and About name (issue 35)', async ({ workbench, page }) => {
  test.setTimeout(120_000);
  const serve = await startServe();
  try {
    const root = workspace();
    await workbench.bridge.open(serve.url);
    if ((await workbench.guide.welcome().count()) > 0) await workbench.guide.dismissWelcome();
    await workbench.workspace.openZip('proj.zip', Buffer.from(zipSync({ 'proj/.jp/config.toml': strToU8('[conversation.tools.notify]\nsource = "local"\nsummary = "Send a note."\nenable = true\n') })));
    await expect(workbench.banner()).toContainText('Opened the workspace proj.zip');
    await expect(workbench.guide.description()).toContainText('proj.zip');

    await workbench.bridge.openWorkspace(root);
    await expect(workbench.banner()).toContainText(`Opened the workspace ${root}`);
    await expect(workbench.banner()).not.toContainText('proj.zip');
    await expect(workbench.guide.description()).toContainText(root);
    await expect(workbench.guide.description()).not.toContainText('proj.zip');
    if (shots) await page.screenshot({ path: `${shots}/opened-by-path.png` });
  } finally {
    await serve.stop();
  }
});
