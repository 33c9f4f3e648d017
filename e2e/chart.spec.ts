// The cost chart: offered against permitted per request, markers, click to
// select, and export as SVG and PNG.
import { readFile } from 'node:fs/promises';
import { test, expect } from './fixtures';
import { screenshotsAtTwoSizes } from './screens';
import { expectAccessible } from './axe';

test('the cost chart plots every request and exports SVG and PNG', async ({ workbench }, info) => {
  const chart = workbench.chart;
  await workbench.open();
  await chart.open();
  const snap = await workbench.snapshot();
  await test.step('a canvas with two series, one point per request', async () => {
    await expect(chart.canvas().first()).toBeVisible();
    expect(await chart.seriesCount()).toBe(2);
    expect(await chart.pointCount()).toBe(snap.timeline.requests.length);
    await expect(chart.root()).toContainText('promotion');
    await expect(chart.root().getByRole('img')).toHaveAttribute('aria-label', /Cost chart of \d+ requests in bytes/u);
  });
  await test.step('the chart has no serious accessibility violations', async () => {
    await expectAccessible(chart.page, '[data-testid="cost-chart"]');
  });
  await test.step('screenshots of the chart', async () => {
    await screenshotsAtTwoSizes(chart.page, info, 'chart');
  });
  await test.step('clicking a point selects its request', async () => {
    const box = await chart.root().locator('.u-over').boundingBox();
    if (!box) throw new Error('no plot area');
    await chart.page.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
    await expect.poll(async () => (await workbench.snapshot()).selectedEntry).toBe(snap.timeline.entries.find((e) => e.kind === 'request' && e.request === snap.timeline.requests.length - 1)?.index);
    await expect(chart.readout()).toContainText(`#${snap.timeline.requests.length}`);
  });
  await test.step('export SVG: the same series, axes with units, a legend', async () => {
    const download = await chart.exportSvg();
    expect(download.suggestedFilename()).toMatch(/\.svg$/u);
    const svg = await readFile(await download.path(), 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<polyline data-series=/gu)).toHaveLength(2);
    expect(svg).toContain('definition cost (bytes)');
    expect(svg).toContain('offered (bytes)');
    expect(svg).toContain('promotion');
  });
  await test.step('export PNG', async () => {
    const download = await chart.exportPng();
    expect(download.suggestedFilename()).toMatch(/\.png$/u);
    const png = await readFile(await download.path());
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.length).toBeGreaterThan(5000);
  });
  await test.step('tokens: the same chart in o200k_base tokens', async () => {
    await chart.useTokens();
    await expect(chart.root().getByRole('img')).toHaveAttribute('aria-label', /in tokens/u);
    await expect(chart.readout()).toContainText('tokens');
  });
});
