// The sets at a position (position-sets.ts) are computed incrementally from an earlier position's;
// here they are held to computeSets over the same states, on random streams of deltas, appended
// promotions and layer edits, read in random orders (so merges, fresh computations after a layer edit,
// the bulk threshold and evictions all take part).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadLayer } from '../config/layer';
import type { SimServer } from '../catalogue/resolve';
import { StreamEngine } from './engine';
import { Column, PositionSets } from './position-sets';
import type { Move } from './position-sets';
import { computeSets } from './sets';
import type { Sets } from './sets';

const ENABLES = ['"on"', '"off"', '"discoverable"', '{ availability = "off", allow_toggle = "never" }', '{ availability = "discoverable", allow_toggle = "never" }'];
const SOURCES = ['"local"', '"local"', '"mcp.up"', '"mcp.down"', '"mcp.other"'];

const servers = (names: readonly string[]): Map<string, SimServer> =>
  new Map<string, SimServer>([
    ['up', { name: 'up', status: 'running', tools: new Map(names.map((n) => [n, { name: n, description: '', inputSchema: { type: 'object' } }])) }],
    ['other', { name: 'other', status: 'running', tools: new Map(names.map((n) => [n, { name: n, description: '', inputSchema: { type: 'object' } }])) }],
    ['down', { name: 'down', status: 'offline', tools: new Map() }],
  ]);

interface ToolSpec {
  readonly name: string;
  readonly enable?: string | undefined;
  readonly source: string;
}

function text(tools: readonly ToolSpec[], star?: string, bare = false): string {
  const out: string[] = [];
  if (star !== undefined) out.push(`[conversation.tools.'*']\nenable = ${star}\n`);
  for (const t of tools) {
    out.push(`[conversation.tools.${JSON.stringify(t.name)}]`);
    if (!bare) out.push(`source = ${t.source}`);
    if (t.enable !== undefined) out.push(`enable = ${t.enable}`);
    out.push('');
  }
  return out.join('\n');
}

const plain = (s: Sets): Record<string, unknown> => ({ configured: s.configured, permitted: s.permitted, offered: s.offered, searchable: s.searchable, servers: s.servers, catalogue: s.catalogue, sizes: s.sizes });

/** The sizes a Sets value states without building its lists are its lists' lengths, and the catalogue is `configured` less the builtins. */
function expectSizesTrue(s: Sets): void {
  expect(s.sizes).toEqual({ configured: s.configured.length, permitted: s.permitted.length, offered: s.offered.length, searchable: s.searchable.length });
  expect(s.catalogue).toEqual(s.configured.slice(0, s.catalogue.length));
  expect(s.configured.slice(s.catalogue.length).every((n) => n === 'describe_tools' || n === 'search_tools')).toBe(true);
}

/** The answer the engine gives, against computeSets over the position's states in config order. */
function expectSetsAgree(engine: StreamEngine, index: number, forced?: string): void {
  const p = engine.positions[index];
  if (!p) throw new Error('no position');
  const states = [...engine.statesAt(index).values()].sort((a, b) => a.order - b.order);
  const scratch = computeSets(states, { registered: p.registered, appended: p.appended, ...(forced !== undefined ? { forced } : {}) });
  const got = engine.setsAt(index, forced);
  expect(plain(got), `position ${index}${forced !== undefined ? ` forcing ${forced}` : ''}`).toEqual(plain(scratch));
  expectSizesTrue(got);
  expectSizesTrue(scratch);
  if (forced === undefined) {
    const configOrder = computeSets(states, { registered: p.registered });
    expect(plain(engine.setsInConfigOrderAt(index))).toEqual(plain(configOrder));
  }
}

