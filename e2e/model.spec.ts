// "Ask the model" (issue 26): the page asks a fake model provider (Anthropic's wire format, on
// loopback) through the bridge started with the key in its environment. The model searches, the
// search promotes the tool, the model calls it (a simulated result), then replies; the page itself
// talks only to its own origin, and no key reaches the page's storage.
import { test, expect } from './fixtures';
import { startFakeProvider } from './fakeProvider';
import type { FakeProvider, Received, Scripted } from './fakeProvider';
import { startServe } from './bridgeServe';
import type { Serve } from './bridgeServe';

const KEY = 'sk-ant-e2e-KEY-5566778899aabbcc';

/** Search first, then call what the search promoted, then answer: read from the last message only. */
function model(r: Received): Scripted {
  const messages = r.body.messages as unknown[];
  const last = JSON.stringify(messages[messages.length - 1] ?? '');
  if (!last.includes('tool_result')) return { kind: 'reply', calls: [['search_tools', { query: 'pull requests' }]] };
  // The assistant message before the results says which tool ran.
  const called = JSON.stringify(messages[messages.length - 2] ?? '');
  if (!called.includes('"name":"search_tools"')) return { kind: 'reply', text: 'Two pull requests are open.' };
  return { kind: 'reply', calls: [['github_list_pull_requests', { owner: 'acme', repo: 'api' }]] };
}

test.describe('Ask the model', () => {
  let fake: FakeProvider;
  let serve: Serve;
  test.beforeEach(async () => {
    fake = await startFakeProvider(model);
    serve = await startServe({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.url });
  });
  test.afterEach(async () => {
    await serve.stop();
    await fake.close();
  });

  test('the model searches, the search promotes, the model calls the tool and replies', async ({ workbench, page }) => {
    test.setTimeout(120_000);
    await workbench.bridge.open(serve.url);
    const sim = workbench.simulator;
    await sim.open();
    await sim.addStep("jp q 'List the open pull requests'");
    await expect(sim.following()).toContainText('awaits the model');
    await sim.askModel('claude-haiku-4-5');
    await expect(sim.askNote()).toHaveText(/Your model on step \d+: 3 requests; stopped: the model replied/u);
    await expect(sim.askCycles()).toHaveCount(3);
    await expect(sim.askCycles().nth(0)).toContainText('search_tools({"query":"pull requests"}) [run in the workbench]');
    await expect(sim.askCycles().nth(1)).toContainText('github_list_pull_requests({"owner":"acme","repo":"api"}) [simulated result: edit it in the step]');
    await expect(sim.askCycles().nth(2)).toContainText('reply: "Two pull requests are open."');

    // What the provider got: the rendered bodies, the tool absent before the search and offered after it.
    expect(fake.received).toHaveLength(3);
    const names = (i: number) => ((fake.received[i]?.body.tools ?? []) as { name: string }[]).map((t) => t.name);
    expect(names(0)).not.toContain('github_list_pull_requests');
    expect(names(1)).toContain('github_list_pull_requests');
    expect(fake.received[0]?.headers['x-api-key']).toBe(KEY);
    await expect(sim.following()).toContainText('not awaiting the model');
    // MODEL_SCREENSHOTS=DIR: the simulator after the model's turn, at 1024 and 1440 px.
    const shots = process.env.MODEL_SCREENSHOTS;
    if (shots) {
      for (const [w, h] of [[1024, 768], [1440, 900]] as const) {
        await page.setViewportSize({ width: w, height: h });
        await page.screenshot({ path: `${shots}/ask-model-${w}.png` });
      }
    }

    // The key is nowhere in the page: not in its storage, not in its document.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.documentElement.outerHTML);
    expect(stored).not.toContain(KEY);
    expect(serve.stdout()).not.toContain(KEY);
  });

  test('a provider error is shown, and nothing is applied', async ({ workbench }) => {
    test.setTimeout(120_000);
    await fake.close();
    fake = await startFakeProvider(() => ({ kind: 'status', status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } }), [fake.port]);
    await workbench.bridge.open(serve.url);
    const sim = workbench.simulator;
    await sim.open();
    await sim.addStep("jp q 'List the open pull requests'");
    await sim.askModel('claude-haiku-4-5');
    await expect(sim.askNote()).toHaveText('Ask the model: Anthropic refused the key (401): invalid x-api-key; check ANTHROPIC_API_KEY');
    await expect(sim.following()).toContainText('cycle 1 awaits the model');
  });
});

test('why Ask the model is disabled is written beside it, and the model name survives a reload (issue 35)', async ({ workbench, page }) => {
  await workbench.open();
  const sim = workbench.simulator;
  await sim.open();
  await sim.addStep("jp q 'List the open pull requests'");
  await expect(sim.following()).toContainText('awaits the model');
  await expect(sim.askButton()).toBeDisabled();
  await expect(sim.askWhy()).toBeVisible();
  await expect(sim.askWhy()).toHaveText('Type a model name to ask it.');
  const shots = process.env.MODEL_SCREENSHOTS;
  if (shots) {
    for (const [w, h] of [[1024, 768], [1440, 900]] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: `${shots}/ask-why-${w}.png` });
    }
  }
  await sim.modelField().fill('claude-haiku-4-5');
  await expect(sim.askWhy()).toHaveCount(0);
  await expect(sim.askButton()).toBeEnabled();

  await page.reload();
  await page.waitForFunction(() => window.__workbench !== undefined);
  await sim.open();
  await expect(sim.modelField()).toHaveValue('claude-haiku-4-5');
});
