// The engine's shortcuts, each against what a full recompute gives (issue 35: the survivors of its
// mutation run). A delta that changes one input of a tool's definition gives the new definition; a
// '*' delta moves exactly the tools that inherit the changed field; a pending '*' delta is seen by a
// directive before it is committed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadLayer } from '../config/layer';
import type { LoadedLayer } from '../config/layer';
import { EMPTY_CONFIG } from '../config/read';
import { effectiveEnable, effectiveRun } from '../config/effective';
import { mergeConfigs } from '../config/merge';
import type { PartialConfig, PartialEnable, ToolConfig } from '../config/types';
import { resolveTool } from '../catalogue/resolve';
import { StreamEngine } from './engine';
import type { ToolState } from './engine';

const layerOf = (name: string, text: string): LoadedLayer => {
  const l = loadLayer({ name, text });
  expect(l.diagnostics).toEqual([]);
  return l;
};
const delta = (text: string): PartialConfig => layerOf('delta', text).config;
const event = (step: number) => ({ sources: ['cfg' as const], detail: '', step });

function definition(engine: StreamEngine, name: string) {
  const r = engine.state(name)?.resolution;
  if (!r?.ok) throw new Error(`${name} does not resolve`);
  return r.definition;
}

const BASE = `[conversation.tools.t]
source = "local"
summary = "first summary"
description = "first description"
examples = "first examples"
[conversation.tools.t.parameters.p]
type = "string"
description = "first p"
`;

describe('a delta that changes one input of a definition gives the new definition', () => {
  const cases: readonly [string, string, (e: StreamEngine) => unknown, unknown][] = [
    ['summary', 'summary = "second summary"', (e) => definition(e, 't').docs.summary, 'second summary'],
    ['description', 'description = "second description"', (e) => definition(e, 't').docs.description, 'second description'],
    ['examples', 'examples = "second examples"', (e) => definition(e, 't').docs.examples, 'second examples'],
    ['a parameter', '[conversation.tools.t.parameters.p]\ndescription = "second p"', (e) => definition(e, 't').parameters.get('p')?.description, 'second p'],
    ['source', 'source = "mcp.fs.read"', (e) => e.state('t')?.resolution.ok, false],
  ];
  for (const [what, line, read, want] of cases) {
    it(what, () => {
      const engine = new StreamEngine([layerOf('layer', BASE)], new Map());
      const version = engine.current.catalogueVersion;
      const p = engine.applyDelta(delta(`[conversation.tools.t]\n${line}\n`), event(1));
      expect(p).toBeDefined();
      expect(read(engine)).toEqual(want);
      // The catalogue moved: what is keyed by the version (search documents, definitions) is rebuilt.
      expect(engine.current.catalogueVersion).toBeGreaterThan(version);
    });
  }

  it('a delta that changes only enable keeps the definition and the catalogue version', () => {
    const engine = new StreamEngine([layerOf('layer', BASE)], new Map());
    const before = engine.state('t')?.resolution;
    const version = engine.current.catalogueVersion;
    engine.applyDelta(delta('[conversation.tools.t]\nenable = "discoverable"\n'), event(1));
    expect(engine.state('t')?.enable.availability.value).toBe('discoverable');
    expect(engine.state('t')?.resolution).toBe(before);
    expect(engine.current.catalogueVersion).toBe(version);
  });
});

const THREE = `[conversation.tools.inherits]
source = "local"
[conversation.tools.own]
source = "local"
enable = { availability = "on" }
[conversation.tools.both]
source = "local"
enable = { availability = "on", allow_toggle = "never" }
`;

