import { test, expect } from './fixtures';

test('opens on the demo scenario with every expectation passing', async ({ workbench }) => {
  await test.step('open', async () => {
    await workbench.open();
  });
  await test.step('the demo derives', async () => {
    const snap = await workbench.snapshot();
    expect(snap.doc.name).toContain('Demo');
    expect(snap.timeline.failed).toBe(0);
    expect(snap.timeline.passed).toBeGreaterThan(5);
    expect(snap.sets.counts.offered).toBeGreaterThan(3);
  });
});
