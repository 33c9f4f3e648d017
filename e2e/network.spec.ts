// A document never reaches the network by itself: a shared link, a dropped file
// or a loaded scenario naming live servers leaves them "not connected" until the
// user presses Connect, which shows the exact URL; a URL off loopback is refused
// without a request; a URL the user confirmed before reconnects on its own.
import type { Page, Request } from '@playwright/test';
import type { ScenarioDoc } from '../src/core/scenario/doc';
import { writeScenario } from '../src/core/scenario/doc';
import { DEFAULT_POLICY } from '../src/core/scenario/policy';
import { encodeShared } from '../src/features/share/codec';
import { test, expect, EVERYTHING_TOOLS } from './mcpServers';
import type { WorkbenchPage } from './pages/WorkbenchPage';
import { screenshotsAtTwoSizes } from './screens';

const FOREIGN = {
  evil: 'http://evil.example/mcp',
  metadata: 'https://169.254.169.254/latest/meta-data/mcp',
  other: 'http://127.0.0.2:4999/mcp',
};

const TOOL = { name: 'lookup', description: 'Look something up.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } };

function scenarioNaming(servers: Record<string, string>): string {
  const doc: ScenarioDoc = {
    name: 'Three live servers',
    policy: DEFAULT_POLICY,
    layers: [{ name: 'user', text: Object.keys(servers).map((s) => `[conversation.tools.${s}_lookup]\nsource = "mcp.${s}.lookup"\nenable = "on"\n`).join('\n') }],
    servers: Object.entries(servers).map(([name, url]) => ({ name, status: 'running', url, tools: [TOOL] })),
    steps: [{ command: "jp q 'Look it up'", cycles: [{ calls: [], reply: 'Done.' }] }],
  };
  return writeScenario(doc);
}

/** Every request the page makes to an origin other than its own. */
function watchOrigins(page: Page, own: string): string[] {
  const seen: string[] = [];
  page.on('request', (r: Request) => {
    const url = r.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (new URL(url).origin !== own) seen.push(`${r.method()} ${url}`);
  });
  return seen;
}

/** What the page holds of each URL's connection query (src/live/queries.ts: the one door to `connect`). */
async function connections(workbench: WorkbenchPage, urls: readonly string[]) {
  return (await workbench.liveConnections(urls)).map((c) => ({ url: c.url, observed: c.observers > 0, active: c.active, fetching: c.fetching, fetches: c.fetches }));
}

/** A URL the page shows but will not reach: a row observes its query, which may not fetch and never has. */
const untouched = (url: string) => ({ url, observed: true, active: false, fetching: false, fetches: 0 });

/**
 * Waits until the page has done all it would do about these URLs, instead of waiting a while for
 * something not to happen: each one's query is observed by its row (so it would have started fetching
 * on mount, were it allowed to) and none is fetching (so every request a fetch made has been made).
 * `expected` is what each query must then read; it fails at once on a fetch nobody asked for.
 */
async function settled(workbench: WorkbenchPage, expected: readonly ReturnType<typeof untouched>[]): Promise<void> {
  await expect.poll(() => connections(workbench, expected.map((e) => e.url))).toEqual(expected);
}

test('a share link naming three foreign servers sends no request off the page origin', async ({ workbench, page, baseURL }, info) => {
  const own = new URL(baseURL ?? '').origin;
  const text = scenarioNaming(FOREIGN);
  await workbench.open();
  const offOrigin = watchOrigins(page, own);

  await test.step('open the link: the servers stay "not connected", each showing its exact URL', async () => {
    await page.goto(`/${encodeShared(text)}`);
    await page.waitForFunction(() => window.__workbench !== undefined);
    await workbench.share.sharedBanner().waitFor();
    await workbench.servers.show();
    for (const [name, url] of Object.entries(FOREIGN)) {
      await expect(workbench.servers.status(name)).toHaveAttribute('data-status', 'unconfirmed');
      await expect(workbench.servers.status(name)).toContainText('not connected');
      await expect(workbench.servers.unconfirmed(name)).toContainText(url);
      await expect(workbench.servers.button(name, 'server-connect')).toHaveAccessibleName(`Connect to ${url}`);
    }
    await settled(workbench, Object.values(FOREIGN).map(untouched));
    expect(offOrigin).toEqual([]);
    // The document is as shared: no server was set offline behind the user's back.
    const snap = await workbench.snapshot();
    expect(snap.doc.servers.map((s) => `${s.name}:${s.status}`)).toEqual(['evil:running', 'metadata:running', 'other:running']);
    await screenshotsAtTwoSizes(page, info, 'servers-unconfirmed');
  });

  await test.step('the same document loaded as a file, and dropped on the page: still nothing', async () => {
    expect(await workbench.loadScenario(text, 'three.toml')).toBe(true);
    await page.evaluate((t) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], 'dropped.toml', { type: 'application/toml' }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, text);
    await expect(workbench.banner()).toContainText('Opened dropped.toml');
    await settled(workbench, Object.values(FOREIGN).map(untouched));
    expect(offOrigin).toEqual([]);
  });

  await test.step('Connect on a server off loopback fails at once, without a request', async () => {
    for (const name of ['other', 'evil'] as const) {
      await workbench.servers.button(name, 'server-connect').click();
      await expect(workbench.servers.status(name)).toContainText('failed: not loopback');
      await expect(workbench.servers.status(name)).toContainText('only reaches servers on loopback');
    }
    // Connect let each of the two fetch once, and that fetch failed before any request.
    const refused = (url: string) => ({ url, observed: true, active: true, fetching: false, fetches: 1 });
    await settled(workbench, [refused(FOREIGN.evil), untouched(FOREIGN.metadata), refused(FOREIGN.other)]);
    expect(offOrigin).toEqual([]);
  });
});

