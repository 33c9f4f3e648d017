// The TOML tokenizer (editor/toml-tokens.ts). A catalogue-sized layer is tokenized where it is shown, not
// whole in the background (editor/viewport-tokens.ts): its lines are highlighted at its end as at its
// start, and a line typed at its end is highlighted as it is typed, without scrolling.
import { expect, test } from './fixtures';
import { generateScenario } from '../bench/check-scale';
import { BACKGROUND_TOKENIZE_MAX_CHARS } from '../src/editor/toml-language';
import type { Page } from '@playwright/test';

const TOOLS = 1_000;

/** The distinct token classes Monaco drew on the shown line whose text starts with `start`. */
function tokenClassesOf(page: Page, start: string): Promise<number> {
  return page.evaluate((s) => {
    const line = [...document.querySelectorAll('.monaco-editor .view-line')].find((l) => (l.textContent ?? '').replace(/\u00a0/gu, ' ').startsWith(s));
    if (!line) return 0;
    return new Set([...line.querySelectorAll('span[class^="mtk"], span[class*=" mtk"]')].map((e) => [...e.classList].filter((c) => c.startsWith('mtk')).join(' '))).size;
  }, start);
}

test('a catalogue-sized layer is highlighted at its end as at its start, and as it is typed', async ({ workbench, page }) => {
  test.setTimeout(120_000);
  const text = generateScenario(TOOLS, 2, 'local');
  const begin = text.indexOf("text = '''\n") + "text = '''\n".length;
  const catalogue = text.slice(begin, text.indexOf("'''", begin));
  expect(catalogue.length).toBeGreaterThan(BACKGROUND_TOKENIZE_MAX_CHARS);
  const lines = catalogue.split('\n');
  expect(lines.length).toBeGreaterThan(20_000);
  const lastHeader = lines.findLastIndex((l) => /^\[conversation\.tools\.[^.\]]+\]$/u.test(l));
  const header = lines[lastHeader] ?? '';
  expect(lastHeader).toBeGreaterThan(lines.length - 100);
  const { layers, sets } = workbench;
  await workbench.open();
  await workbench.openScenarioFile('catalogue.toml', new TextEncoder().encode(text));
  await expect(sets.counts()).toContainText('configured', { timeout: 60_000 });
  await layers.waitForEditor();
  await layers.select('workspace');
  await layers.focusEditor();
  // The first table's header: `[`, the table's keys, `.`, `'*'`, `]` in their own colours.
  await expect.poll(() => tokenClassesOf(page, "[conversation.tools.'*']")).toBeGreaterThanOrEqual(3);
  // The last tool's header, 20,000 lines on, shown without the lines above it being tokenized.
  await layers.setCursor(lastHeader + 1, 1);
  await expect.poll(() => tokenClassesOf(page, header)).toBeGreaterThanOrEqual(3);
  // Typing there: a new key with its value, highlighted as it is typed.
  await layers.setCursor(lastHeader + 1, header.length + 1);
  await page.keyboard.type('\nsummary = "typed at the end"');
  await expect.poll(() => tokenClassesOf(page, 'summary = "typed at the end"')).toBeGreaterThanOrEqual(3);
  expect(await page.evaluate(() => window.__layerEditor?.value())).toContain(`${header}\nsummary = "typed at the end"\n`);
});

test('a } inside an array is read as invalid and the editor goes on (Monarch looped forever there)', async ({ workbench, page }) => {
  const { layers } = workbench;
  await workbench.open();
  await layers.waitForEditor();
  await layers.cursorToEnd();
  await layers.insert('\nbroken = [1, }, 2]\nafter = "still read"');
  await expect.poll(() => layers.value()).toContain('broken = [1, }, 2]\nafter = "still read"');
  await expect.poll(() => tokenClassesOf(page, 'broken = [1, }, 2]')).toBeGreaterThanOrEqual(3);
  await expect.poll(() => tokenClassesOf(page, 'after = "still read"')).toBeGreaterThanOrEqual(3);
  // The page still answers: typing goes on after the line that hung it.
  await page.keyboard.type('\nlast = 1');
  await expect.poll(() => layers.value()).toContain('after = "still read"\nlast = 1');
});
