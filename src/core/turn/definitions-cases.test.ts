// DefinitionCache, case by case: a definition is handed back from the previous run exactly when the
// tool's inputs are the same by value (origins, enable and the declaration place left out), and built
// anew otherwise. Handing back a stale definition would show the model an edited tool's old text;
// building anew when nothing changed costs a keystroke at 1,000 tools every definition again.
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../catalogue/types';
import type { ToolState } from '../stream/engine';
import { DefinitionCache } from './definitions';
import { parseScenario } from '../scenario/parse';
import { runScenario } from './run';
import { layer, run, scenarioText } from './test-kit';
import type { ScenarioSpec } from './test-kit';

function parsedSpec(spec: ScenarioSpec) {
  const p = parseScenario(scenarioText(spec));
  if (!p.ok) throw new Error(p.errors[0]?.message);
  return p.scenario;
}

let made = 0;
/** A resolved state: only name, config, run and resolution are read by the cache. */
function state(config: object, o: { run?: string; kind?: string; name?: string } = {}): ToolState {
  const name = o.name ?? 't';
  const definition = { kind: o.kind ?? 'local', name, made: made++ } as unknown as ToolDefinition;
  return { name, order: 0, config, run: o.run ?? 'unattended', resolution: { ok: true, definition } } as unknown as ToolState;
}

const layerAt = (n: number) => ({ kind: 'layer', layer: 'w', span: { start: n, end: n + 1 } });
const deltaAt = (n: number) => ({ kind: 'delta', delta: n, source: 'cli', detail: `--cfg ${n}` });
const at = (value: unknown, origin: object = layerAt(0)) => ({ value, origin });

/** Whether the cache hands b's state the definition built for a's (inputs the same), else builds anew. */
function reused(a: object, b: object, o: { runA?: string; runB?: string; kindA?: string } = {}): boolean {
  const cache = new DefinitionCache();
  const first = cache.definition(state(a, { ...(o.runA !== undefined ? { run: o.runA } : {}), ...(o.kindA !== undefined ? { kind: o.kindA } : {}) }));
  const second = state(b, o.runB !== undefined ? { run: o.runB } : {});
  const got = cache.definition(second);
  expect(cache.built).toBe(got === first ? 1 : 2);
  if (got !== first) expect(got).toBe(second.resolution.ok ? second.resolution.definition : undefined);
  return got === first;
}

const base = {
  name: 't',
  source: at({ kind: 'local' }),
  enable: { availability: at('on') },
  summary: at('A tool.'),
  parameters: new Map([['id', { type: at('string'), required: at(true) }]]),
  declared: layerAt(0),
};

