// The sets panel: at the selected position every tool shows its availability,
// allow_toggle, membership, server status and why; filters and search narrow
// the list; 10,000 tools scroll in a virtualized list; untrusted text is text.
import { test, expect } from './fixtures';

const OFFLINE = `name = "An offline server"

[[layers]]
name = "workspace"
text = '''
[conversation.tools.'*']
enable = "discoverable"

[conversation.tools.build]
source = "local"
enable = "on"
summary = "Build the project."

[conversation.tools.jira_search]
source = "mcp.jira.search"

[conversation.tools.gh_list_issues]
source = "mcp.github.list_issues"

[conversation.tools.gh_gone]
source = "mcp.github.no_such_tool"
'''

[servers.jira]
status = "offline"
tools = [{ name = "search", description = "Search Jira issues.", inputSchema = { type = "object" } }]

[servers.github]
status = "running"
tools = [{ name = "list_issues", description = "List issues in a GitHub repository.", inputSchema = { type = "object" } }]
`;

/** The URL PWN's image fails to load. */
const PWN_SRC = 'x';
const PWN = `<img src=${PWN_SRC} onerror="window.__pwned=1">`;

const UNTRUSTED = `name = "Untrusted text"

[[layers]]
name = "workspace"
text = '''
[conversation.tools.evil_local]
source = "local"
enable = "on"
summary = '${PWN}'

[conversation.tools.evil_mcp]
source = "mcp.evil.tool"
enable = "discoverable"
'''

[servers.evil]
status = "running"
tools = [{ name = "tool", description = ${JSON.stringify(PWN)}, inputSchema = { type = "object" } }]

[[steps]]
command = "jp q 'look'"
`;

function bigScenario(n: number): string {
  const lines = ["[conversation.tools.'*']", 'enable = "discoverable"', ''];
  for (let i = 0; i < n; i++) {
    const name = `tool_${String(i).padStart(5, '0')}`;
    lines.push(`[conversation.tools.${name}]`, 'source = "local"', `summary = "Tool number ${i}, group ${i % 17}."`);
    if (i % 4 === 0) lines.push('enable = "on"');
    else if (i % 10 === 9) lines.push('enable = "off"');
    lines.push('');
  }
  return `name = "Ten thousand tools"\n\n[[layers]]\nname = "workspace"\ntext = '''\n${lines.join('\n')}'''\n`;
}

test('each row shows availability, allow_toggle, membership, server status and why', async ({ workbench }) => {
  await workbench.open();
  const sets = workbench.sets;
  await test.step('a promoted MCP tool after the promotion', async () => {
    await sets.search('github_get_job_logs');
    const row = sets.row('github_get_job_logs');
    await expect(sets.availability('github_get_job_logs')).toHaveText('on');
    await expect(row).toContainText('toggle any');
    await expect(sets.chips('github_get_job_logs')).toHaveAttribute('aria-label', 'permitted, offered');
    await expect(row).toContainText('github · running');
    await expect(row).toContainText('delta 1 (promotion) → on');
  });
  await test.step('a locked local tool', async () => {
    await sets.search('fs_delete_file');
    await expect(sets.availability('fs_delete_file')).toHaveText('off');
    await expect(sets.row('fs_delete_file')).toContainText('toggle never');
    await expect(sets.chips('fs_delete_file')).toHaveAttribute('aria-label', 'in no set');
    await expect(sets.row('fs_delete_file')).toContainText('local');
  });
  await test.step('the counts are the snapshot counts', async () => {
    const snap = await workbench.snapshot();
    const c = snap.sets.counts;
    await expect(sets.counts()).toHaveText(new RegExp(`permitted ${c.permitted}\\D*offered ${c.offered}\\D*searchable ${c.searchable}\\D*configured ${c.configured}`, 'u'));
  });
});

test('expanding a row shows the provenance chain, whose steps link to the timeline and the layer', async ({ workbench, page }) => {
  await workbench.open();
  const sets = workbench.sets;
  await sets.search('github_get_job_logs');
  await sets.expand('github_get_job_logs');
  const chain = sets.row('github_get_job_logs').getByRole('list', { name: /Why github_get_job_logs/u });
  await expect(chain).toHaveAttribute('aria-label', /'\*' in layer workspace → delta 1 \(promotion\) → on/u);
  await test.step('the delta step selects its timeline row', async () => {
    await workbench.timeline.press('Home');
    await expect(workbench.timeline.row(0)).toHaveAttribute('aria-selected', 'true');
    // At the base config the chain is one step; go back to the promotion through its row.
    const snap = await workbench.snapshot();
    const promo = snap.timeline.entries.find((e) => e.kind === 'delta')?.index ?? -1;
    await workbench.timeline.select(promo);
    await chain.getByRole('button', { name: 'delta 1 (promotion)' }).click();
    await expect(workbench.timeline.selectedRow()).toHaveAttribute('data-entry', String(promo));
  });
  await test.step('the layer step opens its layer at the line', async () => {
    const layers = page.getByRole('region', { name: 'Layers' });
    await layers.getByRole('tab', { name: 'user', exact: true }).click();
    await chain.getByRole('button', { name: "'*' in layer workspace" }).click();
    await expect(layers.getByRole('tab', { name: 'workspace', exact: true })).toHaveAttribute('aria-selected', 'true');
  });
});

