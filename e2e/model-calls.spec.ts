// The model calls real tools from the page (issue 33 §2): "Ask the model" against a fake provider
// (Anthropic's wire format, on loopback) that answers with calls to server-everything's `echo` and
// `get-sum`, a real server the bridge started from a JP workspace. A call to a live server's tool
// stops at the same kind of confirmation as Run on the server, showing the tool and the arguments as
// text; confirmed, it runs and the step records the server's result, which the next request carries
// to the model; refused, the refusal is recorded and read by the model. With "let the model run tools
// whose run is unattended" ticked, a tool configured `run = "unattended"` runs without the question.
import { join } from 'node:path';
import { test, expect } from './fixtures';
import { range, startFakeProvider } from './fakeProvider';
import type { FakeProvider, Received, Scripted } from './fakeProvider';
import { hostileBin, jpWorkspace, ROOT, startServe } from './bridgeServe';
import type { Serve } from './bridgeServe';
import type { WorkbenchPage } from './pages/WorkbenchPage';

const KEY = 'sk-ant-e2e-KEY-calls33-0011223344';
// This spec's own ports for the fake provider (model.spec.ts uses 4815..4899), so parallel runs never meet.
const FAKE_PORTS = range(5330, 5349);
const everythingBin = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** A workspace whose persona `dev` has server-everything's echo (run unattended) and get-sum (run ask) on. */
const workspace = () =>
  jpWorkspace(() => ({
    '.jp/config.toml': `config_load_paths = [".jp/personas"]\n\n[providers.mcp.ev]\ntype = "stdio"\ncommand = "node"\narguments = [${JSON.stringify(everythingBin)}, "stdio"]\n`,
    '.jp/personas/dev.toml': '[conversation.tools.echo]\nsource = "mcp.ev"\nenable = "on"\nrun = "unattended"\n\n[conversation.tools.get-sum]\nsource = "mcp.ev"\nenable = "on"\nrun = "ask"\n',
  }));

/** The last message's tool results, as the provider got them (what the model reads next). */
function lastResults(r: Received | undefined): string {
  const messages = (r?.body.messages ?? []) as unknown[];
  return JSON.stringify(messages[messages.length - 1] ?? '');
}

/** Calls `calls` first; once the results come back, replies. */
const modelCalling = (calls: readonly (readonly [string, Record<string, unknown>])[]) => (r: Received): Scripted => (lastResults(r).includes('tool_result') ? { kind: 'reply', text: 'Done.' } : { kind: 'reply', calls });

async function startEverythingThroughTheBridge(workbench: WorkbenchPage, url: string): Promise<void> {
  const bridge = workbench.bridge;
  await bridge.open(url);
  await bridge.openWorkspace(workspace());
  await workbench.workspace.pickPersona('dev');
  await bridge.askToStart();
  await bridge.confirmStart();
  await expect(bridge.workspaceServer('ev').getByTestId('bridge-status')).toHaveText('running', { timeout: 30_000 });
  await expect.poll(async () => (await workbench.snapshot()).sets.rows.filter((r) => (r.name === 'echo' || r.name === 'get-sum') && r.permitted).length, { timeout: 30_000 }).toBe(2);
}

/** The bridge's test server whose tool `ask` elicits a form while it runs (src/bridge/fixtures/hostile.mjs), run unattended. */
async function startAskingServerThroughTheBridge(workbench: WorkbenchPage, url: string): Promise<void> {
  const root = jpWorkspace(() => ({
    '.jp/config.toml': `[providers.mcp.asks]\ntype = "stdio"\ncommand = "node"\narguments = [${JSON.stringify(hostileBin)}, "asks"]\n\n[conversation.tools.ask]\nsource = "mcp.asks"\nenable = true\nrun = "unattended"\n`,
  }));
  const bridge = workbench.bridge;
  await bridge.open(url);
  await bridge.openWorkspace(root);
  await bridge.askToStart();
  await bridge.confirmStart();
  await expect(bridge.workspaceServer('asks').getByTestId('bridge-status')).toHaveText('running', { timeout: 30_000 });
  await expect.poll(async () => (await workbench.snapshot()).doc.servers.find((x) => x.name === 'asks')?.tools.length, { timeout: 30_000 }).toBe(1);
}