describe('DefinitionCache: what counts as the same inputs', () => {
  it('ignores origins, the enable field and the declaration place, at the top', () => {
    expect(reused(base, { ...base })).toBe(true);
    expect(reused(base, { ...base, summary: at('A tool.', layerAt(40)), declared: layerAt(40) })).toBe(true);
    expect(reused(base, { ...base, enable: { availability: at('off') } })).toBe(true);
    expect(reused(base, { ...base, enable: undefined })).toBe(true);
    expect(reused(base, { ...base, declared: undefined })).toBe(true);
    // An enable in b only, the other way round.
    const { enable: _e, ...noEnable } = base;
    expect(reused(noEnable, base)).toBe(true);
    expect(reused(base, noEnable)).toBe(true);
  });

  it('compares a value written by a delta with the same value written in a layer (origins of every kind)', () => {
    for (const origin of [deltaAt(3), { kind: 'builtin' }, { kind: 'default' }, layerAt(9)]) {
      expect(reused(base, { ...base, summary: at('A tool.', origin) })).toBe(true);
      expect(reused({ ...base, summary: at('A tool.', origin) }, base)).toBe(true);
      expect(reused(base, { ...base, summary: at('Another.', origin) })).toBe(false);
    }
  });

  it('builds anew when a value, a parameter or the run mode changes', () => {
    expect(reused(base, { ...base, summary: at('Another tool.') })).toBe(false);
    expect(reused(base, { ...base, description: at('More.') })).toBe(false);
    expect(reused({ ...base, description: at('More.') }, base)).toBe(false);
    expect(reused(base, { ...base, parameters: new Map() })).toBe(false);
    expect(reused(base, { ...base, parameters: new Map([['other', { type: at('string'), required: at(true) }]]) })).toBe(false);
    expect(reused(base, { ...base, parameters: new Map([['id', { type: at('integer'), required: at(true) }]]) })).toBe(false);
    expect(reused(base, { ...base, parameters: new Map([['id', { type: at('string') }]]) })).toBe(false);
    expect(reused(base, { ...base, parameters: new Map([['id', { type: at('string'), required: at(true) }]]) })).toBe(true);
    expect(reused(base, base, { runA: 'ask', runB: 'unattended' })).toBe(false);
    expect(reused(base, base, { runA: 'ask', runB: 'ask' })).toBe(true);
  });

  it('leaves undefined fields out on both sides, but counts a field present on one side only', () => {
    expect(reused(base, { ...base, examples: undefined })).toBe(true);
    expect(reused({ ...base, examples: undefined }, base)).toBe(true);
    expect(reused(base, { ...base, examples: at('x') })).toBe(false);
    expect(reused({ ...base, examples: at('x') }, base)).toBe(false);
  });

  it('ignores enable and declared only at the top: a parameter field of those names is compared', () => {
    const p = (enable: string) => ({ ...base, parameters: new Map([['id', { type: at('string'), enable: at(enable), declared: at(enable) }]]) });
    expect(reused(p('a'), p('a'))).toBe(true);
    expect(reused(p('a'), p('b'))).toBe(false);
    const q = (declared: string) => ({ ...base, parameters: new Map([['id', { type: at('string'), declared: at(declared) }]]) });
    expect(reused(q('a'), q('b'))).toBe(false);
    // Nor inside a written value: its table, a list of tables, a table in a table.
    const d = (value: unknown) => ({ ...base, parameters: new Map([['id', { type: at('object'), default: at(value) }]]) });
    expect(reused(d({ enable: 1 }), d({ enable: 1 }))).toBe(true);
    expect(reused(d({ enable: 1 }), d({ enable: 2 }))).toBe(false);
    expect(reused(d([{ declared: 1 }]), d([{ declared: 2 }]))).toBe(false);
    expect(reused(d({ x: { enable: 1 } }), d({ x: { enable: 2 } }))).toBe(false);
  });

  it('compares arrays element by element and by length', () => {
    const e = (values: unknown[]) => ({ ...base, parameters: new Map([['id', { type: at('string'), enum: at(values) }]]) });
    expect(reused(e(['a', 'b']), e(['a', 'b']))).toBe(true);
    expect(reused(e(['a', 'b']), e(['a', 'c']))).toBe(false);
    expect(reused(e(['a', 'b']), e(['a']))).toBe(false);
    expect(reused(e(['a']), e(['a', 'b']))).toBe(false);
    expect(reused(e(['a']), { ...base, parameters: new Map([['id', { type: at('string'), enum: at({ 0: 'a', length: 1 }) }]]) })).toBe(false);
    expect(reused(e([]), { ...base, parameters: new Map([['id', { type: at('string'), enum: at({}) }]]) })).toBe(false);
    expect(reused({ ...base, parameters: new Map([['id', { type: at('string'), enum: at({}) }]]) }, e([]))).toBe(false);
  });

  it('compares maps by size, keys and values, and never a map with a plain object', () => {
    const m = (entries: [string, unknown][]) => ({ ...base, parameters: new Map([['id', { type: at('string'), properties: new Map(entries) }]]) });
    expect(reused(m([['a', { type: at('string') }]]), m([['a', { type: at('string') }]]))).toBe(true);
    expect(reused(m([['a', { type: at('string') }]]), m([['b', { type: at('string') }]]))).toBe(false);
    expect(reused(m([['a', { type: at('string') }]]), m([['a', { type: at('number') }]]))).toBe(false);
    expect(reused(m([['a', { type: at('string') }]]), m([]))).toBe(false);
    expect(reused(m([['a', undefined]]), m([['b', undefined]]))).toBe(false);
    expect(reused(m([]), { ...base, parameters: new Map([['id', { type: at('string'), properties: {} }]]) })).toBe(false);
    expect(reused({ ...base, parameters: new Map([['id', { type: at('string'), properties: {} }]]) }, m([]))).toBe(false);
    expect(reused({ ...base, parameters: {} }, { ...base, parameters: new Map() })).toBe(false);
  });

  it('compares plain values by value, and objects of other prototypes never', () => {
    const d = (value: unknown) => ({ ...base, parameters: new Map([['id', { type: at('string'), default: at(value) }]]) });
    expect(reused(d(1), d(1))).toBe(true);
    expect(reused(d(1), d(2))).toBe(false);
    expect(reused(d(1), d('1'))).toBe(false);
    expect(reused(d(null), d(null))).toBe(true);
    expect(reused(d(null), d({}))).toBe(false);
    expect(reused(d({}), d(null))).toBe(false);
    expect(reused(d({ a: 1 }), d({ a: 1 }))).toBe(true);
    expect(reused(d({ a: 1 }), d({ a: 2 }))).toBe(false);
    expect(reused(d({ a: 1 }), d(Object.assign(Object.create(null) as object, { a: 1 })))).toBe(false);
  });

  it('reads a pair as a written value only with an origin of a known kind and no other field', () => {
    // Where the config holds a written value (here a parameter's `default` field itself). Not written
    // values: their origin is compared like any field, so a moved one differs.
    const d = (field: unknown) => ({ ...base, parameters: new Map([['id', { type: at('string'), default: field }]]) });
    expect(reused(d({ value: 1, origin: { kind: 'elsewhere', n: 1 } }), d({ value: 1, origin: { kind: 'elsewhere', n: 2 } }))).toBe(false);
    expect(reused(d({ value: 1, origin: { kind: 'delta', n: 1 }, extra: 1 }), d({ value: 1, origin: { kind: 'delta', n: 2 }, extra: 1 }))).toBe(false);
    expect(reused(d({ value: 1, origin: null }), d({ value: 1, origin: null }))).toBe(true);
    expect(reused(d({ value: 1, origin: 'layer' }), d({ value: 1, origin: 'delta' }))).toBe(false);
    expect(reused(d({ value: 1 }), d({ value: 1, origin: { kind: 'layer' } }))).toBe(false);
    expect(reused(d({ origin: { kind: 'layer' } }), d({ value: undefined, origin: { kind: 'delta' } }))).toBe(false);
    // A written value and a plain object holding the same value.
    expect(reused(d({ value: 1, origin: { kind: 'delta', n: 1 } }), d({ value: 1, origin: { kind: 'delta', n: 2 } }))).toBe(true);
    expect(reused({ ...base, summary: at('A tool.') }, { ...base, summary: { value: 'A tool.' } })).toBe(false);
    expect(reused({ ...base, summary: { value: 'A tool.' } }, { ...base, summary: at('A tool.') })).toBe(false);
  });

  it('compares a value the user wrote whole, even a table shaped like a written value (a parameter default)', () => {
    // Before the fix, the origin inside the user's table was ignored: editing x kept the old default.
    const d = (x: number) => ({ ...base, parameters: new Map([['id', { type: at('object'), default: at({ value: 1, origin: { kind: 'layer', x } }) }]]) });
    expect(reused(d(1), d(1))).toBe(true);
    expect(reused(d(1), d(2))).toBe(false);
    const listed = (x: number) => ({ ...base, parameters: new Map([['id', { type: at('array'), default: at([{ value: 1, origin: { kind: 'delta', x } }]) }]]) });
    expect(reused(listed(1), listed(2))).toBe(false);
    // A primitive against a table.
    expect(reused({ ...base, summary: at(1) }, { ...base, summary: at({ a: 1 }) })).toBe(false);
  });

  it('a run after an edit inside such a default renders the edited default, as a fresh run does', () => {
    const text = (x: number) =>
      `[conversation.tools.alpha]\nsource = "local"\nenable = "on"\n[conversation.tools.alpha.parameters.id]\ntype = "object"\ndefault = { value = 1, origin = { kind = "layer", x = ${x} } }\n`;
    const cache = new DefinitionCache();
    const body = "[[steps]]\ncommand = \"jp q 'x'\"\n";
    const rendered = (x: number, definitionCache?: DefinitionCache) =>
      runScenario({ scenario: parsedSpec({ layer: text(x), body }), ...(definitionCache ? { definitionCache } : {}) }).requests[0]?.rendered().bytes;
    expect(rendered(1, cache)).toBe(rendered(1));
    const edited = rendered(2, cache);
    expect(edited).toBe(rendered(2));
    expect(edited).toContain('"x":2');
  });

  it("reads a layer's written values (LayerSourced) as written values, wherever the text put them", () => {
    const config = (text: string) => {
      const s = run({ layer: text, body: "[[steps]]\ncommand = \"jp q 'x'\"\n" }).engine.state('alpha');
      if (!s) throw new Error('no alpha');
      return s.config;
    };
    const text = layer({ alpha: { summary: 'A tool.', params: { id: { type: 'string' } } } });
    const a = config(text);
    const moved = config(`# moved\n\n${text}`);
    expect(reused(a, moved)).toBe(true);
    expect(reused(a, { ...moved, summary: at('A tool.', deltaAt(1)) })).toBe(true);
    expect(reused({ ...moved, summary: at('A tool.', deltaAt(1)) }, a)).toBe(true);
    expect(reused(a, { ...moved, summary: at('Edited.', deltaAt(1)) })).toBe(false);
    expect(reused(a, config(layer({ alpha: { summary: 'A tool.', params: { id: { type: 'integer' } } } })))).toBe(false);
  });
});

