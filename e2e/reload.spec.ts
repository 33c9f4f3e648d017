// A reload keeps control (issue 34.5): the bridge is the truth for what runs. After a reload, or
// after opening the same folder by its path from another document, the page re-attaches to the
// servers the bridge runs for that folder, and every panel (Workspace, Servers, Sets) says they run,
// with Stop. A second Start says they already run and starts nothing (one of them stopped: it starts
// that one only). A second tab at the plain
// address (no one-time code) is told how to get a session: Enter in the bridge's terminal.
import { test, expect } from './fixtures';
import type { Page } from '@playwright/test';
import { jpWorkspace, serverBin, startServe } from './bridgeServe';
import { WorkbenchPage } from './pages/WorkbenchPage';
import { WorkspacePage } from './pages/WorkspacePage';

const workspace = () =>
  jpWorkspace((root) => ({
    '.jp/config.toml': `config_load_paths = [".jp/personas"]\n\n[providers.mcp.fs]\ntype = "stdio"\ncommand = "node"\narguments = [${JSON.stringify(serverBin('filesystem'))}, ${JSON.stringify(`${root}/data`)}]\n\n[providers.mcp.mem]\ntype = "stdio"\ncommand = "node"\narguments = [${JSON.stringify(serverBin('memory'))}]\n`,
    '.jp/personas/dev.toml': ['read_text_file', 'list_directory'].map((t) => `[conversation.tools.${t}]\nsource = "mcp.fs"\nenable = true\n`).join('\n'),
  }));

/** Every panel says fs runs, as the bridge does: the Workspace tab (by its path, Stop), the Servers tab (Stop), the Sets row. */
async function everyPanelSaysRunning(workbench: WorkbenchPage, page: Page): Promise<void> {
  const bridge = workbench.bridge;
  await workbench.workspace.show();
  await expect(workbench.workspace.pickedNote()).toHaveCount(0);
  await expect(bridge.workspaceServer('fs').getByTestId('bridge-status')).toHaveText('running', { timeout: 20_000 });
  await expect(page.getByTestId('workspace-stop-servers')).toBeEnabled();
  await workbench.servers.show();
  await expect(bridge.status('fs')).toHaveText('running', { timeout: 20_000 });
  await expect(bridge.controls('fs').getByTestId('bridge-stop')).toBeVisible();
  await expect(workbench.servers.card('fs').getByTestId('sim-status')).toHaveCount(0);
  await expect.poll(async () => (await workbench.snapshot()).sets.rows.find((r) => r.name === 'read_text_file')?.permitted, { timeout: 20_000 }).toBe(true);
  await workbench.sets.search('read_text_file');
  await expect(workbench.sets.serverWord('read_text_file')).toHaveText('fs · running', { timeout: 20_000 });
}

