// Issue 7 in the browser: open JP's own `.jp` folder, pick personas, make dev's tools
// discoverable and see the saving; bad workspaces name their files and still load; workspace
// files are read-only tabs that can be edited and downloaded back; a reload keeps the folder.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { strToU8, zipSync } from 'fflate';
import { test, expect } from './fixtures';
import type { WorkbenchPage } from './pages/WorkbenchPage';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const jpFolder = path.resolve(repoRoot, '../shared/data/jp-workspace/.jp');
/** Screenshots that were looked at; outside test-results, which parallel runs clear. */
const shots = process.env.WORKSPACE_SHOTS ?? path.resolve(repoRoot, 'test-results/screens');

async function onCount(workbench: WorkbenchPage): Promise<{ on: number; offered: number }> {
  const snap = await workbench.snapshot();
  return { on: snap.sets.rows.filter((r) => r.availability === 'on').length, offered: snap.sets.counts.offered };
}

test('opens JP\'s own workspace folder and shows the counts for dev and pr-triager', async ({ workbench }) => {
  const ws = workbench.workspace;
  await test.step('open the folder', async () => {
    await workbench.open();
    await ws.openFolder(jpFolder);
    await expect(workbench.banner()).toContainText('Opened the workspace');
    const snap = await workbench.snapshot();
    expect(snap.timeline.workspace).toMatchObject({ loaded: true, path: '.jp' });
    expect(snap.timeline.workspace?.personas).toHaveLength(13);
    expect(snap.timeline.workspace?.diagnostics).toEqual([]);
    await expect(ws.problems()).toContainText('No problems');
    // No persona: plan and describe_tools.
    await expect(ws.count('on')).toHaveText('2');
    await expect(ws.onBuiltins()).toHaveText('(describe_tools included)');
  });

  await test.step('dev: 37 on (describe_tools included), 32 offered without bookworm', async () => {
    await ws.pickPersona('dev');
    await expect(ws.count('on')).toHaveText('37');
    await expect(ws.count('offered')).toHaveText('32');
    await expect(workbench.sets.counts()).toContainText('offered 32');
    expect(await onCount(workbench)).toEqual({ on: 37, offered: 32 });
    const snap = await workbench.snapshot();
    // The builtins the "on" count holds are the sets panel's (issue 24.5).
    const builtins = snap.sets.rows.filter((r) => r.kind === 'builtin').map((r) => r.name);
    await expect(ws.onBuiltins()).toHaveText(`(${builtins.join(' and ')} included)`);
    expect(snap.doc.workspace).toEqual({ path: '.jp', persona: 'dev' });
    expect(snap.timeline.workspace?.personaFile).toBe('config/personas/dev.toml');
    expect(snap.sets.rows.find((r) => r.name === 'rust_crates_search')).toMatchObject({ availability: 'on', permitted: false });
    expect(snap.sets.rows.find((r) => r.name === 'fs_read_file')?.link).toMatchObject({ layer: 'config/skill/read-files.toml' });
  });

  await test.step('pr-triager: 34 on', async () => {
    await ws.pickPersona('pr-triager');
    await expect(ws.count('on')).toHaveText('34');
    expect((await onCount(workbench)).on).toBe(34);
    await expect(workbench.sets.counts()).toContainText(`offered ${(await onCount(workbench)).offered}`);
  });

  await test.step('each workspace layer keeps its file name in a read-only tab', async () => {
    await expect(ws.tab('config.toml')).toBeVisible();
    await ws.openFile('config/personas/pr-triager.toml');
    await expect(ws.tab('config/personas/pr-triager.toml')).toHaveAttribute('aria-selected', 'true');
    await expect(ws.fileMode()).toHaveText('read-only');
    await expect(ws.editor()).toHaveAttribute('data-readonly', 'true');
  });

  await test.step('no serious accessibility violations in the workspace tab and the workspace tabs', async () => {
    const results = await new AxeBuilder({ page: workbench.page }).include('[data-testid="workspace-panel"]').include('.ly-ws').include('.ly-ws-bar').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
  });
});

