// RFD 108, live: every row of every table agrees on the built app, and a row opens its scenario at the
// row that shows it while the document it replaces is kept and comes back.
import { test, expect } from './fixtures';
import { expectAccessible } from './axe';
import { screenshotsAtTwoSizes } from './screens';

test('every row of the RFD view agrees with the RFD, computed on the built app', async ({ workbench }, info) => {
  const rfd = workbench.rfd;
  await workbench.open();
  await rfd.open();
  await test.step('each table is there, and every row passes', async () => {
    for (const id of ['directives', 'allow-toggle', 'consumers', 'fold', 'providers', 'phases']) await expect(rfd.table(id)).toBeVisible();
    const rows = await rfd.rows().count();
    expect(rows).toBe(28);
    await expect(rfd.summary()).toHaveText(`${rows} of ${rows} rows agree`);
    await expect(rfd.root.locator('tr[data-agrees="false"]')).toHaveCount(0);
    await expect(rfd.root.locator('td.disagrees')).toHaveCount(0);
  });
  await test.step('cells say what the run produced, in the RFD\'s words, with measured bytes and tokens', async () => {
    await expect(rfd.row('directive-t').locator('td').nth(0)).toContainText('→ on');
    await expect(rfd.row('directive-t').locator('td').nth(2)).toContainText('no-op');
    await expect(rfd.row('fold-2')).toContainText('found, unavailable');
    await expect(rfd.row('provider-anthropic-directives').locator('td').nth(0)).toContainText(/\d[\d,]* B, \d[\d,]* tokens offered/u);
    await expect(rfd.row('provider-anthropic').locator('td').nth(1)).toContainText('no');
    // The cache across a discovery in the one cache word (issue 24.6).
    await expect(rfd.row('provider-anthropic').locator('td').nth(1)).toContainText('prefix changed: ');
    await expect(rfd.row('provider-anthropic-directives').locator('td').nth(1)).toContainText('prefix reused: ');
    await expect(rfd.table('providers')).not.toContainText(/\b(hit|miss):/u);
  });
  await test.step('the view has no serious accessibility violations; screenshots', async () => {
    await expectAccessible(workbench.page, '[data-testid="rfd-page"]');
    await screenshotsAtTwoSizes(workbench.page, info, 'rfd-view');
  });
  await test.step('the open questions link goes to their panel', async () => {
    await rfd.root.getByTestId('rfd-open-questions').click();
    await expect(rfd.root).toBeHidden();
    await expect(workbench.page.getByRole('tab', { name: 'Open questions' })).toHaveAttribute('aria-selected', 'true');
  });
});

test('a row opens its scenario at the row that shows it, and the current document is kept', async ({ workbench }) => {
  const rfd = workbench.rfd;
  await workbench.open();
  await test.step('make the current document the user\'s own', async () => {
    await workbench.page.getByLabel('Scenario name').fill('My catalogue under review');
  });
  const mine = (await workbench.snapshot()).doc;
  await test.step('open the fold table\'s "off" row', async () => {
    await rfd.open();
    await rfd.openRow('fold-2');
    await expect(rfd.root).toBeHidden();
    await expect(rfd.returnBanner()).toContainText('My catalogue under review');
  });
  await test.step('the row\'s scenario is open at the search whose promotion the fold skipped', async () => {
    const snap = await workbench.snapshot();
    expect(snap.doc.name).toBe('RFD 108 fold: folded state off at the search\'s index');
    expect(snap.timeline.failed).toBe(0);
    const row = snap.timeline.entries[snap.selectedEntry ?? -1];
    expect(row?.kind).toBe('call');
    expect(row?.search?.returned.find((r) => r.name === 'deploy')?.status).toBe('unavailable');
    await expect(workbench.timeline.selectedRow()).toContainText('search_tools("deploy")');
  });
  await test.step('another row replaces it, and the user\'s document is still the one offered back', async () => {
    await rfd.open();
    await rfd.openRow('directive-t');
    expect((await workbench.snapshot()).doc.name).toBe('RFD 108 directive table: -t against off, discoverable and on');
    await expect(workbench.timeline.selectedRow()).toHaveAttribute('data-kind', 'delta');
    await expect(rfd.returnBanner()).toContainText('My catalogue under review');
  });
  await test.step('the user\'s document is kept in Recent documents, saying what replaced it', async () => {
    await workbench.history.open();
    await expect(workbench.history.entry('My catalogue under review')).toContainText('RFD view');
    await workbench.page.keyboard.press('Escape');
    await expect(workbench.history.dialog()).toBeHidden();
  });
  await test.step('back to the user\'s document, unchanged', async () => {
    await rfd.backToMyDocument();
    expect((await workbench.snapshot()).doc).toEqual(mine);
    await expect(rfd.returnBanner()).toBeHidden();
  });
});
