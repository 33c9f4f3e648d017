// A first screen a newcomer can use (issue 24, items 11 to 15): the folder route that can start
// servers, one step to connect an HTTP server, the keyboard in and out of the layer editor, a
// simulator that does not offer model actions on a step that never sent a request, and a plain
// paragraph for someone who never heard of RFD 108, at 1024×768 and 1440×900.
import { test, expect } from './fixtures';
import { screenshotsAtTwoSizes } from './screens';

test('a step that failed before any request offers no model actions, and says why', async ({ workbench, page }, info) => {
  const sim = workbench.simulator;
  await workbench.open();
  await sim.open();
  await sim.addStep("jp q -t fs_delete_file 'Delete the build folder'");
  await expect(sim.following()).toContainText('Step 3');
  await test.step('the timeline marks the step as failed, before any request', async () => {
    const snap = await workbench.snapshot();
    const step = snap.timeline.entries.find((e) => e.kind === 'step' && e.step === 3);
    expect(step?.error).toContain('fs_delete_file');
    expect(snap.timeline.entries.some((e) => e.kind === 'request' && e.step === 3)).toBe(false);
  });
  await test.step('the actions are disabled and the reason is the step\'s own error', async () => {
    await expect(sim.blocked()).toContainText('did not start');
    await expect(sim.blocked()).toContainText('cannot enable `fs_delete_file`');
    await expect(sim.blocked()).toContainText('no request');
    const controls = sim.actionControls();
    expect(await controls.count()).toBeGreaterThanOrEqual(5);
    for (const c of await controls.all()) await expect(c).toBeDisabled();
  });
  await test.step('nothing on the simulator contradicts the sets panel (permitted tools exist)', async () => {
    await expect(workbench.sets.counts().locator('[data-set="permitted"]')).not.toContainText(/\b0\b/u);
    await expect(page.getByRole('region', { name: "The model's response" })).not.toContainText('0 offered');
    await expect(page.getByRole('region', { name: "The model's response" })).not.toContainText('search_tools is not offered');
  });
  await screenshotsAtTwoSizes(page, info, 'sim-blocked');
});

for (const size of [
  { width: 1024, height: 768 },
  { width: 1440, height: 900 },
]) {
  test(`at ${size.width}×${size.height} the first screen says what the workbench is for, and keeps its name and picker labels`, async ({ workbench, page }, info) => {
    const guide = workbench.guide;
    await page.setViewportSize(size);
    await workbench.open();
    await test.step('one plain paragraph: what it is for, the three sets, what the demo shows', async () => {
      const welcome = guide.welcome();
      await expect(welcome).toBeVisible();
      await expect(welcome).toContainText('which tools a language model is sent');
      for (const word of ['permitted', 'offered', 'searchable']) await expect(welcome.locator('strong', { hasText: word })).toBeVisible();
      await expect(welcome).toContainText('The demo');
      await expect(welcome).toContainText('failed deploy');
      // All of it is on screen: not cut off, not ellipsized.
      const clipped = await welcome.locator('p').evaluate((p) => p.scrollHeight > p.clientHeight + 1 || p.scrollWidth > p.clientWidth + 1);
      expect(clipped, 'the paragraph is not clipped').toBe(false);
      await expect(welcome.locator('p')).toBeInViewport({ ratio: 1 });
    });
    await test.step('the product name and the picker labels stay visible', async () => {
      await expect(guide.brand()).toBeVisible();
      await expect(guide.brand()).toContainText('Workbench');
      const brand = await guide.brand().boundingBox();
      expect(brand?.width ?? 0).toBeGreaterThan(40);
      for (const label of ['provider', 'ranking']) {
        const l = page.locator('header.header .hd-label', { hasText: label });
        await expect(l).toBeVisible();
        expect((await l.boundingBox())?.width ?? 0, `${label} label has a width`).toBeGreaterThan(20);
      }
      const boxes = await workbench.header.itemBoxes();
      expect(Math.max(...boxes.map((b) => b.bottom)) - Math.min(...boxes.map((b) => b.top)), 'the header stays on one row').toBeLessThan(40);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'no horizontal scroll').toBeLessThanOrEqual(0);
    });
    await page.screenshot({ path: info.outputPath(`first-screen-${size.width}x${size.height}.png`) });
    await test.step('Help starts with the same paragraph and names no source file', async () => {
      await guide.openHelp();
      await expect(guide.help()).toContainText('which tools a language model is sent');
      await expect(guide.help()).toContainText('A short tour');
      await expect(guide.help()).not.toContainText(/\b(src|bench)\/[\w/.-]+/u);
      await page.screenshot({ path: info.outputPath(`help-${size.width}x${size.height}.png`) });
      await page.keyboard.press('Escape');
    });
    await test.step('"Got it" puts it away, for the next visit too', async () => {
      await guide.dismissWelcome();
      await page.reload();
      await page.getByTestId('check-status').filter({ hasText: 'passed' }).waitFor();
      await expect(guide.welcome()).toHaveCount(0);
    });
  });
}
