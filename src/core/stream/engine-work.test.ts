// The engine's shortcuts, by its work account (issue 35, round 3). Each shortcut gives the same states
// as the slow path it avoids (engine.test.ts's properties hold the values), so a change that silently
// drops one is invisible to them; yet a keystroke stays bounded at 100,000 tools only because of them
// (issue 32, "Live at every size"). These tests say which path each input must take, and that what it
// gives equals the slow path's answer where the values are not already held by the properties.
import { describe, expect, it } from 'vitest';
import { loadLayer } from '../config/layer';
import type { LoadedLayer } from '../config/layer';
import type { PartialConfig } from '../config/types';
import { StreamEngine } from './engine';
import type { EngineWork, ToolState } from './engine';

const layerOf = (name: string, text: string): LoadedLayer => {
  const l = loadLayer({ name, text });
  expect(l.diagnostics).toEqual([]);
  return l;
};
const delta = (text: string): PartialConfig => layerOf('delta', text).config;
const event = (step: number) => ({ sources: ['cfg' as const], detail: '', step });
const edit = (step: number) => ({ kind: 'layer-edit' as const, layer: 'w', detail: '', step });
const tools = (names: readonly string[], extra = '') => names.map((n) => `[conversation.tools.${n}]\nsource = "local"\n${extra}`).join('');
/** What the engine did between two readings of its account. */
const since = (before: EngineWork, after: EngineWork): Partial<Record<keyof EngineWork, number>> => {
  const out: Partial<Record<keyof EngineWork, number>> = {};
  for (const k of Object.keys(after) as (keyof EngineWork)[]) if (after[k] !== before[k]) out[k] = after[k] - before[k];
  return out;
};
const plain = (e: StreamEngine) => [...e.currentStates()].map((s) => ({ name: s.name, order: s.order, availability: s.enable.availability.value, from: s.enable.availability.from, toggle: s.enable.allowToggle.value, run: s.run, ok: s.resolution.ok }));

describe('load', () => {
  it('computes every tool once, in one pass that sets the order, and resolves each definition once', () => {
    const engine = new StreamEngine([layerOf('w', tools(['a', 'b', 'c']))], new Map());
    expect(engine.work).toEqual({
      recomputed: 3, deltasTrimmed: 0, enableMoves: 0, inheritReads: 0, fullPasses: 1, reorders: 1, statesRebuilt: 0, resolved: 3, orderCopies: 0,
      ordersShared: 0, ordersRebuilt: 0, marksCopied: 0, marksRebuilt: 0, marksGrown: 0, replays: 0, replayedPositions: 0, rebasedPositions: 0, evictions: 0,
    });
  });

  it('grows the searchable marks by doubling: 300 discoverable tools past a first size of 64 grow them 3 times', () => {
    const engine = new StreamEngine([layerOf('w', tools(Array.from({ length: 300 }, (_, i) => `t${i}`), 'enable = "discoverable"\n'))], new Map());
    expect(engine.work.marksGrown).toBe(3);
    expect(engine.searchableOrderNow(299)).toBe(true);
  });

  it('the account is a reading: changing what it returned changes nothing in the engine', () => {
    const engine = new StreamEngine([layerOf('w', tools(['a']))], new Map());
    const w = engine.work as { recomputed: number };
    w.recomputed = 99;
    expect(engine.work.recomputed).toBe(1);
  });
});

