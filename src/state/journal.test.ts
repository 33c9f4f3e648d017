// The last keystrokes' journal: a small document journaled whole, a large one as
// splices over its last save; replayed only on the save it builds on, and never
// applied over another tab's later save.
import { describe, expect, it } from 'vitest';
import { EMPTY_DOC } from '../core';
import type { ScenarioDoc } from '../core';
import { makeJournal, parseJournal, replayJournal, WHOLE_DOC_CHARS } from './journal';
import type { Journal } from './journal';
import { resolveJournal } from './resume';
import type { SavedRecord } from './persistence';

const small: ScenarioDoc = { ...EMPTY_DOC, name: 'small', layers: [{ name: 'user', text: 'a = 1\n' }], servers: [], steps: [] };
const bigText = `# a catalogue\n${'[conversation.tools.t]\nsource = "local"\n'.repeat(20_000)}`;
const big: ScenarioDoc = { ...small, name: 'big', layers: [{ name: 'user', text: 'x = 1\n' }, { name: 'catalogue', text: bigText }] };
const meta = { id: 'j1', base: 7, at: 1 };
const roundTrip = (j: Journal): Journal => parseJournal(JSON.stringify(j)) as Journal;

describe('the journal', () => {
  it('holds a small document whole', () => {
    const edited = { ...small, layers: [{ name: 'user', text: 'a = 12\n' }] };
    const j = roundTrip(makeJournal(small, edited, meta));
    expect(j.doc).toEqual(edited);
    expect(replayJournal(undefined, j)).toEqual(edited);
  });

  it('holds a large document as splices: a keystroke in a 900 KB layer journals a few bytes', () => {
    expect(JSON.stringify(big).length).toBeGreaterThan(WHOLE_DOC_CHARS);
    const at = bigText.indexOf('source', 400_000);
    const typed = bigText.slice(0, at) + '# typed\n' + bigText.slice(at);
    const edited = { ...big, name: 'big, renamed', layers: [big.layers[0], { name: 'catalogue', text: typed }] } as ScenarioDoc;
    const j = roundTrip(makeJournal(big, edited, meta));
    expect(j.doc).toBeUndefined();
    expect(JSON.stringify(j).length).toBeLessThan(300);
    expect(j.splices).toEqual([{ index: 1, baseLength: bigText.length, start: at, end: at, insert: '# typed\n' }]);
    expect(replayJournal(big, j)).toEqual(edited);
  });

  it('a layer added or removed journals the layers whole; a removed field comes back removed', () => {
    const grown = { ...big, layers: [...big.layers, { name: 'new', text: '# new\n' }] };
    delete (grown as { description?: string }).description;
    const withDescription = { ...big, description: 'was here' };
    const j = roundTrip(makeJournal(withDescription, grown, meta));
    const back = replayJournal(withDescription, j);
    expect(back?.layers.map((l) => l.name)).toEqual(['user', 'catalogue', 'new']);
    expect(back && 'description' in back).toBe(false);
  });

  it('splices made against another text are not applied', () => {
    const edited = { ...big, layers: [big.layers[0], { name: 'catalogue', text: `${bigText}# end\n` }] } as ScenarioDoc;
    const j = makeJournal(big, edited, meta);
    const other = { ...big, layers: [big.layers[0], { name: 'catalogue', text: bigText.slice(10) }] } as ScenarioDoc;
    expect(replayJournal(other, j)).toBeUndefined();
    expect(parseJournal('{"v":2}')).toBeUndefined();
    expect(parseJournal('not json')).toBeUndefined();
  });
});

describe('resuming with a journal', () => {
  const saved = (rev: number, doc: ScenarioDoc, journal?: string): SavedRecord => ({ doc, rev, tab: 't', ...(journal ? { journal } : {}) });
  const edited = { ...small, name: 'edited' };
  const j = makeJournal(small, edited, meta);

  it('replays the journal on the save it builds on, and the next save covers it', () => {
    expect(resolveJournal(saved(7, small), j)).toEqual({ doc: edited, replayed: j, clear: false });
  });
  it('drops a journal its save already covers', () => {
    expect(resolveJournal(saved(8, edited, 'j1'), j)).toEqual({ doc: edited, clear: true });
  });
  it('never applies a journal over a later save of another tab: it is set aside', () => {
    const theirs = { ...small, name: 'theirs' };
    expect(resolveJournal(saved(9, theirs), j)).toEqual({ doc: theirs, setAside: edited, clear: true });
  });
  it('nothing saved yet: a journal over save 0 opens', () => {
    expect(resolveJournal(undefined, makeJournal(undefined, edited, { ...meta, base: 0 }))).toMatchObject({ doc: edited, clear: false });
  });
});
