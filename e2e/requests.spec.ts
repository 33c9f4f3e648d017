// The request inspector: the request in the provider's shape, its cost, and the
// prefix cache — a miss after a promotion, a hit in Anthropic directives mode.
import { test, expect } from './fixtures';
import { screenshotsAtTwoSizes } from './screens';
import { expectAccessible } from './axe';
import { turnLabWithTurn } from './turnScenarios';

test('a promotion busts the prefix cache: the inspector shows the miss and where the bytes part', async ({ workbench }) => {
  const req = workbench.requests;
  await test.step('open a played turn (anthropic)', async () => {
    await workbench.open();
    expect(await workbench.loadScenario(turnLabWithTurn())).toBe(true);
    await req.open();
  });
  await test.step('the first request: a miss (the conversation starts), with its cost and tool_choice', async () => {
    await req.select(0);
    await expect(req.title()).toHaveText('Request 1 of 3');
    await expect(req.cacheWord()).toHaveText('first request · 0 cached');
    await expect(req.page.getByTestId('request-tool-choice')).toContainText('auto');
    await expect(req.cost()).toContainText('offered');
    await expect(req.cost()).toContainText('saving');
    await expect(req.cost().locator('td', { hasText: /^\d[\d,]*$/u }).first()).toBeVisible();
  });
  await test.step('after the promotion: a miss in the tools array, first difference marked', async () => {
    await req.next();
    await expect(req.title()).toHaveText('Request 2 of 3');
    await expect(req.cacheWord()).toHaveText(/^prefix changed · /u);
    await expect(req.page.getByTestId('request-cache')).toContainText('tools array differs');
    await expect(req.difference()).toContainText('in the tools array');
    await expect(req.difference().locator('mark')).toHaveCount(2);
    await expect(req.root()).toContainText('deploy_logs');
  });
  await test.step('the body is the provider shape, read-only', async () => {
    await expect(req.body().locator('.view-lines')).toContainText('input_schema');
    const snap = await workbench.snapshot();
    expect(snap.timeline.requests.map((r) => r.cache.status)).toEqual(['miss', 'miss', 'hit']);
  });
  await test.step('the inspector has no serious accessibility violations', async () => {
    await expectAccessible(req.page, '[data-testid="request-inspector"]');
  });
  await test.step('the next request of the turn keeps the cache', async () => {
    await req.next();
    await expect(req.cacheWord()).toHaveText(/^prefix reused · /u);
    await expect(req.difference()).toHaveCount(0);
  });
});

test('Anthropic directives mode keeps the cache across a promotion, with tool_addition blocks', async ({ workbench }, info) => {
  const req = workbench.requests;
  await workbench.open();
  expect(await workbench.loadScenario(turnLabWithTurn({ provider: 'anthropic-directives' }))).toBe(true);
  await req.open();
  await test.step('the fixed catalogue array, and the initial availability block', async () => {
    await req.select(0);
    await expect(req.root()).toContainText('the fixed catalogue');
    await expect(req.directiveBlocks()).toHaveCount(1);
    await expect(req.directiveBlocks().first()).toContainText('tool_availability');
  });
  await test.step('the request after the promotion: a cache hit, the promotion as a tool_addition block', async () => {
    await req.select(1);
    await expect(req.cacheWord()).toHaveText(/^prefix reused · /u);
    await expect(req.directiveBlocks()).toHaveCount(2);
    const added = req.directiveBlocks().nth(1);
    await expect(added).toContainText('tool_addition');
    await expect(added).toContainText('new in this request');
    await expect(added).toContainText('deploy_logs');
    await screenshotsAtTwoSizes(req.page, info, 'requests-directives');
    const snap = await workbench.snapshot();
    expect(snap.timeline.policy.provider).toBe('anthropic-directives');
    expect(snap.timeline.requests.map((r) => r.cache.status)).toEqual(['miss', 'hit', 'hit']);
  });
});
