// Autosave's storage (persistence.ts) against an in-memory IndexedDB (testing.ts): the document is
// a head record and chunk records; a save writes the head and the chunks that changed (counted by
// the database's log of puts), reads no typed layer whole, comes back exactly on load, still loads
// a save of the older one-record format, and never writes over another tab's save.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_DOC } from '../core';
import type { ScenarioDoc } from '../core';
import { layoutOf } from './chunks';
import { makeJournal, replayJournal } from './journal';
import { chunkKeys, loadSaved, prepareSave, PUT_BATCH_CHARS, saveOver, startAutosave } from './persistence';
import { carryLayouts, resolveJournal } from './resume';
import { createWorkbenchStore } from './store';
import { FakeModel, installFakeIndexedDb } from './testing';
import type { FakeIndexedDb } from './testing';

const tool = (i: number): string => `[conversation.tools.t${i}]\nsource = "local"\nenable = "on"\ndescription = "tool number ${i}"\n\n`;
const catalogue = Array.from({ length: 20_000 }, (_, i) => tool(i)).join('');
const start: ScenarioDoc = {
  ...EMPTY_DOC,
  name: 'chunked',
  layers: [
    { name: 'catalogue', text: catalogue },
    { name: 'overrides', text: '# mine\n' },
  ],
  servers: [],
  steps: [{ command: "jp q 'x'", cycles: [] }],
};

let idb: FakeIndexedDb;
const globals = globalThis as Record<string, unknown>;
const saved: Record<string, unknown> = {};

beforeAll(() => {
  for (const k of ['window', 'document', 'localStorage', 'indexedDB']) saved[k] = globals[k];
  idb = installFakeIndexedDb();
  const listeners = { addEventListener: () => undefined, removeEventListener: () => undefined };
  globals.window = { ...listeners };
  globals.document = { ...listeners, visibilityState: 'visible' };
  const items = new Map<string, string>();
  globals.localStorage = {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
    key: (i: number) => [...items.keys()][i] ?? null,
    get length() {
      return items.size;
    },
  };
});

afterAll(() => {
  for (const [k, v] of Object.entries(saved)) globals[k] = v;
});

beforeEach(() => idb.clear());

/** Every record the store holds, by key. */
function records(): Map<string, unknown> {
  return idb.db('tool-workbench').stores.get('documents') as Map<string, unknown>;
}

function puts(): string[] {
  return idb.db('tool-workbench').puts.map((p) => p.key);
}

function chunkPuts(): { key: string; chars: number; task: number }[] {
  return idb.db('tool-workbench').puts.filter((p) => p.key.startsWith('chunk:'));
}

/** A store with autosave, the document typed into through fake models (the editor's). */
async function session(given: ScenarioDoc, base?: Awaited<ReturnType<typeof loadSaved>>) {
  // Layer objects of its own: a layer's stored layout is kept by object, and the database is emptied between tests.
  const doc = base?.doc === given ? given : { ...given, layers: given.layers.map((l) => ({ ...l })) };
  const store = createWorkbenchStore(doc);
  const autosave = startAutosave(store, { tab: 'tab-a', base, delayMs: 0 });
  const models = doc.layers.map((l) => new FakeModel(l.text));
  const type = (layer: number, offset: number, text: string, remove = 0): void => {
    const m = models[layer] as FakeModel;
    store.getState().typeInLayer(layer, m.type([{ rangeOffset: offset, rangeLength: remove, text }]), m);
  };
  return { store, autosave, models, type };
}

