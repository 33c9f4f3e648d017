// A first screen a newcomer can use (issue 24, items 11 to 15): the folder route that can start
// servers, one step to connect an HTTP server, the keyboard in and out of the layer editor, a
// simulator that does not offer model actions on a step that never sent a request, and a plain
// paragraph for someone who never heard of RFD 108, at 1024×768 and 1440×900.
import { test, expect } from './fixtures';
import { EVERYTHING_TOOLS_JP, startEverything } from './mcpServers';
import type { EverythingServer } from './mcpServers';
import { screenshotsAtTwoSizes } from './screens';
import { jpWorkspace, serverBin, startServe } from './bridgeServe';
import type { Serve } from './bridgeServe';

test('a step that failed before any request offers no model actions, and says why', async ({ workbench, page }, info) => {
  const sim = workbench.simulator;
  await workbench.open();
  await sim.open();
  await sim.addStep("jp q -t fs_delete_file 'Delete the build folder'");
  await expect(sim.following()).toContainText('Step 3');
  await test.step('the timeline marks the step as failed, before any request', async () => {
    const snap = await workbench.snapshot();
    const step = snap.timeline.entries.find((e) => e.kind === 'step' && e.step === 3);
    expect(step?.error).toContain('fs_delete_file');
    expect(snap.timeline.entries.some((e) => e.kind === 'request' && e.step === 3)).toBe(false);
  });
  await test.step('the actions are disabled and the reason is the step\'s own error', async () => {
    await expect(sim.blocked()).toContainText('did not start');
    await expect(sim.blocked()).toContainText('cannot enable `fs_delete_file`');
    await expect(sim.blocked()).toContainText('no request');
    const controls = sim.actionControls();
    expect(await controls.count()).toBeGreaterThanOrEqual(5);
    for (const c of await controls.all()) await expect(c).toBeDisabled();
  });
  await test.step('nothing on the simulator contradicts the sets panel (permitted tools exist)', async () => {
    await expect(workbench.sets.counts().locator('[data-set="permitted"]')).not.toContainText(/\b0\b/u);
    await expect(page.getByRole('region', { name: "The model's response" })).not.toContainText('0 offered');
    await expect(page.getByRole('region', { name: "The model's response" })).not.toContainText('search_tools is not offered');
  });
  await screenshotsAtTwoSizes(page, info, 'sim-blocked');
});

for (const size of [
  { width: 1024, height: 768 },
  { width: 1440, height: 900 },
]) {
  test(`at ${size.width}×${size.height} the first screen says what the workbench is for, and keeps its name and picker labels`, async ({ workbench, page }, info) => {
    const guide = workbench.guide;
    await page.setViewportSize(size);
    await workbench.open();
    await test.step('one plain paragraph: what it is for, the three sets, what the demo shows', async () => {
      const welcome = guide.welcome();
      await expect(welcome).toBeVisible();
      await expect(welcome).toContainText('which tools a language model is sent');
      for (const word of ['permitted', 'offered', 'searchable']) await expect(welcome.locator('strong', { hasText: word })).toBeVisible();
      await expect(welcome).toContainText('The demo');
      await expect(welcome).toContainText('failed deploy');
      // Short enough to leave the panels their room: two lines at 1440 px, three at 1024.
      const lines = await welcome.locator('p').evaluate((p) => Math.round(p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight)));
      expect(lines).toBeLessThanOrEqual(size.width >= 1440 ? 2 : 3);
      // All of it is on screen: not cut off, not ellipsized.
      const clipped = await welcome.locator('p').evaluate((p) => p.scrollHeight > p.clientHeight + 1 || p.scrollWidth > p.clientWidth + 1);
      expect(clipped, 'the paragraph is not clipped').toBe(false);
      await expect(welcome.locator('p')).toBeInViewport({ ratio: 1 });
    });
    await test.step('the product name and the picker labels stay visible', async () => {
      await expect(guide.brand()).toBeVisible();
      await expect(guide.brand()).toContainText('Workbench');
      const brand = await guide.brand().boundingBox();
      expect(brand?.width ?? 0).toBeGreaterThan(40);
      for (const label of ['provider', 'ranking']) {
        const l = page.locator('header.header .hd-label', { hasText: label });
        await expect(l).toBeVisible();
        expect((await l.boundingBox())?.width ?? 0, `${label} label has a width`).toBeGreaterThan(20);
      }
      const boxes = await workbench.header.itemBoxes();
      expect(Math.max(...boxes.map((b) => b.bottom)) - Math.min(...boxes.map((b) => b.top)), 'the header stays on one row').toBeLessThan(40);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'no horizontal scroll').toBeLessThanOrEqual(0);
    });
    await page.screenshot({ path: info.outputPath(`first-screen-${size.width}x${size.height}.png`) });
    await test.step('Help starts with the same paragraph and names no source file', async () => {
      await guide.openHelp();
      await expect(guide.help()).toContainText('which tools a language model is sent');
      await expect(guide.help()).toContainText('A short tour');
      await expect(guide.help()).not.toContainText(/\b(src|bench)\/[\w/.-]+/u);
      await page.screenshot({ path: info.outputPath(`help-${size.width}x${size.height}.png`) });
      await page.keyboard.press('Escape');
    });
    await test.step('"Got it" puts it away, for the next visit too', async () => {
      await guide.dismissWelcome();
      await page.reload();
      await page.getByTestId('check-status').filter({ hasText: 'passed' }).waitFor();
      await expect(guide.welcome()).toHaveCount(0);
    });
  });
}