type Op =
  | { readonly kind: 'delta'; readonly tools: readonly ToolSpec[]; readonly star?: string | undefined; readonly bare: boolean; readonly append: readonly string[] }
  | { readonly kind: 'layer'; readonly tools: readonly ToolSpec[]; readonly star?: string | undefined }
  /** A layer edit of values only: the layer's tools, in their order, with new enables and sources (the common keystroke). */
  | { readonly kind: 'values'; readonly enables: readonly (string | undefined)[]; readonly sources: readonly string[] };

function opsArb(names: readonly string[], maxTools: number): fc.Arbitrary<{ base: readonly ToolSpec[]; star?: string | undefined; ops: readonly Op[]; reads: readonly number[]; forced: readonly string[] }> {
  const tool = fc.record({ name: fc.constantFrom(...names), enable: fc.option(fc.constantFrom(...ENABLES), { nil: undefined }), source: fc.constantFrom(...SOURCES) });
  const tools = fc.uniqueArray(tool, { selector: (t) => t.name, maxLength: maxTools });
  const star = fc.option(fc.constantFrom(...ENABLES), { nil: undefined });
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('delta' as const), tools, star: fc.option(fc.constantFrom(...ENABLES), { nil: undefined, freq: 5 }), bare: fc.boolean(), append: fc.subarray([...names]) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('layer' as const), tools, star }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('values' as const), enables: fc.array(fc.option(fc.constantFrom(...ENABLES), { nil: undefined, freq: 3 }), { maxLength: maxTools }), sources: fc.array(fc.constantFrom(...SOURCES), { maxLength: maxTools }) }) },
  );
  return fc.record({
    base: tools,
    star,
    ops: fc.array(op, { maxLength: 10 }),
    reads: fc.array(fc.nat(), { maxLength: 30 }),
    forced: fc.subarray([...names, 'nosuch']),
  });
}

function play(names: readonly string[], spec: { base: readonly ToolSpec[]; star?: string | undefined; ops: readonly Op[] }): StreamEngine {
  const engine = new StreamEngine([loadLayer({ name: 'w', text: text(spec.base, spec.star) })], servers(names));
  let layer = { tools: spec.base, star: spec.star };
  spec.ops.forEach((op, i) => {
    if (op.kind === 'layer' || op.kind === 'values') {
      // A values edit keeps the tools and their order; an edit the stream already holds appends a position all the same.
      if (op.kind === 'values') layer = { tools: layer.tools.map((t, k) => ({ name: t.name, enable: k < op.enables.length ? op.enables[k] : t.enable, source: op.sources[k] ?? t.source })), star: layer.star };
      else layer = { tools: op.tools, star: op.star };
      engine.replaceLayers([loadLayer({ name: 'w', text: text(layer.tools, layer.star) })], { kind: 'layer-edit', layer: 'w', detail: '', step: i });
    } else engine.applyDelta(loadLayer({ name: `d${i}`, text: text(op.tools, op.star, op.bare) }).config, { sources: ['promotion'], detail: '', step: i }, op.append);
  });
  return engine;
}

describe('the first sets asked of a stream', () => {
  it('are position 0\'s, and a later position\'s come from them: every tool\'s state is read once, at position 0 (which a fork moves)', () => {
    const names = Array.from({ length: 40 }, (_, i) => `tool_${i}`);
    const engine = play(names, { base: names.map((name) => ({ name, source: '"local"', enable: '"discoverable"' })), ops: [1, 2, 3].map((k) => ({ kind: 'delta', tools: [{ name: `tool_${k}`, source: '"local"', enable: '"on"' }], bare: true, append: [] })) });
    const read: number[] = [];
    const sets = new PositionSets({ positions: engine.positions, orderedStatesAt: (i) => (read.push(i), engine.orderedStatesAt(i)) });
    const last = engine.positions.length - 1;
    expect(last).toBeGreaterThan(0);
    expect(plain(sets.at(last))).toEqual(plain(engine.setsAt(last)));
    expect(read).toEqual([0]);
    expect(plain(sets.at(0))).toEqual(plain(engine.setsAt(0)));
    expect(read).toEqual([0]);
  });
});