describe("a '*' enable delta", () => {
  it('moves exactly the tools that inherit the field it changes', () => {
    const engine = new StreamEngine([layerOf('layer', THREE)], new Map());
    const p = engine.applyDelta(delta(`[conversation.tools.'*']\nenable = { availability = "off" }\n`), event(1));
    expect(p?.changes.map((c) => c.name)).toEqual(['inherits']);
    expect(engine.state('inherits')?.enable.availability).toMatchObject({ value: 'off', from: 'defaults' });
    expect(engine.state('own')?.enable.availability).toMatchObject({ value: 'on', from: 'tool' });
    expect(p?.counts).toEqual({ configured: 3, discoverable: 0, on: 2, off: 1 });
  });

  it("an allow_toggle change moves the tools that inherit allow_toggle, whatever their availability", () => {
    const engine = new StreamEngine([layerOf('layer', THREE)], new Map());
    const p = engine.applyDelta(delta(`[conversation.tools.'*']\nenable = { allow_toggle = "never" }\n`), event(1));
    expect(p?.changes.map((c) => c.name)).toEqual(['inherits', 'own']);
    expect(engine.state('own')?.enable.allowToggle).toMatchObject({ value: 'never', from: 'defaults' });
    expect(engine.state('both')?.enable.allowToggle.from).toBe('tool');
  });

  it("with a run beside it, every tool's run follows '*' too", () => {
    const engine = new StreamEngine([layerOf('layer', THREE)], new Map());
    expect(engine.state('inherits')?.run).toBe('ask');
    engine.applyDelta(delta(`[conversation.tools.'*']\nenable = "off"\nrun = "unattended"\n`), event(1));
    expect(engine.state('inherits')?.run).toBe('unattended');
    expect(engine.state('own')?.run).toBe('unattended');
    expect(definition(engine, 'own').run).toBe('unattended');
    expect(engine.state('inherits')?.enable.availability.value).toBe('off');
  });
});

describe('pendingEnable: a directive reads a delta before it is committed', () => {
  it("sees a pending '*' availability for a tool the delta does not name", () => {
    const engine = new StreamEngine([layerOf('layer', THREE)], new Map());
    const pending = delta(`[conversation.tools.'*']\nenable = "discoverable"\n`);
    expect(engine.pendingEnable('inherits', pending).availability.value).toBe('discoverable');
    expect(engine.pendingEnable('own', pending).availability.value).toBe('on');
    // Not committed: the engine itself has not moved.
    expect(engine.state('inherits')?.enable.availability.value).toBe('on');
  });

  it("sees a pending '*' allow_toggle alone", () => {
    const engine = new StreamEngine([layerOf('layer', THREE)], new Map());
    const pending = delta(`[conversation.tools.'*']\nenable = { allow_toggle = "never" }\n`);
    expect(engine.pendingEnable('inherits', pending).allowToggle.value).toBe('never');
    expect(engine.pendingEnable('both', pending).allowToggle.value).toBe('never');
  });

  it('a pending delta that names neither the tool nor any enable of ‘*’ leaves it as it is', () => {
    const engine = new StreamEngine([layerOf('layer', THREE)], new Map());
    const pending = delta('[conversation.tools.own]\nenable = "off"\n');
    expect(engine.pendingEnable('inherits', pending)).toBe(engine.state('inherits')?.enable);
    expect(engine.pendingEnable('own', pending).availability.value).toBe('off');
  });
});

// Self-consistency over random histories: what the engine says of a position is the same whichever
// way it is read. At each position the newest state (no replay) is written down; afterwards every
// position is read back in a random order (replayed from snapshots, past the snapshot limit, across
// layer edits that drop and reorder tools), and a fork at a random position, given the same history
// after it, says the same of every position as the engine it came from.
const TOOLS = ['a', 'b', 'c', 'd', 'e'];
const ENABLE = fc.constantFrom('"on"', '"off"', '"discoverable"', '{ availability = "discoverable" }', '{ allow_toggle = "never" }', '{ availability = "off", allow_toggle = "if_named" }');
const SOURCE = fc.constantFrom('"local"', '"mcp.up"', '"mcp.down"', '"mcp.up.b"');
const toolLine = fc.oneof(
  ENABLE.map((v) => `enable = ${v}`),
  fc.constantFrom('ask', 'unattended', 'skip').map((v) => `run = "${v}"`),
  fc.constantFrom('one', 'two').map((v) => `summary = "${v}"`),
  SOURCE.map((v) => `source = ${v}`),
);
const deltaArb = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...TOOLS, 'new1', 'new2'), toolLine).map(([n, l]) => `[conversation.tools.${n}]\n${l}\n`) },
  { weight: 1, arbitrary: ENABLE.map((v) => `[conversation.tools.'*']\nenable = ${v}\n`) },
  { weight: 1, arbitrary: fc.tuple(ENABLE, fc.constantFrom('ask', 'unattended')).map(([v, r]) => `[conversation.tools.'*']\nenable = ${v}\nrun = "${r}"\n`) },
);
const layerArb = fc.uniqueArray(fc.record({ name: fc.constantFrom(...TOOLS), enable: fc.option(ENABLE, { nil: undefined }), source: SOURCE }), { selector: (t) => t.name, minLength: 1, maxLength: 5 })
  .map((tools) => tools.map((t) => `[conversation.tools.${t.name}]\nsource = ${t.source}\n${t.enable ? `enable = ${t.enable}\n` : ''}`).join(''));