test('keyboard only: Tab indents in the layer editor, Esc then Tab leaves it, Ctrl+M makes Tab move focus through every panel and back', async ({ workbench, page }, info) => {
  test.setTimeout(120_000);
  const layers = workbench.layers;
  await workbench.open();
  await layers.waitForEditor();
  const text = () => page.evaluate(() => window.__layerEditor?.value() ?? '');
  /** Presses `key` until `done` holds (at most `max` times); returns the regions the focus passed through. */
  const pressUntil = async (key: string, done: (f: { region: string; inEditor: boolean }) => boolean, max = 400): Promise<string[]> => {
    const seen: string[] = [];
    for (let i = 0; i < max; i++) {
      await page.keyboard.press(key);
      const f = await workbench.focusRegion();
      if (seen[seen.length - 1] !== f.region) seen.push(f.region);
      if (done(f)) return seen;
    }
    throw new Error(`${key} ${max} times did not get there; passed ${seen.join(' → ')}`);
  };

  // Where Tab goes depends on where the focus is and on which dock tab is shown (its panel's stops come
  // after the dock's tabs, and the F6 step lands on the selected one): both are set before any key.
  await expect(workbench.dockTab('Simulator')).toHaveAttribute('aria-selected', 'true');
  await workbench.focusTop();
  await test.step('Tab from the top of the page reaches the layer editor', async () => {
    const passed = await pressUntil('Tab', (f) => f.inEditor, 40);
    expect(passed[0]).toBe('header');
  });
  const before = await text();
  await test.step('in the editor Tab indents (the default), and the line under it says how to leave', async () => {
    await expect(layers.keysLine()).toBeVisible();
    await expect(layers.keysLine()).toContainText('Tab indents');
    await expect(layers.keysLine()).toContainText('Esc then Tab');
    await expect(layers.keysLine()).toContainText('Ctrl+M');
    await page.keyboard.press('Tab');
    expect(await layers.editorHasFocus()).toBe(true);
    expect(await text()).not.toBe(before);
    await page.keyboard.press('Control+z');
    await expect.poll(text).toBe(before);
  });
  await test.step('Esc then Tab leaves the editor, Shift+Tab comes back, Esc then Shift+Tab leaves backwards', async () => {
    await page.keyboard.press('Escape');
    await expect(layers.keysLine()).toContainText('Tab now leaves the editor');
    await page.keyboard.press('Tab');
    const out = await workbench.focusRegion();
    expect(out.inEditor, `focus left the editor (now in ${out.region})`).toBe(false);
    await page.keyboard.press('Shift+Tab');
    expect(await layers.editorHasFocus()).toBe(true);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Shift+Tab');
    const back = await workbench.focusRegion();
    expect(back).toEqual({ region: 'Layers', inEditor: false });
    expect(await text()).toBe(before);
    await page.keyboard.press('Tab');
    expect(await layers.editorHasFocus()).toBe(true);
  });
  await test.step('Ctrl+M: Tab moves focus, as the line says; every panel is reached, and back', async () => {
    await page.keyboard.press('Control+m');
    await expect(layers.keysLine()).toContainText('Tab moves focus');
    await screenshotsAtTwoSizes(page, info, 'layer-editor-keys');
    const forward = await pressUntil('Tab', (f) => f.region === 'Dock');
    expect(forward).toEqual(expect.arrayContaining(['Timeline', 'Sets', 'Dock']));
    expect(forward.indexOf('Timeline')).toBeLessThan(forward.indexOf('Sets'));
    const backward = await pressUntil('Shift+Tab', (f) => f.inEditor);
    expect(backward).toEqual(expect.arrayContaining(['Sets', 'Timeline']));
    await page.keyboard.press('Shift+Tab');
    expect(await workbench.focusRegion()).toEqual({ region: 'Layers', inEditor: false });
    await pressUntil('Shift+Tab', (f) => f.region === 'header', 40);
    expect(await text()).toBe(before);
  });
  await test.step('Ctrl+M again: Tab indents again', async () => {
    await pressUntil('Tab', (f) => f.inEditor, 120);
    await page.keyboard.press('Control+m');
    await expect(layers.keysLine()).toContainText('Tab indents');
    await page.keyboard.press('Tab');
    expect(await layers.editorHasFocus()).toBe(true);
    expect(await text()).not.toBe(before);
  });
  await test.step('F6 moves the focus a panel at a time, from the editor too, past the sets\' hundred stops; Shift+F6 goes back', async () => {
    const regions: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('F6');
      regions.push((await workbench.focusRegion()).region);
    }
    expect(regions).toEqual(['Timeline', 'Sets', 'Dock', 'header', 'What this workbench is for', 'Layers']);
    await page.keyboard.press('Shift+F6');
    expect((await workbench.focusRegion()).region).toBe('What this workbench is for');
    await page.keyboard.press('Shift+F6');
    await page.keyboard.press('Shift+F6');
    // The dock's stop is its selected tab.
    expect((await workbench.focusRegion()).region).toBe('Dock');
    await expect(workbench.dockTab('Simulator')).toBeFocused();
  });
});

