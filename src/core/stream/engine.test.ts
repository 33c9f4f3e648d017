// The engine's shortcuts, each against what a full recompute gives (issue 35: the survivors of its
// mutation run). A delta that changes one input of a tool's definition gives the new definition; a
// '*' delta moves exactly the tools that inherit the changed field; a pending '*' delta is seen by a
// directive before it is committed.
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