test('Connect reaches a loopback server; a URL confirmed before reconnects on its own after a reload', async ({ workbench, page, everything }) => {
  const text = scenarioNaming({ everything: everything.url });
  const toServer: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(new URL(everything.url).origin)) toServer.push(`${r.method()} ${r.url()}`);
  });
  await workbench.open();

  await test.step('loaded: not connected, and nothing sent to the server', async () => {
    expect(await workbench.loadScenario(text, 'everything.toml')).toBe(true);
    await workbench.servers.show();
    await expect(workbench.servers.status('everything')).toHaveAttribute('data-status', 'unconfirmed');
    await settled(workbench, [untouched(everything.url)]);
    expect(toServer).toEqual([]);
  });

  await test.step('Connect: the page reaches it and lists its tools', async () => {
    await workbench.servers.button('everything', 'server-connect').click();
    await expect(workbench.servers.status('everything')).toHaveAttribute('data-status', 'running', { timeout: 20_000 });
    await expect(workbench.servers.status('everything')).toContainText(`${EVERYTHING_TOOLS} tools`);
    expect(toServer.length).toBeGreaterThan(0);
  });

  await test.step('after a reload the confirmed URL reconnects by itself', async () => {
    await workbench.flushAutosave();
    await page.reload();
    await page.waitForFunction(() => window.__workbench !== undefined);
    await workbench.servers.show();
    await expect(workbench.servers.status('everything')).toHaveAttribute('data-status', 'running', { timeout: 20_000 });
  });

  await test.step('Disconnect forgets it: after a reload it waits for Connect again', async () => {
    await workbench.servers.button('everything', 'server-disconnect').click();
    await expect(workbench.servers.status('everything')).toHaveAttribute('data-status', 'offline');
    // Put the server back to running in the document, as a shared copy of it would say.
    expect(await workbench.loadScenario(text, 'everything.toml')).toBe(true);
    await workbench.flushAutosave();
    await page.reload();
    await page.waitForFunction(() => window.__workbench !== undefined);
    await workbench.servers.show();
    await expect(workbench.servers.status('everything')).toHaveAttribute('data-status', 'unconfirmed');
  });
});