test('make discoverable on dev keeps the most used tools on and shows the saving on every request', async ({ workbench, page }) => {
  const ws = workbench.workspace;
  await workbench.open();
  await ws.openFolder(jpFolder);
  await ws.pickPersona('dev');
  await expect(ws.count('on')).toHaveText('37');

  let before: { request: number; before: number; after: number }[] = [];
  await test.step('preview: the saving per request before applying', async () => {
    await expect(ws.keepInput()).toHaveValue('10');
    await expect(ws.savingRows()).toHaveCount(3);
    before = await ws.savingFigures();
    for (const r of before) expect(r.after).toBeLessThan(r.before);
    await expect(ws.saving()).toContainText('(preview)');
  });

  await test.step('apply through the command: a generated layer of its own', async () => {
    await workbench.runCommand('workspace.makeDiscoverable');
    await expect(ws.applied()).toBeVisible();
    const snap = await workbench.snapshot();
    const layer = snap.layers.find((l) => l.name === 'discoverable (generated)');
    expect(layer?.text).toContain('[conversation.tools.git_show]\nenable = "discoverable"');
    expect(layer?.text).toContain('#   1. cargo_test: 1 call');
    // 10 kept, describe_tools and search_tools (registered now).
    expect(snap.timeline.requests.map((r) => r.offered.length)).toEqual([12, 12, 12]);
    expect(snap.timeline.requests.map((r) => r.cost.offered)).toEqual(before.map((r) => r.after));
    expect(snap.timeline.workspace?.counts).toMatchObject({ on: 12, discoverable: 26, offered: 12 });
    // 10 kept and both builtins, search_tools registered now: the label says so (issue 24.5).
    await expect(ws.onBuiltins()).toHaveText('(describe_tools and search_tools included)');
    await expect(ws.saving()).toContainText('(applied)');
    expect(await ws.savingFigures()).toEqual(before);
    // The demo turn still works: the tools it calls stayed on.
    expect(snap.timeline.entries.filter((e) => e.kind === 'call').every((e) => e.callStatus === 'ok')).toBe(true);
  });

  await test.step('screenshot of the result at 1440×900', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    // Give the dock more room, as a user reading the figures would (the gutter moves by keyboard).
    await page.getByRole('separator', { name: 'Resize (main-v 1)' }).focus();
    for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowUp');
    await ws.root.locator('.ws-ranking summary').click();
    await page.screenshot({ path: path.join(shots, 'workspace-discoverable-1440.png') });
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.screenshot({ path: path.join(shots, 'workspace-discoverable-1024.png') });
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  await test.step('fewer kept, more saved', async () => {
    await ws.keepInput().fill('5');
    await expect(ws.makeDiscoverableButton()).toHaveText('Update the generated layer');
    await ws.makeDiscoverableButton().click();
    await expect(ws.applied()).toBeVisible();
    const snap = await workbench.snapshot();
    expect(snap.timeline.requests.map((r) => r.offered.length)).toEqual([7, 7, 7]);
  });
});

test('a bad workspace (dropped as a zip) names each bad file and still loads the rest; a glob that matches nothing is fine', async ({ workbench }) => {
  const ws = workbench.workspace;
  const zip = zipSync({
    'proj/.jp/config.toml': strToU8('extends = ["a.toml", "gone.toml", "tools/*.toml", "none/**/*.toml"]\n'),
    'proj/.jp/a.toml': strToU8('extends = ["b.toml"]\n'),
    'proj/.jp/b.toml': strToU8('# closes the loop\nextends = ["a.toml"]\n'),
    'proj/.jp/tools/bad.toml': strToU8('[conversation.tools.broken]\nsource = "local"\nenable = \n'),
    'proj/.jp/tools/good.toml': strToU8('[conversation.tools.good_tool]\nsource = "local"\nsummary = "Works."\nenable = true\n'),
    'proj/README.md': strToU8('not read'),
  });
  await workbench.open();

  await test.step('drop the zip on the page', async () => {
    await ws.show();
    await ws.dropZip('proj.zip', zip);
    await ws.loaded();
    await expect(workbench.banner()).toContainText('Opened the workspace proj.zip: proj/.jp: 5 .toml files');
  });

  await test.step('each problem names its file', async () => {
    await expect(ws.problemFor('b.toml')).toContainText('extends cycle');
    await expect(ws.problemFor('config.toml')).toContainText('gone.toml');
    await expect(ws.problemFor('tools/bad.toml')).toContainText('error');
    await expect(ws.problems()).not.toContainText('none/');
    await expect(ws.root.getByRole('region', { name: 'Workspace problems' })).toContainText('the rest of the workspace still loads');
  });

  await test.step('the rest loads', async () => {
    const snap = await workbench.snapshot();
    expect(snap.timeline.workspace?.layers).toEqual(['b.toml', 'a.toml', 'tools/bad.toml', 'tools/good.toml', 'config.toml']);
    expect(snap.sets.rows.find((r) => r.name === 'good_tool')).toMatchObject({ availability: 'on', offered: true });
    const layersWithErrors = new Set(snap.timeline.workspace?.diagnostics.filter((d) => d.severity === 'error').map((d) => d.layer));
    expect(layersWithErrors).toEqual(new Set(['b.toml', 'config.toml', 'tools/bad.toml']));
  });

  await test.step('a problem opens its file, with the error marked', async () => {
    await ws.problemFor('tools/bad.toml').getByRole('button').click();
    await expect(ws.file()).toHaveAttribute('data-path', 'tools/bad.toml');
    await expect(ws.editor().locator('.squiggly-error').first()).toBeVisible();
  });

  await test.step('a file that is not a zip is refused and the workspace stays', async () => {
    await ws.root.getByTestId('workspace-zip-input').setInputFiles({ name: 'nope.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip') });
    await expect(workbench.banner()).toContainText('nope.zip is not a readable zip');
    expect((await workbench.snapshot()).timeline.workspace?.layers).toHaveLength(5);
  });
});

