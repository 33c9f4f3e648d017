// A LineIndex carried over edits (LineIndex.edited) answers every offset as an index built from the
// edited text does: random texts of many short lines (several blocks of the index), random edits
// that add and remove newlines, including ones across block boundaries and at the ends.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineIndex } from './toml-ast';

const lineArb = fc.string({ maxLength: 6, unit: fc.constantFrom('a', 'b', ' ', '\r') });
const textArb = fc.array(lineArb, { minLength: 1100, maxLength: 3500, size: 'max' }).map((lines) => lines.join('\n'));

const editArb = fc.record({
  at: fc.noBias(fc.nat()),
  remove: fc.oneof(fc.nat({ max: 3 }), fc.nat({ max: 40 }), fc.nat({ max: 9000 }), fc.constant(0)),
  insert: fc.oneof(
    fc.string({ maxLength: 8, unit: fc.constantFrom('x', '\n', ' ') }),
    fc.array(lineArb, { maxLength: 2500, size: 'max' }).map((ls) => ls.join('\n')),
  ),
});

function positions(index: LineIndex, text: string, probes: readonly number[]): { line: number; column: number }[] {
  return probes.map((p) => index.position(p % (text.length + 1)));
}

describe('LineIndex.edited', () => {
  it('answers as an index of the edited text after random edits', () => {
    fc.assert(
      fc.property(textArb, fc.array(editArb, { minLength: 1, maxLength: 8 }), fc.array(fc.noBias(fc.nat()), { minLength: 30, maxLength: 30 }), (first, edits, probes) => {
        let text = first;
        let index = new LineIndex(text);
        index.position(0); // built, so the edits carry it over
        for (const e of edits) {
          const start = e.at % (text.length + 1);
          const oldEnd = Math.min(text.length, start + e.remove);
          const next = text.slice(0, start) + e.insert + text.slice(oldEnd);
          index = index.edited(next, { start, oldEnd, newEnd: start + e.insert.length });
          text = next;
          // Line starts (the first ones and some from each block) and the offsets around them, and random offsets.
          const starts = [0, text.length];
          for (let i = text.indexOf('\n'), n = 0; i !== -1; i = text.indexOf('\n', i + 1), n++) if (n < 100 || n % 97 === 0) starts.push(i, i + 1);
          const fresh = new LineIndex(text);
          const all = [...starts, ...probes];
          expect(positions(index, text, all)).toEqual(positions(fresh, text, all));
        }
      }),
      { numRuns: 60, seed: 32 },
    );
  });

  it('an index never built stays lazy over an edit, and the one edited is left as it was', () => {
    const text = 'a\nb\nc';
    const lazy = new LineIndex(text).edited('a\nXb\nc', { start: 2, oldEnd: 2, newEnd: 3 });
    expect(lazy.position(3)).toEqual({ line: 2, column: 2 });
    const built = new LineIndex(text);
    expect(built.position(4)).toEqual({ line: 3, column: 1 });
    const next = built.edited('a\n\n\nb\nc', { start: 2, oldEnd: 2, newEnd: 4 });
    expect(next.position(6)).toEqual({ line: 5, column: 1 });
    expect(built.position(4)).toEqual({ line: 3, column: 1 });
  });
});

describe('LineIndex.position', () => {
  it('answers as counting the newlines before the offset, on texts of one block and of many', () => {
    fc.assert(
      fc.property(fc.oneof(textArb, fc.array(lineArb, { maxLength: 40 }).map((ls) => ls.join('\n'))), fc.array(fc.noBias(fc.nat()), { minLength: 20, maxLength: 20 }), (text, probes) => {
        const index = new LineIndex(text);
        const offsets = [0, text.length, ...probes.map((p) => p % (text.length + 1))];
        for (let i = text.indexOf('\n'), n = 0; i !== -1 && n < 2100; i = text.indexOf('\n', i + 1), n++) if (n % 1023 <= 1) offsets.push(i, i + 1);
        for (const offset of offsets) {
          const before = text.slice(0, offset);
          const line = before.split('\n').length;
          const column = offset - (before.lastIndexOf('\n') + 1) + 1;
          expect(index.position(offset)).toEqual({ line, column });
        }
      }),
      { numRuns: 60 },
    );
  });
});