test.describe('the model calls real tools', () => {
  let fake: FakeProvider | undefined;
  let serve: Serve | undefined;
  test.afterEach(async ({ page }) => {
    // The page first: its live session's stream to the bridge would be reset under it (a console error).
    await page.close();
    await serve?.stop();
    await fake?.close();
  });

  test('a call to a live tool is confirmed first, showing its arguments as text; it runs and the step and the next request carry the result', async ({ workbench, page }, info) => {
    test.setTimeout(180_000);
    // Arguments from the model are text: markup stays markup, a bidi override is shown escaped.
    const message = 'hi <img src=x onerror=alert(1)> \u202E done';
    fake = await startFakeProvider(modelCalling([['echo', { message }]]), FAKE_PORTS);
    serve = await startServe({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.url });
    await startEverythingThroughTheBridge(workbench, serve.url);
    const sim = workbench.simulator;
    await sim.open();
    await sim.addStep("jp q 'Echo hi'");
    await expect(sim.following()).toContainText('awaits the model');

    await sim.startAskModel('claude-haiku-4-5');
    const confirm = sim.modelCallConfirm();
    await expect(confirm).toBeVisible({ timeout: 30_000 });
    await expect(confirm).toBeFocused();
    await expect(confirm.getByTestId('model-call-tool')).toHaveText('echo');
    await expect(confirm).toContainText('on ev (run = "unattended")');
    // The override as its escape, six visible characters, where the model's text had one invisible one.
    await expect(sim.modelCallArgs()).toHaveText('{\n  "message": "hi <img src=x onerror=alert(1)> \\u202E done"\n}');
    await expect(confirm.getByTestId('model-call-hidden')).toContainText('U+202E RIGHT-TO-LEFT OVERRIDE');
    await expect(confirm.getByTestId('model-call-earlier')).toHaveCount(0);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    // The hand-made actions wait for the answer: the model's calls are written to this cycle once all have run.
    await expect(page.getByTestId('sim-search-submit')).toBeDisabled();
    // Nothing ran yet: one request went to the model, and the step has no call.
    expect(fake.received).toHaveLength(1);
    expect((await workbench.snapshot()).doc.steps.at(-1)?.cycles.flatMap((c) => c.calls)).toEqual([]);
    for (const size of [{ width: 1024, height: 768 }, { width: 1440, height: 900 }]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: info.outputPath(`model-call-confirm-${size.width}.png`) });
    }

    await sim.confirmModelCall();
    await expect(sim.askNote()).toHaveText(/Your model on step \d+: 2 requests; stopped: the model replied/u, { timeout: 30_000 });
    await expect(sim.askCycles().nth(0)).toContainText('echo({"message":"hi <img src=x onerror=alert(1)> \\u202E done"}) [run on ev after your confirmation: its result recorded in the step]');
    await expect(sim.modelCallConfirm()).toHaveCount(0);
    await expect(sim.following()).toContainText('not awaiting the model');
    // Recorded as Run on the server records it: the server's text as the call's result.
    const calls = (await workbench.snapshot()).doc.steps.at(-1)?.cycles.flatMap((c) => c.calls) ?? [];
    expect(calls).toEqual([{ tool: 'echo', args: { message }, result: `Echo: ${message}` }]);
    await expect(sim.callRow('echo')).toBeVisible();
    // The model read the server's answer in its next request.
    expect(lastResults(fake.received[1])).toContain('Echo: hi');
    await page.screenshot({ path: info.outputPath('model-call-done.png') });
  });

  test('with the unattended choice, a tool whose run is unattended runs without the question; another is still asked, and refusing records the refusal', async ({ workbench, page }, info) => {
    test.setTimeout(180_000);
    fake = await startFakeProvider(modelCalling([['echo', { message: 'unasked' }], ['get-sum', { a: 2, b: 3 }]]), FAKE_PORTS);
    serve = await startServe({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.url });
    await startEverythingThroughTheBridge(workbench, serve.url);
    const sim = workbench.simulator;
    await sim.open();
    await sim.addStep("jp q 'Echo, then add'");
    await expect(sim.following()).toContainText('awaits the model');

    await sim.startAskModel('claude-haiku-4-5', { unattended: true });
    // echo (run = "unattended") ran without a question; get-sum (run = "ask") is asked.
    const confirm = sim.modelCallConfirm();
    await expect(confirm).toBeVisible({ timeout: 30_000 });
    await expect(confirm.getByTestId('model-call-tool')).toHaveText('get-sum');
    await expect(confirm).toContainText('(run = "ask")');
    await expect(sim.modelCallArgs()).toHaveText(JSON.stringify({ a: 2, b: 3 }, null, 2));
    // The question says what already ran without one.
    await expect(confirm.getByTestId('model-call-earlier')).toContainText('echo on ev: Echo: unasked');
    await page.screenshot({ path: info.outputPath('model-call-unattended-then-ask.png') });

    await sim.refuseModelCall();
    await expect(sim.askNote()).toHaveText(/Your model on step \d+: 2 requests; stopped: the model replied/u, { timeout: 30_000 });
    await expect(sim.askCycles().nth(0)).toContainText('echo({"message":"unasked"}) [run unattended on ev: its result recorded in the step]');
    await expect(sim.askCycles().nth(0)).toContainText('get-sum({"a":2,"b":3}) [refused on ev: recorded as not run]');
    const calls = (await workbench.snapshot()).doc.steps.at(-1)?.cycles.flatMap((c) => c.calls) ?? [];
    expect(calls).toEqual([
      { tool: 'echo', args: { message: 'unasked' }, result: 'Echo: unasked' },
      { tool: 'get-sum', args: { a: 2, b: 3 }, fail: 'not run: the user declined get-sum' },
    ]);
    // The model read both: the echo's result, and the refusal as the call's error.
    const next = lastResults(fake.received[1]);
    expect(next).toContain('Echo: unasked');
    expect(next).toContain('not run: the user declined get-sum');
    expect(next).not.toContain('The sum of 2 and 3');
    await expect(sim.callRow('get-sum')).toHaveAttribute('data-call-status', 'error');
    // The choice was this run's: unticked again.
    await expect(sim.unattendedChoice()).not.toBeChecked();
    await page.screenshot({ path: info.outputPath('model-call-refused.png') });
  });

  test("a server's question while the model's call runs is answered in the page and recorded with the call, as Run on the server records it", async ({ workbench, page }, info) => {
    test.setTimeout(180_000);
    fake = await startFakeProvider(modelCalling([['ask', {}]]), FAKE_PORTS);
    serve = await startServe({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.url });
    await startAskingServerThroughTheBridge(workbench, serve.url);
    const sim = workbench.simulator;
    await sim.open();
    await sim.addStep("jp q 'ask me'");
    await expect(sim.following()).toContainText('awaits the model');

    await sim.startAskModel('claude-haiku-4-5', { unattended: true });
    const form = sim.modelCallRunning().getByTestId('run-ask');
    await expect(form.getByTestId('run-ask-message')).toHaveText('Which colour?', { timeout: 30_000 });
    await expect(sim.modelCallConfirm()).toHaveCount(0);
    await expect(form.getByLabel('colour', { exact: true })).toBeFocused();
    await page.screenshot({ path: info.outputPath('model-call-elicitation.png') });
    await form.getByLabel('colour', { exact: true }).selectOption({ label: 'red' });
    await form.getByTestId('run-ask-accept').click();

    await expect(sim.askNote()).toHaveText(/Your model on step \d+: 2 requests; stopped: the model replied/u, { timeout: 30_000 });
    await expect(sim.askCycles().nth(0)).toContainText('ask({}) [run unattended on asks: its result recorded in the step]');
    const calls = (await workbench.snapshot()).doc.steps.at(-1)?.cycles.flatMap((c) => c.calls) ?? [];
    expect(calls).toEqual([
      {
        tool: 'ask',
        args: {},
        result: 'answered {"action":"accept","content":{"count":3,"colour":"red"}}',
        asked: [{ kind: 'elicitation', message: 'Which colour?', action: 'accept', content: { colour: 'red', count: 3 } }],
      },
    ]);
    expect(lastResults(fake.received[1])).toContain('answered {\\"action\\":\\"accept\\"');
  });
});
