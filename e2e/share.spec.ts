// Sharing: a link carries the whole scenario and opens it elsewhere; opening
// one keeps the previous work recoverable; a damaged link changes nothing.
import { test, expect } from './fixtures';
import { screenshotsAtTwoSizes } from './screens';
import { turnLabWithTurn } from './turnScenarios';
import { encodeShared } from '../src/features/share/codec';

test('a share link round-trips the scenario, and the previous work can be restored', async ({ workbench, browser }, info) => {
  let url = '';
  let shared: Awaited<ReturnType<typeof workbench.snapshot>>;
  await test.step('make a scenario and take its link', async () => {
    await workbench.open();
    expect(await workbench.loadScenario(turnLabWithTurn({ promotedPosition: 'append' }))).toBe(true);
    shared = await workbench.snapshot();
    url = await workbench.share.link();
    expect(url).toMatch(/#s=1\.[A-Za-z0-9_-]+$/u);
  });
  await test.step('elsewhere (a fresh browser profile), the link opens the same scenario', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.__workbench !== undefined);
    await page.getByTestId('shared-banner').waitFor();
    const snap = await page.evaluate(() => window.__workbench?.snapshot());
    expect(snap?.doc).toEqual(shared.doc);
    expect(snap?.timeline.requests.map((r) => r.array)).toEqual(shared.timeline.requests.map((r) => r.array));
    expect(page.url()).not.toContain('#s=');
    await context.close();
  });
  await test.step('over other work: the banner restores it', async () => {
    await workbench.runCommand('file.demo');
    const demo = await workbench.snapshot();
    await workbench.flushAutosave();
    await workbench.page.goto(url);
    await workbench.page.waitForFunction(() => window.__workbench !== undefined);
    await expect(workbench.share.sharedBanner()).toContainText('Opened a shared scenario');
    await expect.poll(async () => (await workbench.snapshot()).doc.name).toBe(shared.doc.name);
    await screenshotsAtTwoSizes(workbench.page, info, 'shared-banner');
    await workbench.share.restorePrevious();
    await expect.poll(async () => (await workbench.snapshot()).doc).toEqual(demo.doc);
    await expect(workbench.share.sharedBanner()).toHaveCount(0);
  });
});

test('a tampered or truncated link gets an error and loses nothing', async ({ workbench }) => {
  await workbench.open();
  expect(await workbench.loadScenario(turnLabWithTurn())).toBe(true);
  const mine = await workbench.snapshot();
  const url = await workbench.share.link();
  await workbench.flushAutosave();
  const hash = url.slice(url.indexOf('#'));
  const at = Math.floor(hash.length * 0.7);
  for (const [label, bad] of [
    ['tampered', hash.slice(0, at) + (hash[at] === 'x' ? 'y' : 'x') + hash.slice(at + 1)],
    ['truncated', hash.slice(0, Math.floor(hash.length * 0.8))],
  ] as const) {
    await test.step(`a ${label} link`, async () => {
      await workbench.page.goto(`/${bad}`);
      await workbench.page.waitForFunction(() => window.__workbench !== undefined);
      await expect(workbench.banner()).toContainText('This shared link is damaged');
      await expect(workbench.banner()).toContainText('your current work is unchanged');
      const snap = await workbench.snapshot();
      expect(snap.doc).toEqual(mine.doc);
      await expect(workbench.share.sharedBanner()).toHaveCount(0);
    });
  }
});

test('a link that inflates past 20 MB is refused at once with a clear error, and the work is kept', async ({ workbench }) => {
  await workbench.open();
  expect(await workbench.loadScenario(turnLabWithTurn())).toBe(true);
  const mine = await workbench.snapshot();
  await workbench.flushAutosave();
  // 24 MiB of one letter packs into about 24 KB of link: a decompression bomb.
  const bomb = encodeShared('a'.repeat(24 * 1024 * 1024));
  expect(bomb.length).toBeLessThan(64 * 1024);
  await workbench.page.goto(`/${bomb}`);
  await workbench.page.waitForFunction(() => window.__workbench !== undefined);
  await expect(workbench.banner()).toContainText('This shared link is too large');
  await expect(workbench.banner()).toContainText('unpacks to more than 20 MB of scenario text');
  await expect(workbench.banner()).toContainText('your current work is unchanged');
  expect((await workbench.snapshot()).doc).toEqual(mine.doc);
  await expect(workbench.share.sharedBanner()).toHaveCount(0);
});
