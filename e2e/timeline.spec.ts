// The conversation timeline: the spine of the screen. Selecting a row (click,
// keys, scrubber) drives the sets; expectations sit on their rows; steps are
// added, edited and deleted with the jp command checked as you type.
import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures';

const FAILING = `name = "A failing expectation"

[[layers]]
name = "workspace"
text = '''
[conversation.tools.'*']
enable = "discoverable"

[conversation.tools.build]
source = "local"
enable = "on"
summary = "Build the project."

[conversation.tools.deploy]
source = "local"
summary = "Deploy to staging."
'''

[[steps]]
command = "jp q 'ship it'"

  [[steps.cycles]]
  [steps.cycles.expect]
  offered = ["build", "deploy", "describe_tools", "search_tools"]

[[steps]]
command = "jp q -t nosuch 'enable a tool that is not there'"
`;

const NO_STEPS = `name = "Nothing yet"

[[layers]]
name = "workspace"
text = '''
[conversation.tools.build]
source = "local"
summary = "Build the project."
'''
`;

test('the demo opens mid-story: right after the first promotion', async ({ workbench }) => {
  await workbench.open();
  const tl = workbench.timeline;
  await expect(tl.selectedRow()).toHaveAttribute('data-kind', 'delta');
  await expect(tl.selectedRow()).toContainText('promotion');
  const snap = await workbench.snapshot();
  const first = snap.timeline.entries.find((e) => e.kind === 'delta' && e.sources?.includes('promotion'));
  expect(snap.selectedEntry).toBe(first?.index);
  expect(snap.sets.rows.find((r) => r.name === 'github_get_job_logs')?.availability).toBe('on');
});

test('on load at 1440×900 the timeline shows its start, the promotion still selected; a user\'s selection scrolls (issue 35)', async ({ workbench, page }, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await workbench.open();
  const tl = workbench.timeline;
  await expect(tl.selectedRow()).toContainText('promotion');
  await expect(tl.row(0)).toHaveAttribute('data-kind', 'base');
  await expect(tl.row(0)).toBeInViewport({ ratio: 1 });
  await expect(tl.rowsOfKind('step').first()).toBeInViewport({ ratio: 1 });
  expect(await tl.scrollTop()).toBe(0);
  await page.screenshot({ path: info.outputPath('timeline-on-load-1440x900.png') });

  // A document whose first promotion is far below the fold opens on it, showing its start.
  const demo = readFileSync(new URL('../src/app/demo-scenario.toml', import.meta.url), 'utf8');
  const at = demo.indexOf('[[steps]]');
  const warmUps = Array.from({ length: 12 }, (_, i) => `[[steps]]\ncommand = "jp q 'warm-up ${i + 1}'"\n\n`).join('');
  expect(await workbench.loadScenario(demo.slice(0, at) + warmUps + demo.slice(at), 'long.toml')).toBe(true);
  await expect.poll(async () => {
    const snap = await workbench.snapshot();
    const promotion = snap.timeline.entries.find((e) => e.kind === 'delta' && e.sources?.includes('promotion'));
    return promotion !== undefined && promotion.index > 40 && snap.selectedEntry === promotion.index;
  }).toBe(true);
  await expect(tl.row(0)).toBeInViewport({ ratio: 1 });
  await expect(tl.rowsOfKind('step').first()).toBeInViewport({ ratio: 1 });
  expect(await tl.scrollTop()).toBe(0);
  await page.screenshot({ path: info.outputPath('timeline-long-on-load-1440x900.png') });

  // The user's own moves still bring the selected row into view.
  await tl.press('End');
  await expect(tl.selectedRow()).toBeInViewport({ ratio: 1 });
  expect(await tl.scrollTop()).toBeGreaterThan(0);
  await tl.press('Home');
  await expect(tl.row(0)).toBeInViewport({ ratio: 1 });

  // Scrolled down, then a document with no promotion to open on: it too shows its start.
  await tl.press('End');
  expect(await tl.scrollTop()).toBeGreaterThan(0);
  expect(await workbench.loadScenario(demo.slice(0, at) + warmUps, 'plain.toml')).toBe(true);
  await expect.poll(async () => (await workbench.snapshot()).timeline.entries.filter((e) => e.kind === 'step').length).toBe(12);
  await expect(tl.row(0)).toBeInViewport({ ratio: 1 });
  expect(await tl.scrollTop()).toBe(0);
});