describe('autosave in chunks', () => {
  it('saves a document and loads it back exactly, as a head and chunk records', async () => {
    const s = await session(start);
    s.store.getState().setName('chunked, renamed');
    await s.autosave.flush();
    const back = await loadSaved();
    expect(back?.rev).toBe(1);
    expect(back?.doc).toEqual({ ...start, name: 'chunked, renamed' });
    const head = records().get('current') as { format: string; doc: { name: string }; layerChunks: { chunks: string[] }[] };
    expect(head.format).toBe('tool-workbench/saved@2');
    expect(head.doc.name).toBe('chunked, renamed');
    expect(JSON.stringify(head).length).toBeLessThan(4000);
    expect(head.layerChunks[0]!.chunks.length).toBeGreaterThan(20);
    // A tab of the previous version reads a stored value with a `layers` array as a document: the head has none.
    expect('layers' in head || 'layers' in head.doc).toBe(false);
    expect(records().get('current-rev')).toBe(1);
    s.autosave.stop();
  });

  it('typing in the small layer writes the head and that layer\'s one chunk; the catalogue is not read, cloned or written', async () => {
    const s = await session(start);
    s.store.getState().setName('first');
    await s.autosave.flush();
    // Saved, the document's layers have their layouts: saving it again would write no chunk.
    const first = prepareSave(s.store.getState().doc, chunkKeys());
    expect(first.save.writes).toHaveLength(0);
    idb.db('tool-workbench').puts.length = 0;

    s.type(1, 0, 'a = 1\n');
    s.type(1, 6, 'b = 2\n');
    await s.autosave.flush();
    expect(chunkPuts()).toHaveLength(1);
    expect(chunkPuts()[0]!.chars).toBe(s.models[1]!.text.length);
    expect(puts().sort()).toEqual(['current', 'current-chunks', 'current-rev', chunkPuts()[0]!.key].sort());
    expect(s.models[0]!.reads + s.models[0]!.sliced).toBe(0);
    expect(s.models[1]!.reads).toBe(0);
    // The chunk it replaced is gone; what is stored loads as typed.
    expect([...records().keys()].filter((k) => k.startsWith('chunk:'))).toHaveLength(first.save.layers.flatMap((l) => l.chunks).length);
    expect((await loadSaved())?.doc.layers.map((l) => l.text)).toEqual(s.models.map((m) => m.text));
    s.autosave.stop();
  });

  it('typing inside the catalogue writes one chunk of it, read as a slice; reload gives the exact text', async () => {
    const s = await session(start);
    s.store.getState().setName('first');
    await s.autosave.flush();
    const chunks = (records().get('current-chunks') as string[]).length;
    idb.db('tool-workbench').puts.length = 0;
    const at = s.models[0]!.text.indexOf('[conversation.tools.t12345]');
    s.type(0, at, '[conversation.tools.inserted]\nsource = "local"\n\n');
    s.type(0, at + 8, 'X', 3);
    const end = s.models[0]!.text.length;
    s.type(0, end, '\n# the end\n');
    await s.autosave.flush();
    // Two chunks changed (the middle one, the last one); nothing else was written or read whole.
    expect(chunkPuts()).toHaveLength(2);
    for (const p of chunkPuts()) expect(p.chars).toBeLessThan(2 * 32 * 1024 + 200);
    expect(s.models[0]!.reads).toBe(0);
    expect(s.models[0]!.sliced).toBeLessThan(3 * 32 * 1024);
    expect((records().get('current-chunks') as string[]).length).toBe(chunks);
    expect(idb.db('tool-workbench').deletes.filter((k) => k.startsWith('chunk:'))).toHaveLength(2);
    const back = await loadSaved();
    expect(back?.doc.layers[0]?.text).toBe(s.models[0]!.text);
    expect(back?.doc.layers[1]?.text).toBe('# mine\n');
    // The loaded layers keep their layout: the next save of the loaded document writes nothing.
    expect(layoutOf(back!.doc.layers[0]!)).toBeDefined();
    expect(prepareSave(back!.doc, chunkKeys()).save.writes).toHaveLength(0);
    s.autosave.stop();
  });

  it('typing while the first save of an opened document is under way: the next save still writes only the chunk typed in', async () => {
    const s = await session(start);
    s.store.getState().setName('opened');
    const first = s.autosave.flush();
    // The save has read the document and waits on IndexedDB: its layers get their layouts only as it completes.
    await new Promise((r) => setTimeout(r, 0));
    const at = s.models[0]!.text.indexOf('[conversation.tools.t777]');
    s.type(0, at, '# during the save\n');
    s.type(0, at, '#');
    await first;
    idb.db('tool-workbench').puts.length = 0;
    await s.autosave.flush();
    expect(chunkPuts()).toHaveLength(1);
    expect(s.models[0]!.reads).toBe(0);
    expect((await loadSaved())?.doc.layers[0]?.text).toBe(s.models[0]!.text);
    s.autosave.stop();
  });

  it('a document saved in the older one-record format loads, and the next save replaces it with chunks', async () => {
    // Open the database as the page does, then store a save@1 record and its number.
    await saveOver(prepareSave({ ...start, layers: [] }, chunkKeys()).save, 0, 'x');
    idb.clear();
    const old = { ...start, name: 'from before' };
    records().set('current', { format: 'tool-workbench/saved@1', rev: 4, tab: 'old', doc: old, journal: 'j' });
    records().set('current-rev', 4);
    const loaded = await loadSaved();
    expect(loaded).toEqual({ doc: old, rev: 4, tab: 'old', journal: 'j' });
    // Older still: a bare document is save 0.
    records().set('current', old);
    records().delete('current-rev');
    expect(await loadSaved()).toEqual({ doc: old, rev: 0, tab: '' });
    records().set('current', { format: 'tool-workbench/saved@1', rev: 4, tab: 'old', doc: old });
    // No save number of its own: read from the old record (4); a save over 4 lands.
    const s = await session(old, loaded);
    s.type(1, 0, '# typed\n');
    await s.autosave.flush();
    expect(s.store.getState().tabConflict).toBeUndefined();
    const back = await loadSaved();
    expect(back?.rev).toBe(5);
    expect(back?.doc.layers.map((l) => l.text)).toEqual([catalogue, '# typed\n# mine\n']);
    expect((records().get('current') as { format: string }).format).toBe('tool-workbench/saved@2');
    s.autosave.stop();
  });

  it("another tab's save in between is a conflict: nothing is written over it", async () => {
    const s = await session(start);
    s.store.getState().setName('mine');
    await s.autosave.flush();
    // Another tab saves over save 1.
    const theirs = await saveOver(prepareSave({ ...start, name: 'theirs' }, chunkKeys()).save, 1, 'tab-b');
    expect(theirs).toEqual({ ok: true, rev: 2 });
    idb.db('tool-workbench').puts.length = 0;
    s.type(1, 0, '# mine\n');
    await s.autosave.flush();
    expect(s.store.getState().tabConflict?.rev).toBe(2);
    expect(puts()).toEqual([]);
    expect((await loadSaved())?.doc.name).toBe('theirs');
    // And a second save over the same base finds it too.
    expect(await saveOver(prepareSave(start, chunkKeys()).save, 1, 'tab-a')).toEqual({ ok: false, theirs: 2 });
    s.autosave.stop();
  });

  it('keeping mine over another tab that dropped my chunks writes them again, and the result loads', async () => {
    const s = await session(start);
    s.store.getState().setName('mine');
    await s.autosave.flush();
    // The other tab replaced the whole document (every chunk of mine deleted).
    await saveOver(prepareSave({ ...start, name: 'theirs', layers: [{ name: 'other', text: 'x = 1\n' }] }, chunkKeys()).save, 1, 'tab-b');
    s.type(1, 0, '# mine\n');
    await s.autosave.flush();
    expect(s.store.getState().tabConflict?.rev).toBe(2);
    await s.store.getState().tabSync?.keepMine();
    await s.autosave.flush();
    expect(s.store.getState().tabConflict).toBeUndefined();
    const back = await loadSaved();
    expect(back?.rev).toBe(3);
    expect(back?.doc.name).toBe('mine (copy)');
    expect(back?.doc.layers.map((l) => l.text)).toEqual(s.models.map((m) => m.text));
    // Nothing of theirs is left behind but what the head names.
    const named = new Set(back ? (records().get('current-chunks') as string[]) : []);
    expect([...records().keys()].filter((k) => k.startsWith('chunk:') && !named.has(k))).toEqual([]);
    s.autosave.stop();
  });

  it('a save writing megabytes puts them a batch per task, in the one transaction', async () => {
    const big = Array.from({ length: 60_000 }, (_, i) => tool(i)).join('');
    expect(big.length).toBeGreaterThan(4 * 1024 * 1024);
    const r = await saveOver(prepareSave({ ...start, layers: [{ name: 'big', text: big }] }, chunkKeys()).save, 0, 'tab-a');
    expect(r.ok).toBe(true);
    const tasks = new Map<number, number>();
    for (const p of chunkPuts()) tasks.set(p.task, (tasks.get(p.task) ?? 0) + p.chars);
    expect(tasks.size).toBeGreaterThanOrEqual(3);
    for (const chars of tasks.values()) expect(chars).toBeLessThan(PUT_BATCH_CHARS + 256 * 1024);
    expect((await loadSaved())?.doc.layers[0]?.text).toBe(big);
  });
});

