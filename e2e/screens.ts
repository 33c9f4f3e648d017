// Screenshots of a panel's state at the two sizes the workbench is checked at, saved beside the
// test's results (test-results/<test>/), for a person to look at.
import type { Page, TestInfo } from '@playwright/test';

export async function screenshotsAtTwoSizes(page: Page, info: TestInfo, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 768 }]) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: info.outputPath(`${name}-${size.width}x${size.height}.png`) });
  }
  if (before) await page.setViewportSize(before);
}
