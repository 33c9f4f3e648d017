// The document history through the store: every replacement keeps the document it
// replaces (newest first, at most 20), and restoring one is a replacement too.
import { describe, expect, it } from 'vitest';
import { EMPTY_DOC } from '../core';
import type { ScenarioDoc } from '../core';
import { createWorkbenchStore } from './store';
import { MAX_RECENT, memoryHistory, reasonText } from './history';
import type { Replacement } from './history';

const doc = (name: string, text = `# ${name}\n`): ScenarioDoc => ({ ...EMPTY_DOC, name, layers: [{ name: 'user', text }], servers: [], steps: [] });

function storeWith(first: ScenarioDoc) {
  const storage = memoryHistory();
  let clock = 1_000;
  const store = createWorkbenchStore(first, { history: { storage, now: () => (clock += 1000) } });
  return { store, storage, s: () => store.getState() };
}

describe('the document history', () => {
  it('keeps the replaced document, with why and when, for every kind of replacement', async () => {
    const { s, storage } = storeWith(doc('mine'));
    const replacements: Replacement[] = [{ kind: 'share' }, { kind: 'file', name: 'a.toml' }, { kind: 'demo' }, { kind: 'workspace', name: '.jp' }];
    replacements.forEach((why, i) => s().replaceDoc(doc(`next ${i}`), why));
    await s().historySettled();
    expect(s().recent.map((e) => `${e.title}: ${reasonText(e.reason)}`)).toEqual([
      'next 2: replaced by opening the workspace .jp',
      'next 1: replaced by the demo scenario',
      'next 0: replaced by opening a.toml',
      'mine: replaced by a shared link',
    ]);
    expect((await storage.list()).map((e) => e.id)).toEqual(s().recent.map((e) => e.id));
    expect(s().recent[0]?.at).toBeGreaterThan(s().recent[1]?.at ?? Infinity);
  });

  it('two share links in a row: the user\'s own document is still there', async () => {
    const { s } = storeWith(doc('mine', 'my own work\n'));
    s().replaceDoc(doc('shared 1'), { kind: 'share' });
    s().replaceDoc(doc('shared 2'), { kind: 'share' });
    const mine = s().recent.find((e) => e.title === 'mine');
    expect(mine).toBeDefined();
    expect(await s().restoreRecent(mine?.id ?? '')).toBe(true);
    expect(s().doc.layers[0]?.text).toBe('my own work\n');
  });

  it('a restore is a replacement: the document it replaces is kept, so the restore can be undone', async () => {
    const { s } = storeWith(doc('A'));
    s().replaceDoc(doc('B'), { kind: 'demo' });
    const a = s().recent[0]?.id ?? '';
    await s().restoreRecent(a);
    expect(s().doc.name).toBe('A');
    expect(s().recent[0]).toMatchObject({ title: 'B', reason: { kind: 'restore', title: 'A' } });
    await s().restoreRecent(s().recent[0]?.id ?? '');
    expect(s().doc.name).toBe('B');
  });

  it('keeps the newest 20 only', async () => {
    const { s, storage } = storeWith(doc('d0'));
    for (let i = 1; i <= MAX_RECENT + 5; i++) s().replaceDoc(doc(`d${i}`), { kind: 'test' });
    await s().historySettled();
    expect(s().recent).toHaveLength(MAX_RECENT);
    expect(s().recent[0]?.title).toBe(`d${MAX_RECENT + 4}`);
    expect(s().recent.at(-1)?.title).toBe('d5');
    expect(await storage.get(s().recent.at(-1)?.id ?? '')).toMatchObject({ name: 'd5' });
  });

  it('undoing an import keeps the document as it was (with edits made to the imported layer)', async () => {
    const { s } = storeWith(doc('base'));
    const imported = { ...s().doc, layers: [...s().doc.layers, { name: 'mcp-x', text: '# imported, then edited\n' }] };
    s().commitImport(imported, { layer: 'mcp-x', servers: [] }, 'Imported x');
    s().undoImport();
    expect(s().doc.layers.map((l) => l.name)).toEqual(['user']);
    expect(s().recent[0]).toMatchObject({ title: 'base', reason: { kind: 'undo-import', layer: 'mcp-x' } });
    await s().restoreRecent(s().recent[0]?.id ?? '');
    expect(s().doc.layers.at(-1)?.text).toBe('# imported, then edited\n');
  });

  it('opening a workspace that starts a new scenario keeps the old one', () => {
    const { s } = storeWith(doc('before the workspace'));
    s().openWorkspace({ source: 'my.jp', files: { 'config.toml': '' } });
    expect(s().doc.name).toBe('JP workspace');
    expect(s().recent[0]).toMatchObject({ title: 'before the workspace', reason: { kind: 'workspace', name: 'my.jp' } });
  });

  it('a document that storage failed to keep stays restorable in this page', async () => {
    const storage = memoryHistory();
    const store = createWorkbenchStore(doc('mine'), { history: { storage: { ...storage, add: () => Promise.reject(new Error('quota exceeded')), get: () => Promise.resolve(undefined) } } });
    const id = store.getState().replaceDoc(doc('other'), { kind: 'share' });
    await store.getState().historySettled();
    expect(store.getState().banner?.message).toMatch(/Could not store “mine” in Recent documents \(quota exceeded\)/u);
    expect(await store.getState().restoreRecent(id)).toBe(true);
    expect(store.getState().doc.name).toBe('mine');
  });

  it('a document storage kept is read back from storage: the page does not hold it too', async () => {
    const storage = memoryHistory();
    const asked: string[] = [];
    const store = createWorkbenchStore(doc('mine', '# a catalogue-sized layer\n'), { history: { storage: { ...storage, get: (id) => (asked.push(id), storage.get(id)) } } });
    const id = store.getState().replaceDoc(doc('other'), { kind: 'file', name: 'other.toml' });
    await store.getState().historySettled();
    expect(await store.getState().restoreRecent(id)).toBe(true);
    expect(asked).toEqual([id]);
    expect(store.getState().doc).toMatchObject({ name: 'mine', layers: [{ name: 'user', text: '# a catalogue-sized layer\n' }] });
  });
});
