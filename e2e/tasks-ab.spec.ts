// The Tasks tab's model A/B (issue 33 §1) against a fake Anthropic on loopback, through the bridge
// started with the key in its environment. The fake answers per arm, read from the request itself: arm
// B's system prompt carries the categories section (B: categories=true). Each arm's model searches for
// the task's tool on its own set of tasks and answers at once on the others, so the discordant pairs,
// and McNemar's p, are known in advance.
import { test, expect } from './fixtures';
import { range, startFakeProvider } from './fakeProvider';
import type { FakeProvider, Received, Scripted } from './fakeProvider';
import { startServe } from './bridgeServe';
import type { Serve } from './bridgeServe';
import { screenshotsAtTwoSizes } from './screens';
import { expectAccessible } from './axe';

const KEY = 'sk-ant-e2e-AB-0011223344556677';
// This spec's own ports, apart from the other specs' fakes (4815..4899) and the other checkouts'.
const PORTS = range(5330, 5349);
const SLOW = { timeout: 90_000 };

// The demo's silent misses (their tools are deferred, found by a search for the tool's name), then nine
// of them asked again in other words: 20 tasks.
const TASKS: readonly (readonly [string, string])[] = [
  ['Open a Linear issue for the failing orders test', 'linear_create_issue'],
  ['Type-check the Rust workspace', 'cargo_check'],
  ['Run the orders tests', 'cargo_test'],
  ['Deploy main to staging', 'deploy_staging'],
  ['List the open pull requests', 'github_list_pull_requests'],
  ['Merge pull request 42', 'github_merge_pull_request'],
  ['How slow were the api endpoints this week?', 'sentry_get_performance_summary'],
  ['Which Linear cycles are active?', 'linear_list_cycles'],
  ['Cancel the running workflow', 'github_cancel_workflow_run'],
  ['Where is parseOrder defined in the code?', 'github_search_code'],
  ['What releases did we publish?', 'github_list_releases'],
  ['File a bug in Linear about the flaky login', 'linear_create_issue'],
  ['Does the billing crate compile?', 'cargo_check'],
  ['Run the unit tests of the api crate', 'cargo_test'],
  ['Ship the release branch to staging', 'deploy_staging'],
  ['Which PRs are waiting for review?', 'github_list_pull_requests'],
  ['Merge PR 7 into main', 'github_merge_pull_request'],
  ['Show the p95 latency of checkout', 'sentry_get_performance_summary'],
  ['What is in the current Linear cycle?', 'linear_list_cycles'],
  ['Stop the deploy workflow that is running', 'github_cancel_workflow_run'],
];
const JSONL = TASKS.map(([query, tool]) => JSON.stringify({ query, relevant: [tool] })).join('\n');

// Arm A's model searches on tasks 1-10, arm B's on tasks 2-18: met in A only task 1, in B only
// tasks 11-18, in both 2-10, in neither 19-20. McNemar: 2·(1 + 9)/2^9 = 0.0390625.
const searches = (arm: 'A' | 'B', i: number): boolean => (arm === 'A' ? i < 10 : i >= 1 && i < 18);

function armOf(r: Received): 'A' | 'B' {
  return JSON.stringify(r.body.system ?? '').includes('Searchable tool categories') ? 'B' : 'A';
}

/** The task: the last user text of the conversation (the scenario's own steps come before it). */
function taskOf(r: Received): number {
  const messages = r.body.messages as { role: string; content: unknown }[];
  const texts = messages.filter((m) => m.role === 'user').flatMap((m) => (typeof m.content === 'string' ? [m.content] : (m.content as { type: string; text?: string }[]).filter((c) => c.type === 'text').map((c) => c.text ?? '')));
  const last = texts[texts.length - 1] ?? '';
  const i = TASKS.findIndex(([query]) => query === last);
  if (i < 0) throw new Error(`no task is ${JSON.stringify(last)}`);
  return i;
}

function model(r: Received): Scripted {
  const messages = r.body.messages as unknown[];
  if (JSON.stringify(messages[messages.length - 1] ?? '').includes('tool_result')) return { kind: 'reply', text: 'Done.' };
  const i = taskOf(r);
  if (searches(armOf(r), i)) return { kind: 'reply', calls: [['search_tools', { query: TASKS[i]?.[1] ?? '' }]] };
  return { kind: 'reply', text: 'I cannot do that here.' };
}