describe('DefinitionCache: what is never reused', () => {
  it('an MCP tool (its definition also depends on the server), by its definition or its source', () => {
    expect(reused(base, base, { kindA: 'mcp' })).toBe(false);
    const mcp = { ...base, source: at({ kind: 'mcp', server: 's', tool: 't' }) };
    expect(reused(mcp, mcp)).toBe(false);
    expect(reused(base, base)).toBe(true);
  });

  it('an unresolved tool: no definition, nothing built', () => {
    const cache = new DefinitionCache();
    const unresolved = { name: 't', order: 0, config: base, run: 'unattended', resolution: { ok: false, reason: 'offline' } } as unknown as ToolState;
    expect(cache.definition(unresolved)).toBeUndefined();
    expect(cache.kept(unresolved)).toBeUndefined();
    expect(cache.built).toBe(0);
    // Nor after the tool had a definition: a tool that stops resolving (its server went away) has none.
    const d = cache.definition(state(base));
    expect(d).toBeDefined();
    expect(cache.kept(unresolved)).toBeUndefined();
    expect(cache.definition(unresolved)).toBeUndefined();
  });

  it('kept answers without building: the kept definition, or undefined where definition would build', () => {
    const cache = new DefinitionCache();
    const s = state(base);
    expect(cache.kept(s)).toBeUndefined();
    expect(cache.built).toBe(0);
    const d = cache.definition(s);
    expect(cache.kept(s)).toBe(d);
    expect(cache.kept(state(base))).toBe(d);
    expect(cache.kept(state({ ...base, summary: at('Other.') }))).toBeUndefined();
    expect(cache.built).toBe(1);
    // Another tool of the same inputs has its own definition.
    expect(cache.kept(state(base, { name: 'u' }))).toBeUndefined();
  });
});

