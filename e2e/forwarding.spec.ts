// Forwarding sampling, elicitation and roots to the page, per server (issue 34.3): the bridge declares
// JP's client capabilities by default, so a bridged server lists what JP is offered; the card says so,
// offers the switch (a reconnect), and marks the tools forwarding adds as not offered to JP.
import { test, expect, EVERYTHING_TOOLS_JP } from './mcpServers';
import { startServe } from './bridgeServe';
import { expectConsoleErrors } from './fixtures';
import type { Serve } from './bridgeServe';
import { screenshotsAtTwoSizes } from './screens';

const ADDED = ['get-roots-list', 'trigger-elicitation-request', 'trigger-sampling-request'];

test.describe('forwarding to the page', () => {
  let serve: Serve;
  test.beforeEach(async () => {
    serve = await startServe();
  });
  test.afterEach(async ({ page }) => {
    await page.close();
    await serve.stop();
  });

  test("a server's card says which capabilities it runs with, and marks the tools forwarding adds as not offered to JP", async ({ workbench, everything, page }, info) => {
    test.setTimeout(150_000);
    const bridge = workbench.bridge;
    const servers = workbench.servers;
    const name = 'mcp-servers_everything';
    await bridge.open(serve.url);
    await bridge.reachHttp(everything.url);
    await expect(bridge.status(name)).toHaveText('running', { timeout: 20_000 });
    await expect.poll(async () => (await workbench.snapshot()).doc.servers.find((s) => s.name === name)?.tools.length, { timeout: 20_000 }).toBe(EVERYTHING_TOOLS_JP);

    await test.step("by default: JP's client capabilities, nothing marked", async () => {
      await expect(bridge.forwardingState(name)).toHaveText("JP's client capabilities (no sampling, elicitation or roots)");
      await expect(bridge.notOffered(name)).toHaveCount(0);
    });

    await test.step('forwarding: the bridge reconnects it; the tools it adds are named and marked, in the card and in its live list', async () => {
      // The page's session with the server's endpoint is refused (503) while the bridge reconnects it;
      // the page opens a new one once it runs.
      expectConsoleErrors((text, url) => url.includes(`/bridge/servers/${name}/`) && text.includes('status of 503 (Service Unavailable)'));
      await bridge.setForwarding(name, true);
      await expect(bridge.forwardingState(name)).toHaveText('forwards sampling, elicitation and roots to this page');
      await expect(bridge.notOffered(name)).toContainText('Forwarding adds 3 tools:');
      await expect(bridge.notOfferedTools(name)).toHaveText(ADDED.map((t) => `${t} not offered to JP`));
      // The page's session lists them too (the bridge declares the capabilities now): the card's change
      // says which of them JP would never see before anyone takes them into the document.
      const change = servers.change(name);
      await expect(change).toContainText('+3 added', { timeout: 30_000 });
      for (const t of ADDED) await expect(change).toContainText(`${t} (not offered to JP)`);
      await expect(change).not.toContainText('echo (not offered to JP)');
      expect((await workbench.snapshot()).doc.servers.find((s) => s.name === name)?.tools.length).toBe(EVERYTHING_TOOLS_JP);
      await screenshotsAtTwoSizes(page, info, 'forwarding-on');
      await change.scrollIntoViewIfNeeded();
      await screenshotsAtTwoSizes(page, info, 'forwarding-change');
    });

    await test.step("back to JP's capabilities: the three are gone from its list and nothing is marked", async () => {
      await bridge.setForwarding(name, false);
      await expect(bridge.forwardingState(name)).toHaveText("JP's client capabilities (no sampling, elicitation or roots)");
      await expect(bridge.notOffered(name)).toHaveCount(0);
      await expect(servers.change(name)).toHaveCount(0, { timeout: 30_000 });
    });
  });
});
