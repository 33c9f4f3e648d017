// Live MCP servers from the page, for real: the test starts
// @modelcontextprotocol/server-everything in streamableHttp mode on a free
// loopback port, connects to it over Streamable HTTP with the SDK's client,
// lists, imports, searches and promotes, then stops the server: its failure shows
// beside the recording, which stays as recorded (issue 24.2). And the servers that fail: HTML, a hang
// (timeout, cancel), a closed port, CORS (the last two alike: unreachable).
import type { StepDoc } from '../src/core/scenario/doc';
import { writeScenario } from '../src/core/scenario/doc';
import { test, expect, dropNetworkErrors, startBigList, startTiny, freePort, EVERYTHING_TOOLS } from './mcpServers';
import { screenshotsAtTwoSizes } from './screens';

const SCREENS = process.env.WORKBENCH_SCREENS ?? '/tmp/wb-screens';

test('connect, list, import, search, promote; stop the server and the recording stays', async ({ workbench, page, everything, consoleErrors }) => {
  const imp = workbench.importer;
  await workbench.open();

  await test.step('connect to server-everything from the page and list its tools', async () => {
    await workbench.runCommand('import.live');
    await imp.connect(everything.url);
    await expect(imp.liveStatus()).toHaveAttribute('data-status', 'running');
    await expect(imp.liveStatus()).toContainText(`${EVERYTHING_TOOLS} tools in 1 page`);
    await expect(imp.counts()).toContainText(`${EVERYTHING_TOOLS} tools`);
    await expect(imp.tool('echo')).toBeVisible();
  });

  await test.step('import it as a server of the scenario, everything discoverable', async () => {
    await imp.policy('discoverable', 0);
    await imp.dialog().getByTestId('import-server-name').fill('everything');
    await expect(imp.counts()).toContainText('0 on');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: `${SCREENS}/live-import-1440.png` });
    await imp.confirm();
    const snap = await workbench.snapshot();
    const server = snap.doc.servers.find((s) => s.name === 'everything');
    expect(server).toMatchObject({ status: 'running', url: everything.url });
    expect(server?.tools).toHaveLength(EVERYTHING_TOOLS);
    const echo = snap.sets.rows.find((r) => r.name === 'echo');
    expect(echo).toMatchObject({ availability: 'discoverable', permitted: true, searchable: true, offered: false, server: 'everything' });
  });

  await test.step('the servers tab shows it running', async () => {
    await workbench.servers.show();
    await expect(workbench.servers.status('everything')).toHaveAttribute('data-status', 'running');
    await expect(workbench.servers.status('everything')).toContainText(`${EVERYTHING_TOOLS} tools`);
  });

  await test.step('a scripted turn searches, promotes echo, and calls it', async () => {
    const snap = await workbench.snapshot();
    const step: StepDoc = {
      command: "jp q 'Echo a greeting back to me'",
      cycles: [
        { calls: [{ tool: 'search_tools', args: { query: 'echo' } }] },
        { calls: [{ tool: 'echo', args: { message: 'hello' } }] },
        { calls: [], reply: 'Done.' },
      ],
    };
    expect(await workbench.loadScenario(writeScenario({ ...snap.doc, steps: [...snap.doc.steps, step] }), 'with-search.toml')).toBe(true);
    const after = await workbench.snapshot();
    const search = after.timeline.entries.filter((e) => e.kind === 'call' && e.search).at(-1);
    expect(search?.search?.returned.map((r) => `${r.name}:${r.status}`)).toContain('echo:usable');
    const last = after.timeline.requests.slice(-3);
    expect(last[0]?.offered).not.toContain('echo');
    expect(last[1]?.offered).toContain('echo');
    expect(last[1]?.added).toContain('echo');
    const call = after.timeline.entries.filter((e) => e.kind === 'call' && e.label.startsWith('echo(')).at(-1);
    expect(call?.callStatus).toBe('ok');
  });

  await test.step('stop the server: it fails (unreachable), shown beside the recording, which stays as recorded (issue 24.2)', async () => {
    await everything.stop();
    const status = workbench.servers.status('everything');
    await workbench.servers.card('everything').scrollIntoViewIfNeeded();
    await expect(status).toHaveAttribute('data-status', 'failed', { timeout: 15_000 });
    await expect(status).toContainText('failed: unreachable');
    await expect(workbench.servers.liveNow('everything')).toContainText('server failed now');
    await expect(workbench.servers.card('everything').getByTestId('server-offline-effect')).toHaveCount(0);
    const snap = await workbench.snapshot();
    expect(snap.doc.servers.find((s) => s.name === 'everything')?.status).toBe('running');
    const rows = snap.sets.rows.filter((r) => r.server === 'everything');
    expect(rows.length).toBe(EVERYTHING_TOOLS);
    expect(rows.find((r) => r.name === 'echo')?.permitted).toBe(true);
    // The recorded call still replays as recorded.
    const call = snap.timeline.entries.filter((e) => e.kind === 'call' && e.label.startsWith('echo(')).at(-1);
    expect(call?.callStatus).toBe('ok');
    expect(snap.doc.servers.find((s) => s.name === 'everything')?.tools).toHaveLength(EVERYTHING_TOOLS);
    for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 768 }]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${SCREENS}/servers-failed-${size.width}.png` });
    }
  });

  await test.step('the sets panel marks the tools of the failed server in the same words; a simulated server\'s tools carry nothing', async () => {
    await workbench.sets.search('echo');
    await expect(workbench.sets.row('echo')).toBeVisible();
    await expect(workbench.sets.liveNow('echo')).toHaveText('server failed now');
    await expect(workbench.sets.liveNow('echo')).toHaveAttribute('title', /no usable answer from .*the document keeps what was recorded \(running\)/u);
    await workbench.sets.search('github_get_job_logs');
    await expect(workbench.sets.row('github_get_job_logs')).toBeVisible();
    await expect(workbench.sets.liveNow('github_get_job_logs')).toHaveCount(0);
    await workbench.sets.search('echo');
    for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 768 }]) {
      await page.setViewportSize(size);
      await workbench.sets.row('echo').screenshot({ path: `${SCREENS}/sets-live-now-${size.width}.png` });
      // The badge and the row's allow_toggle both stay inside the row (the server's words give way).
      const row = await workbench.sets.row('echo').boundingBox();
      for (const part of [workbench.sets.liveNow('echo'), workbench.sets.row('echo').locator('.st-toggle').last()]) {
        const box = await part.boundingBox();
        expect(row && box && box.x + box.width <= row.x + row.width + 0.5, `${size.width} px`).toBe(true);
      }
      await page.screenshot({ path: `${SCREENS}/sets-live-now-page-${size.width}.png` });
    }
  });

  // The browser prints the refused connections; they are what this test expects.
  expect(dropNetworkErrors(consoleErrors, everything.url).length).toBeGreaterThan(0);
});

test("a Sets row states its live server's real status, as the badge beside it does: running, stopped, failed (issue 35)", async ({ workbench, page, everything, consoleErrors }, info) => {
  const sets = workbench.sets;
  await workbench.open();
  await workbench.runCommand('import.live');
  await workbench.importer.connect(everything.url);
  await expect(workbench.importer.liveStatus()).toHaveAttribute('data-status', 'running');
  await workbench.importer.policy('on');
  await workbench.importer.dialog().getByTestId('import-server-name').fill('everything');
  await workbench.importer.confirm();
  await sets.search('echo');

  await test.step('running', async () => {
    await expect(sets.serverWord('echo')).toHaveText('everything · running');
    await expect(sets.liveNow('echo')).toHaveCount(0);
  });

  await test.step('disconnected by the user: stopped, not "running" beside "server stopped now"', async () => {
    await workbench.servers.show();
    await workbench.servers.button('everything', 'server-disconnect').click();
    await expect(sets.liveNow('echo')).toHaveText('server stopped now');
    await expect(sets.serverWord('echo')).toHaveText('everything · stopped');
    await expect(sets.serverWord('echo')).toHaveAttribute('title', /recorded it running, and the sets follow the recording/u);
    await sets.row('echo').screenshot({ path: info.outputPath('sets-row-stopped.png') });
  });

  await test.step('connected again to a server that is gone: failed', async () => {
    await everything.stop();
    await workbench.servers.button('everything', 'server-connect').click();
    await expect(sets.liveNow('echo')).toHaveText('server failed now', { timeout: 15_000 });
    await expect(sets.serverWord('echo')).toHaveText('everything · failed');
    await sets.row('echo').screenshot({ path: info.outputPath('sets-row-failed.png') });
    await page.screenshot({ path: info.outputPath('sets-failed-page.png') });
    // The sets stay derived from the recording.
    expect((await workbench.snapshot()).sets.rows.find((r) => r.name === 'echo')?.permitted).toBe(true);
  });
  // The refused connections are the browser's to print; nothing else may be.
  dropNetworkErrors(consoleErrors, everything.url);
  expect(consoleErrors).toEqual([]);
});

test("call a tool: the simulated call's JSON and the Run on server form are one value, kept as typed (issue 35)", async ({ workbench, page, everything, consoleErrors }, info) => {
  const sim = workbench.simulator;
  const bridge = workbench.bridge;
  await workbench.open();
  await test.step('import server-everything, every tool on', async () => {
    await workbench.runCommand('import.live');
    await workbench.importer.connect(everything.url);
    await expect(workbench.importer.liveStatus()).toHaveAttribute('data-status', 'running');
    await workbench.importer.policy('on');
    await workbench.importer.dialog().getByTestId('import-server-name').fill('everything');
    await workbench.importer.confirm();
  });
  await sim.open();
  await sim.addStep("jp q 'add two numbers'");
  await bridge.pickTool('get-sum');

  await test.step("typed in the call's JSON, it shows in the form", async () => {
    await sim.callArgs().fill('{"a": 2, "b": 40}');
    await expect(bridge.field('a')).toHaveValue('2');
    await expect(bridge.field('b')).toHaveValue('40');
  });

  await test.step("typed in the form, it shows in the call's JSON", async () => {
    await bridge.field('a').fill('5');
    await expect.poll(async () => JSON.parse(await sim.callArgs().inputValue()) as unknown).toEqual({ a: 5, b: 40 });
    await page.screenshot({ path: info.outputPath('call-args-shared.png') });
  });

  await test.step('text that is not yet a JSON object is kept as typed, the form says so and does not overwrite it', async () => {
    await sim.callArgs().fill('{"a": 5, "b": 4');
    await expect(bridge.argsUnshown()).toBeVisible();
    await expect(sim.callArgs()).toHaveValue('{"a": 5, "b": 4');
    const raw = await bridge.rawArgs();
    await expect(raw).toHaveValue('{"a": 5, "b": 4');
    await page.screenshot({ path: info.outputPath('call-args-unshown.png') });
    await raw.fill('{"a": 5, "b": 4}');
    await expect(sim.callArgs()).toHaveValue('{"a": 5, "b": 4}');
  });

  await test.step('the run sends that one value', async () => {
    expect(await bridge.run()).toContain('9');
    const calls = (await workbench.snapshot()).doc.steps.at(-1)?.cycles.flatMap((c) => c.calls) ?? [];
    expect(calls.at(-1)).toMatchObject({ tool: 'get-sum', args: { a: 5, b: 4 } });
  });
  expect(consoleErrors).toEqual([]);
});

test('a live tool list that differs shows beside the recorded one, and enters the document only when taken (issue 24.2)', async ({ workbench, page, everything, consoleErrors }, info) => {
  await workbench.open();
  await test.step('import server-everything with echo kept on', async () => {
    await workbench.runCommand('import.live');
    await workbench.importer.connect(everything.url);
    await expect(workbench.importer.liveStatus()).toHaveAttribute('data-status', 'running');
    await workbench.importer.policy('on');
    await workbench.importer.dialog().getByTestId('import-server-name').fill('everything');
    await workbench.importer.confirm();
  });
  const recorded = async () => (await workbench.snapshot()).doc.servers.find((s) => s.name === 'everything')?.tools ?? [];
  await test.step('a recording older than the server: a tool fewer and echo described otherwise; refetch', async () => {
    // Rewrite the scenario's copy of the list, as if the server had changed since it was recorded.
    const snap = await workbench.snapshot();
    const doc = { ...snap.doc, servers: snap.doc.servers.map((s) => (s.name === 'everything' ? { ...s, tools: s.tools.filter((t) => t.name !== 'get-sum').map((t) => (t.name === 'echo' ? { ...t, description: 'An older description.' } : t)) } : s)) };
    expect(await workbench.loadScenario(writeScenario(doc), 'older.toml')).toBe(true);
    await workbench.servers.show();
    await workbench.servers.button('everything', 'server-refetch').click();
  });
  await test.step('the live difference shows beside the recording, naming the tools, with what taking it does to the cache', async () => {
    const change = workbench.servers.change('everything');
    await expect(change).toContainText('live list differs now: +1 / ~1');
    await expect(change).toContainText('+1 added (get-sum)');
    await expect(change).toContainText('~1 changed (echo: description)');
    await expect(change.getByTestId('change-impact')).toContainText('prefix changed');
    await expect(change.getByTestId('change-impact')).toContainText('Offered tool echo changed');
    await expect(workbench.servers.liveList('everything')).toHaveText('live list differs now: +1 / ~1');
    await expect(workbench.servers.liveList('everything')).toHaveAttribute('title', /\+ get-sum/u);
    await expect(workbench.servers.recorded('everything')).toContainText(`${EVERYTHING_TOOLS - 1} tools listed`);
    // The recording is the document's: the live list did not rewrite it.
    const tools = await recorded();
    expect(tools.map((t) => t.name)).not.toContain('get-sum');
    expect(tools.find((t) => t.name === 'echo')?.description).toBe('An older description.');
    await workbench.servers.card('everything').scrollIntoViewIfNeeded();
    await screenshotsAtTwoSizes(page, info, 'live-list-differs');
  });
  await test.step('taking the live list is one edit: the difference is gone, and Undo puts the recording back', async () => {
    const revision = (await workbench.snapshot()).revision;
    await workbench.servers.takeLiveList('everything');
    await expect(workbench.servers.liveList('everything')).toHaveCount(0);
    await expect(workbench.servers.change('everything')).toHaveCount(0);
    await expect(workbench.servers.taken('everything')).toContainText(`in the document now (${EVERYTHING_TOOLS} tools; it was ${EVERYTHING_TOOLS - 1})`);
    const after = await workbench.snapshot();
    expect(after.revision).toBe(revision + 1);
    expect(after.doc.servers.find((s) => s.name === 'everything')?.tools.map((t) => t.name)).toContain('get-sum');
    await screenshotsAtTwoSizes(page, info, 'live-list-taken');
    await workbench.servers.undoTake('everything');
    await expect(workbench.servers.liveList('everything')).toHaveText('live list differs now: +1 / ~1');
    const tools = await recorded();
    expect(tools.map((t) => t.name)).not.toContain('get-sum');
    expect(tools.find((t) => t.name === 'echo')?.description).toBe('An older description.');
  });
  // The page lets the server go before the fixture stops it: a stream the server cuts mid-chunk is a console error.
  await workbench.servers.button('everything', 'server-disconnect').click();
  await expect(workbench.servers.status('everything')).toHaveAttribute('data-status', 'offline');
  expect(dropNetworkErrors(consoleErrors, everything.url)).toEqual([]);
});

test('servers that fail: HTML, a hang (timeout and cancel), a closed port, CORS; the work is kept', async ({ workbench, page, consoleErrors }) => {
  const imp = workbench.importer;
  await workbench.open();
  const before = await workbench.snapshot();
  const html = await startTiny('html');
  const hang = await startTiny('hang');
  const noCors = await startTiny('no-cors');
  const closed = `http://127.0.0.1:${await freePort()}/mcp`;
  try {
    await workbench.runCommand('import.live');

    await test.step('a server that answers HTML: protocol error', async () => {
      await imp.connect(html.url);
      await expect(imp.liveStatus()).toHaveAttribute('data-status', 'failed');
      await expect(imp.liveStatus()).toContainText('failed: protocol error');
      await expect(imp.liveStatus()).toContainText('answered text/html, not JSON or an event stream');
      await expect(page.getByTestId('import-confirm')).toBeDisabled();
    });

    await test.step('a server that hangs: timeout', async () => {
      await imp.connect(hang.url, 2);
      await expect(imp.liveStatus()).toContainText('connecting…');
      await expect(imp.cancelConnect()).toBeVisible();
      await expect(imp.liveStatus()).toContainText('failed: timeout', { timeout: 10_000 });
      await expect(imp.liveStatus()).toContainText('no answer within 2 s');
    });

    await test.step('a server that hangs: the cancel button', async () => {
      await page.getByTestId('import-timeout').fill('120');
      await page.getByTestId('import-connect').click();
      await expect(imp.liveStatus()).toContainText('connecting…');
      for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 768 }]) {
        await page.setViewportSize(size);
        await page.screenshot({ path: `${SCREENS}/live-connecting-${size.width}.png` });
      }
      await imp.cancelConnect().click();
      await expect(imp.liveStatus()).toContainText('failed: cancelled');
    });

    // The browser reports a closed port and a refused origin alike ("Failed to fetch"); the
    // workbench says both possibilities rather than probing the server to find out.
    await test.step('nothing listening: unreachable', async () => {
      await imp.connect(closed);
      await expect(imp.liveStatus()).toContainText('failed: unreachable');
      await expect(imp.liveStatus()).toContainText('Is the server running');
    });

    await test.step('a server without CORS headers: unreachable, naming CORS', async () => {
      await imp.connect(noCors.url);
      await expect(imp.liveStatus()).toContainText('failed: unreachable');
      await expect(imp.liveStatus()).toContainText("does not allow this page's origin");
      // The SDK's own requests (its POST, a preflight) and nothing else: no GET of the workbench's
      // own to probe the server.
      expect(noCors.requests.length).toBeGreaterThan(0);
      expect(noCors.requests.filter((r) => r.startsWith('GET '))).toEqual([]);
    });

    await test.step('nothing changed', async () => {
      await imp.close();
      const after = await workbench.snapshot();
      expect(after.revision).toBe(before.revision);
      expect(after.doc).toEqual(before.doc);
    });
  } finally {
    await Promise.all([html.close(), hang.close(), noCors.close()]);
  }
  dropNetworkErrors(consoleErrors, closed);
  dropNetworkErrors(consoleErrors, noCors.url);
});

test('a live server whose tool list is over the size cap fails at once as too large, before it is parsed', async ({ workbench, page }) => {
  const big = await startBigList(50_000);
  try {
    expect(big.bytes).toBeGreaterThan(2 * 4 * 1024 * 1024 - 512 * 1024);
    await workbench.open();
    const before = await workbench.snapshot();
    await workbench.runCommand('import.live');
    // Two minutes to answer: a failure that waited for the timeout, or for the list to be parsed, would not say "too large".
    await workbench.importer.connect(big.url, 120);
    await expect(workbench.importer.liveStatus()).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
    await expect(workbench.importer.liveStatus()).toContainText('failed: too large');
    await expect(workbench.importer.liveStatus()).toContainText('stops reading there');
    await expect(workbench.importer.liveStatus()).toContainText('Nothing of it was parsed');
    await expect(page.getByTestId('import-confirm')).toBeDisabled();
    await workbench.importer.close();
    expect((await workbench.snapshot()).doc).toEqual(before.doc);
  } finally {
    await big.close();
  }
});