test('rows show the core positions with their marks', async ({ workbench }) => {
  await workbench.open();
  const tl = workbench.timeline;
  await test.step('deltas carry their source as an icon and a word', async () => {
    const promo = tl.rowsOfKind('delta').first();
    await expect(promo.locator('.tl-src-promotion')).toHaveText(/▲\s*promotion/u);
  });
  await test.step('requests show tool count, bytes and the cache word', async () => {
    const req = tl.rowsOfKind('request').nth(1);
    await expect(req).toContainText('8 tools');
    await expect(req).toContainText('KB');
    await expect(req).toContainText('0 cached');
    await expect(req.locator('.tl-fact', { hasText: 'cached' })).toHaveAttribute('title', /^prefix changed · /u);
    await expect(tl.rowsOfKind('request').nth(2).locator('.tl-fact', { hasText: 'cached' })).toHaveAttribute('title', /^prefix reused · /u);
  });
  await test.step('search calls show "n of total" and how many are usable', async () => {
    const call = tl.rowsOfKind('call').first();
    await expect(call).toContainText('search_tools("workflow run logs")');
    await expect(call).toContainText('3 of 7');
    await expect(call).toHaveAttribute('title', /usable/u);
  });
  await test.step('passing expectations are green marks with expected and actual', async () => {
    await expect(tl.passMarks().first()).toBeVisible();
    await expect(tl.passMarks().first()).toHaveAttribute('aria-label', /expected .* actual /u);
    await expect(tl.failMarks()).toHaveCount(0);
  });
});

test('scrubbing the timeline changes the sets', async ({ workbench }) => {
  await workbench.open();
  const tl = workbench.timeline;
  const sets = workbench.sets;
  await sets.search('github_get_job_logs');
  const snap0 = await workbench.snapshot();
  const promotion = snap0.timeline.entries.find((e) => e.kind === 'delta' && e.sources?.includes('promotion'));
  expect(promotion).toBeDefined();

  await test.step('at the base config the tool is discoverable and searchable', async () => {
    await tl.scrubTo(0);
    await expect(tl.row(0)).toHaveAttribute('aria-selected', 'true');
    await expect(sets.availability('github_get_job_logs')).toHaveText('discoverable');
    await expect(sets.chips('github_get_job_logs')).toHaveAttribute('aria-label', 'permitted, searchable');
    const snap = await workbench.snapshot();
    expect(snap.position).toBe(0);
    const row = snap.sets.rows.find((r) => r.name === 'github_get_job_logs');
    expect(row?.availability).toBe('discoverable');
    expect(row?.searchable).toBe(true);
    expect(row?.offered).toBe(false);
  });

  await test.step('after the promotion it is on and offered', async () => {
    await tl.scrubTo(promotion?.index ?? 0);
    await expect(tl.selectedRow()).toHaveAttribute('data-kind', 'delta');
    await expect(sets.availability('github_get_job_logs')).toHaveText('on');
    await expect(sets.chips('github_get_job_logs')).toHaveAttribute('aria-label', 'permitted, offered');
    await expect(sets.row('github_get_job_logs')).toContainText('delta 1 (promotion) → on');
    const snap = await workbench.snapshot();
    expect(snap.position).toBe(promotion?.position);
    const row = snap.sets.rows.find((r) => r.name === 'github_get_job_logs');
    expect(row?.availability).toBe('on');
    expect(row?.offered).toBe(true);
  });
});

test('the keyboard moves along the timeline', async ({ workbench }) => {
  await workbench.open();
  const tl = workbench.timeline;
  // The rows come with their window's answer, after the derivation's (the counts first, then the panels).
  await expect(tl.row(0)).toBeVisible();
  const count = await tl.rows().count();
  await test.step('Home selects the base config', async () => {
    await tl.press('Home');
    await expect(tl.row(0)).toHaveAttribute('aria-selected', 'true');
    expect((await workbench.snapshot()).selectedEntry).toBe(0);
  });
  await test.step('↓ and j move down, ↑ and k move up', async () => {
    await tl.press('ArrowDown');
    await expect(tl.row(1)).toHaveAttribute('aria-selected', 'true');
    await tl.press('j', 'j');
    await expect(tl.row(3)).toHaveAttribute('aria-selected', 'true');
    await tl.press('k');
    await expect(tl.row(2)).toHaveAttribute('aria-selected', 'true');
    await tl.press('ArrowUp');
    await expect(tl.row(1)).toHaveAttribute('aria-selected', 'true');
  });
  await test.step('End selects the last row and scrolls it into view', async () => {
    await tl.press('End');
    await expect(tl.row(count - 1)).toHaveAttribute('aria-selected', 'true');
    await expect(tl.row(count - 1)).toBeInViewport();
    await expect(tl.scrubber()).toHaveValue(String(count - 1));
    await tl.press('Home');
    await expect(tl.row(0)).toBeInViewport();
  });
});

