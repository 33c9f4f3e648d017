// The first screen explains itself: the scenario's description, the sets' legend, a guided tour a
// presenter steps with the keyboard, Help with the README's tour; a header on one row at 1024 px and
// wider whatever the provider and the switches; one pass/fail count that leads to the first failure;
// timeline rows that keep what matters at 1024 px; a dock tall enough at 900 px; a search lab without
// an empty column.
import { test, expect } from './fixtures';
import { expectAccessible } from './axe';
import { turnLab } from './turnScenarios';
import { PROVIDER_IDS as PROVIDERS } from '../src/core/providers/registry';

/** A user's own document: one tool, no steps, so no request and no promotion. */
const MINE = 'name = "Mine"\n\n[[layers]]\nname = "tools"\ntext = \'\'\'\n[conversation.tools.notify]\nsource = "local"\nsummary = "Send a note."\nenable = true\n\'\'\'\n';


test('the description, the legend and the chips explain the words', async ({ workbench }) => {
  const guide = workbench.guide;
  await workbench.open();
  await test.step('the demo\'s description tells its story, once the first screen\'s paragraph is put away', async () => {
    await expect(guide.description()).toHaveCount(0);
    await guide.dismissWelcome();
    await expect(guide.description()).toContainText('Up front the model is offered three local tools and the two builtins');
  });
  await test.step('each count carries its chip and its word, and a meaning on hover', async () => {
    const counts = workbench.sets.counts();
    for (const word of ['permitted', 'offered', 'searchable', 'configured']) await expect(counts.locator(`[data-set="${word}"]`)).toHaveAttribute('title', /.{30,}/u);
    await expect(counts.locator('[data-set="permitted"]')).toContainText('P');
  });
  await test.step('the legend says what each set, chip and badge means', async () => {
    await guide.legendToggle().click();
    await expect(guide.legendToggle()).toHaveAttribute('aria-expanded', 'true');
    await expect(guide.legend()).toContainText('search_tools can find it');
    await expect(guide.legend()).toContainText("definition is in the request's tools array up front");
    await expect(guide.legend()).toContainText('allow_toggle');
    await expectAccessible(workbench.page, '[aria-label="Sets"]');
  });
  await test.step('a tool\'s chips are read as the sets\' names, not as "POS"', async () => {
    await expect(workbench.sets.chips('fs_read_file')).toHaveAttribute('aria-label', 'permitted, offered');
  });
});

test('a guided tour steps through a position, a promotion, the request after it and the cost', async ({ workbench }) => {
  const guide = workbench.guide;
  await workbench.open();
  await guide.startTour();
  await test.step('step 1: a position (the base config row)', async () => {
    await expect(guide.tour()).toContainText('A position');
    await expect(workbench.timeline.selectedRow()).toHaveAttribute('data-kind', 'base');
    await expect(guide.tour()).toBeFocused();
  });
  await test.step('→: a promotion', async () => {
    await workbench.page.keyboard.press('ArrowRight');
    await expect(guide.tour()).toContainText('A promotion');
    await expect(workbench.timeline.selectedRow()).toContainText('promotion');
  });
  await test.step('Enter: the request that follows it, offering what was promoted', async () => {
    await workbench.page.keyboard.press('Enter');
    await expect(guide.tour()).toContainText('The request that follows it');
    await expect(workbench.timeline.selectedRow()).toHaveAttribute('data-kind', 'request');
    await expect(workbench.timeline.selectedRow()).toContainText('+3 new');
  });
  await test.step('→: the cost, on the cost chart', async () => {
    await workbench.page.keyboard.press('ArrowRight');
    await expect(guide.tour()).toContainText('The cost');
    await expect(workbench.page.getByRole('tab', { name: 'Cost chart' })).toHaveAttribute('aria-selected', 'true');
  });
  await test.step('← goes back; Escape ends the tour', async () => {
    await workbench.page.keyboard.press('ArrowLeft');
    expect(await guide.tourStep()).toBe(2);
    await workbench.page.keyboard.press('Escape');
    await expect(guide.tour()).toBeHidden();
  });
  await test.step('Help shows the README\'s tour and starts the guided one', async () => {
    await guide.openHelp();
    await expect(guide.help()).toContainText('A short tour');
    await expect(guide.help().locator('strong', { hasText: 'Timeline' })).toBeVisible();
    await expectAccessible(workbench.page, '[data-testid="help"]');
    await guide.help().getByRole('button', { name: 'Start the guided tour' }).click();
    await expect(guide.tour()).toContainText('A position');
    await workbench.page.keyboard.press('Escape');
  });
});