test('a workspace file is read-only until edited; the edit applies, downloads under its name, and survives a reload', async ({ workbench, page }) => {
  const ws = workbench.workspace;
  await workbench.open();
  await ws.openFolder(jpFolder);
  await ws.pickPersona('dev');
  await expect(ws.count('on')).toHaveText('37');
  await ws.openFile('config/personas/dev.toml');
  await expect(ws.fileMode()).toHaveText('read-only');

  await test.step('unlock and edit', async () => {
    await ws.fileButton('Edit').click();
    await expect(ws.fileMode()).toHaveText('editing');
    await expect(ws.editor()).toHaveAttribute('data-readonly', 'false');
    await ws.focusFile();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('\n[conversation.tools.web_fetch]\nenable = false\n');
    await expect(ws.count('on')).toHaveText('36');
    await expect(ws.tab('config/personas/dev.toml')).toContainText('edited');
  });

  await test.step('download it back under its real name', async () => {
    const download = page.waitForEvent('download');
    await ws.fileButton('Download').click();
    const d = await download;
    expect(d.suggestedFilename()).toBe('dev.toml');
    const text = readFileSync(await d.path(), 'utf8');
    expect(text).toContain('[conversation.tools.web_fetch]\nenable = false');
    expect(text.startsWith('extends = [')).toBe(true);
  });

  await test.step('a reload keeps the folder, the persona and the edit', async () => {
    await workbench.flushAutosave();
    await workbench.open({ keepSaved: true });
    await ws.show();
    await expect(ws.count('on')).toHaveText('36');
    await expect(ws.persona()).toHaveValue('dev');
  });

  await test.step('revert', async () => {
    await ws.openFile('config/personas/dev.toml');
    await ws.fileButton('Revert').click();
    await expect(ws.count('on')).toHaveText('37');
    await expect(ws.fileMode()).toHaveText('read-only');
  });
});

test('opening a user\'s own workspace adds no invented turn: no call to a tool it does not have, no red errors (issue 24.4)', async ({ workbench }) => {
  const ws = workbench.workspace;
  const zip = zipSync({
    'mine/.jp/config.toml': strToU8('[conversation.tools.notes_search]\nsource = "local"\nsummary = "Search my notes."\nenable = "on"\n\n[conversation.tools.notes_add]\nsource = "local"\nsummary = "Add a note."\nenable = "discoverable"\n'),
  });
  await workbench.open();
  await ws.openZip('mine.zip', Buffer.from(zip));
  await expect(workbench.banner()).toContainText('Opened the workspace');
  const snap = await workbench.snapshot();
  const own = new Set(['notes_search', 'notes_add', 'describe_tools', 'search_tools']);
  const calls = snap.timeline.entries.filter((e) => e.kind === 'call');
  expect(calls.map((e) => e.label.split('(')[0] ?? '').filter((tool) => !own.has(tool))).toEqual([]);
  expect(calls.filter((e) => e.callStatus !== 'ok').map((e) => e.label)).toEqual([]);
  expect(snap.timeline.entries.filter((e) => e.error !== undefined).map((e) => e.error)).toEqual([]);
  // The empty timeline teaches the first step instead.
  if (snap.doc.steps.length === 0) await expect(workbench.timeline.root.getByRole('button', { name: /first/iu })).toBeVisible();
  // One tool at on: the count and its noun agree, never "1 tools" (issue 24).
  await ws.show();
  await expect(ws.summary()).toContainText('The workspace has 1 tool at on');
  await expect(ws.rankingSummary()).toContainText('The ranking of 1 tool:');
  await expect(ws.root).not.toContainText(/\b1 tools\b/u);
});
