// The timeline's expectation marks at the sizes the workbench is checked at, with a desktop's classic
// scrollbars: headless Chromium hides them, and a desktop's take 15 px of the timeline's width, which
// had left a "✓ 2" 4 px from being cut off at 1024 px (and cut off a little narrower, or with a wider
// font), because "0 cached" is longer than the old "hit". Its own file: the browser is launched differently.
import { test, expect } from './fixtures';

test.use({ launchOptions: { executablePath: process.env.PLAYWRIGHT_CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'], ignoreDefaultArgs: ['--hide-scrollbars'] } });

test('every expectation mark stays in its row at 1440×900, 1024×768 and narrower, the selected row with "0 cached" too', async ({ workbench, page }, info) => {
  await workbench.open();
  const tl = workbench.timeline;
  for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 768 }, { width: 960, height: 768 }]) {
    await page.setViewportSize(size);
    const rows = tl.rowsWithMarks();
    // The rows come with their window's answer, after the derivation's (the counts first, then the panels).
    await expect.poll(() => rows.count()).toBeGreaterThan(2);
    const n = await rows.count();
    for (let i = 0; i < n; i++) {
      const row = rows.nth(i);
      await row.click();
      await expect(row).toHaveAttribute('aria-selected', 'true');
      const at = await tl.markPlacement(row);
      const where = `${size.width} px, row ${i} (${(await row.textContent()) ?? ''})`;
      expect(at.text, where).toMatch(/^[✓✗] \d+$/u);
      // The sign and count lie inside the mark (not cut by its ellipsis) and inside the line (not clipped).
      expect(at.count.right, where).toBeLessThanOrEqual(at.mark.right + 0.5);
      expect(at.count.right, where).toBeLessThanOrEqual(at.line.right + 0.5);
      expect(at.count.left, where).toBeGreaterThanOrEqual(at.line.left - 0.5);
    }
    // The request the issue names: selected, it says "0 cached" and keeps its mark.
    const cached = rows.filter({ hasText: '0 cached' }).nth(1);
    await cached.click();
    await expect(cached.getByTestId('expectation-pass')).toBeVisible();
    await page.screenshot({ path: info.outputPath(`timeline-marks-${size.width}x${size.height}.png`) });
  }
});
