// Autosave of a catalogue-sized layer in the browser: the document is stored as a head record and
// chunk records; a keystroke in the middle of the catalogue rewrites one chunk of it (read from the
// editor's model as a slice), a keystroke in the small layer rewrites that layer's chunk, no chunk
// is left behind unnamed, and a reload gives back exactly the text typed.
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';

const TOOLS = 6000;

function scenario(): string {
  const tools = Array.from({ length: TOOLS }, (_, i) => `[conversation.tools.t${i}]\nsource = "local"\nenable = "on"\nsummary = "Tool number ${i} of the catalogue."\n`).join('\n');
  return ['name = "Chunked"', '', '[[layers]]', 'name = "catalogue"', `text = '''\n${tools}'''`, '', '[[layers]]', 'name = "overrides"', `text = '''\n[conversation.tools.t1]\nenable = "off"\n'''`, ''].join('\n');
}

interface Stored {
  format: string;
  /** The chunk keys each layer names. */
  layers: string[][];
  /** Every chunk record in the store. */
  chunks: string[];
}

/** What IndexedDB holds, read as the next load would. */
function stored(page: Page): Promise<Stored> {
  return page.evaluate(
    () =>
      new Promise<Stored>((resolve, reject) => {
        const open = indexedDB.open('tool-workbench');
        open.onsuccess = () => {
          const store = open.result.transaction('documents').objectStore('documents');
          const head = store.get('current');
          const keys = store.getAllKeys();
          keys.onsuccess = () => {
            const h = head.result as { format: string; layerChunks: { chunks: string[] }[] };
            open.result.close();
            resolve({ format: h.format, layers: h.layerChunks.map((l) => l.chunks), chunks: (keys.result as string[]).filter((k) => typeof k === 'string' && k.startsWith('chunk:')) });
          };
          keys.onerror = () => reject(keys.error);
        };
        open.onerror = () => reject(open.error);
      }),
  );
}

test('typing in a catalogue-sized layer saves the chunk typed in, and a reload gives back the exact text', async ({ workbench, page }) => {
  test.setTimeout(120_000);
  await workbench.open();
  expect(await workbench.loadScenario(scenario(), 'chunked.toml')).toBe(true);
  await workbench.layers.waitForEditor();
  await workbench.flushAutosave();
  const first = await stored(page);
  expect(first.format).toBe('tool-workbench/saved@2');
  expect(first.layers[0]!.length).toBeGreaterThan(8);
  expect(first.layers[1]).toHaveLength(1);

  await test.step('a keystroke in the middle of the catalogue rewrites one chunk of it', async () => {
    await workbench.layers.select('catalogue');
    await workbench.layers.focusEditor();
    await workbench.layers.setCursor(TOOLS * 2 + 3, 1);
    await workbench.layers.insert('# typed in the middle\n');
    await workbench.flushAutosave();
    const after = await stored(page);
    const was = new Set(first.layers[0]);
    const fresh = after.layers[0]!.filter((k) => !was.has(k));
    expect(fresh).toHaveLength(1);
    expect(after.layers[0]).toHaveLength(first.layers[0]!.length);
    expect(after.layers[1]).toEqual(first.layers[1]);
    // No chunk record is left that the head does not name.
    expect([...after.chunks].sort()).toEqual([...new Set(after.layers.flat())].sort());
  });

  await test.step('a keystroke in the small layer rewrites its chunk and no chunk of the catalogue', async () => {
    const before = await stored(page);
    await workbench.layers.select('overrides');
    await workbench.layers.cursorToEnd();
    await workbench.layers.insert('# mine\n');
    await workbench.flushAutosave();
    const after = await stored(page);
    expect(after.layers[0]).toEqual(before.layers[0]);
    expect(after.layers[1]).not.toEqual(before.layers[1]);
  });

  await test.step('reloaded, the layers hold exactly what was typed', async () => {
    const texts = [await workbench.layers.value(0), await workbench.layers.value(1)];
    expect(texts[0]).toContain('# typed in the middle\n');
    await page.reload();
    await page.waitForFunction(() => window.__workbench !== undefined);
    const snap = await workbench.snapshot();
    expect(snap.layers.map((l) => l.text)).toEqual(texts);
  });
});

test('a save of the older one-record format comes back on reload, and the next save is chunked', async ({ workbench, page }) => {
  await workbench.open();
  expect(await workbench.loadScenario(scenario(), 'chunked.toml')).toBe(true);
  await workbench.flushAutosave();
  const doc = { ...(await workbench.snapshot()).doc, name: 'Saved by the previous version' };
  // The store as the previous version left it: the whole document in one record, and its save number.
  await page.evaluate(
    (oldJson) =>
      new Promise<void>((resolve, reject) => {
        const old: unknown = JSON.parse(oldJson);
        const open = indexedDB.open('tool-workbench');
        open.onsuccess = () => {
          const tx = open.result.transaction('documents', 'readwrite');
          const store = tx.objectStore('documents');
          const keys = store.getAllKeys();
          keys.onsuccess = () => {
            for (const k of keys.result) if (typeof k === 'string' && (k.startsWith('chunk:') || k === 'current-chunks')) store.delete(k);
            store.put({ format: 'tool-workbench/saved@1', rev: 3, tab: 'old', doc: old }, 'current');
            store.put(3, 'current-rev');
          };
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
        open.onerror = () => reject(open.error);
      }),
    // As text: Playwright's types for a whole document argument go too deep for the compiler.
    JSON.stringify(doc),
  );
  await page.reload();
  await page.waitForFunction(() => window.__workbench !== undefined);
  const back = await workbench.snapshot();
  expect(back.doc.name).toBe('Saved by the previous version');
  expect(back.layers.map((l) => l.text)).toEqual(doc.layers.map((l) => l.text));
  await page.getByRole('textbox', { name: 'Scenario name' }).fill('Saved again');
  await workbench.flushAutosave();
  const after = await stored(page);
  expect(after.format).toBe('tool-workbench/saved@2');
  expect(after.layers[0]!.length).toBeGreaterThan(8);
  await page.reload();
  await page.waitForFunction(() => window.__workbench !== undefined);
  expect((await workbench.snapshot()).layers.map((l) => l.text)).toEqual(doc.layers.map((l) => l.text));
  expect((await workbench.snapshot()).doc.name).toBe('Saved again');
});