test('a failed expectation and a refused step are red where they stand', async ({ workbench, page }) => {
  await workbench.open();
  expect(await workbench.loadScenario(FAILING, 'failing.toml')).toBe(true);
  const tl = workbench.timeline;
  await test.step('the failed expectation is a red mark on its request row', async () => {
    const mark = tl.failMarks().first();
    await expect(mark).toBeVisible();
    await expect(mark).toHaveAttribute('aria-label', /failed: offered, expected \["build","deploy","describe_tools","search_tools"\], actual \["build","describe_tools","search_tools"\]/u);
    await expect(mark).toHaveAttribute('title', /expected[\s\S]*actual/u);
    const bg = await mark.evaluate((el) => getComputedStyle(el).backgroundColor);
    const err = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--err)';
      document.body.append(probe);
      const c = getComputedStyle(probe).color;
      probe.remove();
      return c;
    });
    expect(bg).toBe(err);
    const entry = Number(await mark.locator('xpath=ancestor::*[@role="option"]').getAttribute('data-entry'));
    const snap = await workbench.snapshot();
    const x = snap.timeline.expectations.find((e) => !e.pass);
    expect(x?.entry).toBe(entry);
    expect(snap.timeline.entries[entry]?.kind).toBe('request');
  });
  await test.step('the refused step is red with its error in place', async () => {
    const step = tl.rowsOfKind('step').nth(1);
    await expect(step).toHaveClass(/has-error/u);
    await expect(step).toContainText('Tool not found: nosuch');
  });
});

test('steps are added, checked as you type, edited and deleted', async ({ workbench }) => {
  await workbench.open();
  const tl = workbench.timeline;
  const before = (await workbench.snapshot()).doc.steps.length;

  await test.step('an invalid command shows its error inline and adds nothing', async () => {
    await tl.typeCommand("jp frob 'hello'");
    await expect(tl.commandError()).toBeVisible();
    await expect(tl.commandError()).toContainText('unknown command');
    await expect(tl.commandError().locator('mark')).toHaveText('frob');
    await expect(tl.commandField()).toHaveAttribute('aria-invalid', 'true');
    await tl.commandField().press('Enter');
    expect((await workbench.snapshot()).doc.steps.length).toBe(before);
  });

  await test.step('fixing it clears the error as you type; Enter adds the step', async () => {
    await tl.typeCommand("jp q -t deploy_staging 'Deploy main to staging'");
    await expect(tl.commandError()).toBeHidden();
    await tl.commandField().press('Enter');
    await expect(tl.commandField()).toHaveValue('');
    await expect(tl.rowsOfKind('step').last()).toContainText("jp q -t deploy_staging 'Deploy main to staging'");
    const snap = await workbench.snapshot();
    expect(snap.doc.steps.length).toBe(before + 1);
    expect(snap.doc.steps[before]?.command).toBe("jp q -t deploy_staging 'Deploy main to staging'");
    const delta = snap.timeline.entries.filter((e) => e.kind === 'delta').at(-1);
    expect(delta?.sources).toEqual(['directive']);
  });

  await test.step('Enter on a step row edits it; Escape cancels', async () => {
    await tl.rowsOfKind('step').last().click();
    await tl.press('Enter');
    await expect(tl.commandField()).toHaveAttribute('aria-label', `Edit step ${before + 1}`);
    await expect(tl.commandField()).toHaveValue("jp q -t deploy_staging 'Deploy main to staging'");
    await tl.commandField().press('Escape');
    await expect(tl.commandField()).toHaveAttribute('aria-label', /New step/u);
    await tl.rowsOfKind('step').last().dblclick();
    await tl.typeCommand("jp q 'Deploy main to staging'");
    await tl.commandField().press('Enter');
    await expect(tl.rowsOfKind('step').last()).toContainText("jp q 'Deploy main to staging'");
    expect((await workbench.snapshot()).doc.steps[before]?.command).toBe("jp q 'Deploy main to staging'");
  });

  await test.step('Delete removes the selected step, and Undo brings it back', async () => {
    await tl.rowsOfKind('step').last().click();
    await tl.press('Delete');
    await expect(tl.deletedBanner()).toContainText(`Step ${before + 1} deleted`);
    expect((await workbench.snapshot()).doc.steps.length).toBe(before);
    await tl.undoDelete();
    await expect(tl.rowsOfKind('step')).toHaveCount(before + 1);
    expect((await workbench.snapshot()).doc.steps[before]?.command).toBe("jp q 'Deploy main to staging'");
  });

  await test.step('the Delete button removes it too', async () => {
    await tl.rowsOfKind('step').last().click();
    await tl.root.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(tl.rowsOfKind('step')).toHaveCount(before);
    expect((await workbench.snapshot()).doc.steps.length).toBe(before);
  });
});

