import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PostingList } from './postings';

type Op = { kind: 'set'; id: number; freq: number } | { kind: 'increment'; id: number } | { kind: 'delete'; id: number } | { kind: 'clear' };

const id = fc.integer({ min: 0, max: 40 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('set' as const), id, freq: fc.integer({ min: 1, max: 9 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('increment' as const), id }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), id }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
);

/** The Map a PostingList stands for, in the order a PostingList iterates: ascending ids. */
function sorted(map: Map<number, number>): [number, number][] {
  return [...map].sort((a, b) => a[0] - b[0]);
}

describe('PostingList answers as the Map<number, number> it replaces', () => {
  it('after any sequence of set, increment, delete and clear (ids in any order), from empty or from a view', () => {
    const initial = fc.option(fc.dictionary(fc.integer({ min: 0, max: 40 }).map(String), fc.integer({ min: 1, max: 9 })), { nil: undefined });
    fc.assert(
      fc.property(initial, fc.array(op, { maxLength: 80 }), (start, ops) => {
        const model = new Map<number, number>(Object.entries(start ?? {}).map(([k, v]) => [Number(k), v]));
        let list = new PostingList();
        // A view sits between a sibling's slice and garbage, in arrays it shares with the sibling.
        let sibling = new PostingList();
        let shared: Int32Array | undefined;
        if (start !== undefined) {
          const entries = sorted(model);
          const ids = new Int32Array(entries.length + 3);
          const freqs = new Int32Array(entries.length + 3);
          ids.set([5, 6], 0);
          freqs.set([1, 2], 0);
          entries.forEach(([id, freq], i) => {
            ids[2 + i] = id;
            freqs[2 + i] = freq;
          });
          ids[entries.length + 2] = -7;
          list = PostingList.view(ids, freqs, 2, entries.length);
          sibling = PostingList.view(ids, freqs, 0, 2);
          shared = ids.slice();
        }
        for (const o of ops) {
          if (o.kind === 'set') {
            expect(list.set(o.id, o.freq)).toBe(list);
            model.set(o.id, o.freq);
          } else if (o.kind === 'increment') {
            list.increment(o.id);
            model.set(o.id, (model.get(o.id) ?? 0) + 1);
          } else if (o.kind === 'delete') expect(list.delete(o.id)).toBe(model.delete(o.id));
          else {
            list.clear();
            model.clear();
          }
        }
        expect(list.size).toBe(model.size);
        for (let i = 0; i <= 40; i++) {
          expect(list.get(i)).toBe(model.get(i));
          expect(list.has(i)).toBe(model.has(i));
        }
        const entries = sorted(model);
        expect([...list]).toEqual(entries);
        expect([...list.entries()]).toEqual(entries);
        expect([...list.keys()]).toEqual(entries.map(([k]) => k));
        expect([...list.values()]).toEqual(entries.map(([, v]) => v));
        const seen: [number, number][] = [];
        list.forEach((v, k, m) => {
          expect(m).toBe(list);
          seen.push([k, v]);
        });
        expect(seen).toEqual(entries);
        expect(Object.fromEntries(list)).toEqual(Object.fromEntries(model));
        expect(PostingList.from(model).size).toBe(model.size);
        expect([...PostingList.from(model)]).toEqual(entries);
        if (shared !== undefined) {
          expect(sibling.ids).toEqual(shared);
          expect([...sibling]).toEqual([[5, 1], [6, 2]]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('visits every entry when entries are deleted during iteration, as MiniSearch vacuums', () => {
    const list = new PostingList();
    for (let i = 0; i < 10; i++) list.set(i, 1);
    const visited: number[] = [];
    for (const [docId] of list) {
      visited.push(docId);
      if (docId % 2 === 0) list.delete(docId);
    }
    expect(visited).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect([...list.keys()]).toEqual([1, 3, 5, 7, 9]);
  });

  it('grows past its first capacity, appending in order, and counts again an id it holds', () => {
    const list = new PostingList();
    for (let i = 0; i < 1000; i++) list.increment(i * 3);
    list.increment(2997);
    expect(list.size).toBe(1000);
    expect(list.get(2997)).toBe(2);
    expect(list.get(3)).toBe(1);
    expect(list.get(4)).toBeUndefined();
  });

  it('moves the ids from a point by a delta, in a view without touching its neighbours', () => {
    const ids = Int32Array.from([0, 2, 5, 9, 1, 4, 8]);
    const freqs = Int32Array.from([1, 1, 2, 1, 3, 1, 1]);
    const first = PostingList.view(ids, freqs, 0, 4);
    const second = PostingList.view(ids, freqs, 4, 3);
    first.shiftFrom(5, -2);
    expect([...first.entries()]).toEqual([[0, 1], [2, 1], [3, 2], [7, 1]]);
    expect([...second.entries()]).toEqual([[1, 3], [4, 1], [8, 1]]);
    second.shiftFrom(2, 3);
    expect([...second.entries()]).toEqual([[1, 3], [7, 1], [11, 1]]);
    expect([...first.entries()]).toEqual([[0, 1], [2, 1], [3, 2], [7, 1]]);
  });
});
