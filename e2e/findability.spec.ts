// Findability (issue 17) in the page: a tool with an empty description gets an information
// diagnostic at its declaration, and words added to it clear it; the panel's before/after and
// quick fix; the GitHub catalogue imported twice shows its look-alike groups and server notes.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from './fixtures';
import { screenshotsAtTwoSizes } from './screens';

const GITHUB = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../shared'), 'data', 'catalogues', 'github-mcp-server.tools-list.json');
const SLOW = { timeout: 30_000 };

const scenario = `name = "Findability"
[policy]
ranking = "bm25"

[[layers]]
name = "workspace"
text = '''
[conversation.tools.'*']
enable = "discoverable"

[conversation.tools.send_email]
source = "local"
summary = "Send an email to a person or a list."

[conversation.tools.deploy_staging]
source = "local"
summary = "Deploy a branch to the staging environment."

[conversation.tools.notify]
source = "local"
'''
`;

test('an empty description gets its diagnostic; words added clear it; before and after', async ({ workbench, page }, info) => {
  const layers = workbench.layers;
  const panel = workbench.findability;
  await workbench.open();
  await workbench.loadScenario(scenario, 'findability.toml');
  await layers.waitForEditor();

  await test.step('the diagnostic stands at the tool\'s declaration, severity information, with the reason', async () => {
    await expect.poll(async () => (await layers.markers()).filter((m) => m.code === 'findability').map((m) => [m.severity, m.startLineNumber]), SLOW).toEqual([['info', 12]]);
    const [marker] = (await layers.markers()).filter((m) => m.code === 'findability');
    expect(marker?.message).toContain('`notify` is thinly described');
    expect(marker?.message).toContain('it has no summary or description');
    expect(marker?.message).toContain('Quick fix: Add a summary');
  });

  await test.step('the panel lists it, with the rankings side by side, and keeps a "before"', async () => {
    await panel.open();
    await expect(panel.headline()).toHaveText('findable in the top 10: 3 of 3');
    await expect(panel.rankings()).toHaveCount(3);
    await expect(panel.rankings().filter({ hasText: "the scenario's" })).toHaveAttribute('data-ranking', 'bm25');
    // Found first by its own name every time: not "hard to find", but thinly described (issue 24.8).
    await expect(panel.hardTool('notify')).toContainText('thinly described');
    await expect(panel.hardTool('notify')).not.toContainText('hard to find');
    await expect(panel.counts()).toHaveText('0 hard to find · 1 thinly described · 0 unreachable');
    // The table's heading agrees with that count: its tools are at risk, none hard to find.
    await expect(panel.hardCaption()).toHaveText(/^At risk \(1\): hard to find, thinly described or unreachable; /u);
    await expect(panel.hardTool('notify')).toContainText('no summary or description');
    // Its score names what it divides (issue 24.7).
    await expect(panel.hardTool('notify').getByTestId('fnd-score-of')).toHaveText(/^\(\d+ of \d+ quer(y|ies)\)$/u);
    await panel.pinBefore();
    await screenshotsAtTwoSizes(page, info, 'findability-empty-description');
  });

  await test.step('typing a description clears the diagnostic, and the comparison shows the change', async () => {
    await layers.setCursor(13, 17);
    await layers.focusEditor();
    await layers.setCursor(13, 17);
    await layers.insert('\nsummary = "Page the on-call engineer about an outage."');
    await expect.poll(async () => (await layers.markers()).filter((m) => m.code === 'findability').length, SLOW).toBe(0);
    await expect(panel.hardTools()).toHaveCount(0, SLOW);
    await expect(panel.comparison()).toContainText('1 tool changed', SLOW);
    await expect(panel.comparison().locator('tr[data-tool="notify"]')).toHaveAttribute('data-direction', 'better');
  });
});

test('the quick fix from the panel writes a summary in the layer', async ({ workbench }) => {
  const panel = workbench.findability;
  await workbench.open();
  await workbench.loadScenario(scenario, 'findability.toml');
  await workbench.layers.waitForEditor();
  await panel.open();
  await panel.fix('notify');
  await expect.poll(() => workbench.layers.value(0), SLOW).toContain('[conversation.tools.notify]\nsource = "local"\nsummary = "Notify."');
});

test('the GitHub catalogue imported twice: look-alike groups and notes on each server', async ({ workbench, page }, info) => {
  test.slow();
  const imp = workbench.importer;
  await workbench.open();
  for (const server of ['github_2', 'github_3']) {
    await test.step(`import the GitHub catalogue as ${server}`, async () => {
      await imp.openFromServersTab();
      await imp.chooseFile(GITHUB);
      await expect(page.getByTestId('import-server-name')).toHaveValue(server);
      await imp.confirm();
    });
  }

  await test.step('each tool and its copy are look-alikes, sharing their words', async () => {
    const panel = workbench.findability;
    await panel.open();
    await expect(panel.headline()).toContainText(/findable in the top 10: \d+ of \d+/u, SLOW);
    // The second import's copies are prefixed with its server name.
    const group = panel.groupOf('github_3_list_issues');
    await expect(group).toHaveCount(1, SLOW);
    await expect(group.locator('code', { hasText: /^list_issues$/u })).toHaveCount(1);
    await expect(group).toContainText('share: github, list, issues, repository');
    expect(await panel.groups().count()).toBeGreaterThan(90);
    await screenshotsAtTwoSizes(page, info, 'findability-github-twice');
  });

  await test.step("each server's card counts and words its tools as the findability tab does (issue 24.8)", async () => {
    // The tab's own rows for github_2's tools at risk, counted by the word on their badge.
    const words = await workbench.findability.wordsOfServer('github_2');
    expect(words.length).toBeGreaterThan(0);
    const said = ['hard to find', 'thinly described', 'unreachable']
      .map((w) => [w, words.filter((x) => x === w).length] as const)
      .filter(([, n]) => n > 0)
      .map(([w, n]) => `${n} ${w}`)
      .join(' · ');
    await workbench.servers.show();
    await expect(workbench.servers.findabilityWords('github_2')).toHaveText(said);
    await expect(workbench.servers.findabilityNote('github_2')).not.toContainText('may not find');
  });
});

test('past 500 discoverable tools the report waits to be asked for', async ({ workbench }) => {
  const tools = Array.from({ length: 520 }, (_, i) => `[conversation.tools.tool_${i}]\nsource = "local"\nsummary = "Does chore number ${i} of the batch, quickly and well."\n`).join('\n');
  const big = `name = "Large"\n[[layers]]\nname = "workspace"\ntext = '''\n[conversation.tools.'*']\nenable = "discoverable"\n\n${tools}'''\n`;
  const panel = workbench.findability;
  await workbench.open();
  await workbench.loadScenario(big, 'large.toml');
  await panel.open();
  await expect(panel.panel()).toContainText('520 discoverable tools: past 500 the findability report waits to be asked for');
  await panel.page.getByTestId('fnd-compute').click();
  await expect(panel.headline()).toContainText(/findable in the top 10: \d+ of 520/u, SLOW);
});