test.describe('Model A/B in the Tasks tab', () => {
  let fake: FakeProvider;
  let serve: Serve;
  let script: (r: Received, n: number) => Scripted | Promise<Scripted> = model;
  test.beforeEach(async () => {
    script = model;
    fake = await startFakeProvider((r, n) => script(r, n), PORTS);
    serve = await startServe({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.url });
  });
  test.afterEach(async () => {
    await serve.stop();
    await fake.close();
  });

  test('an A/B of 20 tasks: the estimate first, then the A/B line, the discordant tasks, and one opened in its turn', async ({ workbench, page }, info) => {
    test.setTimeout(180_000);
    await workbench.bridge.open(serve.url);
    const tasks = workbench.tasks;
    await tasks.open();
    await tasks.paste(JSONL);
    await tasks.chooseModelAb();
    await tasks.setUpAb('claude-haiku-4-5', { categories: 'true' }, '1');
    await tasks.estimateAb();
    await expect(tasks.abEstimateLine()).toHaveText(/^estimate: 20 tasks in 2 arms \(A: the scenario as written; B: categories=true\), about \d+ requests \(A \d+, B \d+\) to Anthropic claude-haiku-4-5, about \$0\.\d{4} \(claude-haiku-4-5 at the price table of [\d-]+\); .*; stops at \$1\.00$/u, SLOW);
    // Nothing is sent before the estimate is confirmed.
    expect(fake.received).toHaveLength(0);
    await screenshotsAtTwoSizes(page, info, 'tasks-ab-estimate');
    await expectAccessible(page, '[data-testid="tk-ab"]');
    await tasks.sendAb();

    await expect(tasks.abLine()).toHaveText('A/B on 20 tasks (B: categories=true): met A 10, B 17; A only 1, B only 8; McNemar exact p = 0.0391', SLOW);
    // A: 10 tasks × 2 requests + 10 × 1; B: 17 × 2 + 3 × 1.
    expect(fake.received).toHaveLength(30 + 37);
    expect(fake.received.every((r) => r.headers['x-api-key'] === KEY)).toBe(true);
    await expect(tasks.abOnly('A')).toHaveCount(1);
    await expect(tasks.abOnly('A').first()).toContainText('Open a Linear issue for the failing orders test');
    await expect(tasks.abOnly('B')).toHaveCount(8);
    await expect(tasks.abOnly('B').first()).toContainText('11. What releases did we publish? A silent miss, B met by search');

    // Task 11 in arm B: the model's search, the tool offered at the request after it.
    await tasks.openAbTurn(tasks.abOnly('B').first(), 'B');
    await expect(tasks.turn()).toContainText('Task 11, arm B');
    await expect(tasks.turn()).toContainText('met by search');
    await expect(tasks.turn().getByTestId('tk-turn-rows')).toContainText("jp q 'What releases did we publish?'");
    await expect(tasks.turn().getByTestId('tk-turn-rows')).toContainText('search_tools');
    await expect(tasks.turn().getByTestId('tk-turn-rows')).toContainText('github_list_releases offered');
    await screenshotsAtTwoSizes(page, info, 'tasks-ab');
    await expectAccessible(page, '[data-testid="tk-ab"]');
    // The same task in arm A: the model answered at once, the tool never offered.
    await tasks.openAbTurn(tasks.abOnly('B').first(), 'A');
    await expect(tasks.turn()).toContainText('Task 11, arm A');
    await expect(tasks.turn()).toContainText('silent miss');
    await expect(tasks.turn().getByTestId('tk-turn-rows')).toContainText('github_list_releases not offered');
    // The key went to the provider only, never into the page.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.documentElement.outerHTML);
    expect(stored).not.toContain(KEY);
  });

  test('Stop: the progress of each arm and the money spent, then the test on the complete pairs only', async ({ workbench, page }, info) => {
    test.setTimeout(180_000);
    // The 6th request (task 2's first in arm B) is held until the test has pressed Stop.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    script = async (r, n) => {
      if (n === 5) await held;
      return model(r);
    };
    await workbench.bridge.open(serve.url);
    const tasks = workbench.tasks;
    await tasks.open();
    await tasks.paste(JSONL);
    await tasks.chooseModelAb();
    await tasks.setUpAb('claude-haiku-4-5', { categories: 'true' });
    await tasks.estimateAb();
    await expect(tasks.abEstimateLine()).toBeVisible(SLOW);
    await tasks.sendAb();
    await expect(tasks.abProgress('A')).toContainText('2 of 20 tasks', SLOW);
    await expect(tasks.abProgress('B')).toContainText('1 of 20 tasks');
    await expect(tasks.abSpent()).toHaveText(/^spent \$0\.\d{4}$/u);
    await expect(tasks.abSpent()).not.toHaveText('spent $0.0000');
    await screenshotsAtTwoSizes(page, info, 'tasks-ab-progress');
    await tasks.stopAb();
    await expect(tasks.abStopButton()).toHaveText('Stopping after this request…');
    release();
    await expect(tasks.abStopped()).toHaveText('stopped by your Stop: 1 of 20 pairs complete; the A/B test is on those only', SLOW);
    await expect(tasks.abLine()).toHaveText('A/B on 1 tasks (B: categories=true): met A 1, B 0; A only 1, B only 0; McNemar exact p = 1.0000');
    // Task 2's B turn was cut after its search: nothing was sent after the held request.
    expect(fake.received).toHaveLength(6);
  });

  test('the budget stops both arms as --max-usd does, and the test is on the complete pairs', async ({ workbench }) => {
    test.setTimeout(180_000);
    // Each reply bills 10,000 input and 10 output tokens: $0.01005 at claude-haiku-4-5's row. After four
    // requests ($0.0402, task 2's first in arm A) the $0.04 cap stops the run before the fifth.
    script = (r) => ({ ...model(r), usage: { uncached: 10_000, output: 10 } }) as Scripted;
    await workbench.bridge.open(serve.url);
    const tasks = workbench.tasks;
    await tasks.open();
    await tasks.paste(JSONL);
    await tasks.chooseModelAb();
    await tasks.setUpAb('claude-haiku-4-5', { categories: 'true' }, '0.04');
    await tasks.estimateAb();
    await expect(tasks.abEstimateLine()).toContainText('stops at $0.0400', SLOW);
    await tasks.sendAb();
    await expect(tasks.abStopped()).toHaveText('stopped by the budget cap: $0.0402 spent of $0.04: 1 of 20 pairs complete; the A/B test is on those only', SLOW);
    await expect(tasks.abLine()).toHaveText('A/B on 1 tasks (B: categories=true): met A 1, B 0; A only 1, B only 0; McNemar exact p = 1.0000');
    expect(fake.received).toHaveLength(4);
  });

  test('a provider\'s refusal is shown as text for each turn it ended', async ({ workbench }) => {
    test.setTimeout(120_000);
    script = () => ({ kind: 'status', status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } });
    await workbench.bridge.open(serve.url);
    const tasks = workbench.tasks;
    await tasks.open();
    await tasks.paste(TASKS.slice(0, 2).map(([query, tool]) => JSON.stringify({ query, relevant: [tool] })).join('\n'));
    await tasks.chooseModelAb();
    await tasks.setUpAb('claude-haiku-4-5', { categories: 'true' });
    await tasks.estimateAb();
    await tasks.sendAb();
    await expect(tasks.abErrors()).toContainText('arm A, task 1: stopped: Anthropic refused the key (401): invalid x-api-key; check ANTHROPIC_API_KEY', SLOW);
    await expect(tasks.abErrors().locator('li')).toHaveCount(4);
    await expect(tasks.abLine()).toHaveText('A/B on 0 tasks (B: categories=true): met A 0, B 0; A only 0, B only 0; McNemar exact p = 1.0000');
  });
});

test('without the bridge the A/B, opened from the palette, says where to open the page', async ({ workbench, page }) => {
  await workbench.open();
  const tasks = workbench.tasks;
  await workbench.runFromPalette('model A/B');
  await expect(tasks.ab()).toBeVisible();
  await expect(tasks.ab()).toContainText('A model A/B sends the task set to your model through the local bridge: open the workbench with npm start');
  await expect(page.getByTestId('tk-ab-estimate')).toHaveCount(0);
});