describe('deltas', () => {
  const ABC = tools(['a', 'b', 'c']);

  it('an enable-only entry on a known tool moves its enable without a recompute; the states equal the slow path', () => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    const w = engine.work;
    const d = '[conversation.tools.a]\nenable = "off"\n[conversation.tools.b]\nenable = { allow_toggle = "never" }\n';
    engine.applyDelta(delta(d), event(1));
    expect(since(w, engine.work)).toEqual({ enableMoves: 2 });
    // The slow path: the same delta's entries read as a layer (every tool recomputed from its merged config).
    const slow = new StreamEngine([layerOf('w', ABC), layerOf('d', d)], new Map());
    expect(plain(engine)).toEqual(plain(slow));
  });

  it('a delta that restates nothing is kept as it is; one that restates a field is copied without it', () => {
    // A bulk directive names thousands of tools at the largest sizes: a copy of its entries per delta is
    // work only a restated field needs.
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    const w = engine.work;
    engine.applyDelta(delta('[conversation.tools.a]\nenable = { availability = "off" }\n[conversation.tools.b]\nenable = { allow_toggle = "never" }\n'), event(1));
    expect(since(w, engine.work)).toEqual({ enableMoves: 2 });
    expect(engine.applyDelta(delta('[conversation.tools.a]\nenable = { availability = "off" }\n'), event(2))).toBeUndefined();
    expect(since(w, engine.work)).toEqual({ enableMoves: 2, deltasTrimmed: 1 });
  });

  it('an engine of no layers owns its first order: a tool a delta adds copies nothing', () => {
    // An empty document loads no layers; its first delta configures its first tool.
    const engine = new StreamEngine([], new Map());
    engine.applyDelta(delta(tools(['a'])), event(1));
    expect(engine.toolOrder).toEqual(['a']);
    expect(engine.work).toMatchObject({ orderCopies: 0, recomputed: 1, fullPasses: 1, reorders: 0 });
  });

  it('an entry that sets more than enable, or names a new tool, is recomputed; only a changed definition is resolved', () => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    let w = engine.work;
    engine.applyDelta(delta('[conversation.tools.a]\nenable = "off"\nsummary = "A."\n'), event(1));
    expect(since(w, engine.work)).toEqual({ recomputed: 1, resolved: 1 });
    w = engine.work;
    engine.applyDelta(delta('[conversation.tools.n]\nenable = "off"\n'), event(2));
    expect(since(w, engine.work)).toEqual({ recomputed: 1, resolved: 1 });
    w = engine.work;
    engine.applyDelta(delta('[conversation.tools.b]\nenable = { availability = "discoverable" }\nparameters.x.summary = "X."\n'), event(3));
    expect(since(w, engine.work)).toEqual({ recomputed: 1, resolved: 1 });
  });

  it("a '*' enable delta does no full pass: only the tools that inherit a field re-read '*', and a tool it names is recomputed", () => {
    const text = '[conversation.tools.both]\nsource = "local"\nenable = { availability = "on", allow_toggle = "any" }\n[conversation.tools.one]\nsource = "local"\nenable = { availability = "off" }\n' + tools(['none']);
    const engine = new StreamEngine([layerOf('w', text)], new Map());
    let w = engine.work;
    engine.applyDelta(delta(`[conversation.tools.'*']\nenable = "discoverable"\n`), event(1));
    expect(since(w, engine.work)).toEqual({ inheritReads: 2 });
    expect(engine.state('none')?.enable.availability).toMatchObject({ value: 'discoverable', from: 'defaults' });
    expect(engine.state('both')?.enable.availability).toMatchObject({ value: 'on', from: 'tool' });
    w = engine.work;
    engine.applyDelta(delta(`[conversation.tools.'*']\nenable = "off"\n[conversation.tools.none]\nsummary = "N."\n`), event(2));
    // (The string form sets allow_toggle too, which restates the first delta's: that field is dropped.)
    expect(since(w, engine.work)).toEqual({ inheritReads: 1, recomputed: 1, resolved: 1, deltasTrimmed: 1 });
  });

  it("a '*' delta beyond enable is one full pass that keeps the order", () => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    const w = engine.work;
    engine.applyDelta(delta(`[conversation.tools.'*']\nrun = "unattended"\n`), event(1));
    expect(since(w, engine.work)).toEqual({ fullPasses: 1, recomputed: 3, resolved: 3 });
  });

  it("a '*' delta beyond enable over tools that inherit '*' enable and set their own run changes no state", () => {
    // The inherited field is one object per '*' value, so a recompute sees the tool's enable unchanged
    // (a new equal object would be a change: a step in the Provenance view that did nothing).
    const text = `[conversation.tools.'*']\nenable = "discoverable"\n` + tools(['a', 'b'], 'run = "ask"\n');
    const engine = new StreamEngine([layerOf('w', text)], new Map());
    const p = engine.applyDelta(delta(`[conversation.tools.'*']\nrun = "unattended"\n`), event(1));
    expect(p?.changes).toEqual([]);
    expect(engine.state('a')?.enable.availability).toMatchObject({ value: 'discoverable', from: 'defaults' });
  });

  it('a restated enable beside new parameters keeps the parameters', () => {
    const engine = new StreamEngine([layerOf('w', tools(['t'], 'enable = "off"\n'))], new Map());
    const p = engine.applyDelta(delta('[conversation.tools.t]\nenable = "off"\nparameters.x.summary = "X."\n'), event(1));
    expect(p?.changes.map((c) => c.name)).toEqual(['t']);
    expect(engine.state('t')?.config.parameters.get('x')?.summary?.value).toBe('X.');
  });

  it('a delta without promotions keeps the appended tail of the position before it: positions share it', () => {
    // ConfigPosition.appended is "replaced, never mutated, so positions share it": a copy per position
    // would hold positions × promotions names in a long conversation.
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    const p1 = engine.applyDelta(delta('[conversation.tools.a]\nenable = "off"\n'), event(1), ['a']);
    const p2 = engine.applyDelta(delta('[conversation.tools.b]\nenable = "off"\n'), event(2));
    const p3 = engine.applyDelta(delta('[conversation.tools.c]\nenable = "off"\n'), event(3), ['a']);
    expect(p1?.appended).toEqual(['a']);
    expect(p2?.appended).toBe(p1?.appended);
    expect(p3?.appended).toBe(p1?.appended);
  });
});

