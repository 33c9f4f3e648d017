// Importing MCP catalogues in the UI: the GitHub catalogue through the file
// picker, LiveMCPBench by drag-and-drop, pasted JSON, the JP config export, and
// malformed input refused with the current work kept.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync, strFromU8 } from 'fflate';
import AxeBuilder from '@axe-core/playwright';
import { test, expect } from './fixtures';
import { checkScenario } from '../src/core/scenario/report';
import { writeScenario } from '../src/core/scenario/doc';

const catalogues = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../shared'), 'data', 'catalogues');
const GITHUB = join(catalogues, 'github-mcp-server.tools-list.json');
const LIVEMCPBENCH = join(catalogues, 'livemcpbench-tools.json');
const schema = { type: 'object', properties: {} };
const SCREENS = process.env.WORKBENCH_SCREENS ?? '/tmp/wb-screens';

test('imports the GitHub catalogue through the file picker, then undoes it', async ({ workbench, page }) => {
  const imp = workbench.importer;
  const before = await test.step('open the workbench', async () => {
    await workbench.open();
    return workbench.snapshot();
  });

  await test.step('choose the file in the import dialog', async () => {
    await imp.openFromServersTab();
    await imp.chooseFile(GITHUB);
    await expect(page.getByTestId('import-file-name')).toContainText('github-mcp-server.tools-list.json');
    await expect(imp.counts()).toHaveText('117 tools: 8 on · 99 discoverable · 10 off');
    // The demo already has a server called github: the import gets its own name.
    await expect(page.getByTestId('import-server-name')).toHaveValue('github_2');
  });

  await test.step('annotations are shown: read-only, destructive, the title', async () => {
    await expect(imp.tool('get_me')).toContainText('on');
    await expect(imp.tool('get_me')).toContainText('read-only');
    await expect(imp.tool('get_me')).toContainText('Get my user profile');
    await expect(imp.tool('delete_file')).toContainText('off');
    await expect(imp.tool('delete_file')).toContainText('destructive');
  });

  await test.step('what discovery saves on this catalogue, against the RFD', async () => {
    await expect(imp.savings().getByTestId('savings-all')).toContainText('108');
    await expect(imp.savings().getByTestId('savings-all')).toContainText('91.5 KB');
    await expect(imp.savings().getByTestId('savings-all')).toContainText(/\d{2},\d{3} tokens/u);
    await expect(imp.savings().getByTestId('savings-rfd')).toContainText('matches the RFD\'s "tens of thousands of tokens"');
    await expect(imp.savings().getByTestId('savings-selection')).toContainText('past the 30–50-tool range');
  });

  await test.step('the dialog has no serious accessibility violations', async () => {
    const results = await new AxeBuilder({ page }).include('[data-testid="import-dialog"]').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
  });

  await test.step('screenshots of the import dialog at two sizes', async () => {
    for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 768 }]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${SCREENS}/import-github-${size.width}.png` });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  await test.step('the policy changes the preview: all on, then 3 kept on', async () => {
    await imp.policy('on');
    await expect(imp.counts()).toHaveText('117 tools: 107 on · 0 discoverable · 10 off');
    await imp.policy('discoverable', 3);
    await expect(imp.counts()).toHaveText('117 tools: 3 on · 104 discoverable · 10 off');
  });

  await test.step('import: one document change with the server and the generated layer', async () => {
    await imp.confirm();
    await expect(workbench.banner()).toContainText('Imported 117 tools of github_2 into layer mcp-github_2');
    const snap = await workbench.snapshot();
    expect(snap.revision).toBe(before.revision + 1);
    expect(snap.doc.servers.map((s) => s.name)).toEqual([...before.doc.servers.map((s) => s.name), 'github_2']);
    expect(snap.doc.servers.at(-1)?.tools).toHaveLength(117);
    expect(snap.doc.layers.at(-1)?.name).toBe('mcp-github_2');
    expect(snap.doc.layers.slice(0, -1)).toEqual(before.doc.layers);
    expect(snap.timeline.scenarioErrors).toEqual([]);
    // A provider finding (a name the chosen provider refuses) is not a load error: the layer is valid JP config.
    expect(snap.diagnostics.filter((d) => d.severity === 'error' && d.code !== 'provider-rule')).toEqual([]);
    // The CLI runs the same document cleanly.
    const report = checkScenario('ui.toml', writeScenario(snap.doc));
    expect(report.fileErrors).toEqual([]);
    expect(report.timeline?.diagnostics.filter((d) => d.severity === 'error' && d.code !== 'provider-rule')).toEqual([]);
  });

  await test.step('the servers tab shows it, with what discovery saves', async () => {
    await expect(workbench.servers.card('github_2')).toContainText('117 tools listed');
    // The card measures all on as the top table does (issue 24.5): its 107 tools not off, never "every tool".
    await expect(workbench.servers.cardSavings('github_2')).toContainText('all on (JP today): 107 tools');
    await expect(workbench.servers.cardSavings('github_2')).not.toContainText('every tool');
    await expect(workbench.servers.savings()).toBeVisible();
    const results = await new AxeBuilder({ page }).include('[data-testid="servers-panel"]').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
    for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 768 }]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${SCREENS}/servers-imported-${size.width}.png` });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  await test.step('undo the import', async () => {
    await workbench.servers.undoImport().click();
    const snap = await workbench.snapshot();
    expect(snap.doc).toEqual(before.doc);
  });
});