test('the tour on a document with no steps describes only what it has: no promotion, no request (issue 35)', async ({ workbench, page }) => {
  const guide = workbench.guide;
  await workbench.open();
  expect(await workbench.loadScenario('name = "Mine"\n\n[[layers]]\nname = "tools"\ntext = \'\'\'\n[conversation.tools.notify]\nsource = "local"\nsummary = "Send a note."\nenable = true\n\'\'\'\n', 'mine.toml')).toBe(true);
  await expect(workbench.timeline.rows()).toHaveCount(1);
  await guide.startTour();
  await expect(guide.tour()).toContainText('A position');
  await expect(guide.tour()).toContainText('of 3');
  if (process.env.TOUR_SCREENSHOTS) await page.screenshot({ path: `${process.env.TOUR_SCREENSHOTS}/tour-no-steps.png` });
  expect(await guide.tourTitles()).toEqual(['A position', 'The cost', 'Your turn']);
});

test('the tour\'s cost stop on a document with no request says so, and names no promotion (issue 35)', async ({ workbench, page }) => {
  const guide = workbench.guide;
  await workbench.open();
  expect(await workbench.loadScenario(MINE, 'mine.toml')).toBe(true);
  await expect(workbench.timeline.rows()).toHaveCount(1);
  await guide.startTour();
  await guide.tourTo('The cost');
  await expect(page.getByRole('tab', { name: 'Cost chart' })).toHaveAttribute('aria-selected', 'true');
  // What the stop says is what the chart beside it shows.
  await expect(workbench.chart.root()).toContainText('No requests yet');
  await expect(guide.tourBody()).toContainText('This document has no request yet, so the cost chart is empty');
  await expect(guide.tourBody()).not.toContainText('promotion');
  if (process.env.TOUR_SCREENSHOTS) await page.screenshot({ path: `${process.env.TOUR_SCREENSHOTS}/tour-cost-no-requests.png` });
  await test.step('the demo\'s cost stop still names the promotions as markers', async () => {
    await page.keyboard.press('Escape');
    await workbench.runCommand('file.demo');
    await guide.startTour();
    await guide.tourTo('The cost');
    await expect(guide.tourBody()).toContainText('with the promotions as markers');
  });
});

test('the first screen\'s paragraph tells of the demo on the demo, and of the open document on a user\'s own (issue 35)', async ({ workbench, page }) => {
  const guide = workbench.guide;
  await workbench.open();
  await expect(guide.welcome()).toContainText('The demo is a conversation about a failed deploy');
  await workbench.openScenarioFile('mine.toml', new TextEncoder().encode(MINE));
  await expect(workbench.timeline.rows()).toHaveCount(1);
  await expect(guide.welcome()).toContainText('The open document is “Mine”');
  await expect(guide.welcome()).not.toContainText('The demo is');
  if (process.env.TOUR_SCREENSHOTS) await page.screenshot({ path: `${process.env.TOUR_SCREENSHOTS}/welcome-own-document.png` });
  await test.step('Help says the same', async () => {
    await guide.openHelp();
    await expect(guide.help()).toContainText('The open document is “Mine”');
    await expect(guide.help()).not.toContainText('The demo is');
    await page.keyboard.press('Escape');
  });
  await test.step('back on the demo, the demo sentence is back', async () => {
    await workbench.runCommand('file.demo');
    await expect(guide.welcome()).toContainText('The demo is a conversation about a failed deploy');
  });
});

