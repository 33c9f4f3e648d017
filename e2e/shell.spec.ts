// The app shell: autosave and restore, opening files (good and bad), the
// command palette, accessibility, and that nothing leaves localhost.
import AxeBuilder from '@axe-core/playwright';
import { test, expect } from './fixtures';

const SMALL = `name = "Persistence check"

[[layers]]
name = "workspace"
text = '''
[conversation.tools.deploy]
source = "local"
enable = "discoverable"
summary = "Deploy a service."
'''

[[steps]]
command = "jp q 'deploy it'"
`;

test('autosave restores the work after a reload', async ({ workbench, page }) => {
  await test.step('open a scenario and edit it', async () => {
    await workbench.open();
    expect(await workbench.loadScenario(SMALL, 'persist.toml')).toBe(true);
    await page.evaluate(() => window.__workbench?.runCommand('layer.add'));
    await workbench.flushAutosave();
  });
  const before = await workbench.snapshot();
  await test.step('reload', async () => {
    await workbench.open({ keepSaved: true });
  });
  await test.step('everything is back', async () => {
    const after = await workbench.snapshot();
    expect(after.doc.name).toBe('Persistence check');
    expect(after.layers).toEqual(before.layers);
    expect(after.layers.length).toBe(2);
    expect(after.sets.rows.find((r) => r.name === 'deploy')?.availability).toBe('discoverable');
  });
});

test('a bad scenario file is refused with its position, and nothing is lost', async ({ workbench }) => {
  await workbench.open();
  const before = await workbench.snapshot();
  await test.step('open a file with a syntax error', async () => {
    const ok = await workbench.loadScenario('name = "broken"\n[[layers]\nname = "x"\n', 'broken.toml');
    expect(ok).toBe(false);
  });
  await test.step('the banner names the file and the line', async () => {
    await expect(workbench.banner()).toContainText('broken.toml');
    await expect(workbench.banner()).toContainText('2:');
    await expect(workbench.banner()).toContainText('unchanged');
  });
  await test.step('an unknown expectation key is refused too', async () => {
    const ok = await workbench.loadScenario(`${SMALL}\n[steps.expect]\nofferd = []\n`, 'typo.toml');
    expect(ok).toBe(false);
    await expect(workbench.banner()).toContainText('offerd');
  });
  const after = await workbench.snapshot();
  expect(after.doc).toEqual(before.doc);
});

test('the command palette runs commands from the keyboard', async ({ workbench, page }) => {
  await workbench.open();
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette).toBeVisible();
  await page.keyboard.type('open questions');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.getByRole('tab', { name: 'Open questions' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();
});

test('the main view has no serious accessibility violations', async ({ workbench, page }) => {
  await workbench.open();
  await page.locator('.monaco-editor').first().waitFor();
  const results = await new AxeBuilder({ page }).exclude('.monaco-editor').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
});

for (const size of [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
]) {
  test(`the main view at ${size.width}×${size.height}`, async ({ workbench, page }, info) => {
    await page.setViewportSize(size);
    await workbench.open();
    await page.locator('.monaco-editor').first().waitFor();
    const path = info.outputPath(`main-${size.width}x${size.height}.png`);
    await page.screenshot({ path });
    // Nothing in the header may spill out of the window.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}