test('an empty timeline teaches the first step', async ({ workbench }) => {
  await workbench.open();
  expect(await workbench.loadScenario(NO_STEPS, 'empty.toml')).toBe(true);
  const tl = workbench.timeline;
  const start = tl.root.getByRole('button', { name: /Start with jp q 'your first query'/u });
  await expect(start).toBeVisible();
  await expect(tl.commandField()).toHaveAttribute('placeholder', "jp q 'your first query'");
  await start.click();
  await expect(tl.commandField()).toBeFocused();
  await expect(tl.commandField()).toHaveValue("jp q 'your first query'");
  await tl.commandField().press('Enter');
  await expect(tl.rowsOfKind('step')).toHaveCount(1);
  await expect(tl.rowsOfKind('turn')).toHaveCount(1);
  await expect(start).toBeHidden();
});

for (const size of [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
]) {
  test(`screenshots of the timeline and the sets at ${size.width}×${size.height}`, async ({ workbench, page }, info) => {
    await page.setViewportSize(size);
    await workbench.open();
    await expect(workbench.timeline.selectedRow()).toHaveAttribute('data-kind', 'delta');
    await workbench.timeline.root.screenshot({ path: info.outputPath(`timeline-${size.width}x${size.height}.png`) });
    await workbench.sets.root.screenshot({ path: info.outputPath(`sets-${size.width}x${size.height}.png`) });
    // Rows never spill sideways: long words truncate inside their row.
    const spill = await workbench.timeline.list().evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(spill).toBeLessThanOrEqual(0);
  });
}

test('the palette offers the undo of a step deletion only while there is one to undo (issue 35)', async ({ workbench, page }, info) => {
  const tl = workbench.timeline;
  await workbench.open();
  const steps = (await workbench.snapshot()).doc.steps.map((s) => s.command);
  expect(await workbench.paletteOffers('undo the step deletion')).toEqual([]);
  await page.screenshot({ path: info.outputPath('palette-no-undo.png') });
  await workbench.closePalette();

  await tl.rowsOfKind('step').first().click();
  await tl.press('Delete');
  await expect(tl.deletedBanner()).toContainText('Step 1 deleted');
  expect(await workbench.paletteOffers('undo the step deletion')).toEqual(['Timeline: undo the step deletion (step 1)']);
  await page.screenshot({ path: info.outputPath('palette-undo.png') });
  await workbench.closePalette();
  await workbench.runFromPalette('undo the step deletion');
  await expect(tl.deletedBanner()).toBeHidden();
  expect((await workbench.snapshot()).doc.steps.map((s) => s.command)).toEqual(steps);
  expect(await workbench.paletteOffers('undo the step deletion')).toEqual([]);
});

test('undo of a deleted step belongs to its document: a replacement clears it, and the bar goes away on its own (issue 24.1)', async ({ workbench, page }) => {
  const tl = workbench.timeline;
  await page.clock.install();
  await workbench.open();
  const demoSteps = (await workbench.snapshot()).doc.steps.length;
  expect(await workbench.loadScenario(FAILING, 'failing.toml')).toBe(true);
  await expect(tl.rowsOfKind('step')).toHaveCount(2);

  await test.step('delete a step of the loaded document', async () => {
    await tl.rowsOfKind('step').first().click();
    await tl.press('Delete');
    await expect(tl.deletedBanner()).toContainText('Step 1 deleted');
  });

  await test.step('switch back to the demo through Recent documents: no undo of the other document is offered', async () => {
    await workbench.history.open();
    await workbench.history.restore('Demo: why did the last deploy fail?');
    await expect(tl.rowsOfKind('step')).toHaveCount(demoSteps);
    await expect(tl.deletedBanner()).toBeHidden();
    // The palette's undo is bound the same way: it is not offered, and the demo stays as it is.
    expect(await workbench.paletteOffers('undo the step deletion')).toEqual([]);
    await workbench.closePalette();
    expect((await workbench.snapshot()).doc.steps.length).toBe(demoSteps);
  });

  await test.step('an edit after the deletion retires the undo too (it would insert into another revision)', async () => {
    await tl.rowsOfKind('step').last().click();
    await tl.press('Delete');
    await expect(tl.deletedBanner()).toBeVisible();
    await tl.addStep("jp q 'something else'");
    await expect(tl.deletedBanner()).toBeHidden();
  });

  await test.step('the bar goes away on its own', async () => {
    await tl.rowsOfKind('step').last().click();
    await tl.press('Delete');
    await expect(tl.deletedBanner()).toBeVisible();
    await page.clock.runFor(30_000);
    await expect(tl.deletedBanner()).toBeHidden();
  });
});
