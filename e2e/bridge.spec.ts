// The local bridge from the page (issue 19): a temporary JP workspace whose [providers.mcp.fs]
// runs @modelcontextprotocol/server-filesystem over stdio, started from the page after one
// confirmation; its tools permitted and searchable for the persona, found with search_tools, run
// for real (the result recorded in the step), then stopped: its tools leave the permitted set.
// Served without the bridge (vite preview), the page says that stdio servers need npm start.
import { test, expect } from './fixtures';
import { jpWorkspace, serverBin, startServe } from './bridgeServe';
import type { Serve } from './bridgeServe';

const workspace = () =>
  jpWorkspace((root) => ({
    '.jp/config.toml': `config_load_paths = [".jp/personas"]\n\n[providers.mcp.fs]\ntype = "stdio"\ncommand = "node"\narguments = [${JSON.stringify(serverBin('filesystem'))}, ${JSON.stringify(`${root}/data`)}]\n`,
    '.jp/personas/dev.toml': ['read_text_file', 'list_directory', 'write_file'].map((t) => `[conversation.tools.${t}]\nsource = "mcp.fs"\nenable = "discoverable"\n`).join('\n'),
  }));

const shots = process.env.BRIDGE_SCREENSHOTS;

test.describe('the local bridge', () => {
  let serve: Serve;
  test.beforeEach(async () => {
    serve = await startServe();
  });
  test.afterEach(async () => {
    await serve.stop();
  });

  test('starts a workspace server from the page, runs its tool for real, and stops it', async ({ workbench, page }) => {
    test.setTimeout(120_000);
    const root = workspace();
    const bridge = workbench.bridge;
    await bridge.open(serve.url);
    await expect(page).not.toHaveURL(/code=/u);
    const token = await bridge.sessionToken();

    await test.step('the code is spent: a reload keeps the tab its session; the same address in another tab opens none, and says how to get one', async () => {
      await page.reload();
      await page.waitForFunction(() => window.__workbench !== undefined);
      expect(await bridge.sessionToken()).toBe(token);
      // Not shared with the origin: another tab, or another page, never finds it.
      expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(token);
      const second = await page.context().newPage();
      await second.goto(serve.url);
      await expect(second).not.toHaveURL(/code=/u);
      await second.getByRole('tab', { name: 'Servers' }).click();
      await expect(second.getByTestId('bridge-absent')).toContainText('spent or wrong');
      // A new address from the terminal opens a session in that tab.
      await second.goto(await serve.newAddress());
      await second.getByRole('tab', { name: 'Servers' }).click();
      await expect(second.getByTestId('bridge-bar')).toContainText('speaks MCP 2025-11-25');
      await second.close();
      // The first tab kept its own session all along.
      expect(await bridge.sessionToken()).toBe(token);
    });

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
      expect(serve.stdout()).toContain(`starting fs (from workspace ${root}/.jp): node ${serverBin('filesystem')} ${root}/data  [in ${root}]`);
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

    await test.step('Stop: the tools leave the permitted set', async () => {
      await workbench.workspace.show();
      await bridge.stopServers();
      await expect(bridge.workspaceServer('fs').getByTestId('bridge-status')).toHaveText('stopped', { timeout: 20_000 });
      await expect
        .poll(async () => (await workbench.snapshot()).sets.rows.find((r) => r.name === 'read_text_file')?.permitted, { timeout: 20_000 })
        .toBe(false);
      if (shots) {
        await workbench.servers.show();
        for (const [w, h] of [[1024, 768], [1440, 900]] as const) {
          await page.setViewportSize({ width: w, height: h });
          await page.screenshot({ path: `${shots}/bridge-servers-${w}.png` });
        }
      }
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
