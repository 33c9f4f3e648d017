// The last keystrokes survive a reload or a close: typing and reloading at once
// (well inside autosave's pause) loses nothing, because the unsaved edit goes to a
// synchronous journal as the page hides and is replayed on load.
import { test, expect } from './fixtures';
import { turnLab } from './turnScenarios';

test('type, then reload at once: every keystroke is still there', async ({ workbench, page }) => {
  await workbench.open();
  expect(await workbench.loadScenario(turnLab({ name: 'Journal' }), 'journal.toml')).toBe(true);
  await workbench.flushAutosave();
  await workbench.layers.waitForEditor();
  for (const round of [1, 2]) {
    await test.step(`round ${round}: type into the layer and reload with no pause`, async () => {
      await workbench.layers.cursorToEnd();
      const typed = `\n# typed in round ${round}, then reloaded at once\n`;
      await workbench.layers.insert(typed);
      await page.reload();
      await page.waitForFunction(() => window.__workbench !== undefined);
      await expect.poll(async () => (await workbench.snapshot()).layers[0]?.text ?? '').toContain(typed.trim());
      await workbench.layers.waitForEditor();
    });
  }
  // The replayed edits were saved in turn: one more plain reload shows both.
  await workbench.flushAutosave();
  await page.reload();
  await page.waitForFunction(() => window.__workbench !== undefined);
  const text = (await workbench.snapshot()).layers[0]?.text ?? '';
  for (const round of [1, 2]) expect(text).toContain(`# typed in round ${round}, then reloaded at once`);
});

test('type, then close the tab at once: the next tab has the edit', async ({ workbench, page, context }) => {
  await workbench.open();
  expect(await workbench.loadScenario(turnLab({ name: 'Closing' }), 'closing.toml')).toBe(true);
  await workbench.flushAutosave();
  await workbench.layers.waitForEditor();
  await workbench.layers.cursorToEnd();
  await workbench.layers.insert('\n# typed, then the tab was closed\n');
  const next = await context.newPage();
  await page.close({ runBeforeUnload: true });
  await next.goto('/');
  await next.waitForFunction(() => window.__workbench !== undefined);
  // Either the save begun as the tab closed landed, or the journal the closed tab left is recovered
  // into Recent documents: in both cases the edit is there to have.
  const typed = '# typed, then the tab was closed';
  const where = async (): Promise<string> => {
    const snap = await next.evaluate(() => window.__workbench?.snapshot());
    if (snap?.layers[0]?.text.includes(typed)) return 'in the document';
    return snap?.recent.some((e) => e.reason.kind === 'recovered') ? 'recovered' : 'missing';
  };
  await expect.poll(where).not.toBe('missing');
  if ((await where()) === 'recovered') {
    await next.getByTestId('recent-button').click();
    await next.getByTestId('recent-entry').filter({ hasText: 'unsaved edits recovered from a closed tab' }).getByTestId('recent-restore').click();
    await expect.poll(async () => (await next.evaluate(() => window.__workbench?.snapshot()))?.layers[0]?.text).toContain(typed);
  }
  await next.close();
});
