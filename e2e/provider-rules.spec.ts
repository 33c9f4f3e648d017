// Issue 18: every request says whether the chosen provider would accept it. A tool name Anthropic
// refuses is flagged on the request row, in the request inspector (with the rule's source) and at the
// tool's declaration in its layer; floats keep JP's `1.0`; token figures say they are estimates.
import { test, expect } from './fixtures';
import { screenshotsAtTwoSizes } from './screens';
import { expectAccessible } from './axe';

const SCENARIO = `name = "Provider rules"

[policy]
ranking = "substring"
provider = "anthropic"

[[layers]]
name = "workspace"
text = '''
[conversation.tools.'*']
enable = "on"

[conversation.tools.scale]
source = "local"
summary = "Scale a service."

[conversation.tools.scale.parameters.factor]
type = "number"
default = 1.0
summary = "How much to scale by."

[conversation.tools.'git.status']
source = "local"
summary = "Show the working tree status."
'''

[[steps]]
command = "jp q 'What changed?'"

  [[steps.cycles]]
  reply = "Nothing yet."
`;

test('a tool name Anthropic refuses: on the request row, in the inspector with its source, at the declaration', async ({ workbench, page }, info) => {
  const req = workbench.requests;
  await test.step('load the scenario', async () => {
    await workbench.open();
    expect(await workbench.loadScenario(SCENARIO)).toBe(true);
  });
  await test.step('the request row says "1 refused", and its hover says why', async () => {
    const fact = workbench.timeline.rows().locator('.tl-fact', { hasText: '1 refused' });
    await expect(fact).toHaveCount(1);
    await expect(fact).toHaveAttribute('title', /The provider would refuse this request[\s\S]*Anthropic refuses the tool name `git\.status`/u);
  });
  await test.step('the inspector lists the finding, as a word badge, with the document it comes from', async () => {
    await req.open();
    await req.select(0);
    await expect(req.findings()).toContainText('Provider rules (anthropic)');
    await expect(req.findings().locator('li[data-severity="error"]')).toHaveCount(1);
    await expect(req.findings()).toContainText('refused');
    await expect(req.findings()).toContainText('Anthropic refuses the tool name `git.status`: it holds `.`');
    await expect(req.findings()).toContainText('Source: Anthropic Messages API');
  });
  await test.step('the body keeps the float as JP writes it', async () => {
    await expect(req.body().locator('.view-lines')).toContainText('"default": 1.0');
  });
  await test.step('token figures say they are an estimate, and with which tokenizer', async () => {
    await expect(req.tokenBasis()).toContainText('estimate: o200k_base over the anthropic tools JSON', { timeout: 30_000 });
    await expect(req.tokenBasis()).toContainText('Anthropic publishes no tokenizer');
  });
  await test.step('screenshots of the inspector', async () => {
    await screenshotsAtTwoSizes(page, info, 'provider-rules-inspector');
  });
  await test.step('the inspector has no serious accessibility violations', async () => {
    await expectAccessible(page, '[data-testid="request-inspector"]');
  });
  await test.step('the layer has the marker at the tool declaration', async () => {
    await expect
      .poll(async () => (await workbench.layers.markers()).find((m) => m.code === 'provider-rule'))
      .toMatchObject({ severity: 'error', startLineNumber: 13, message: expect.stringContaining('Anthropic refuses the tool name `git.status`') });
  });
  await test.step('the cost chart in tokens names its basis', async () => {
    await workbench.chart.open();
    await workbench.chart.useTokens();
    await expect(workbench.chart.tokenBasis()).toHaveText('estimate: o200k_base over the anthropic tools JSON', { timeout: 30_000 });
    await expect(workbench.chart.readout()).toContainText('~');
  });
});

test('a request with nothing to flag says so', async ({ workbench }) => {
  await workbench.open();
  expect(await workbench.loadScenario(SCENARIO.replace("'git.status'", 'git_status'))).toBe(true);
  await workbench.requests.open();
  await workbench.requests.select(0);
  await expect(workbench.requests.findings()).toContainText('accepted');
  await expect(workbench.requests.findings()).toContainText('Nothing in this request breaks a documented anthropic rule.');
  await expect(workbench.timeline.rows().locator('.tl-fact', { hasText: 'refused' })).toHaveCount(0);
});
