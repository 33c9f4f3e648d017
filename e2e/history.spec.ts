// No action throws work away: every replacement of the document (a shared link, an
// opened file, the demo, an opened workspace) keeps the document it replaces in
// Recent documents, two share links in a row included; any one can be restored
// (from the view or the palette), and a restore is itself undoable.
import { strToU8, zipSync } from 'fflate';
import { encodeShared } from '../src/features/share/codec';
import { test, expect } from './fixtures';
import { screenshotsAtTwoSizes } from './screens';
import { turnLab } from './turnScenarios';

test('every replacement keeps the document it replaces; any can be restored, and restoring is undoable', async ({ workbench, page }, info) => {
  const recent = workbench.history;
  await workbench.open();

  await test.step('my own work, then two share links in a row', async () => {
    expect(await workbench.loadScenario(turnLab({ name: 'Mine' }), 'mine.toml')).toBe(true);
    await page.getByRole('textbox', { name: 'Scenario name' }).fill('Mine, edited');
    await workbench.flushAutosave();
    await page.goto(`/${encodeShared(turnLab({ name: 'Shared one' }))}`);
    await page.waitForFunction(() => window.__workbench !== undefined);
    await expect.poll(async () => (await workbench.snapshot()).doc.name).toBe('Shared one');
    await page.goto(`/${encodeShared(turnLab({ name: 'Shared two' }))}`);
    await expect.poll(async () => (await workbench.snapshot()).doc.name).toBe('Shared two');
  });

  await test.step('the demo, then a scenario file (Ctrl+O)', async () => {
    await workbench.runCommand('file.demo');
    await expect.poll(async () => (await workbench.snapshot()).doc.name).toContain('Demo');
    expect(await workbench.loadScenario(turnLab({ name: 'From a file' }), 'file.toml')).toBe(true);
  });

  await test.step('Recent documents lists each replaced document with what replaced it', async () => {
    await recent.open();
    const titles = await recent.titles();
    expect(titles.slice(0, 4)).toEqual([expect.stringContaining('Demo'), 'Shared two', 'Shared one', 'Mine, edited']);
    await expect(recent.entry('Mine, edited')).toContainText('replaced by a shared link');
    await expect(recent.entry('Shared two')).toContainText('replaced by the demo scenario');
    await expect(recent.entries().first()).toContainText('replaced by opening file.toml');
    await screenshotsAtTwoSizes(page, info, 'recent-documents');
  });

  await test.step('restore my own work: it is back whole, and what it replaced is now the newest entry', async () => {
    await recent.restore('Mine, edited');
    await expect.poll(async () => (await workbench.snapshot()).doc.name).toBe('Mine, edited');
    expect((await workbench.snapshot()).layers.map((l) => l.name)).toEqual(['workspace']);
    await recent.open();
    await expect(recent.entries().first()).toHaveAttribute('data-title', 'From a file');
    await expect(recent.entries().first()).toContainText('replaced by restoring “Mine, edited”');
    await page.keyboard.press('Escape');
  });

  await test.step('from the palette: undo that restore', async () => {
    await recent.restoreFromPalette('From a file');
    await expect.poll(async () => (await workbench.snapshot()).doc.name).toBe('From a file');
  });

  await test.step('the list survives a reload', async () => {
    await workbench.flushAutosave();
    const before = await recent.button().textContent();
    await page.reload();
    await page.waitForFunction(() => window.__workbench !== undefined);
    await expect(recent.button()).toHaveText(before ?? '');
    await recent.open();
    await expect(recent.entry('Mine, edited')).toBeVisible();
  });
});

test('opening a workspace that starts a new scenario keeps the one it replaced', async ({ workbench }) => {
  await workbench.open();
  expect(await workbench.loadScenario(turnLab({ name: 'Before the workspace' }), 'before.toml')).toBe(true);
  const before = await workbench.snapshot();
  const zip = zipSync({ '.jp/config.toml': strToU8('[conversation.tools.fs_read_file]\nsource = "local"\nenable = "on"\n') });
  await workbench.workspace.openZip('proj.zip', Buffer.from(zip));
  await expect.poll(async () => (await workbench.snapshot()).doc.name).toBe('JP workspace');
  await workbench.history.open();
  await expect(workbench.history.entries().first()).toHaveAttribute('data-title', 'Before the workspace');
  await expect(workbench.history.entries().first()).toContainText('replaced by opening the workspace proj.zip');
  await workbench.history.restore('Before the workspace');
  await expect.poll(async () => (await workbench.snapshot()).doc).toEqual(before.doc);
});