test('a reload, or the same folder opened from another document, re-attaches to the servers the bridge runs (issue 34.5)', async ({ workbench, page }, info) => {
  test.setTimeout(240_000);
  const serve = await startServe();
  try {
    const root = workspace();
    const bridge = workbench.bridge;
    await bridge.open(serve.url);
    await bridge.openWorkspace(root);
    await workbench.workspace.pickPersona('dev');
    await bridge.askToStart();
    await bridge.confirmStart();
    await everyPanelSaysRunning(workbench, page);
    const before = (await bridge.listed()).filter((s) => s.from === `workspace ${root}/.jp`);
    expect(before.map((s) => [s.name, s.status])).toEqual([['fs', 'running'], ['mem', 'running']]);

    await test.step('reload: the same servers, running, with Stop, in every panel; the folder opened by its path', async () => {
      await page.reload();
      await page.waitForFunction(() => window.__workbench !== undefined);
      await everyPanelSaysRunning(workbench, page);
      await workbench.workspace.show();
      await expect(workbench.workspace.openedByPath()).toContainText('opened by its path');
      await page.screenshot({ path: info.outputPath('reload-workspace.png') });
      await workbench.servers.show();
      await page.screenshot({ path: info.outputPath('reload-servers.png') });
    });

    await test.step('another document, then the same folder by its path: attached, not "No MCP servers yet"', async () => {
      await workbench.runCommand('file.demo');
      await bridge.openWorkspace(root);
      await workbench.workspace.pickPersona('dev');
      await everyPanelSaysRunning(workbench, page);
      await workbench.workspace.show();
      await expect(workbench.workspace.openedByPath()).toContainText('opened by its path');
      const s = await workbench.snapshot();
      expect(s.doc.servers.find((x) => x.name === 'fs')?.status).toBe('running');
    });

    await test.step('a second Start says they already run, and starts nothing', async () => {
      await workbench.workspace.show();
      await bridge.pressStart();
      await expect(workbench.banner()).toContainText('fs and mem already run in the bridge');
      await expect(page.getByTestId('start-servers-dialog')).toHaveCount(0);
      await page.screenshot({ path: info.outputPath('second-start.png') });
      const after = (await bridge.listed()).filter((s) => s.from === `workspace ${root}/.jp`);
      expect(after.map((s) => [s.name, s.status, s.pid])).toEqual(before.map((s) => [s.name, s.status, s.pid]));
      expect(serve.stdout().match(/^starting fs /gmu)?.length).toBe(1);
      await everyPanelSaysRunning(workbench, page);
    });

    await test.step('one of the two stopped: Start asks for that one only, marks the other as running, and leaves it be', async () => {
      await workbench.servers.show();
      await bridge.controls('mem').getByTestId('bridge-stop').click();
      await expect(bridge.status('mem')).toHaveText('stopped', { timeout: 20_000 });
      await workbench.workspace.show();
      const dialog = await bridge.askToStart();
      await expect(dialog.locator('#bridge-confirm-title')).toHaveText('Start 1 MCP server on this machine?');
      await expect(dialog.locator('[data-server="fs"]').getByTestId('planned-running')).toContainText('already runs in the bridge');
      await expect(dialog.locator('[data-server="mem"]').getByTestId('planned-running')).toHaveCount(0);
      await page.screenshot({ path: info.outputPath('one-of-two.png') });
      await bridge.confirmStart();
      await expect(bridge.workspaceServer('mem').getByTestId('bridge-status')).toHaveText('running', { timeout: 20_000 });
      const after = (await bridge.listed()).filter((s) => s.from === `workspace ${root}/.jp`);
      expect(after.find((s) => s.name === 'fs')?.pid).toBe(before.find((s) => s.name === 'fs')?.pid);
      expect(after.find((s) => s.name === 'mem')?.pid).not.toBe(before.find((s) => s.name === 'mem')?.pid);
      expect(after.map((s) => s.name)).toEqual(['fs', 'mem']);
      expect(serve.stdout().match(/^starting fs /gmu)?.length).toBe(1);
      expect(serve.stdout().match(/^starting mem /gmu)?.length).toBe(2);
    });

    await test.step('a second tab at the plain address: press Enter in the terminal for a new address, not npm start', async () => {
      const second = await page.context().newPage();
      try {
        await second.goto(`${new URL(serve.url).origin}/`);
        await second.waitForFunction(() => window.__workbench !== undefined);
        await second.getByRole('tab', { name: 'Servers', exact: true }).click();
        await expect(second.getByTestId('bridge-absent')).toContainText('press Enter in the terminal');
        await expect(second.getByTestId('bridge-absent')).not.toContainText('npm start');
        const ws = new WorkspacePage(second);
        await ws.show();
        await expect(ws.pickerLimits()).toContainText('press Enter in the terminal');
        await expect(ws.pickerLimits()).not.toContainText('npm start');
        await expect(ws.needsBridge()).toContainText('press Enter in the terminal');
        await expect(ws.needsBridge()).not.toContainText('npm start');
        await second.screenshot({ path: info.outputPath('second-tab.png') });
        const other = new WorkbenchPage(second);
        await other.runCommand('import.live');
        await expect(other.importer.dialog().getByTestId('import-bridge-absent')).toContainText('press Enter in the terminal');
        await expect(other.importer.dialog().getByTestId('import-bridge-absent')).not.toContainText('npm start');
        // A tab without a session gets nothing of the bridge: its servers and workspaces are refused.
        const refused = await second.evaluate(async () => [(await fetch('/bridge/servers')).status, (await fetch('/bridge/workspaces')).status]);
        expect(refused).toEqual([401, 401]);
      } finally {
        await second.close();
      }
    });
  } finally {
    await page.close();
    await serve.stop();
  }
});