describe('layer edits', () => {
  const ABC = tools(['a', 'b', 'c']);
  it('an edit of values is one full pass without a reorder; one that reorders rebuilds the order', () => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    // (A reloaded layer is new config objects: every tool is recomputed. The derivation's keystroke path
    // is rebaseAt, not this.)
    let w = engine.work;
    engine.replaceLayers([layerOf('w', ABC.replace('[conversation.tools.b]\nsource = "local"\n', '[conversation.tools.b]\nsource = "local"\nsummary = "B."\n'))], edit(1));
    expect(since(w, engine.work)).toMatchObject({ fullPasses: 1, recomputed: 3 });
    expect(since(w, engine.work).reorders).toBeUndefined();
    w = engine.work;
    engine.replaceLayers([layerOf('w', tools(['c', 'b', 'a']))], edit(2));
    expect(since(w, engine.work)).toMatchObject({ fullPasses: 1, reorders: 1, recomputed: 3 });
    expect(since(w, engine.work).statesRebuilt).toBeUndefined();
    // The rebuilt order is the engine's own: a tool appended after it copies nothing.
    engine.applyDelta(delta(tools(['n'])), event(3));
    expect(engine.work.orderCopies).toBe(0);
    w = engine.work;
    engine.replaceLayers([layerOf('w', tools(['c', 'a']))], edit(4));
    expect(since(w, engine.work)).toMatchObject({ fullPasses: 1, reorders: 1, statesRebuilt: 1 });
    expect(engine.toolOrder).toEqual(['c', 'a', 'n']);
    expect([...engine.currentStates()].map((s) => [s.name, s.order])).toEqual([['c', 0], ['a', 1], ['n', 2]]);
    // An edit that drops the last tool of the layers, the others in place.
    engine.replaceLayers([layerOf('w', tools(['c']))], edit(5));
    expect(engine.toolOrder).toEqual(['c', 'n']);
    expect([...engine.currentStates()].map((s) => [s.name, s.order])).toEqual([['c', 0], ['n', 1]]);
    expect(engine.state('a')).toBeUndefined();
    expect(engine.current.counts.configured).toBe(2);
    // And the last tool of all: the kept names are a prefix of the order.
    const short = new StreamEngine([layerOf('w', tools(['a', 'b']))], new Map());
    short.replaceLayers([layerOf('w', tools(['a']))], edit(1));
    expect([short.toolOrder, [...short.currentStates()].map((s) => s.name), short.current.counts.configured]).toEqual([['a'], ['a'], 1]);
  });
});

