// What discovery costs (issue 13): the prompt-cache figure moves when promoted_position flips, the
// break-even chart renders and exports, and an edited price survives a reload.
import { readFile } from 'node:fs/promises';
import { test, expect } from './fixtures';
import { screenshotsAtTwoSizes } from './screens';
import { CostPage } from './pages/CostPage';

test('flipping promoted_position to append changes the cached-token figure', async ({ workbench }) => {
  const q = workbench.questions;
  await workbench.open();
  await q.open();
  // Cerebras caches every 128-token block of a shared prefix, so the demo's small offered set shows it.
  await q.flip('provider', 'cerebras');
  await expect(q.diff()).toContainText('provider: anthropic → cerebras', { timeout: 30_000 });
  await q.flip('promoted_position', 'append');
  await expect(q.diff()).toContainText('promoted_position: config_order → append', { timeout: 30_000 });
  const figure = q.diff().getByTestId('diff-cached-tokens');
  await expect(figure).toBeVisible({ timeout: 30_000 });
  const text = (await figure.textContent()) ?? '';
  const m = /cache: ([\d,]+) → ([\d,]+)/u.exec(text);
  expect(m, text).not.toBeNull();
  expect(Number(m?.[1]?.replace(/,/gu, ''))).toBeLessThan(Number(m?.[2]?.replace(/,/gu, '')));
});

test('the cost panel compares with all on, and the break-even chart renders and exports', async ({ workbench }, info) => {
  const cost = new CostPage(workbench.page);
  await workbench.open();
  await cost.open();
  await expect(cost.saving()).toContainText('against all on', { timeout: 30_000 });
  await expect(cost.variant('all-on')).toBeVisible();
  await expect(cost.variant('directives')).toBeVisible();
  await expect(cost.breakEvenChart()).toBeVisible({ timeout: 30_000 });
  await expect(workbench.page.getByTestId('breakeven-summary')).toContainText(/1 turn: (pays from \d+ tools|never pays here)/u);
  const svg = await cost.exportBreakEven('svg');
  expect(svg.suggestedFilename()).toMatch(/break-even\.svg$/u);
  const text = await readFile(await svg.path(), 'utf8');
  expect(text).toContain('<svg');
  expect(text).toContain('discoverable tools in the catalogue');
  const png = await cost.exportBreakEven('png');
  expect(png.suggestedFilename()).toMatch(/break-even\.png$/u);
  const bytes = await readFile(await png.path());
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  await screenshotsAtTwoSizes(workbench.page, info, 'cost');
});

test('an edited price persists across a reload, and the request inspector shows the cache breakdown', async ({ workbench }) => {
  const cost = new CostPage(workbench.page);
  await workbench.open();
  await cost.open();
  await cost.openPrices();
  const input = cost.price('anthropic', 'claude-sonnet-4-5', 'input');
  await input.fill('4.5');
  await expect(workbench.page.getByTestId('price-table').locator('summary')).toContainText('edited');
  await workbench.page.reload();
  await cost.open();
  await cost.openPrices();
  await expect(cost.price('anthropic', 'claude-sonnet-4-5', 'input')).toHaveValue('4.5');
  await expect(workbench.page.getByTestId('cost-total')).toContainText('prices of 2026-12-01, edited', { timeout: 30_000 });
  await workbench.page.getByRole('tab', { name: 'Request inspector' }).click();
  await expect(workbench.page.getByTestId('request-cache-breakdown')).toContainText('read', { timeout: 30_000 });
});

test('the cost chart plots cache reads and money, with the conversation\'s total, saving and price date', async ({ workbench }) => {
  await workbench.open();
  await workbench.page.getByRole('tab', { name: 'Cost chart' }).click();
  await workbench.page.getByTestId('chart-unit-usd').check();
  await expect(workbench.page.getByTestId('chart-priced')).toContainText(/prices of 2026-12-01 · conversation \$[\d.]+, (saves|costs) \$[\d.]+/u, { timeout: 30_000 });
  await expect(workbench.page.getByTestId('cost-chart')).toHaveAttribute('data-series', '2');
  await expect(workbench.page.getByTestId('chart-readout')).toBeVisible();
  await workbench.page.getByTestId('chart-unit-cache').check();
  await expect(workbench.page.getByTestId('cost-chart').locator('.chart-legend')).toContainText('read from the prompt cache');
});
