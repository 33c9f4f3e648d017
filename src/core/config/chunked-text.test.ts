// A ChunkedText reads as the string it stands for after any edits: its text, and every read the
// incremental parse makes (charCodeAt, slice, indexOf, lastIndexOf), against the same string edited
// with string operations. Small chunk sizes, so short texts cross many chunk boundaries.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkedText } from './chunked-text';

interface Change {
  rangeOffset: number;
  rangeLength: number;
  text: string;
}

function applyPlain(text: string, changes: readonly Change[]): string {
  let out = text;
  for (const c of [...changes].sort((x, y) => y.rangeOffset - x.rangeOffset)) out = out.slice(0, c.rangeOffset) + c.text + out.slice(c.rangeOffset + c.rangeLength);
  return out;
}

const alphabet = fc.constantFrom('a', 'b', '\n', '[', ']', ' ', '\ud83d', '\ude00');
const piece = fc.array(alphabet, { maxLength: 40 }).map((a) => a.join(''));

/** Non-overlapping changes of one event, offsets into `length` characters. */
function eventOf(length: number): fc.Arbitrary<Change[]> {
  return fc.array(fc.tuple(fc.nat(length), fc.nat(6), piece), { maxLength: 3 }).map((raw) => {
    const out: Change[] = [];
    let limit = length;
    for (const [o, l, t] of raw.sort((x, y) => y[0] - x[0])) {
      const off = Math.min(o, limit);
      const len = Math.min(l, limit - off);
      out.push({ rangeOffset: off, rangeLength: len, text: t });
      limit = off;
      if (limit === 0) break;
    }
    return out;
  });
}

function expectSameReads(c: ChunkedText, s: string, probes: readonly number[]): void {
  expect(c.length).toBe(s.length);
  expect(c.text).toBe(s);
  for (const p of probes) {
    const i = p % (s.length + 2);
    expect(c.charCodeAt(i)).toEqual(s.charCodeAt(i));
    const j = (p * 7 + 3) % (s.length + 2);
    expect(c.slice(i, j)).toBe(s.slice(i, j));
    expect(c.slice(i)).toBe(s.slice(i));
    for (const needle of ['\n', 'ab', 'a\nb', ']\n[', '\ud83d\ude00']) {
      expect(c.indexOf(needle, i)).toBe(s.indexOf(needle, i));
      expect(c.lastIndexOf(needle, i)).toBe(s.lastIndexOf(needle, i));
    }
  }
  expect(c.indexOf('\n')).toBe(s.indexOf('\n'));
  expect(c.lastIndexOf('\n')).toBe(s.lastIndexOf('\n'));
}

describe('ChunkedText', () => {
  it('reads as the string it stands for after random edits', () => {
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 300 }).map((a) => a.join('')),
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
        fc.array(fc.nat(1000), { maxLength: 12 }),
        (start, size, probes, seeds) => {
          let s = start;
          let c = ChunkedText.of(s, size);
          expectSameReads(c, s, probes);
          for (const seed of seeds) {
            const changes = fc.sample(eventOf(s.length), { numRuns: 1, seed })[0] ?? [];
            s = applyPlain(s, changes);
            c = c.edited(changes);
            expectSameReads(c, s, probes);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps its chunks near their size: typing does not leave a chunk per keystroke', () => {
    let s = 'x'.repeat(1000);
    let c = ChunkedText.of(s, 16);
    const before = c.chunkCount;
    for (let i = 0; i < 500; i++) {
      const change = i % 2 === 0 ? { rangeOffset: 500, rangeLength: 1, text: '' } : { rangeOffset: 500, rangeLength: 0, text: 'y' };
      s = applyPlain(s, [change]);
      c = c.edited([change]);
    }
    expect(c.text).toBe(s);
    expect(c.chunkCount).toBeLessThanOrEqual(before + 1);
    // A paste larger than a chunk is split.
    const paste = { rangeOffset: 10, rangeLength: 0, text: 'z'.repeat(100) };
    c = c.edited([paste]);
    s = applyPlain(s, [paste]);
    expect(c.text).toBe(s);
    expect(c.chunkCount).toBeGreaterThan(before);
  });

  it('edits an empty text, and empties a text', () => {
    let c = ChunkedText.of('', 4);
    expect(c.text).toBe('');
    c = c.edited([{ rangeOffset: 0, rangeLength: 0, text: 'hello world' }]);
    expect(c.text).toBe('hello world');
    c = c.edited([{ rangeOffset: 0, rangeLength: 11, text: '' }]);
    expect(c.text).toBe('');
    expect(c.indexOf('\n')).toBe(-1);
    expect(c.charCodeAt(0)).toBeNaN();
  });

  it('refuses a change outside the text or overlapping another', () => {
    const c = ChunkedText.of('abcdef', 2);
    expect(() => c.edited([{ rangeOffset: 5, rangeLength: 2, text: '' }])).toThrow(RangeError);
    expect(() => c.edited([{ rangeOffset: 1, rangeLength: 2, text: '' }, { rangeOffset: 2, rangeLength: 1, text: '' }])).toThrow(/overlaps/);
    expect(() => ChunkedText.of('x', 0)).toThrow(/chunk size/);
  });
});
