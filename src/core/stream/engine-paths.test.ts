// The engine's less travelled paths, each by an example (issue 35: survivors of engine.ts's mutation
// run that engine.test.ts's properties reach too rarely): '*' deltas that restate or move only where a
// value comes from, restated enable fields beside new ones, catalogues past the searchable marks'
// first size, forks that diverge from their parent, and a rebase that leaves the parent as it was.
import { describe, expect, it } from 'vitest';
import { loadLayer } from '../config/layer';
import type { LoadedLayer } from '../config/layer';
import type { PartialConfig } from '../config/types';
import { StreamEngine } from './engine';

const layerOf = (name: string, text: string): LoadedLayer => {
  const l = loadLayer({ name, text });
  expect(l.diagnostics).toEqual([]);
  return l;
};
const delta = (text: string): PartialConfig => layerOf('delta', text).config;
const event = (step: number) => ({ sources: ['cfg' as const], detail: '', step });
const edit = (step: number) => ({ kind: 'layer-edit' as const, layer: 'w', detail: '', step });

describe("'*' deltas", () => {
  it("a '*' availability equal to the fallback still moves where the inheriting tools' value comes from", () => {
    const engine = new StreamEngine([layerOf('w', '[conversation.tools.t]\nsource = "local"\n')], new Map());
    expect(engine.state('t')?.enable.availability).toMatchObject({ value: 'on', from: 'fallback' });
    const p = engine.applyDelta(delta(`[conversation.tools.'*']\nenable = { availability = "on" }\n`), event(1));
    expect(p?.event).toMatchObject({ kind: 'delta', delta: 1 });
    expect(p?.changes.map((c) => c.name)).toEqual(['t']);
    expect(engine.state('t')?.enable.availability).toMatchObject({ value: 'on', from: 'defaults' });
    expect(p?.appended).toEqual([]);
  });

  it("a '*' run over tools that each set their own run changes no state and no definition", () => {
    const text = '[conversation.tools.a]\nsource = "local"\nrun = "ask"\n[conversation.tools.b]\nsource = "local"\nrun = "skip"\n';
    const engine = new StreamEngine([layerOf('w', text)], new Map());
    const before = engine.state('a')?.resolution;
    const version = engine.current.catalogueVersion;
    const p = engine.applyDelta(delta(`[conversation.tools.'*']\nrun = "unattended"\n`), event(1));
    expect(p?.changes).toEqual([]);
    expect(p?.catalogueVersion).toBe(version);
    expect(engine.state('a')?.resolution).toBe(before);
    expect(engine.state('b')?.run).toBe('skip');
  });

  it('pendingEnable of a name nothing configures reads the defaults', () => {
    const engine = new StreamEngine([layerOf('w', `[conversation.tools.'*']\nenable = "discoverable"\n[conversation.tools.t]\nsource = "local"\n`)], new Map());
    const pending = delta('[conversation.tools.t]\nenable = "off"\n');
    expect(engine.pendingEnable('nosuch', pending).availability.value).toBe('discoverable');
    expect(engine.pendingHas('nosuch', pending)).toBe(false);
  });
});

describe('restated enable fields beside new ones', () => {
  const OFF = '[conversation.tools.t]\nsource = "local"\nenable = { availability = "off" }\n';
  it('a restated availability with a new allow_toggle pins only the allow_toggle: a layer edit still moves the availability', () => {
    const engine = new StreamEngine([layerOf('w', OFF)], new Map());
    expect(engine.applyDelta(delta('[conversation.tools.t]\nenable = { availability = "off", allow_toggle = "never" }\n'), event(1))).toBeDefined();
    engine.replaceLayers([layerOf('w', OFF.replace('"off"', '"on"'))], edit(2));
    expect(engine.state('t')?.enable.availability.value).toBe('on');
    expect(engine.state('t')?.enable.allowToggle.value).toBe('never');
  });

  it('a restated enable beside a new summary keeps the summary and does not pin the enable', () => {
    const engine = new StreamEngine([layerOf('w', OFF)], new Map());
    const p = engine.applyDelta(delta('[conversation.tools.t]\nenable = "off"\nsummary = "new"\n'), event(1));
    expect(p).toBeDefined();
    expect(engine.state('t')?.config.summary?.value).toBe('new');
    engine.replaceLayers([layerOf('w', OFF.replace('"off"', '"on"'))], edit(2));
    expect(engine.state('t')?.enable.availability.value).toBe('on');
    expect(engine.state('t')?.config.summary?.value).toBe('new');
  });
});

describe('a catalogue past the searchable marks’ first size', () => {
  it('marks every discoverable tool, to the last of 300', () => {
    const text = Array.from({ length: 300 }, (_, i) => `[conversation.tools.t${i}]\nsource = "local"\nenable = "${i % 3 === 0 ? 'discoverable' : 'on'}"\n`).join('');
    const engine = new StreamEngine([layerOf('w', text)], new Map());
    for (let i = 0; i < 300; i++) expect(engine.searchableOrderNow(i), `t${i}`).toBe(i % 3 === 0);
    engine.applyDelta(delta('[conversation.tools.t299]\nenable = "discoverable"\n[conversation.tools.t297]\nenable = "on"\n'), event(1));
    expect([engine.searchableNow('t299'), engine.searchableNow('t297'), engine.searchableNow('t150')]).toEqual([true, false, true]);
  });

  it('marks a discoverable tool at each size the marks grow past (orders 64, 128 and 256), on load and when a delta adds it', () => {
    const text = Array.from({ length: 300 }, (_, i) => `[conversation.tools.t${i}]\nsource = "local"\nenable = "discoverable"\n`).join('');
    const engine = new StreamEngine([layerOf('w', text)], new Map());
    for (const i of [63, 64, 65, 127, 128, 255, 256, 299]) expect(engine.searchableOrderNow(i), `t${i}`).toBe(true);
    // A delta that configures a new tool appends it at the next order: 64 is the marks' first size.
    const small = Array.from({ length: 64 }, (_, i) => `[conversation.tools.s${i}]\nsource = "local"\nenable = "on"\n`).join('');
    const growing = new StreamEngine([layerOf('w', small)], new Map());
    growing.applyDelta(delta('[conversation.tools.s64]\nsource = "local"\nenable = "discoverable"\n'), event(1));
    expect(growing.searchableNow('s64')).toBe(true);
  });
});