describe('forks', () => {
  const ABC = tools(['a', 'b', 'c'], 'enable = "discoverable"\n');

  it('a fork at the newest position shares its parent’s states, order and marks: no replay, no rebuild', () => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    engine.applyDelta(delta('[conversation.tools.a]\nenable = "off"\n'), event(1));
    const fork = engine.forkAt(1);
    expect(fork.work).toMatchObject({ replays: 0, replayedPositions: 0, ordersShared: 1, ordersRebuilt: 0, marksCopied: 1, marksRebuilt: 0, reorders: 0, recomputed: 0 });
    expect(fork.toolOrder).toBe(engine.toolOrder);
  });

  it('a fork at a position with a snapshot starts from it; else from the nearest one before, replaying only the positions after it', () => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    for (let i = 1; i <= 8; i++) engine.applyDelta(delta(`[conversation.tools.${'abc'[i % 3]}]\nenable = "${i % 2 ? 'off' : 'on'}"\n`), event(i));
    expect(engine.positions.length).toBe(9);
    engine.statesAt(3);
    expect(engine.forkAt(3).work).toMatchObject({ replays: 0, replayedPositions: 0 });
    expect(engine.forkAt(5).work).toMatchObject({ replays: 1, replayedPositions: 2 });
    expect(engine.forkAt(2).work).toMatchObject({ replays: 1, replayedPositions: 2 });
    // The nearest one, whichever order the snapshots were made in (here 0, 3, 5, then 1).
    engine.statesAt(5);
    engine.statesAt(1);
    expect(engine.forkAt(6).work).toMatchObject({ replays: 1, replayedPositions: 1 });
    expect(engine.forkAt(4).work).toMatchObject({ replays: 1, replayedPositions: 1 });
    // A fork's view of its position equals the parent's (the properties hold it in general).
    expect([...engine.forkAt(5).currentStates()]).toEqual([...engine.statesAt(5).values()]);
  });

  it('a fork before deltas that added no tool shares the order and copies the marks, whatever came before it', () => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    // A reordering edit before the fork's position, and one at it: neither is after the fork.
    engine.replaceLayers([layerOf('w', tools(['c', 'b', 'a'], 'enable = "discoverable"\n'))], edit(1));
    engine.applyDelta(delta('[conversation.tools.a]\nenable = "off"\n'), event(2));
    engine.replaceLayers([layerOf('w', tools(['b', 'c', 'a'], 'enable = "discoverable"\n'))], edit(3));
    engine.applyDelta(delta('[conversation.tools.b]\nenable = "off"\n'), event(4));
    engine.applyDelta(delta('[conversation.tools.c]\nenable = "off"\n'), event(5));
    // A layer edit of values only, after the fork's position, does not reorder either.
    engine.replaceLayers([layerOf('w', tools(['b', 'c', 'a'], 'enable = "discoverable"\nsummary = "S."\n'))], edit(6));
    for (const at of [3, 4]) {
      const fork = engine.forkAt(at);
      expect(fork.work, `fork at ${at}`).toMatchObject({ ordersShared: 1, ordersRebuilt: 0, marksCopied: 1, marksRebuilt: 0 });
      expect(fork.toolOrder).toEqual(['b', 'c', 'a']);
      const states = [...engine.statesAt(at).values()];
      for (const s of states) expect(fork.searchableOrderNow(s.order), `${s.name} at ${at}`).toBe(s.enable.availability.value === 'discoverable' && s.resolution.ok);
    }
  });

  it('a fork before a reordering layer edit, or before a new tool, rebuilds its order and marks from its states', () => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    engine.applyDelta(delta('[conversation.tools.a]\nenable = "off"\n'), event(1));
    engine.replaceLayers([layerOf('w', tools(['c', 'b', 'a'], 'enable = "discoverable"\n'))], edit(2));
    expect(engine.forkAt(1).work).toMatchObject({ ordersShared: 0, ordersRebuilt: 1, marksCopied: 0, marksRebuilt: 1 });
    const grown = new StreamEngine([layerOf('w', ABC)], new Map());
    grown.applyDelta(delta('[conversation.tools.a]\nenable = "off"\n'), event(1));
    grown.applyDelta(delta('[conversation.tools.n]\nsource = "local"\nenable = "discoverable"\n'), event(2));
    const fork = grown.forkAt(1);
    expect(fork.work).toMatchObject({ ordersShared: 0, ordersRebuilt: 1, marksCopied: 0, marksRebuilt: 1 });
    expect(fork.toolOrder).toEqual(['a', 'b', 'c']);
    expect([0, 1, 2, 3].map((o) => fork.searchableOrderNow(o))).toEqual([false, true, true, false]);
  });

  it('a fork that rebuilt its marks over 300 tools sizes them for its order at once', () => {
    const many = tools(Array.from({ length: 300 }, (_, i) => `t${i}`), 'enable = "discoverable"\n');
    const engine = new StreamEngine([layerOf('w', many)], new Map());
    engine.applyDelta(delta('[conversation.tools.n]\nsource = "local"\nenable = "discoverable"\n'), event(1));
    const fork = engine.forkAt(0);
    expect(fork.work).toMatchObject({ marksRebuilt: 1, marksGrown: 0 });
    expect(fork.searchableOrderNow(299)).toBe(true);
  });

  it('a shared order is copied once, by the first of fork or parent that appends a tool; an order not shared never is', () => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    engine.applyDelta(delta(tools(['n1'])), event(1));
    expect(engine.work.orderCopies).toBe(0);
    const fork = engine.forkAt(1);
    fork.applyDelta(delta(tools(['f1'])), event(2));
    fork.applyDelta(delta(tools(['f2'])), event(3));
    expect(fork.work.orderCopies).toBe(1);
    engine.applyDelta(delta(tools(['n2'])), event(2));
    engine.applyDelta(delta(tools(['n3'])), event(3));
    expect(engine.work.orderCopies).toBe(1);
    expect(fork.toolOrder).toEqual(['a', 'b', 'c', 'n1', 'f1', 'f2']);
    expect(engine.toolOrder).toEqual(['a', 'b', 'c', 'n1', 'n2', 'n3']);
    // A fork that rebuilt its order owns it: its appends copy nothing.
    const rebuilt = engine.forkAt(1);
    expect(rebuilt.work.ordersRebuilt).toBe(1);
    rebuilt.applyDelta(delta(tools(['r1'])), event(2));
    expect(rebuilt.work.orderCopies).toBe(0);
  });
});

