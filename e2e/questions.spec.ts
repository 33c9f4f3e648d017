// The open questions: each policy switch beside its RFD question; flipping one
// re-runs the scenario and shows what changed.
import { test, expect } from './fixtures';
import { screenshotsAtTwoSizes } from './screens';
import { expectAccessible } from './axe';
import { turnLabWithTurn } from './turnScenarios';

test('flipping promoted_position reorders the tools array, and the panel shows it', async ({ workbench }, info) => {
  const q = workbench.questions;
  await workbench.open();
  expect(await workbench.loadScenario(turnLabWithTurn())).toBe(true);
  await q.open();
  await test.step('every switch sits beside its question', async () => {
    for (const key of ['ranking', 'substring_match', 'report_match_count', 'forced_off_tool', 'promoted_position', 'never_blocks_promotion', 'hide_unapproved', 'provider']) {
      await expect(q.row(key)).toBeVisible();
    }
    await expect(q.row('promoted_position')).toContainText('Where does a promoted tool land');
  });
  const before = await workbench.snapshot();
  await test.step('flip promoted_position to append', async () => {
    await q.flip('promoted_position', 'append');
    await expect(q.diff()).toContainText('promoted_position: config_order → append');
    await expect(q.diffRows(/tools array order/u).first()).toBeVisible();
    await expect(q.diff().getByTestId('diff-requests-changed')).toHaveText('2');
  });
  await test.step('the panel has no serious accessibility violations', async () => {
    await expectAccessible(q.page, '[data-testid="questions-panel"]');
  });
  await test.step('screenshots of the diff', async () => {
    await screenshotsAtTwoSizes(q.page, info, 'questions');
  });
  await test.step('the tools array puts the promoted tools after the builtins', async () => {
    const after = await workbench.snapshot();
    expect(after.doc.policy.promoted_position).toBe('append');
    expect(before.timeline.requests[1]?.array).toEqual(['fs_read_file', 'git_status', 'deploy_staging', 'deploy_logs', 'describe_tools', 'search_tools']);
    expect(after.timeline.requests[1]?.array).toEqual(['fs_read_file', 'git_status', 'describe_tools', 'search_tools', 'deploy_logs', 'deploy_staging']);
  });
  await test.step('flip back', async () => {
    await q.undo();
    await expect(q.diff()).toHaveCount(0);
    expect((await workbench.snapshot()).doc.policy.promoted_position).toBe('config_order');
  });
  await test.step('a provider flip shows the cache change in the one cache word (issue 24.6)', async () => {
    await q.flip('provider', 'anthropic-directives');
    await expect(q.diffRows('cache prefix').first()).toContainText('prefix reused');
    await expect(q.diff().getByTestId('diff-prefix-reused')).toHaveText(/^cache prefix reused: \d+ of \d+ requests → \d+ of \d+$/u);
    await expect(q.diff()).not.toContainText(/\b(hits?|miss(es)?)\b/u);
  });
  await test.step('another document: no "Flip back" of this one\'s switch is offered there (issue 24.1)', async () => {
    expect(await workbench.loadScenario(OTHER_PROVIDER, 'other.toml')).toBe(true);
    await expect(q.diff()).toHaveCount(0);
    await expect(q.page.getByTestId('policy-undo')).toHaveCount(0);
    expect((await workbench.snapshot()).doc.policy.provider).toBe('openai');
  });
});

/** A document whose provider differs from the one the flip above came from. */
const OTHER_PROVIDER = `name = "Another document"
[policy]
provider = "openai"

[[layers]]
name = "user"
text = '''
[conversation.tools.alpha]
source = "local"
summary = "Alpha."
'''

[[steps]]
command = "jp q 'hello'"
`;
