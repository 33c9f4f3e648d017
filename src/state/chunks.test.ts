// A layer stored in chunks (chunks.ts): cutting gives back the text, a layout carried through
// random edits stays the text's (checked by a save that writes only the changed chunks, whose
// stored chunks joined are the edited text), and an insertion shifts no later chunk.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyChanges } from '../derive/document';
import { layoutAfter, layoutLength, MAX_CHUNK, MIN_CHUNK, splitText } from './chunks';
import type { Chunk, Layout } from './chunks';
import type { LayerChange } from './lineage';

const tool = (i: number): string => `[conversation.tools.t${i}]\nsource = "local"\nenable = "on"\ndescription = "tool number ${i}"\n\n`;
const catalogue = (n: number): string => Array.from({ length: n }, (_, i) => tool(i)).join('');

/** A stand-in for autosave's store: chunk texts by key; `save` writes the layout's changed chunks. */
class Stored {
  readonly chunks = new Map<string, string>();
  private n = 0;
  written = 0;

  /** Writes what changed of `text` (laid out as `layout`) and returns the layout with every chunk stored. */
  save(text: string, layout: Layout): Chunk[] {
    const out: Chunk[] = [];
    let pos = 0;
    let run = -1;
    const fresh = (s: string): void => {
      for (const piece of splitText(s)) {
        const key = `k${this.n++}`;
        this.chunks.set(key, piece);
        this.written += 1;
        out.push({ key, length: piece.length });
      }
    };
    for (const c of layout) {
      if (c.key === undefined) {
        if (run < 0) run = pos;
      } else {
        if (run >= 0) fresh(text.slice(run, pos));
        run = -1;
        out.push(c);
      }
      pos += c.length;
    }
    if (run >= 0) fresh(text.slice(run, pos));
    return out;
  }

  text(layout: Layout): string {
    return layout.map((c) => this.chunks.get(c.key as string) ?? '<missing>').join('');
  }
}

describe('cutting a layer into chunks', () => {
  it('gives back the text, cuts a catalogue at table headers, and keeps every chunk within bounds', () => {
    const text = catalogue(5000);
    const pieces = splitText(text);
    expect(pieces.join('')).toBe(text);
    expect(pieces.length).toBeGreaterThan(5);
    for (const p of pieces.slice(0, -1)) {
      expect(p.length).toBeGreaterThanOrEqual(MIN_CHUNK);
      expect(p.length).toBeLessThanOrEqual(MAX_CHUNK);
    }
    for (const p of pieces.slice(1)) expect(p.startsWith('[conversation.tools.')).toBe(true);
    // The last chunk is not a small tail.
    expect(pieces.at(-1)!.length).toBeGreaterThanOrEqual(MIN_CHUNK);
  });

  it('cuts text with no headers at line ends, and one long line anywhere but inside a surrogate pair', () => {
    const lines = `${'x = "abcdefghijklmnopqrstuvwxyz"\n'.repeat(40_000)}`;
    const a = splitText(lines);
    expect(a.join('')).toBe(lines);
    for (const p of a.slice(0, -1)) expect(p.endsWith('\n')).toBe(true);
    const line = '😀'.repeat(400_000);
    const b = splitText(line);
    expect(b.join('')).toBe(line);
    expect(b.length).toBeGreaterThan(1);
    for (const p of b) expect(p.length % 2).toBe(0);
    expect(splitText('')).toEqual([]);
    expect(splitText('a = 1\n')).toEqual(['a = 1\n']);
  });

  it('an insertion changes the chunk it falls in and no other', () => {
    const text = catalogue(5000);
    const stored = new Stored();
    const layout = stored.save(text, [{ length: text.length }]);
    const at = text.indexOf('[conversation.tools.t2500]');
    const change: LayerChange = { rangeOffset: at, rangeLength: 0, text: '# typed\n' };
    const next = layoutAfter(layout, [change]);
    expect(next.filter((c) => c.key === undefined)).toHaveLength(1);
    expect(next.length).toBe(layout.length);
    const edited = applyChanges(text, [change]);
    const before = stored.written;
    const saved = stored.save(edited, next);
    expect(stored.written - before).toBe(1);
    expect(stored.text(saved)).toBe(edited);
  });

  it('a layout carried through random edits, saved now and then, always stores the edited text', () => {
    const base = catalogue(1500);
    // An edit: a position (as a fraction of the text), a length to remove, and what to insert (a
    // header now and then, so a chunk's cut can move).
    const change = fc.record({
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      remove: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 150_000 })),
      insert: fc.oneof(fc.constant(''), fc.string({ maxLength: 12 }), fc.constantFrom('\n[conversation.tools.new]\n', tool(9).repeat(900))),
    });
    const event = fc.array(change, { minLength: 1, maxLength: 3 });
    const step = fc.record({ event, save: fc.boolean() });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), (steps) => {
        const stored = new Stored();
        let text = base;
        let layout: Layout = stored.save(text, [{ length: text.length }]);
        for (const s of steps) {
          // One event's changes, each offset into the text before it, apart from each other.
          const changes: LayerChange[] = [];
          let floor = 0;
          for (const c of [...s.event].sort((a, b) => a.at - b.at)) {
            const offset = Math.max(floor, Math.floor(c.at * text.length));
            if (offset > text.length) break;
            const rangeLength = Math.min(c.remove, text.length - offset);
            changes.push({ rangeOffset: offset, rangeLength, text: c.insert });
            floor = offset + rangeLength + 1;
          }
          if (changes.length === 0) continue;
          text = applyChanges(text, changes.reverse());
          layout = layoutAfter(layout, changes);
          expect(layoutLength(layout)).toBe(text.length);
          if (s.save) {
            const kept = layout.flatMap((c) => (c.key !== undefined ? [c.key] : []));
            const before = stored.written;
            layout = stored.save(text, layout);
            expect(stored.text(layout)).toBe(text);
            // Only the changed stretches were written: every untouched chunk kept its key.
            const keys = new Set(layout.map((c) => c.key));
            for (const k of kept) expect(keys.has(k)).toBe(true);
            expect(stored.written - before).toBe(layout.length - kept.length);
          }
        }
        layout = stored.save(text, layout);
        expect(stored.text(layout)).toBe(text);
        for (const c of layout) expect(c.length).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
  });

  it('a change that does not fit the layout is refused', () => {
    expect(() => layoutAfter([{ key: 'a', length: 10 }], [{ rangeOffset: 8, rangeLength: 5, text: '' }])).toThrow(/does not fit/u);
    expect(() => layoutAfter([{ key: 'a', length: 10 }], [{ rangeOffset: 11, rangeLength: 0, text: 'x' }])).toThrow(/does not fit/u);
    expect(layoutAfter([], [{ rangeOffset: 0, rangeLength: 0, text: 'abc' }])).toEqual([{ length: 3 }]);
    expect(layoutAfter([{ key: 'a', length: 3 }], [{ rangeOffset: 0, rangeLength: 3, text: '' }])).toEqual([]);
  });
});
