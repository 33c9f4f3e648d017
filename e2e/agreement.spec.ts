// One document, one truth (issue 24): every panel that counts the scenario's tools reads the same
// core count with the same label, and no hand-written figure contradicts it.
import { test, expect } from './fixtures';

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