test('a server that is offline, or lacks the tool, shows its status', async ({ workbench }) => {
  await workbench.open();
  expect(await workbench.loadScenario(OFFLINE, 'offline.toml')).toBe(true);
  const sets = workbench.sets;
  await expect(sets.row('jira_search')).toContainText('jira · server-offline');
  await expect(sets.row('gh_gone')).toContainText('github · tool-missing');
  await expect(sets.row('gh_list_issues')).toContainText('github · running');
  await expect(sets.chips('jira_search')).toHaveAttribute('aria-label', 'in no set');
  await expect(workbench.timeline.rowsOfKind('warning').first()).toContainText('jira');
});

test('filters and the search narrow the list', async ({ workbench }) => {
  await workbench.open();
  const sets = workbench.sets;
  const snap = await workbench.snapshot();
  const rows = snap.sets.rows;
  await test.step('availability: discoverable', async () => {
    await sets.toggleFilter('availability', 'discoverable');
    const want = rows.filter((r) => r.availability === 'discoverable').length;
    await expect(sets.shown()).toContainText(`${want} of ${rows.length} shown`);
    const badges = await sets.root.locator('[data-tool] .badge').allTextContents();
    expect(badges.length).toBeGreaterThan(0);
    expect(new Set(badges)).toEqual(new Set(['discoverable']));
  });
  await test.step('and kind: mcp', async () => {
    await sets.toggleFilter('kind', 'mcp');
    const want = rows.filter((r) => r.availability === 'discoverable' && r.kind === 'mcp').length;
    await expect(sets.shown()).toContainText(`${want} of ${rows.length} shown`);
  });
  await test.step('and the search "sentry"', async () => {
    await sets.search('sentry');
    const want = rows.filter((r) => r.availability === 'discoverable' && r.kind === 'mcp' && (r.name.includes('sentry') || r.summary.toLowerCase().includes('sentry'))).length;
    await expect(sets.rows()).toHaveCount(want);
    for (const name of await sets.rows().evaluateAll((els) => els.map((e) => e.getAttribute('data-tool') ?? ''))) expect(name).toContain('sentry');
  });
  await test.step('membership: offered, and nothing else', async () => {
    await sets.root.getByRole('button', { name: 'clear' }).click();
    await sets.toggleFilter('set', 'offered');
    const want = rows.filter((r) => r.offered).length;
    await expect(sets.rows()).toHaveCount(want);
    expect(want).toBe(snap.sets.counts.offered);
  });
  await test.step('the search matches summaries too', async () => {
    await sets.root.getByRole('button', { name: 'clear' }).click();
    await sets.search('stack traces');
    await expect(sets.rows()).toHaveCount(1);
    await expect(sets.row('sentry_get_issue_events')).toBeVisible();
  });
});