const workspaceWithServer = () =>
  jpWorkspace((root) => ({
    '.jp/config.toml': `config_load_paths = [".jp/personas"]\n\n[providers.mcp.fs]\ntype = "stdio"\ncommand = "node"\narguments = [${JSON.stringify(serverBin('filesystem'))}, ${JSON.stringify(`${root}/data`)}]\n`,
    '.jp/personas/dev.toml': '[conversation.tools.read_text_file]\nsource = "mcp.fs"\nenable = "discoverable"\n',
  }));

test.describe('the folder route that can start servers', () => {
  let serve: Serve | undefined;
  test.afterEach(async ({ page }) => {
    await page.close();
    await serve?.stop();
    serve = undefined;
  });

  test('served by the bridge, the path comes first and says why; a picked folder says its servers cannot start', async ({ workbench, page }, info) => {
    test.setTimeout(120_000);
    serve = await startServe({}, [], 4621);
    const root = workspaceWithServer();
    const ws = workbench.workspace;
    await workbench.bridge.open(serve.url);
    await ws.show();
    await test.step('the path field comes before the picker, with the reason', async () => {
      await expect(ws.pathField()).toBeVisible();
      const path = await ws.pathField().boundingBox();
      const picker = await ws.pickerButton().boundingBox();
      expect(path && picker && path.y < picker.y, 'the path field is above the picker').toBe(true);
      await expect(ws.pathReason()).toContainText('start its MCP servers');
      await expect(ws.pickerLimits()).toContainText('cannot start');
      // Keyboard order agrees with what is seen: the path field is the first field of the section.
      const firstField = await ws.root.evaluate((el) => el.querySelector('input:not([type="hidden"]):not([hidden]), button')?.getAttribute('data-testid'));
      expect(firstField).toBe('workspace-path');
      await screenshotsAtTwoSizes(page, info, 'workspace-bridge-route');
    });
    await test.step('a folder opened with the picker: its server cannot start, and the page points to the path', async () => {
      await ws.openFolder(`${root}/.jp`);
      await expect(ws.pickedNote()).toContainText('1 MCP server');
      await expect(ws.pickedNote()).toContainText('by its path');
      await expect(page.getByTestId('workspace-start-servers')).toHaveCount(0);
    });
    await test.step('opened by its path, it can start its servers', async () => {
      await workbench.bridge.openWorkspace(root);
      await ws.pickPersona('dev');
      await expect(ws.pickedNote()).toHaveCount(0);
      await expect(page.getByTestId('workspace-start-servers')).toBeEnabled();
    });
  });
});

