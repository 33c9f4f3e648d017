// Two tabs never silently overwrite each other: each save carries a revision, and
// a tab whose stored document moved on under it says so and offers "Reload theirs"
// or "Keep mine as a copy"; whichever is chosen, the other version goes to Recent
// documents. Told at once over a BroadcastChannel, and caught by the revision check
// on save where there is none.
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { WorkbenchPage } from './pages/WorkbenchPage';
import { screenshotsAtTwoSizes } from './screens';
import { turnLab } from './turnScenarios';

/** The saved document's name and save number, read from IndexedDB as the next load would. */
function stored(page: Page): Promise<{ name: string; rev: number }> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('tool-workbench');
        open.onsuccess = () => {
          const get = open.result.transaction('documents').objectStore('documents').get('current');
          get.onsuccess = () => {
            const r = get.result as { rev: number; doc: { name: string } };
            open.result.close();
            resolve({ name: r.doc.name, rev: r.rev });
          };
          get.onerror = () => reject(get.error);
        };
        open.onerror = () => reject(open.error);
      }),
  );
}

async function rename(wb: WorkbenchPage, name: string): Promise<void> {
  await wb.page.getByRole('textbox', { name: 'Scenario name' }).fill(name);
  await wb.flushAutosave();
}

async function secondTab(wb: WorkbenchPage, errors: string[], options: { noBroadcast?: boolean } = {}): Promise<WorkbenchPage> {
  const page = await wb.page.context().newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  if (options.noBroadcast) await page.addInitScript(() => Reflect.deleteProperty(window, 'BroadcastChannel'));
  await page.goto('/');
  await page.waitForFunction(() => window.__workbench !== undefined);
  return new WorkbenchPage(page);
}

test('two tabs: the one whose document moved on says so; reload theirs or keep mine, and nothing is lost', async ({ workbench: a }, info) => {
  const errors: string[] = [];
  await a.open();
  expect(await a.loadScenario(turnLab({ name: 'Shared start' }), 'start.toml')).toBe(true);
  await a.flushAutosave();
  const b = await secondTab(a, errors);
  await expect.poll(async () => (await b.snapshot()).doc.name).toBe('Shared start');

  await test.step("A saves an edit: B says its document moved on, and B's edits are not saved over it", async () => {
    await rename(a, 'Edited in A');
    await expect(b.history.conflict()).toBeVisible();
    await expect(b.history.conflict()).toContainText('Another tab saved a different version of this document');
    await rename(b, 'Edited in B');
    expect(await stored(a.page)).toMatchObject({ name: 'Edited in A' });
    await screenshotsAtTwoSizes(b.page, info, 'tab-conflict');
  });

  await test.step("B: Reload theirs. B shows A's version; B's own is in Recent documents", async () => {
    await b.history.reloadTheirs().click();
    await expect(b.history.conflict()).toHaveCount(0);
    await expect.poll(async () => (await b.snapshot()).doc.name).toBe('Edited in A');
    await b.history.open();
    await expect(b.history.entries().first()).toHaveAttribute('data-title', 'Edited in B');
    await expect(b.history.entries().first()).toContainText("set aside when you reloaded another tab's version");
    await b.page.keyboard.press('Escape');
    // Reloading theirs saved nothing: A is not told anything moved.
    await expect(a.history.conflict()).toHaveCount(0);
  });

  await test.step('B saves again; A, with edits of its own, keeps its version as a copy', async () => {
    await rename(b, 'B again');
    await expect(a.history.conflict()).toBeVisible();
    await rename(a, 'A again');
    expect(await stored(a.page)).toMatchObject({ name: 'B again' });
    await a.history.keepMine().click();
    await expect(a.history.conflict()).toHaveCount(0);
    await expect.poll(() => stored(a.page)).toMatchObject({ name: 'A again (copy)' });
    expect((await a.snapshot()).doc.name).toBe('A again (copy)');
    await a.history.open();
    await expect(a.history.entry('B again')).toContainText("another tab's version, set aside when you kept yours");
    await a.page.keyboard.press('Escape');
    // And now B is the one told.
    await expect(b.history.conflict()).toBeVisible();
  });
  await b.page.close();
  expect(errors).toEqual([]);
});

test('without a BroadcastChannel the revision check still refuses to overwrite', async ({ workbench: a }) => {
  const errors: string[] = [];
  await a.open();
  expect(await a.loadScenario(turnLab({ name: 'Start' }), 'start.toml')).toBe(true);
  await a.flushAutosave();
  const b = await secondTab(a, errors, { noBroadcast: true });
  await expect.poll(async () => (await b.snapshot()).doc.name).toBe('Start');
  await rename(a, 'From A');
  // B hears nothing; its own save finds the stored document moved on and stops.
  await expect(b.history.conflict()).toHaveCount(0);
  await rename(b, 'From B');
  await expect(b.history.conflict()).toBeVisible();
  expect(await stored(b.page)).toMatchObject({ name: 'From A' });
  await b.page.close();
  expect(errors).toEqual([]);
});