test('the availability menu edits the layer', async ({ workbench, page }) => {
  await workbench.open();
  const sets = workbench.sets;
  await sets.search('cargo_check');
  await expect(sets.availability('cargo_check')).toHaveText('discoverable');
  await sets.row('cargo_check').getByRole('button', { name: 'Set the availability of cargo_check' }).click();
  const menu = page.getByRole('menu', { name: 'Availability of cargo_check' });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitemradio', { checked: true })).toContainText('discoverable');
  await menu.getByRole('menuitemradio', { name: /^on/u }).click();
  await expect(menu).toBeHidden();
  await expect(sets.availability('cargo_check')).toHaveText('on');
  const snap = await workbench.snapshot();
  expect(snap.sets.rows.find((r) => r.name === 'cargo_check')?.availability).toBe('on');
  expect(snap.layers.find((l) => l.name === 'workspace')?.text).toMatch(/\[conversation\.tools\.cargo_check\][^[]*enable = (?:"on"|\{ availability = "on" \})/u);
});

test('typing in a layer keeps the rows on screen while each derivation answers (no placeholders between keystrokes)', async ({ workbench }) => {
  await workbench.open();
  expect(await workbench.loadScenario(OFFLINE)).toBe(true);
  const { sets, layers } = workbench;
  await expect(sets.row('build')).toBeVisible();
  await layers.waitForEditor();
  await layers.select('workspace');
  await layers.focusEditor();
  // Before the closing quote of build's `enable = "on"`: Backspace makes it "o" (invalid: build inherits
  // '*' and is no longer offered), "n" puts it back.
  await layers.setCursor(6, 13);
  await sets.watchRows();
  for (let i = 0; i < 6; i++) {
    const before = await sets.counts().textContent();
    if (i % 2 === 0) await workbench.page.keyboard.press('Backspace');
    else await layers.insert('n');
    await expect(sets.counts()).not.toHaveText(before ?? '');
  }
  await expect(sets.availability('build')).toHaveText('on');
  expect(await sets.rowChurn()).toEqual({ pending: 0, removed: 0 });
});

test('10,000 tools render, scroll, and count right', async ({ workbench }) => {
  test.setTimeout(120_000);
  await workbench.open();
  const n = 10_000;
  expect(await workbench.loadScenario(bigScenario(n), 'big.toml')).toBe(true);
  const sets = workbench.sets;
  let on = 0;
  let off = 0;
  for (let i = 0; i < n; i++) {
    if (i % 4 === 0) on++;
    else if (i % 10 === 9) off++;
  }
  const discoverable = n - on - off;
  await test.step('the counts', async () => {
    // 10,000 configured plus the two builtins (on, offered, not searchable).
    await expect(sets.counts()).toContainText(`configured ${n + 2}`, { timeout: 30_000 });
    await expect(sets.counts()).toHaveText(new RegExp(`permitted ${on + discoverable + 2}\\D*offered ${on + 2}\\D*searchable ${discoverable}\\D*configured ${n + 2}`, 'u'));
    const snap = await workbench.snapshot();
    expect(snap.sets.counts).toEqual({ configured: n + 2, permitted: on + discoverable + 2, offered: on + 2, searchable: discoverable });
    expect(snap.sets.rows.length).toBe(n + 2);
  });
  await test.step('the DOM holds a window of rows, not 10,000', async () => {
    await expect(sets.row('tool_00000')).toBeVisible();
    const inDom = await sets.rows().count();
    expect(inDom).toBeGreaterThan(5);
    expect(inDom).toBeLessThan(100);
  });
  await test.step('scrolling to the end shows the last tools', async () => {
    await sets.scroller().evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect(sets.row('search_tools')).toBeVisible();
    await expect(sets.row('tool_09999')).toBeAttached();
    expect(await sets.rows().count()).toBeLessThan(100);
    await expect(sets.row('tool_00000')).toHaveCount(0);
  });
  // Frame times are measured by `npm run bench:ui`, never asserted here: the test machine is shared.
  await test.step('scrolling frame by frame keeps rows on screen', async () => {
    const frames = await sets.scroller().evaluate(async (el) => {
      el.scrollTop = 0;
      const seen: number[] = [];
      for (let i = 0; i < 60; i++) {
        el.scrollTop += 400;
        await new Promise((r) => requestAnimationFrame(() => r(null)));
        seen.push(i);
        const visible = [...el.querySelectorAll<HTMLElement>('[data-tool]')].some((row) => {
          const r = row.getBoundingClientRect();
          const box = el.getBoundingClientRect();
          return r.bottom > box.top && r.top < box.bottom;
        });
        if (!visible) return [-1];
      }
      return seen;
    });
    expect(frames).not.toContain(-1);
  });
  await test.step('the search narrows 10,000 rows', async () => {
    await sets.search('tool_0999');
    await expect(sets.shown()).toContainText(`10 of ${n + 2} shown`);
  });
});

test('untrusted text is shown as text and runs nothing', async ({ workbench, page }) => {
  await workbench.open();
  expect(await workbench.loadScenario(UNTRUSTED, 'untrusted.toml')).toBe(true);
  const sets = workbench.sets;
  await expect(sets.row('evil_local')).toContainText(PWN);
  await expect(sets.row('evil_mcp')).toContainText(PWN);
  await sets.expand('evil_local');
  await expect(sets.row('evil_local').locator('.st-detail')).toContainText(PWN);
  expect(await sets.root.locator('img').count()).toBe(0);
  // Had the text been parsed as HTML, its image would have failed to load `x` and run its onerror. An
  // image of our own that fails on the same URL, asked for after the text was shown, fails no earlier:
  // once it has, that onerror would have run (a signal to wait for, instead of a while).
  const canary = await page.evaluate(
    (src) =>
      new Promise<string>((done) => {
        const img = new Image();
        img.onload = () => done('loaded');
        img.onerror = () => done('failed');
        img.src = src;
      }),
    PWN_SRC,
  );
  expect(canary).toBe('failed');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});