test('served without the bridge, the picker says plainly what it cannot do, before a folder is opened', async ({ workbench, page }, info) => {
  const ws = workbench.workspace;
  await workbench.open();
  await ws.show();
  await expect(ws.pickerLimits()).toBeVisible();
  await expect(ws.pickerLimits()).toContainText('cannot start');
  await expect(ws.pickerLimits()).toContainText('npm start');
  await expect(ws.pathField()).toHaveCount(0);
  await screenshotsAtTwoSizes(page, info, 'workspace-picker-route');
});

test.describe('one step to connect an HTTP server', () => {
  let serve: Serve | undefined;
  let everything: EverythingServer | undefined;
  test.afterEach(async ({ page }) => {
    await page.close();
    await serve?.stop();
    await everything?.stop();
    serve = undefined;
    everything = undefined;
  });

  test('"Reach an HTTP server" connects, lists and imports in one flow, and says when a name was taken', async ({ workbench, page }, info) => {
    test.setTimeout(150_000);
    serve = await startServe({}, [], 4631);
    everything = await startEverything(4632);
    const bridge = workbench.bridge;
    const importer = workbench.importer;
    await bridge.open(serve.url);
    const serverNames = async () => (await workbench.snapshot()).doc.servers.map((s) => s.name);
    const before = await serverNames();

    await test.step('one flow: the bridge connects, the tools are listed, then imported', async () => {
      await bridge.fillHttp(everything?.url ?? '');
      await bridge.connectHttp();
      await expect(importer.dialog()).toContainText(`${EVERYTHING_TOOLS_JP} tools`);
      await expect(importer.renamed()).toHaveCount(0);
      await screenshotsAtTwoSizes(page, info, 'reach-http-listed');
      await bridge.importHttp();
      await expect(workbench.banner()).toContainText(`Imported ${EVERYTHING_TOOLS_JP} tools of mcp-servers_everything`);
      expect(await serverNames()).toEqual([...before, 'mcp-servers_everything']);
      const snap = await workbench.snapshot();
      expect(snap.doc.servers.find((s) => s.name === 'mcp-servers_everything')?.url).toBe(everything?.url);
      // Its tools are in the catalogue (discoverable: permitted and searchable), not only listed.
      expect(snap.sets.rows.find((r) => r.name === 'echo')?.permitted).toBe(true);
      await expect(bridge.status('mcp-servers_everything')).toHaveText('running');
    });

    await test.step('the same server again: the taken name is said before the import and after it', async () => {
      await bridge.fillHttp(everything?.url ?? '');
      await bridge.connectHttp();
      await expect(importer.renamed()).toContainText('mcp-servers_everything is already a server of this scenario');
      await expect(importer.renamed()).toContainText('mcp-servers_everything_2');
      await screenshotsAtTwoSizes(page, info, 'reach-http-renamed');
      await bridge.importHttp();
      await expect(workbench.banner()).toContainText('renamed');
      await expect(workbench.banner()).toContainText('mcp-servers_everything_2');
      expect(await serverNames()).toEqual([...before, 'mcp-servers_everything', 'mcp-servers_everything_2']);
    });
  });
});