const historyArb = fc.array(fc.oneof({ weight: 5, arbitrary: deltaArb.map((d) => ({ delta: d })) }, { weight: 1, arbitrary: layerArb.map((l) => ({ layer: l })) }), { minLength: 10, maxLength: 24 });

const SERVERS = new Map([
  ['up', { name: 'up', status: 'running' as const, tools: new Map(['a', 'b', 'c', 'd', 'e', 'new1'].map((n) => [n, { name: n, description: `Tool ${n}.`, inputSchema: { type: 'object' } }])) }],
  ['down', { name: 'down', status: 'offline' as const, tools: new Map() }],
]);

type Step = { delta: string } | { layer: string };
const plain = (s: ToolState) => ({ name: s.name, order: s.order, availability: s.enable.availability.value, from: s.enable.availability.from, toggle: s.enable.allowToggle.value, run: s.run, ok: s.resolution.ok, summary: s.resolution.ok ? s.resolution.definition.docs.summary : undefined });

function play(engine: StreamEngine, history: readonly Step[], from: number, seen: ReturnType<typeof plain>[][]): void {
  for (let i = from; i < history.length; i++) {
    const h = history[i] as Step;
    const pending = 'delta' in h ? delta(h.delta) : undefined;
    // What a directive reads of the delta before it is committed (pendingEnable and the rest).
    const names = [...TOOLS, 'new1', 'new2'];
    const before = pending && {
      order: engine.pendingOrder(pending),
      has: names.map((n) => engine.pendingHas(n, pending)),
      enable: names.map((n) => (engine.pendingHas(n, pending) ? [engine.pendingEnable(n, pending).availability.value, engine.pendingEnable(n, pending).allowToggle.value] : undefined)),
      tool: names.map((n) => { const t = engine.pendingTool(n, pending); return t && [t.summary?.value, t.run?.value, t.source?.value]; }),
      run: engine.pendingDefaults(pending).run?.value,
    };
    const p = pending ? engine.applyDelta(pending, event(i + 1)) : engine.replaceLayers([layerOf('w', (h as { layer: string }).layer)], { kind: 'layer-edit', layer: 'w', detail: '', step: i + 1 });
    if (!p) continue;
    if (before) {
      expect(engine.toolOrder).toEqual(before.order);
      expect(names.map((n) => engine.state(n) !== undefined)).toEqual(before.has);
      expect(names.map((n) => { const s = engine.state(n); return s && [s.enable.availability.value, s.enable.allowToggle.value]; })).toEqual(before.enable);
      expect(names.map((n) => { const t = engine.state(n)?.config; return t && [t.summary?.value, t.run?.value, t.source?.value]; })).toEqual(before.tool);
      expect(engine.currentDefaults.run?.value).toBe(before.run);
    }
    expect(engine.touchesDefaultsAt(p.index)).toBe(pending !== undefined && pending.defaults !== EMPTY_CONFIG.defaults);
    const now = [...engine.currentStates()].map(plain);
    seen[p.index] = now;
    // The counts and the searchable marks agree with the states they summarize.
    const count = (a: string) => now.filter((s) => s.availability === a).length;
    expect(p.counts).toEqual({ configured: now.length, discoverable: count('discoverable'), on: count('on'), off: count('off') });
    for (const s of engine.currentStates()) {
      const searchable = s.enable.availability.value === 'discoverable' && s.resolution.ok;
      expect(engine.searchableNow(s.name), `searchable ${s.name}`).toBe(searchable);
      expect(engine.searchableOrderNow(s.order)).toBe(searchable);
    }
    expect(engine.toolOrder).toEqual(now.map((s) => s.name));
  }
}

