// 10,000 tools as a user meets them (issue 32.4): a generated 50-turn scenario file (bench/check-scale.ts)
// with a small `overrides` layer, opened with Ctrl+O; a typed edit in each layer updates the counts and
// the rows on screen; the sets list and the timeline scroll to their ends; the inspector shows a request's
// body and cache status; and the worker computes request facts for the rows shown only (the test hook's
// stats), never for every request. Timings are the bench's (`npm run bench:ui`), never asserted here.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { generateScenario } from '../bench/check-scale';
import { generateCatalogue } from '../bench/search-fixtures';
import type { Locator } from '@playwright/test';

const TOOLS = 10_000;

/** The four counts the sets panel shows, as numbers. */
async function counts(sets: Locator): Promise<{ permitted: number; offered: number; searchable: number; configured: number }> {
  const text = (await sets.textContent()) ?? '';
  const n = (word: string): number => Number((new RegExp(`${word}\\s*([\\d,\\u202f ]+)`, 'u').exec(text)?.[1] ?? 'NaN').replace(/\D/gu, ''));
  return { permitted: n('permitted'), offered: n('offered'), searchable: n('searchable'), configured: n('configured') };
}

test('10,000 tools: the file opens, edits in either layer show, both lists scroll to their ends, and request facts are computed for shown rows only', async ({ workbench, page }) => {
  test.setTimeout(300_000);
  const tools = generateCatalogue(TOOLS);
  const first = tools[0]?.name ?? '';
  const second = tools[1]?.name ?? '';
  const generated = generateScenario(TOOLS, 50, 'local');
  const overrides = ['[[layers]]', 'name = "overrides"', "text = '''", `[conversation.tools.${first}]`, 'run = "unattended"', "'''", '', ''].join('\n');
  const text = generated.replace('[[steps]]', `${overrides}[[steps]]`);
  const dir = mkdtempSync(join(tmpdir(), 'workbench-scale-'));
  const file = join(dir, 'scale-10000.toml');
  writeFileSync(file, text);
  // The catalogue layer's lines as the editor numbers them (TOML drops the newline after the opening quotes).
  const start = text.indexOf("text = '''\n") + "text = '''\n".length;
  const catalogue = text.slice(start, text.indexOf("'''", start)).split('\n');
  const secondSource = catalogue.indexOf(`[conversation.tools.${second}]`) + 2;

  const { sets, timeline, layers, requests } = workbench;
  try {
    await workbench.open();
    await test.step('the file opens with Ctrl+O and the counts show every tool', async () => {
      await page.evaluate(() => window.__workbench?.meter());
      await workbench.openScenarioFile('scale-10000.toml', readFileSync(file));
      await expect(sets.counts()).toContainText(`configured ${TOOLS + 2}`, { timeout: 120_000 });
      // The opened file's bytes were moved to the worker, which parsed them: the document (megabytes of
      // catalogue) was not cloned across.
      const opened = await page.evaluate(() => window.__workbench?.traffic());
      expect(opened?.sent ?? Infinity).toBeLessThan(64 * 1024);
      expect(opened?.transferred).toBe(Buffer.byteLength(text));
      expect(text.length).toBeGreaterThan(1024 * 1024);
      // The file went to the worker ahead of the page's own read (document.ts offerFile), not as bytes after it.
      expect((await page.evaluate(() => window.__workbench?.stats()))?.wholeFrom).toBe('offer');
      // And prepared the opened revision for its first keystroke, as for a document sent whole.
      const revision = (await page.evaluate(() => window.__workbench?.stats()))?.revision;
      await expect.poll(async () => (await page.evaluate(() => window.__workbench?.stats()))?.prepared ?? [], { timeout: 60_000 }).toContain(revision);
      // The base config: its counts do not depend on which searches promoted what.
      await expect(timeline.row(0)).toBeVisible();
      await timeline.press('Home');
      await expect(timeline.row(0)).toHaveAttribute('aria-selected', 'true');
      await expect(sets.row(first)).toBeVisible();
      await expect(sets.availability(first)).toHaveText('on');
      await expect(sets.availability(second)).toHaveText('discoverable');
    });
    // Counted from here: only what this part of the test asks for.
    await page.evaluate(() => window.__workbench?.meter());

    await test.step('a typed edit in the small layer updates the counts and the row on screen', async () => {
      const before = await counts(sets.counts());
      await layers.waitForEditor();
      await layers.select('overrides');
      await layers.cursorToEnd();
      await layers.insert('\nenable = "off"');
      await expect(sets.availability(first)).toHaveText('off', { timeout: 30_000 });
      await expect.poll(() => counts(sets.counts())).toEqual({ ...before, permitted: before.permitted - 1, offered: before.offered - 1 });
    });

    await test.step('a typed edit in the catalogue layer updates the counts and the row on screen', async () => {
      const before = await counts(sets.counts());
      await layers.select('workspace');
      await layers.focusEditor();
      await layers.setCursor(secondSource, 17);
      await layers.insert('\nenable = "off"');
      await expect(sets.availability(second)).toHaveText('off', { timeout: 30_000 });
      await expect.poll(() => counts(sets.counts())).toEqual({ ...before, permitted: before.permitted - 1, searchable: before.searchable - 1 });
    });

    await test.step('what crossed the worker boundary was windows, not the catalogue', async () => {
      const traffic = await page.evaluate(() => window.__workbench?.traffic());
      test.info().annotations.push({ type: 'bytes', description: `received ${traffic?.received} B over two edits: ${JSON.stringify(traffic?.byMethod)}` });
      console.log(`bytes received over two edits: ${traffic?.received} ${JSON.stringify(traffic?.byMethod)}`);
      // Two edits, with everything the page asked for after each: far under one sets list (3.4 MB at this size before).
      expect(traffic?.received ?? Infinity).toBeLessThan(2 * 64 * 1024);
    });

    await test.step('the sets list scrolls to its end', async () => {
      await sets.scroller().evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
      await expect(sets.row('search_tools')).toBeVisible();
      await expect(sets.row(tools[TOOLS - 1]?.name ?? '')).toBeAttached();
      await expect(sets.row(first)).toHaveCount(0);
      expect(await sets.rows().count()).toBeLessThan(100);
    });

    // The request rows the timeline has shown, from here on (the facts counted below are this revision's).
    await timeline.list().evaluate((el) => {
      const seen = new Set<number>();
      const note = () => el.querySelectorAll<HTMLElement>('[data-kind="request"][data-request]').forEach((r) => seen.add(Number(r.dataset.request)));
      note();
      new MutationObserver(note).observe(el, { childList: true, subtree: true, attributes: true });
      (window as unknown as { __seenRequests: Set<number> }).__seenRequests = seen;
    });

    let last = 0;
    await test.step('the timeline scrolls to its end', async () => {
      last = Number(await timeline.scrubber().getAttribute('max'));
      expect(last).toBeGreaterThan(300);
      await timeline.list().evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
      await expect(timeline.row(last)).toBeVisible();
      await expect(timeline.row(last)).not.toHaveAttribute('data-pending', 'true');
      await expect(timeline.row(0)).toHaveCount(0);
      expect(await timeline.rows().count()).toBeLessThan(120);
    });

    await test.step('the inspector shows a request of the end: its body and its cache status', async () => {
      const row = timeline.rowsOfKind('request').last();
      const id = Number(await row.getAttribute('data-request'));
      await row.click();
      await requests.open();
      await expect(requests.title()).toHaveText(new RegExp(`^Request ${id + 1} of \\d+`, 'u'));
      await expect(requests.cacheWord()).toHaveAttribute('data-cache', /^(hit|miss)$/u);
      await expect(requests.body().locator('.view-lines')).toContainText('"tools"', { timeout: 30_000 });
    });

    await test.step('request facts were computed for the rows shown (and their window), not for every request', async () => {
      const seen = await page.evaluate(() => [...(window as unknown as { __seenRequests: Set<number> }).__seenRequests]);
      const stats = await page.evaluate(() => window.__workbench?.stats());
      const built = stats?.builtRequests ?? [];
      expect(seen.length).toBeGreaterThan(0);
      expect(built.length).toBeGreaterThan(0);
      // The 50 turns make 150 requests: the end of the timeline shows a few dozen; the rest were never built.
      expect(built.length).toBeLessThan(75);
      // Each one built lies among the rows shown or the block fetched beside them (32 rows, about 11 requests).
      for (const b of built) expect(Math.min(...seen.map((s) => Math.abs(s - b)))).toBeLessThanOrEqual(12);
      // The sets rows built for this revision: windows of the list, not its 10,002 rows.
      expect(stats?.setsRowsBuilt ?? Infinity).toBeLessThan(1_000);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