describe('the journal of typed layers and its replay', () => {
  it('journals a large document typed in as splices from the lineage, and the replay carries the chunk layout', async () => {
    const s = await session(start);
    s.store.getState().setName('first');
    await s.autosave.flush();
    const savedDoc = s.store.getState().doc;
    const loaded = await loadSaved();
    s.type(0, 100, 'abc');
    s.type(0, 50_000, '', 7);
    s.type(1, 0, '# x\n');
    s.store.getState().setPolicy('provider', 'openai');
    s.type(0, 3, 'Z');
    const doc = s.store.getState().doc;
    const j = makeJournal(savedDoc, doc, { id: 'j', base: 1, at: 0 });
    expect(j.doc).toBeUndefined();
    expect(JSON.stringify(j).length).toBeLessThan(1000);
    expect(s.models[0]!.reads).toBe(0);
    const replayed = replayJournal(loaded!.doc, j);
    expect(replayed?.layers.map((l) => l.text)).toEqual(s.models.map((m) => m.text));
    expect(replayed?.policy.provider).toBe('openai');
    expect(resolveJournal(loaded, j).doc).toEqual(replayed);
    carryLayouts(loaded!.doc, replayed!, j);
    const next = prepareSave(replayed!, chunkKeys());
    // The splices touched two chunks of the catalogue and the small layer's one.
    expect(next.save.writes.length).toBeLessThanOrEqual(3);
    expect(next.save.writes.map(([, t]) => t).join('').length).toBeLessThan(3 * 64 * 1024);
    s.autosave.stop();
  });
});