for (const size of [
  { width: 1024, height: 768 },
  { width: 1440, height: 900 },
]) {
  test(`the header stays on one row at ${size.width} px, in every provider and with switches changed`, async ({ workbench, page }, info) => {
    const header = workbench.header;
    await page.setViewportSize(size);
    await workbench.open();
    const oneRow = async (label: string) => {
      const boxes = await header.itemBoxes();
      const top = Math.min(...boxes.map((b) => b.top));
      const bottom = Math.max(...boxes.map((b) => b.bottom));
      expect(bottom - top, `${label}: every item on one row (${JSON.stringify(boxes)})`).toBeLessThan(40);
      expect(Math.max(...boxes.map((b) => b.right)), `${label}: nothing past the right edge`).toBeLessThanOrEqual(size.width);
      expect((await header.box()).height, label).toBeLessThan(44);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${label}: no horizontal scroll`).toBeLessThanOrEqual(0);
    };
    await test.step('every provider', async () => {
      for (const p of PROVIDERS) {
        await header.setProvider(p);
        await expect(header.status()).toContainText('passed');
        await oneRow(p);
      }
    });
    await test.step('with switches changed and a failing count', async () => {
      await header.setRanking('substring');
      await page.getByRole('tab', { name: 'Open questions' }).click();
      await page.getByRole('radio', { name: /whole_query/u }).check();
      await page.getByRole('radio', { name: /append/u }).check();
      await expect(header.switches()).toHaveAccessibleName(/Policy switches, [34] changed/u);
      await expect(header.failureLink()).toBeVisible();
      await oneRow('switches changed');
      await page.screenshot({ path: info.outputPath(`header-${size.width}x${size.height}.png`) });
    });
  });
}

test('the count is the timeline\'s, and it leads to the first failing row', async ({ workbench }) => {
  await workbench.open();
  const failing = turnLab({ name: 'One failure' }).replace(
    /\n\[\[steps\]\][\s\S]*$/u,
    '',
  )
    .concat(`
[[steps]]
command = "jp q 'deploy it'"

  [[steps.cycles]]
  reply = "ok"
  [steps.cycles.expect]
  offered_includes = ["deploy_staging"]
  cache = "miss"
`);
  expect(await workbench.loadScenario(failing)).toBe(true);
  await test.step('the header and the timeline say the same', async () => {
    const snap = await workbench.snapshot();
    expect(snap.timeline.failed).toBe(1);
    await expect(workbench.header.status()).toContainText(`${snap.timeline.passed} passed, 1 failed`);
    await expect(workbench.page.getByTestId('timeline-summary')).toContainText(`${snap.timeline.passed} ✓ passed · 1 ✗ failed`);
  });
  await test.step('clicking the count selects the failing row', async () => {
    await workbench.header.failureLink().click();
    await expect(workbench.timeline.selectedRow().getByTestId('expectation-fail')).toBeVisible();
    await expect(workbench.timeline.list()).toBeFocused();
  });
  await test.step('a layer error counts in both, and leads to its row', async () => {
    const broken = failing.replace('enable = "discoverable"', 'enable = "sometimes"');
    expect(await workbench.loadScenario(broken)).toBe(true);
    const snap = await workbench.snapshot();
    expect(snap.diagnostics.some((d) => d.severity === 'error' && d.message.includes('sometimes'))).toBe(true);
    expect(snap.timeline.failed).toBeGreaterThanOrEqual(1);
    await expect(workbench.header.status()).toContainText(`${snap.timeline.passed} passed, ${snap.timeline.failed} failed`);
    await expect(workbench.page.getByTestId('timeline-summary')).toContainText(`${snap.timeline.failed} ✗ failed`);
    await workbench.page.getByTestId('timeline-summary').getByRole('button').click();
    expect((await workbench.snapshot()).selectedEntry).toBe(snap.timeline.problemEntries[0]);
    // A load error stands on the row before the first step (the base config).
    expect(snap.timeline.entries[snap.timeline.problemEntries[0] ?? -1]?.kind).toBe('base');
  });
});

test('at 1024 px a request row keeps its kind, tool count, offered cost and cache word; in directives mode the array is labelled', async ({ workbench, page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await workbench.open();
  const row = workbench.timeline.rowsOfKind('request').nth(1);
  const visible = async (text: string | RegExp) => {
    const part = row.locator('.tl-text, .tl-fact').filter({ hasText: text }).first();
    await expect(part).toBeVisible();
    const r = await row.boundingBox();
    const b = await part.boundingBox();
    expect(b && r && b.x >= r.x && b.x + b.width <= r.x + r.width + 1, `${String(text)} inside its row`).toBe(true);
  };
  await visible('cycle 2');
  await visible('8 tools');
  await visible('2.4 KB');
  await visible('0 cached');
  await workbench.header.setProvider('anthropic-directives');
  await visible('8 offered');
  await visible('2.4 KB');
  await expect(row.locator('.tl-fact', { hasText: 'array 34' })).toHaveAttribute('title', /fixed catalogue/u);
  await expect(row.locator('.tl-fact', { hasText: '8 offered' })).toHaveAttribute('title', /array holds 34 tools/u);
  await page.setViewportSize({ width: 1440, height: 900 });
  await visible('array 34');
});

test('at 900 px the dock opens tall enough, and the search lab has no empty query-set column', async ({ workbench, page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await workbench.open();
  expect(await workbench.loadScenario(turnLab())).toBe(true);
  await workbench.simulator.open();
  await workbench.simulator.addStep("jp q 'Why did the deploy fail?'");
  await test.step('the simulator\'s form is in view without scrolling', async () => {
    const dock = await page.getByRole('region', { name: 'Dock' }).boundingBox();
    expect(dock?.height ?? 0).toBeGreaterThanOrEqual(360);
    await expect(page.getByTestId('sim-search-submit')).toBeInViewport();
  });
  await test.step('the search lab uses the width for its two rankings until a query set is loaded', async () => {
    await workbench.searchLab.open();
    await expect(page.getByRole('region', { name: 'Query set evaluation' })).toHaveCount(0);
    await workbench.searchLab.query('deploy');
    const a = await workbench.searchLab.ranking('substring').boundingBox();
    const b = await workbench.searchLab.ranking('bm25').boundingBox();
    expect(a && b && Math.abs(a.y - b.y) < 2 && b.x > a.x + a.width - 1, 'the rankings side by side').toBe(true);
    await workbench.searchLab.loadQuerySet('{"query": "deploy logs", "relevant": ["deploy_logs"]}\n');
    await expect(page.getByRole('region', { name: 'Query set evaluation' })).toBeVisible();
    await expect(workbench.searchLab.evaluation()).toBeVisible();
  });
});