describe('statesAt', () => {
  const ABC = tools(['a', 'b', 'c']);
  const long = (n: number) => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    for (let i = 1; i <= n; i++) engine.applyDelta(delta(`[conversation.tools.${'abc'[i % 3]}]\nenable = "${i % 2 ? 'off' : 'on'}"\n`), event(i));
    return engine;
  };

  it('the newest position is the newest states, a past one is replayed once and then kept', () => {
    const engine = long(5);
    expect(engine.statesAt(5)).toBe(engine.statesAt(5));
    expect(engine.work).toMatchObject({ replays: 0 });
    const three = engine.statesAt(3);
    expect(engine.work).toMatchObject({ replays: 1, replayedPositions: 3 });
    expect(engine.statesAt(3)).toBe(three);
    engine.statesAt(4);
    expect(engine.work).toMatchObject({ replays: 2, replayedPositions: 4 });
  });

  it(`keeps at most 12 snapshots, dropping the oldest but position 0 and the layer edits'`, () => {
    const engine = long(30);
    engine.replaceLayers([layerOf('w', ABC.replace('[conversation.tools.a]\nsource = "local"\n', '[conversation.tools.a]\nsource = "local"\nsummary = "A."\n'))], edit(31));
    engine.applyDelta(delta('[conversation.tools.a]\nenable = "discoverable"\n'), event(32));
    for (let i = 1; i <= 29; i++) engine.statesAt(i);
    // Snapshots 0 and 31 (the layer edit) are kept; 1 to 10 fill the other ten places; each read after that drops one.
    expect(engine.work.evictions).toBe(19);
    const w = engine.work;
    engine.forkAt(31);
    engine.statesAt(0);
    expect(engine.forkAt(0).work.replays).toBe(0);
    expect(since(w, engine.work)).toEqual({});
    // Position 0 kept, position 1 dropped: replayed again from 0, one position.
    engine.statesAt(1);
    expect(since(w, engine.work)).toEqual({ replays: 1, replayedPositions: 1, evictions: 1 });
  });
});

describe('statesUnder', () => {
  it('keeps the old resolution where a definition’s inputs are the same, and resolves only the others', () => {
    const text = tools(['a', 'b']);
    const engine = new StreamEngine([layerOf('w', text)], new Map());
    const w = engine.work;
    const base = layerOf('w', text.replace('[conversation.tools.b]\nsource = "local"\n', '[conversation.tools.b]\nsource = "local"\nsummary = "B."\n')).config;
    const same = (x: { summary?: { value: string } }, y: { summary?: { value: string } }) => x.summary?.value === y.summary?.value;
    const under = engine.statesUnder(base, ['a', 'b'], same);
    expect(since(w, engine.work)).toEqual({ resolved: 1 });
    expect(under.get('a')?.resolution).toBe(engine.state('a')?.resolution);
    expect(under.get('b')?.resolution).not.toBe(engine.state('b')?.resolution);
  });
});

