// One document, one truth (issue 24): every panel that counts the scenario's tools reads the same
// core count with the same label, and no hand-written figure contradicts it.
import { test, expect } from './fixtures';
import { screenshotsAtTwoSizes } from './screens';

test('one count of tools: About, the sets panel and the Cost tab read the same count with one label (issue 24.5)', async ({ workbench, page }) => {
  await workbench.open();
  // The first screen's paragraph stands where About goes until it is put away (issue 24.15).
  await workbench.guide.dismissWelcome();
  const about = page.getByTestId('scenario-about');

  const label = await test.step('About states the count with its label, and its story claims no other', async () => {
    const count = about.getByTestId('tool-count');
    await expect(count).toHaveText(/^\d+ tools: \d+ from the catalogue \+ \d+ builtins?$/u);
    const text = (await count.textContent()) ?? '';
    const total = Number(/^(\d+)/u.exec(text)?.[1]);
    const story = (await about.getByTestId('scenario-description').textContent()) ?? '';
    for (const m of story.matchAll(/(\d+) tools\b/gu)) expect(Number(m[1]), `the About text says "${m[0]}"`).toBe(total);
    return { text, total, catalogue: Number(/: (\d+) from/u.exec(text)?.[1]), builtins: Number(/\+ (\d+) builtin/u.exec(text)?.[1]) };
  });

  await test.step('the sets panel: configured is that total, and says so', async () => {
    const configured = workbench.sets.counts().locator('[data-set="configured"]');
    await expect(configured.locator('b')).toHaveText(String(label.total));
    await expect(configured).toHaveAttribute('data-label', label.text);
    const snap = await workbench.snapshot();
    expect(snap.sets.rows.length).toBe(label.total);
    expect(snap.sets.rows.filter((r) => r.kind === 'builtin').length).toBe(label.builtins);
  });

  await test.step('the Cost tab names its discoverable tools as part of the same total', async () => {
    await workbench.cost.open();
    const summary = page.getByTestId('breakeven-summary');
    await expect(summary).toContainText(`discoverable of its ${label.text}`);
    const discoverable = Number(/\((\d+) discoverable of its/u.exec((await summary.textContent()) ?? '')?.[1]);
    const snap = await workbench.snapshot();
    expect(discoverable).toBe(snap.timeline.positions[0]?.counts.discoverable);
  });

  await test.step('the Servers tab measures discovery against the same all-on run: the tools not off, and describe_tools', async () => {
    await expect(page.getByTestId('cost-variant-all-on')).toContainText('all on (JP today)');
    await workbench.servers.show();
    const all = workbench.servers.savings().getByTestId('savings-all');
    await expect(all.locator('th')).toHaveText('all on (JP today)');
    const snap = await workbench.snapshot();
    const notOff = snap.sets.rows.filter((r) => r.kind !== 'builtin' && r.availability !== 'off').length;
    await expect(all.locator('td').first()).toHaveText(String(notOff + 1));
  });
});

/** A count a story writes as a word or as digits. */
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
function countOf(word: string): number {
  const at = NUMBER_WORDS.indexOf(word.toLowerCase());
  return at >= 0 ? at : Number(word);
}

test('the demo\'s story states only counts the sets agree with: local tools and builtins offered up front, MCP servers (issue 24.5)', async ({ workbench, page }, info) => {
  await workbench.open();
  await workbench.guide.dismissWelcome();
  const story = ((await page.getByTestId('scenario-about').getByTestId('scenario-description').textContent()) ?? '').replace(/\s+/gu, ' ');
  // Up front is the first request: the sets at the base position.
  await workbench.timeline.select(0);
  await expect(workbench.timeline.selectedRow()).toHaveAttribute('data-kind', 'base');
  const snap = await workbench.snapshot();
  expect(snap.sets.position).toBe(0);
  const offered = snap.sets.rows.filter((r) => r.offered);
  const claims: { said: string; count: number; is: number }[] = [];
  const local = /(\w+) local tools? (?:are|is) offered up front|offered (\w+) local tools?/iu.exec(story);
  const builtins = /(?:the )?(\w+) builtins?/iu.exec(story);
  const servers = /(\w+) MCP servers/iu.exec(story);
  expect(local, `the story says how many local tools are offered up front: ${story}`).not.toBeNull();
  if (local) claims.push({ said: local[0], count: countOf(local[1] ?? local[2] ?? ''), is: offered.filter((r) => r.kind === 'local').length });
  if (builtins) claims.push({ said: builtins[0], count: countOf(builtins[1] ?? ''), is: offered.filter((r) => r.kind === 'builtin').length });
  if (servers) claims.push({ said: servers[0], count: countOf(servers[1] ?? ''), is: new Set(snap.sets.rows.flatMap((r) => (r.server !== undefined ? [r.server] : []))).size });
  for (const c of claims) expect(c.count, `the story says "${c.said}"`).toBe(c.is);
  // And the sets panel's offered count is those together.
  await expect(workbench.sets.counts().locator('[data-set="offered"] b')).toHaveText(String(offered.length));
  await page.getByTestId('scenario-about').getByRole('button', { name: 'more' }).click();
  await screenshotsAtTwoSizes(page, info, 'demo-story-counts');
});

test('one cache word with its reason: the timeline, the inspector and the Cost tab agree (issue 24.6)', async ({ workbench, page }) => {
  await workbench.open();
  const snap = await workbench.snapshot();
  // Step 1's third request repeats the second's bytes, but 545 tokens are below Anthropic's minimum.
  const id = snap.timeline.requests.findIndex((r) => r.step === 1 && r.cycle === 3);
  expect(snap.timeline.requests[id]?.cache.status).toBe('hit');
  const status = 'prefix reused · below the 1,024-token minimum: 0 cached';

  await test.step('the timeline row says "0 cached", the whole status in its title', async () => {
    const row = workbench.timeline.rowsOfKind('request').nth(id);
    const fact = row.locator('.tl-fact', { hasText: 'cached' });
    await expect(fact).toHaveText('0 cached');
    await expect(fact).toHaveAttribute('title', new RegExp(`^${status}`, 'u'));
    await expect(row).not.toContainText(/\bhit\b/u);
  });

  await test.step('the inspector says the same status', async () => {
    await workbench.requests.open();
    await workbench.requests.select(id);
    await expect(workbench.requests.cacheWord()).toHaveText(status);
  });

  await test.step('the Cost tab reads 0 cached tokens for the same conversation', async () => {
    await workbench.cost.open();
    await expect(page.getByTestId('cost-variant-as-configured-read')).toHaveText('0 tok');
  });
});