test('imports LiveMCPBench by drag-and-drop, 70 servers, duplicates prefixed, Chinese kept', async ({ workbench, page }) => {
  const imp = workbench.importer;
  await workbench.open();
  const demoServers = (await workbench.snapshot()).doc.servers.length;
  await test.step('drop the JSON file on the page', async () => {
    await imp.dropFile('livemcpbench-tools.json', readFileSync(LIVEMCPBENCH, 'utf8'));
    await imp.dialog().waitFor();
    await expect(imp.counts()).toHaveText('527 tools: 8 on · 519 discoverable · 0 off', { timeout: 20_000 });
    await expect(page.getByTestId('import-server-name')).toHaveCount(70);
  });
  await test.step('per-server policy, one kept on per server', async () => {
    await imp.policy('per-server', 1);
    await expect(imp.counts()).toHaveText('527 tools: 70 on · 457 discoverable · 0 off');
    await page.getByRole('searchbox', { name: 'Filter the tools' }).fill('read_file');
    await expect(imp.tool('filesystem_read_file')).toBeVisible();
    await expect(imp.tool('desktop-commander_read_file')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Filter the tools' }).fill('必应');
    await expect(imp.tool('bing_search')).toContainText('使用必应搜索指定的关键词');
  });
  await test.step('import, and the CLI checks the same scenario cleanly', async () => {
    await imp.confirm();
    const snap = await workbench.snapshot();
    expect(snap.doc.servers.length - demoServers).toBe(70);
    expect(snap.doc.servers.map((s) => s.name)).toContain('ant_design_components');
    expect(snap.timeline.scenarioErrors).toEqual([]);
    const report = checkScenario('ui.toml', writeScenario(snap.doc));
    expect(report.fileErrors).toEqual([]);
    expect(report.timeline?.diagnostics.filter((d) => d.severity === 'error' && d.code !== 'provider-rule')).toEqual([]);
    expect(writeScenario(snap.doc)).toContain('使用必应搜索指定的关键词');
  });
});

test('pasted JSON imports; the catalogue exports as JP config that reads back', async ({ workbench, page }) => {
  const imp = workbench.importer;
  await workbench.open();
  await test.step('paste a tools/list reply', async () => {
    await workbench.runCommand('import.paste');
    await imp.paste(JSON.stringify({ tools: [
      { name: 'list_tickets', description: 'List support tickets.', inputSchema: schema, annotations: { readOnlyHint: true } },
      { name: 'close_ticket', description: 'Close a ticket.', inputSchema: schema, annotations: { destructiveHint: true } },
    ] }));
    await expect(imp.counts()).toHaveText('2 tools: 1 on · 0 discoverable · 1 off');
    await page.getByTestId('import-server-name').fill('helpdesk');
    await imp.confirm();
    const snap = await workbench.snapshot();
    expect(snap.doc.servers.at(-1)?.name).toBe('helpdesk');
    expect(snap.doc.layers.at(-1)?.text).toContain('source = "mcp.helpdesk.list_tickets"');
  });
  await test.step('export JP config as a zip', async () => {
    const download = page.waitForEvent('download');
    await workbench.runCommand('export.jp');
    const file = await (await download).path();
    const files = unzipSync(new Uint8Array(readFileSync(file)));
    const names = Object.keys(files);
    expect(names).toContain('.jp/config.toml');
    expect(names).toContain('.jp/00-mcp-servers.toml');
    const servers = strFromU8(files['.jp/00-mcp-servers.toml'] ?? new Uint8Array());
    expect(servers).toContain('[providers.mcp.helpdesk]');
    const config = strFromU8(files['.jp/config.toml'] ?? new Uint8Array());
    expect(config).toMatch(/extends = \[\n {2}"00-mcp-servers\.toml",/u);
  });
});

test('malformed catalogues are refused with a clear message, and the work is kept', async ({ workbench, page }) => {
  const imp = workbench.importer;
  await workbench.open();
  const before = await workbench.snapshot();
  const refusedWith = async (message: RegExp) => {
    await expect(imp.errors()).toContainText('Refused: nothing was imported, and your scenario is unchanged.');
    await expect(imp.errors()).toContainText(message);
    await expect(page.getByTestId('import-confirm')).toBeDisabled();
  };

  await test.step('a tool without a name', async () => {
    await imp.openFromServersTab();
    await imp.chooseFile({ name: 'no-name.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ tools: [{ description: 'x', inputSchema: schema }] })) });
    await refusedWith(/no-name\.json: tools\[0\]: missing name/u);
  });

  await test.step('a schema that is not an object', async () => {
    await imp.paste(JSON.stringify({ tools: [{ name: 'bad', inputSchema: 'object' }] }));
    await refusedWith(/tools\[0\] \("bad"\): inputSchema must be an object, got a string/u);
  });

  await test.step('5 MB of JSON, refused before it is read', async () => {
    const big = JSON.stringify({ tools: [{ name: 'big', description: 'x'.repeat(5 * 1024 * 1024), inputSchema: schema }] });
    await imp.chooseFile({ name: 'huge.json', mimeType: 'application/json', buffer: Buffer.from(big) });
    await refusedWith(/huge\.json is 5\.0 MB; the importer reads at most 4\.0 MB of JSON/u);
  });

  await test.step('HTML dropped on the page', async () => {
    await imp.close();
    await imp.dropFile('page.json', '<!doctype html><html><body>Sign in</body></html>');
    await refusedWith(/page\.json is HTML, not JSON/u);
    await imp.close();
  });

  await test.step('nothing changed', async () => {
    const after = await workbench.snapshot();
    expect(after.revision).toBe(before.revision);
    expect(after.doc).toEqual(before.doc);
  });
});