describe('DefinitionCache.startRun: forgetting the tools a run did not read', () => {
  const fill = (cache: DefinitionCache, n: number): void => {
    for (let i = 0; i < n; i++) cache.definition(state(base, { name: `t${i}` }));
  };
  /** Whether t1's definition is still reused after a run that read t0 only. */
  const t1Kept = (n: number, readInSecond: readonly number[]): boolean => {
    const cache = new DefinitionCache();
    cache.startRun();
    fill(cache, n);
    cache.startRun();
    for (const i of readInSecond) cache.definition(state(base, { name: `t${i}` }));
    cache.startRun();
    const before = cache.built;
    cache.definition(state(base, { name: 't1' }));
    return cache.built === before;
  };

  it('forgets them once more than twice the used tools plus 100 are held', () => {
    // One tool read: the limit is 102 entries.
    expect(t1Kept(102, [0])).toBe(true);
    expect(t1Kept(103, [0])).toBe(false);
    // The tools read are kept.
    expect(t1Kept(103, [0, 1])).toBe(true);
    // Two tools read: the limit is 104.
    expect(t1Kept(104, [0, 2])).toBe(true);
    expect(t1Kept(105, [0, 2])).toBe(false);
  });

  it('forgets nothing after a run that read no tool', () => {
    expect(t1Kept(300, [])).toBe(true);
  });

  it('counts a tool read through kept as used', () => {
    const cache = new DefinitionCache();
    fill(cache, 103);
    cache.startRun();
    cache.kept(state(base, { name: 't1' }));
    cache.startRun();
    const before = cache.built;
    cache.definition(state(base, { name: 't1' }));
    expect(cache.built).toBe(before);
    cache.definition(state(base, { name: 't2' }));
    expect(cache.built).toBe(before + 1);
  });
});