describe('the sets at a position: one answer, computed incrementally', () => {
  const NAMES = ['a', 'b', 'c', 'deploy', '__proto__', 'x1', 'x2', 'ünï'];

  it('equal computeSets over the position\'s states, for every position read in any order, forced or not', () => {
    fc.assert(
      fc.property(opsArb(NAMES, 8), (spec) => {
        const engine = play(NAMES, spec);
        const n = engine.positions.length;
        for (const r of spec.reads) expectSetsAgree(engine, r % n);
        for (let i = 0; i < n; i++) expectSetsAgree(engine, i);
        for (const f of spec.forced) expectSetsAgree(engine, spec.reads.length > 0 ? (spec.reads[0] ?? 0) % n : n - 1, f);
      }),
      { numRuns: 300 },
    );
  });

  it('on generated catalogues of hundreds of tools, past the bulk threshold and the cache\'s size', () => {
    const names = Array.from({ length: 400 }, (_, i) => `tool_${i}`);
    fc.assert(
      fc.property(opsArb(names, 200), (spec) => {
        const engine = play(names, spec);
        const n = engine.positions.length;
        for (const r of spec.reads) expectSetsAgree(engine, r % n);
        for (let i = 0; i < n; i++) expectSetsAgree(engine, i);
      }),
      { numRuns: 40 },
    );
  });

  it('a position keeps the appended promotions of its own time; a later promotion does not reorder it', () => {
    const names = ['a', 'b', 'c'];
    const engine = new StreamEngine([loadLayer({ name: 'w', text: text([{ name: 'a', enable: '"on"', source: '"local"' }, { name: 'b', enable: '"discoverable"', source: '"local"' }, { name: 'c', enable: '"discoverable"', source: '"local"' }]) })], servers(names));
    const promote = (name: string, step: number) =>
      engine.applyDelta(loadLayer({ name: 'p', text: text([{ name, enable: '"on"', source: '"local"' }], undefined, true) }).config, { sources: ['promotion'], detail: '', step }, [name]);
    const first = promote('c', 1)?.index ?? -1;
    const second = promote('b', 2)?.index ?? -1;
    expect(engine.setsAt(first).offered).toEqual(['a', 'describe_tools', 'search_tools', 'c']);
    expect(engine.setsAt(second).offered).toEqual(['a', 'describe_tools', 'search_tools', 'c', 'b']);
    expect(engine.positions[first]?.appended).toEqual(['c']);
    expect(engine.setsInConfigOrderAt(second).offered).toEqual(['a', 'b', 'c', 'describe_tools', 'search_tools']);
  });
});