describe('rebaseAt over deltas that name a patched tool', () => {
  // The derivation rebases past deltas on a tool whose edit moved only where its values are written
  // (turn/derivation.ts): the rebased positions must read as a fresh load of the edited layer would,
  // down to where each value was written (the Provenance view and the editor's links read it).
  const full = (s: ToolState) => ({
    name: s.name, order: s.order, run: s.run, ok: s.resolution.ok,
    availability: s.enable.availability, toggle: s.enable.allowToggle,
    config: { summary: s.config.summary, enable: s.config.enable, source: s.config.source },
  });
  // c comes before the edit, so its values stay where they were: it is not patched.
  const BEFORE = '[conversation.tools.c]\nsource = "local"\n[conversation.tools.a]\nsource = "local"\nsummary = "one"\nenable = "off"\n[conversation.tools.b]\nsource = "local"\n';
  const EDITED = BEFORE.replace('summary = "one"\nenable = "off"', 'summary  =  "one"\nenable   = "off"');
  const DELTAS = [
    '[conversation.tools.a]\nenable = "on"\n',
    '[conversation.tools.b]\nsummary = "B."\n',
    '[conversation.tools.a]\nsummary = "A2."\n[conversation.tools.b]\nenable = "off"\n',
    '[conversation.tools.a]\nenable = { allow_toggle = "never" }\n',
    '[conversation.tools.b]\nenable = "discoverable"\n[conversation.tools.a]\nenable = "discoverable"\n',
    '[conversation.tools.c]\nenable = "off"\n[conversation.tools.a]\nsummary = "A3."\n',
    '[conversation.tools.c]\nsummary = "C."\n',
  ];

  it('gives at every position the states, changes and counts of an engine loaded from the edited layer', () => {
    const engine = new StreamEngine([layerOf('w', BEFORE)], new Map());
    const fresh = new StreamEngine([layerOf('w', EDITED)], new Map());
    for (const [i, d] of DELTAS.entries()) {
      expect(engine.applyDelta(delta(d), event(i + 1))).toBeDefined();
      expect(fresh.applyDelta(delta(d), event(i + 1))).toBeDefined();
    }
    const base = layerOf('w', EDITED).config;
    const patched = engine.statesUnder(base, ['a', 'b'], (x, y) => x.summary?.value === y.summary?.value);
    expect(engine.statesUnder(base, ['c'], () => true).get('c')?.config).toEqual(engine.statesAt(0).get('c')?.config);
    expect(patched.get('a')?.config.summary?.origin).not.toEqual(engine.statesAt(0).get('a')?.config.summary?.origin);
    for (let at = 0; at < engine.positions.length; at++) {
      const rebased = engine.rebaseAt(at, base, patched);
      // Only the positions that change a patched tool are rewritten (the last delta names c alone).
      const touching = engine.positions.slice(1, at + 1).filter((p) => p.changes.some((c) => patched.has(c.name))).length;
      expect(rebased.work.rebasedPositions).toBe(touching);
      if (at === engine.positions.length - 1) expect(touching).toBe(at - 1);
      for (let i = 0; i <= at; i++) {
        expect([...rebased.statesAt(i).values()].map(full), `rebased at ${at}, position ${i}`).toEqual([...fresh.statesAt(i).values()].map(full));
        const p = rebased.positions[i];
        const q = fresh.positions[i];
        expect(p?.changes.map((c) => [c.name, c.before && full(c.before), full(c.after)]), `changes at ${i}`).toEqual(q?.changes.map((c) => [c.name, c.before && full(c.before), full(c.after)]));
        expect([p?.counts, p?.registered]).toEqual([q?.counts, q?.registered]);
      }
      expect([...rebased.currentStates()].map(full)).toEqual([...fresh.statesAt(at).values()].map(full));
      // The derivation's next keystroke forks the engine a rebase gave (turn/derivation.ts): the fork
      // reads the edited layer as its base, so a later delta merges over it.
      const f = rebased.forkAt(at);
      const g = fresh.forkAt(at);
      const more = delta('[conversation.tools.a]\nsummary = "Z."\n[conversation.tools.c]\ndescription = "D."\n');
      f.applyDelta(more, event(9));
      g.applyDelta(more, event(9));
      expect([...f.currentStates()].map(full), `fork of the rebased engine at ${at}`).toEqual([...g.currentStates()].map(full));
      expect(f.loadedBase).toBe(base);
    }
  });
});
