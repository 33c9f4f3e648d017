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