describe('an engine reads the same whichever way a position is read', () => {
  it('replayed positions, in any order, and forks given the same history after them', () => {
    fc.assert(
      fc.property(layerArb, historyArb, fc.array(fc.nat(), { minLength: 20, maxLength: 40 }), fc.nat(), (base, history, reads, forkSeed) => {
        const engine = new StreamEngine([layerOf('w', base)], SERVERS);
        const seen: ReturnType<typeof plain>[][] = [[...engine.currentStates()].map(plain)];
        play(engine, history, 0, seen);
        const last = engine.positions.length - 1;
        // The layers the conversation was loaded from, whatever layer edits came after.
        expect([...engine.loadedBase.tools.keys()]).toEqual([...layerOf('w', base).config.tools.keys()]);
        for (const r of reads) {
          const i = r % (last + 1);
          expect([...engine.statesAt(i).values()].map(plain), `position ${i}`).toEqual(seen[i]);
          expect([...engine.orderedStatesAt(i)].map((s) => s.name)).toEqual(seen[i]?.map((s) => s.name));
        }
        const at = forkSeed % (last + 1);
        const fork = engine.forkAt(at);
        expect(fork.current.index).toBe(at);
        expect(fork.current.counts).toEqual(engine.positions[at]?.counts);
        expect([...fork.currentStates()].map(plain)).toEqual(seen[at]);
        expect(fork.toolOrder).toEqual(seen[at]?.map((s) => s.name));
        for (const s of fork.currentStates()) expect(fork.searchableNow(s.name)).toBe(s.enable.availability.value === 'discoverable' && s.resolution.ok);
        // The fork replays what came after `at` from the step that made position at + 1.
        const next = engine.positions[at + 1]?.event;
        const stepAfter = next === undefined ? history.length : next.kind === 'base' ? 0 : next.step - 1;
        const forkSeen: ReturnType<typeof plain>[][] = [];
        play(fork, history, stepAfter, forkSeen);
        expect(fork.positions.length).toBe(engine.positions.length);
        for (let i = at + 1; i <= last; i++) expect(forkSeen[i], `fork position ${i}`).toEqual(seen[i]);
        for (let i = 0; i <= last; i++) expect([...fork.statesAt(i).values()].map(plain), `fork reads position ${i}`).toEqual(seen[i]);
      }),
      { numRuns: 60 },
    );
  });
});

// rebaseAt: the derivation's keystroke path (a value edit of a layer under kept deltas) gives the
// engine a fresh load of the edited layer would, at every position and after the rest of the history.
const REBASE_TOOLS = ['a', 'b', 'c', 'd'];
const rebaseLayer = fc.tuple(...REBASE_TOOLS.map(() => fc.record({ enable: fc.option(fc.constantFrom('"on"', '"off"', '"discoverable"', '{ availability = "discoverable", allow_toggle = "never" }'), { nil: undefined }), summary: fc.constantFrom('one', 'two'), source: fc.constantFrom('"local"', '"mcp.up"', '"mcp.down"') })))
  .map((tools) => tools.map((t, i) => `[conversation.tools.${REBASE_TOOLS[i] ?? ''}]\nsource = ${t.source}\nsummary = "${t.summary}"\n${t.enable ? `enable = ${t.enable}\n` : ''}`).join(''));
// Deltas name only c and d (enable, or a value), so a and b can be patched.
const rebaseDelta = fc.tuple(fc.constantFrom('c', 'd'), fc.oneof(fc.constantFrom('"on"', '"off"', '"discoverable"').map((v) => `enable = ${v}`), fc.constantFrom('one', 'three').map((v) => `summary = "${v}"`)))
  .map(([n, l]) => `[conversation.tools.${n}]\n${l}\n`);

