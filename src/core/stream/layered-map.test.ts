import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LayeredMap } from './layered-map';

type Op =
  | { readonly kind: 'set'; readonly map: number; readonly key: number; readonly value: number }
  | { readonly kind: 'delete'; readonly map: number; readonly key: number }
  | { readonly kind: 'fork'; readonly map: number }
  | { readonly kind: 'clear'; readonly map: number }
  | { readonly kind: 'read'; readonly map: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('set' as const), map: fc.nat(7), key: fc.nat(40), value: fc.nat(1000) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), map: fc.nat(7), key: fc.nat(40) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('fork' as const), map: fc.nat(7) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const), map: fc.nat(7) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('read' as const), map: fc.nat(7) }) },
);

function same(layered: LayeredMap<string, { v: number }>, plain: Map<string, { v: number }>): void {
  expect(layered.size).toBe(plain.size);
  expect([...layered.entries()]).toEqual([...plain.entries()]);
  expect([...layered.keys()]).toEqual([...plain.keys()]);
  expect([...layered.values()]).toEqual([...plain.values()]);
  expect([...layered]).toEqual([...plain]);
  const each: [string, { v: number }][] = [];
  layered.forEach((v, k) => each.push([k, v]));
  expect(each).toEqual([...plain]);
  for (let k = 0; k <= 41; k++) {
    expect(layered.has(`k${k}`)).toBe(plain.has(`k${k}`));
    expect(layered.get(`k${k}`)).toBe(plain.get(`k${k}`));
  }
}

describe('LayeredMap', () => {
  it('reads, iterates and sizes as a Map given the same writes, through any forks (a fork and its parent never see each other\'s writes)', () => {
    fc.assert(
      fc.property(fc.nat(30), fc.array(op, { maxLength: 120 }), (start, ops) => {
        const seed = new Map<string, { v: number }>();
        for (let k = 0; k < start; k++) seed.set(`k${(k * 7) % 41}`, { v: k });
        const plain: Map<string, { v: number }>[] = [new Map(seed)];
        const layered: LayeredMap<string, { v: number }>[] = [LayeredMap.over(new Map(seed))];
        for (const o of ops) {
          const i = o.map % plain.length;
          const p = plain[i] as Map<string, { v: number }>;
          const l = layered[i] as LayeredMap<string, { v: number }>;
          if (o.kind === 'set') {
            const value = { v: o.value };
            p.set(`k${o.key}`, value);
            l.set(`k${o.key}`, value);
          } else if (o.kind === 'delete') {
            expect(l.delete(`k${o.key}`)).toBe(p.delete(`k${o.key}`));
          } else if (o.kind === 'read') {
            // Read between writes: what a read keeps (the values list) must not outlive the next write.
            expect([...l.values()]).toEqual([...p.values()]);
          } else if (o.kind === 'clear') {
            p.clear();
            l.clear();
          } else {
            plain.push(new Map(p));
            layered.push(o.map % 2 === 0 ? l.fork() : LayeredMap.over(l));
          }
        }
        for (let i = 0; i < plain.length; i++) same(layered[i] as LayeredMap<string, { v: number }>, plain[i] as Map<string, { v: number }>);
      }),
      { numRuns: 300 },
    );
  });

  it('patched: the map with the updates of the keys it has, whether they are few (layered) or many (one new root)', () => {
    fc.assert(
      fc.property(fc.nat(40), fc.array(fc.tuple(fc.nat(50), fc.nat(1000)), { maxLength: 60 }), fc.boolean(), (n, ups, layered) => {
        const seed = new Map<string, { v: number }>();
        for (let k = 0; k < n; k++) seed.set(`k${k}`, { v: k });
        const of = layered ? LayeredMap.over(new Map(seed)) : new Map(seed);
        const updates = new Map(ups.map(([k, v]) => [`k${k}`, { v }] as const));
        const expected = new Map(seed);
        for (const [k, v] of updates) if (expected.has(k)) expected.set(k, v);
        same(LayeredMap.patched(of, updates), expected);
        expect([...of]).toEqual([...seed]);
      }),
      { numRuns: 200 },
    );
  });

  it('never writes to a plain map it was made over', () => {
    const root = new Map([['a', { v: 1 }], ['b', { v: 2 }]]);
    const l = LayeredMap.over(root);
    l.set('a', { v: 9 });
    l.set('c', { v: 3 });
    l.delete('b');
    expect([...root]).toEqual([['a', { v: 1 }], ['b', { v: 2 }]]);
    expect([...l]).toEqual([['a', { v: 9 }], ['c', { v: 3 }]]);
  });
});