const ABC = '[conversation.tools.a]\nsource = "local"\nenable = "discoverable"\n[conversation.tools.b]\nsource = "local"\n[conversation.tools.c]\nsource = "local"\n';

describe('forks', () => {
  it('a fork before a delta that took a tool out of the searchable set has it searchable; the parent does not', () => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    engine.applyDelta(delta('[conversation.tools.a]\nenable = "off"\n'), event(1));
    const fork = engine.forkAt(0);
    expect(fork.searchableNow('a')).toBe(true);
    expect(engine.searchableNow('a')).toBe(false);
    // What the fork does is its own: the parent's marks and states stay.
    fork.applyDelta(delta('[conversation.tools.b]\nenable = "discoverable"\n'), event(1));
    expect(fork.searchableNow('b')).toBe(true);
    expect(engine.searchableNow('b')).toBe(false);
    expect(fork.current.event).toMatchObject({ kind: 'delta', delta: 1 });
  });

  it('a fork before a delta that made a tool discoverable does not have it searchable; the parent does', () => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    const before = engine.searchableNow('b');
    engine.applyDelta(delta('[conversation.tools.b]\nenable = "discoverable"\n'), event(1));
    expect(engine.searchableNow('b')).toBe(true);
    const fork = engine.forkAt(0);
    expect(fork.searchableNow('b')).toBe(before);
    expect(before).toBe(false);
  });

  it('a fork before a layer edit that reorders the tools keeps the order and marks of its own position', () => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    engine.replaceLayers([layerOf('w', ABC.split(/(?=\[conversation)/).reverse().join(''))], edit(1));
    expect(engine.toolOrder).toEqual(['c', 'b', 'a']);
    const fork = engine.forkAt(0);
    expect(fork.toolOrder).toEqual(['a', 'b', 'c']);
    expect([0, 1, 2].map((o) => fork.searchableOrderNow(o))).toEqual([true, false, false]);
    expect([0, 1, 2].map((o) => engine.searchableOrderNow(o))).toEqual([false, false, true]);
  });

  it('a fork that diverges reads its own positions, not the snapshots its parent kept past the fork', () => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    for (const [i, n] of ['a', 'b', 'c', 'a'].entries()) engine.applyDelta(delta(`[conversation.tools.${n}]\nenable = "${i % 2 ? 'discoverable' : 'off'}"\n`), event(i + 1));
    for (let i = 0; i < engine.positions.length; i++) engine.statesAt(i);
    const fork = engine.forkAt(1);
    for (const [i, n] of ['c', 'b', 'a'].entries()) fork.applyDelta(delta(`[conversation.tools.${n}]\nenable = { allow_toggle = "never" }\n`), event(i + 2));
    expect(fork.current.event).toMatchObject({ kind: 'delta', delta: 4 });
    expect(fork.statesAt(2).get('c')?.enable.allowToggle.value).toBe('never');
    expect(fork.statesAt(2).get('b')?.enable.availability.value).toBe('on');
    expect(fork.statesAt(3).get('b')?.enable.allowToggle.value).toBe('never');
  });

  it('a fork at a position the engine does not have is an error naming it', () => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    expect(() => engine.forkAt(3)).toThrow('no config position 3');
  });
});

describe('rebaseAt', () => {
  it('leaves the parent as it was, and gives a patched tool a new definition when its run changed', () => {
    const engine = new StreamEngine([layerOf('w', ABC)], new Map());
    engine.applyDelta(delta('[conversation.tools.c]\nenable = "off"\n'), event(1));
    const parentChanges = engine.positions[0]?.changes.map((c) => c.after);
    const base = layerOf('w', ABC.replace('enable = "discoverable"', 'enable = "discoverable"\nrun = "unattended"')).config;
    const patched = engine.statesUnder(base, ['a', 'gone'], () => true);
    const a = patched.get('a');
    expect(a?.run).toBe('unattended');
    expect(a?.resolution.ok && a.resolution.definition.run).toBe('unattended');
    const rebased = engine.rebaseAt(1, base, patched);
    expect(engine.positions[0]?.changes.map((c) => c.after)).toEqual(parentChanges);
    expect(engine.state('a')?.run).toBe('ask');
    expect(rebased.state('a')?.run).toBe('unattended');
    expect(rebased.statesAt(0).get('a')?.run).toBe('unattended');
    // A name the edited layer no longer has is not patched.
    expect(engine.statesUnder(layerOf('w', '[conversation.tools.a]\nsource = "local"\n').config, ['b'], () => true).size).toBe(0);
  });
});