describe('rebaseAt', () => {
  it('equals an engine loaded from the edited layer, at every position and after the rest of the history', () => {
    fc.assert(
      fc.property(rebaseLayer, rebaseLayer, fc.array(rebaseDelta, { maxLength: 8 }), fc.nat(), (before, edited, deltas, cut) => {
        // The edit changes a and b only; c and d keep the first layer's lines.
        const keep = (text: string, names: readonly string[]) => text.split(/(?=\[conversation\.tools\.)/).filter((part) => names.some((n) => part.startsWith(`[conversation.tools.${n}]`)));
        const editedText = [...keep(edited, ['a', 'b']), ...keep(before, ['c', 'd'])].join('');
        const engine = new StreamEngine([layerOf('w', before)], SERVERS);
        const fresh = new StreamEngine([layerOf('w', editedText)], SERVERS);
        const seenFresh: ReturnType<typeof plain>[][] = [[...fresh.currentStates()].map(plain)];
        const steps = deltas.map((d) => ({ delta: d }));
        play(engine, steps, 0, []);
        play(fresh, steps, 0, seenFresh);
        if (engine.positions.length !== fresh.positions.length) return;
        const at = cut % engine.positions.length;
        const base = layerOf('w', editedText).config;
        const sameInputs = (x: ToolConfig, y: ToolConfig) => x.summary?.value === y.summary?.value && JSON.stringify(x.source?.value) === JSON.stringify(y.source?.value);
        const patched = engine.statesUnder(base, ['a', 'b', 'nosuch'], sameInputs);
        expect([...patched.keys()]).toEqual(['a', 'b']);
        const rebased = engine.rebaseAt(at, base, patched);
        for (let i = 0; i <= at; i++) {
          expect([...rebased.statesAt(i).values()].map(plain), `position ${i}`).toEqual(seenFresh[i]);
          const p = rebased.positions[i];
          const q = fresh.positions[i];
          expect([p?.counts, p?.registered], `counts at ${i}`).toEqual([q?.counts, q?.registered]);
          // A position's changes end in the states it holds.
          for (const c of p?.changes ?? []) expect(plain(c.after)).toEqual(seenFresh[i]?.find((s) => s.name === c.name));
        }
        expect([...rebased.currentStates()].map(plain)).toEqual(seenFresh[at]);
        for (const s of rebased.currentStates()) expect(rebased.searchableNow(s.name), `searchable ${s.name}`).toBe(s.enable.availability.value === 'discoverable' && s.resolution.ok);
        expect(rebased.loadedBase).toBe(base);
        // The rest of the history on the rebased engine reads as the fresh one's.
        const seenRebased: ReturnType<typeof plain>[][] = [];
        const next = engine.positions[at + 1]?.event;
        play(rebased, steps, next?.kind === 'delta' ? next.step - 1 : steps.length, seenRebased);
        for (let i = at + 1; i < fresh.positions.length; i++) expect(seenRebased[i], `rebased position ${i}`).toEqual(seenFresh[i]);
        for (let i = 0; i < fresh.positions.length; i++) expect([...rebased.statesAt(i).values()].map(plain)).toEqual(seenFresh[i]);
      }),
      { numRuns: 60 },
    );
  });
});

// Against a model from scratch: the layers merged with the deltas, each delta first stripped of the
// enable fields that restate the merged config's own value (JP's add_config_delta), read through the
// config's own rules (effectiveEnable, effectiveRun, resolveTool). A restated value is not pinned:
// a later layer edit still moves it.
function strip(delta: PartialConfig, merged: PartialConfig): PartialConfig {
  const keep = (up: PartialEnable, cur: PartialEnable | undefined): PartialEnable => ({
    ...(up.availability && up.availability.value !== cur?.availability?.value ? { availability: up.availability } : {}),
    ...(up.allowToggle && up.allowToggle.value !== cur?.allowToggle?.value ? { allowToggle: up.allowToggle } : {}),
  });
  const tools = new Map<string, ToolConfig>();
  for (const [name, t] of delta.tools) {
    const cur = merged.tools.get(name);
    const enable = cur ? keep(t.enable, cur.enable) : t.enable;
    const other = t.run !== undefined || t.summary !== undefined || t.source !== undefined || t.parameters.size > 0;
    if (other || enable.availability || enable.allowToggle) tools.set(name, { ...t, enable });
  }
  return { ...delta, tools, defaults: { ...delta.defaults, enable: keep(delta.defaults.enable, merged.defaults.enable) } };
}

function modelStates(merged: PartialConfig) {
  return [...merged.tools.values()].map((config, order) => {
    const run = effectiveRun(config, merged.defaults);
    const enable = effectiveEnable(config, merged.defaults);
    const r = resolveTool(config, run, SERVERS);
    return { name: config.name, order, availability: enable.availability.value, from: enable.availability.from, toggle: enable.allowToggle.value, run, ok: r.ok, summary: r.ok ? r.definition.docs.summary : undefined };
  });
}

describe('an engine against the config merged from scratch', () => {
  it('every position after deltas and layer edits', () => {
    fc.assert(
      fc.property(layerArb, historyArb, (base, history) => {
        const engine = new StreamEngine([layerOf('w', base)], SERVERS);
        let layer = layerOf('w', base).config;
        let overlay: PartialConfig = EMPTY_CONFIG;
        expect([...engine.currentStates()].map(plain)).toEqual(modelStates(mergeConfigs(layer, overlay)));
        for (const [i, h] of history.entries()) {
          let p;
          if ('delta' in h) {
            const d = delta(h.delta);
            const stripped = strip(d, mergeConfigs(layer, overlay));
            const changes = stripped.tools.size > 0 || Object.keys(stripped.defaults).some((k) => k !== 'enable') || stripped.defaults.enable.availability !== undefined || stripped.defaults.enable.allowToggle !== undefined;
            p = engine.applyDelta(d, event(i + 1));
            expect(p !== undefined, `delta ${i + 1} adds a position`).toBe(changes);
            overlay = mergeConfigs(overlay, stripped);
          } else {
            layer = layerOf('w', h.layer).config;
            p = engine.replaceLayers([layerOf('w', h.layer)], { kind: 'layer-edit', layer: 'w', detail: '', step: i + 1 });
          }
          const want = modelStates(mergeConfigs(layer, overlay));
          expect([...engine.currentStates()].map(plain), `after step ${i + 1}`).toEqual(want);
          if (!p) continue;
          // A position lists the tools it changed, and only those.
          const prev = p.index > 0 ? [...engine.statesAt(p.index - 1).values()].map(plain) : [];
          const moved = want.filter((s) => JSON.stringify(prev.find((x) => x.name === s.name)) !== JSON.stringify(s)).map((s) => s.name);
          for (const n of moved) expect(p.changes.map((c) => c.name), `position ${p.index} lists ${n}`).toContain(n);
        }
      }),
      { numRuns: 80 },
    );
  });
});

describe('deltas: numbers and appended promotions', () => {
  it('numbers the deltas that add a position, and keeps the appended promotions once each, in commit order', () => {
    const engine = new StreamEngine([layerOf('layer', THREE)], new Map());
    const p1 = engine.applyDelta(delta('[conversation.tools.inherits]\nenable = "discoverable"\n'), event(1), ['own', 'own', 'inherits']);
    // A delta that restates what the config holds adds no position and takes no number.
    expect(engine.applyDelta(delta('[conversation.tools.inherits]\nenable = "discoverable"\n'), event(2), ['both'])).toBeUndefined();
    const p2 = engine.applyDelta(delta('[conversation.tools.new]\nsource = "local"\n'), event(3), ['inherits', 'new']);
    expect(p1?.event).toMatchObject({ kind: 'delta', delta: 1 });
    expect(p2?.event).toMatchObject({ kind: 'delta', delta: 2 });
    expect(p1?.appended).toEqual(['own', 'inherits']);
    expect(p2?.appended).toEqual(['own', 'inherits', 'new']);
    expect(engine.positions[0]?.appended).toEqual([]);
    // A tool a delta adds takes the next place in config order.
    expect(engine.state('new')?.order).toBe(3);
    expect(p2?.changes.map((c) => [c.name, c.before === undefined])).toEqual([['new', true]]);
  });
});