describe('a column shared between positions (its base and the moves since it)', () => {
  // The reference: the members as a Map by order, sorted when read; each batch of moves is drawn
  // against the members before it, as nextCore draws them against the earlier position's states.
  const batchesArb = fc.record({
    base: fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 30 }),
    servers: fc.boolean(),
    batches: fc.array(fc.array(fc.record({ order: fc.integer({ min: 0, max: 60 }), is: fc.boolean(), rewrite: fc.boolean(), server: fc.constantFrom(undefined, 'a', 'b') }), { maxLength: 8 }), { maxLength: 12 }),
    limit: fc.constantFrom(0, 1, 3, 1000),
  });

  it('reads, position after position, as the lists with every move applied, whatever its limit', () => {
    fc.assert(
      fc.property(batchesArb, ({ base, servers, batches, limit }) => {
        const members = new Map<number, { name: string; server: string | undefined }>();
        for (const order of [...base].sort((a, b) => a - b)) members.set(order, { name: `t${order}`, server: servers ? (order % 2 === 0 ? 'a' : undefined) : undefined });
        const sorted = [...members.keys()].sort((a, b) => a - b);
        const flat = { names: sorted.map((o) => `t${o}`), orders: sorted, ...(servers ? { servers: sorted.map((o) => members.get(o)?.server) } : {}) };
        const columns: Column[] = [Column.of(flat, limit)];
        const expected: { names: string[]; orders: number[]; servers: (string | undefined)[] }[] = [];
        const read = (): (typeof expected)[number] => {
          const orders = [...members.keys()].sort((a, b) => a - b);
          return { names: orders.map((o) => members.get(o)?.name ?? ''), orders, servers: orders.map((o) => members.get(o)?.server) };
        };
        expected.push(read());
        for (const batch of batches) {
          const moves: Move[] = [];
          const seen = new Set<number>();
          for (const m of [...batch].sort((a, b) => a.order - b.order)) {
            if (seen.has(m.order)) continue;
            seen.add(m.order);
            const was = members.has(m.order);
            // In, out, or (rewrite) out and in with a new server; a tool neither in nor moved in is no move.
            const is = was && m.rewrite ? true : m.is;
            if (!was && !is) continue;
            if (was && is && !m.rewrite) continue;
            moves.push({ order: m.order, name: `t${m.order}`, was, is, server: is ? m.server : undefined });
            if (is) members.set(m.order, { name: `t${m.order}`, server: m.server });
            else members.delete(m.order);
          }
          columns.push((columns.at(-1) as Column).moved(moves));
          expected.push(read());
        }
        // Read in reverse: a later position's lists never depend on an earlier one's having been read.
        for (let k = columns.length - 1; k >= 0; k--) {
          const c = columns[k] as Column;
          const e = expected[k] as (typeof expected)[number];
          expect(c.length).toBe(e.names.length);
          expect(c.names).toEqual(e.names);
          expect(c.orders).toEqual(e.orders);
          if (servers) expect(c.servers).toEqual(e.servers);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is shared, not copied, by a position whose moves left it alone', () => {
    const c = Column.of({ names: ['a', 'b'], orders: [0, 1] });
    expect(c.moved([])).toBe(c);
    const moved = c.moved([{ order: 2, name: 'c', was: false, is: true }]);
    expect(moved).not.toBe(c);
    expect(moved.names).toEqual(['a', 'b', 'c']);
    expect(c.names).toEqual(['a', 'b']);
  });
});

describe('the tool order a fork shares with its parent', () => {
  it('is copied by whichever of them first adds a tool, so neither sees the other’s', () => {
    const tool = (name: string): ToolSpec => ({ name, enable: '"on"', source: '"local"' });
    const delta = (names: readonly string[]) => loadLayer({ name: 'd', text: text(names.map(tool)) }).config;
    const parent = new StreamEngine([loadLayer({ name: 'w', text: text([tool('a'), tool('b')]) })], servers(['a', 'b', 'c', 'd', 'e']));
    parent.applyDelta(delta(['c']), { sources: ['promotion'], detail: '', step: 1 });
    const atEnd = parent.forkAt(1);
    const atBase = parent.forkAt(0);
    atEnd.applyDelta(delta(['d']), { sources: ['promotion'], detail: '', step: 2 });
    parent.applyDelta(delta(['e']), { sources: ['promotion'], detail: '', step: 2 });
    atBase.applyDelta(delta(['e', 'd']), { sources: ['promotion'], detail: '', step: 1 });
    expect(parent.toolOrder).toEqual(['a', 'b', 'c', 'e']);
    expect(atEnd.toolOrder).toEqual(['a', 'b', 'c', 'd']);
    expect(atBase.toolOrder).toEqual(['a', 'b', 'e', 'd']);
    // A fork of a fork, after both went on.
    const again = atEnd.forkAt(2);
    atEnd.applyDelta(delta(['e']), { sources: ['promotion'], detail: '', step: 3 });
    expect(again.toolOrder).toEqual(['a', 'b', 'c', 'd']);
    expect(atEnd.toolOrder).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect([...atEnd.currentStates()].map((s) => s.order)).toEqual([0, 1, 2, 3, 4]);
  });
});
