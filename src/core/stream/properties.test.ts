// Property tests (fast-check) over random configs and random command sequences,
// run end to end through scenario text:
//   - offered ⊆ permitted;
//   - no off tool is permitted unless it is forced;
//   - searchable tools are always discoverable (and permitted, not offered);
//   - registration never turns off along a stream, and starts exactly at the first
//     config position holding a discoverable tool;
//   - positions derived incrementally equal positions derived from scratch, and the engine's
//     searchable candidates agree with the sets' rule;
//   - the sets at every position after a layer edit of values (a keystroke: the derivation rebases
//     the engine, whose fork moves the parent's sets by the patched tools) equal computeSets;
//   - loading never throws: random and garbled layer and scenario texts only diagnose.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadLayer } from '../config/layer';
import type { LoadedLayer } from '../config/layer';
import { parseCommand } from '../cli/parse';
import { parseScenario } from '../scenario/parse';
import { checkScenario } from '../scenario/report';
import { layer, scenario, step } from '../scenario/test-helpers';
import { Derivation } from '../turn/derivation';
import { runScenario } from '../turn/run';
import type { Timeline } from '../turn/timeline';
import { StreamEngine } from './engine';
import type { ToolState } from './engine';
import { computeSets, isSearchable } from './sets';
import type { SimServer } from '../catalogue/resolve';

const NAMES = ['a', 'b', 'c', 'deploy', 'grep', '__proto__', 'constructor', 'ünï', 'x1', 'x2'];
const ENABLES = [
  'true', 'false', '"on"', '"off"', '"true"', '"false"', '"always"', '"explicit"', '"discoverable"',
  '{ availability = "on" }', '{ availability = "off" }', '{ availability = "discoverable" }',
  '{ allow_toggle = "any" }', '{ allow_toggle = "never" }', '{ allow_toggle = "if_named" }', '{ allow_toggle = "if_named_or_group" }',
  '{ state = true }', '{ state = false }', '{}',
  '{ availability = "discoverable", allow_toggle = "never" }', '{ availability = "off", allow_toggle = "never" }',
  '{ availability = "on", allow_toggle = "if_named" }',
];
const CFG_VALUES = ['on', 'off', 'discoverable', 'explicit', 'always', 'true', 'false'];
const SOURCES = ['"local"', '"local"', '"local"', '"mcp.up"', '"mcp.down"', '"mcp.nowhere"'];

const SERVERS = `[servers.up]\ntools = [ ${NAMES.map((n) => `{ name = ${JSON.stringify(n)}, description = "Tool ${n}.", inputSchema = { type = "object" } }`).join(', ')} ]\n[servers.down]\nstatus = "offline"\n`;

const toolArb = fc.record({
  name: fc.constantFrom(...NAMES),
  enable: fc.option(fc.constantFrom(...ENABLES), { nil: undefined }),
  source: fc.constantFrom(...SOURCES),
});
const layerArb = fc.record({
  star: fc.option(fc.constantFrom(...ENABLES), { nil: undefined }),
  tools: fc.uniqueArray(toolArb, { selector: (t) => t.name, maxLength: 8 }),
});
type Of<A> = A extends fc.Arbitrary<infer T> ? T : never;
type LayerSpec = Of<typeof layerArb>;

/** A layer's text; `bare` writes only enable (what directives, promotions and most --cfg deltas carry). */
function layerText(l: LayerSpec, bare = false): string {
  const parts: string[] = [];
  if (l.star !== undefined) parts.push(`[conversation.tools.'*']\nenable = ${l.star}\n`);
  for (const t of l.tools) {
    const body = bare && t.enable !== undefined ? '' : `source = ${t.source}\nsummary = "Tool ${t.name} does things."\n`;
    parts.push(`[conversation.tools.${JSON.stringify(t.name)}]\n${body}${t.enable !== undefined ? `enable = ${t.enable}\n` : ''}`);
  }
  return parts.join('');
}

const nameArb = fc.constantFrom(...NAMES, 'nosuch', 'describe_tools', 'search_tools');
const directiveArb = fc.oneof(
  fc.constantFrom('-t', '-T'),
  fc.tuple(fc.constantFrom('-t', '-T'), nameArb).map(([f, n]) => `${f} ${n}`),
);
const cfgArb = fc
  .tuple(fc.constantFrom(...NAMES, "'*'"), fc.constantFrom('', '.availability', '.allow_toggle', '.state'), fc.constantFrom(...CFG_VALUES, 'never', 'if_named', 'any'))
  .map(([n, k, v]) => `--cfg 'conversation.tools.${n}.enable${k}=${v}'`);
const useArb = fc.option(fc.oneof(fc.constantFrom('-U', '-u true', '-u false'), nameArb.map((n) => `-u ${n}`)), { nil: undefined });

const searchCycle = (query: string): string =>
  `[[steps.cycles]]\ncalls = [ { tool = "search_tools", args = { query = ${JSON.stringify(query)} } } ]\n[[steps.cycles]]\nreply = "ok"\n`;

const stepArb = fc.oneof(
  { weight: 5, arbitrary: fc.record({ cfg: fc.array(cfgArb, { maxLength: 2 }), directives: fc.array(directiveArb, { maxLength: 3 }), use: useArb, search: fc.option(fc.constantFrom('tool', 'deploy', 'a', 'does'), { nil: undefined }) }).map((s) =>
      step(`jp q ${s.cfg.join(' ')} 'query' ${s.directives.join(' ')}${s.use ? ` ${s.use}` : ''}`, undefined, s.search ? searchCycle(s.search) : '')) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...NAMES, "'*'"), fc.constantFrom(...CFG_VALUES)).map(([n, v]) => step(`jp config set --id conversation.tools.${n}.enable=${v}`)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...CFG_VALUES)).map(([n, v]) => step(`jp config set conversation.tools.${n}.enable=${v}`)) },
);

const scenarioArb = fc.record({
  layers: fc.array(layerArb, { minLength: 1, maxLength: 2 }),
  steps: fc.array(stepArb, { maxLength: 6 }),
  forcedOff: fc.constantFrom('allow', 'reject'),
});

function buildScenario(s: Of<typeof scenarioArb>): string {
  return scenario(
    `[policy]\nranking = "substring"\nforced_off_tool = "${s.forcedOff}"\n`,
    SERVERS,
    ...s.layers.map((l, i) => layer(layerText(l), i === s.layers.length - 1 ? 'workspace' : `layer${i}`)),
    ...s.steps,
  );
}

function run(text: string): Timeline {
  const parsed = parseScenario(text);
  if (!parsed.ok) throw new Error(`generated scenario does not parse: ${parsed.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('; ')}\n${text}`);
  return runScenario({ scenario: parsed.scenario });
}

function checkInvariants(t: Timeline): void {
  // Requests (with their forced tool) and plain positions.
  const views = [
    ...t.requests.map((r) => ({ sets: r.sets, states: t.statesAt(r.position), forced: r.forced, registered: r.registered, position: r.position })),
    ...t.positions.map((p) => ({ sets: t.setsAt(p.index), states: t.statesAt(p.index), forced: undefined, registered: p.registered, position: p.index })),
  ];
  for (const v of views) {
    const permitted = new Set(v.sets.permitted);
    const offered = new Set(v.sets.offered);
    for (const n of v.sets.offered) expect(permitted.has(n), `offered ${n} not permitted`).toBe(true);
    for (const s of v.states.values()) {
      const a = s.enable.availability.value;
      if (a === 'off' && permitted.has(s.name)) expect(s.name, `off tool ${s.name} permitted`).toBe(v.forced);
      if (permitted.has(s.name) && s.name !== v.forced) expect(offered.has(s.name)).toBe(a === 'on');
    }
    for (const n of v.sets.searchable) {
      expect(v.states.get(n)?.enable.availability.value, `searchable ${n}`).toBe('discoverable');
      expect(permitted.has(n)).toBe(true);
      expect(offered.has(n)).toBe(false);
    }
    expect(offered.has('describe_tools') && permitted.has('describe_tools')).toBe(true);
    expect(offered.has('search_tools')).toBe(v.registered);
    expect(new Set(v.sets.offered).size).toBe(v.sets.offered.length);
  }
  // search_tools finds only what its request's searchable set holds: a forced (-u) tool is offered, not searchable.
  for (const c of t.calls) {
    if (!c.search) continue;
    const r = t.requests.find((x) => x.step === c.step && x.cycle === c.cycle);
    const searchable = new Set(r?.sets.searchable);
    for (const hit of c.search.returned) expect(searchable.has(hit.name), `search_tools returned ${hit.name}, not searchable${r?.forced === hit.name ? ' (forced)' : ''}`).toBe(true);
  }
  // Registration: monotone, and on from the first position with a configured discoverable tool.
  let ever = false;
  for (const p of t.positions) {
    ever ||= [...t.statesAt(p.index).values()].some((s) => s.enable.availability.value === 'discoverable');
    expect(p.registered, `registration at position ${p.index}`).toBe(ever);
  }
  for (const r of t.requests) expect(r.registered).toBe(t.positions[r.position]?.registered);
  // Nothing in the run was an internal error.
  for (const e of t.entries) if (e.kind === 'step') expect(e.error ?? '').not.toMatch(/internal error/);
}

describe('properties over random configs and command sequences', () => {
  it('offered ⊆ permitted; off is permitted only when forced; searchable ⊆ discoverable ∩ permitted − offered; registration monotone', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        checkInvariants(run(buildScenario(s)));
      }),
      { numRuns: 250 },
    );
  });

  it('a tool forced with -u is offered, and a search in its turn never returns it (it is not searchable)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NAMES), fc.subarray(NAMES), fc.constantFrom('substring', 'bm25'), (forced, others, ranking) => {
        const tools = [...new Set([forced, ...others])].map((name) => ({ name, enable: undefined, source: '"local"' }));
        const t = run(scenario(`[policy]\nranking = "${ranking}"\n`, layer(layerText({ star: '"discoverable"', tools })), step(`jp q 'query' -u ${forced}`, undefined, searchCycle('tool does things'))));
        expect(t.requests[0]?.forced).toBe(forced);
        checkInvariants(t);
      }),
      { numRuns: 20 },
    );
  });

  it('directives never change \'*\'', () => {
    fc.assert(
      fc.property(layerArb, fc.array(fc.array(directiveArb, { minLength: 1, maxLength: 4 }), { maxLength: 5 }), (l, lines) => {
        const t = run(scenario(SERVERS, layer(layerText(l)), ...lines.map((d) => step(`jp q 'x' ${d.join(' ')}`))));
        for (const p of t.positions) expect(p.defaults).toBe(t.positions[0]?.defaults);
      }),
      { numRuns: 150 },
    );
  });

  it('a failing step changes nothing; a step that runs appends at most one position before its turn', () => {
    fc.assert(
      fc.property(layerArb, fc.array(fc.array(fc.oneof(directiveArb, cfgArb), { maxLength: 4 }), { maxLength: 5 }), (l, lines) => {
        const t = run(scenario(SERVERS, layer(layerText(l)), ...lines.map((d) => step(`jp q 'x' ${d.join(' ')}`))));
        const steps = t.entries.filter((e) => e.kind === 'step');
        for (const e of steps) {
          if (e.kind !== 'step') continue;
          const deltas = t.entries.filter((x) => x.kind === 'delta' && x.step === e.step && x.cycle === undefined);
          expect(deltas.length).toBeLessThanOrEqual(e.error === undefined ? 1 : 0);
          if (e.error !== undefined) expect(t.requests.some((r) => r.step === e.step)).toBe(false);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('the incremental engine equals a from-scratch derivation', () => {
  const servers = new Map<string, SimServer>([
    ['up', { name: 'up', status: 'running', tools: new Map(NAMES.map((n) => [n, { name: n, description: '', inputSchema: { type: 'object' } }])) }],
    ['down', { name: 'down', status: 'offline', tools: new Map() }],
  ]);
  it('the searchable set by order follows layer edits that reorder, add and remove tools', () => {
    fc.assert(
      fc.property(fc.array(layerArb, { minLength: 2, maxLength: 4 }), (layers) => {
        const loaded = layers.map((l, i) => loadLayer({ name: `w${i}`, text: layerText(l) }));
        const engine = new StreamEngine([loaded[0] as LoadedLayer], servers);
        for (const [i, l] of loaded.slice(1).entries()) {
          engine.replaceLayers([l], { kind: 'layer-edit', layer: 'w', detail: '', step: i + 1 });
          const searchable = new Set<number>();
          for (const st of engine.currentStates()) if (isSearchable(st, undefined)) searchable.add(st.order);
          for (let o = 0; o < NAMES.length + 2; o++) expect(engine.searchableOrderNow(o), `order ${o}`).toBe(searchable.has(o));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('statesAt(i) and its sets equal an engine built from the base plus the first i deltas', () => {
    fc.assert(
      fc.property(layerArb, fc.array(fc.tuple(layerArb, fc.boolean()), { maxLength: 8 }), (base, deltas) => {
        const baseLayer = loadLayer({ name: 'w', text: layerText(base) });
        const deltaLayers: LoadedLayer[] = deltas.map(([d, bare], i) => loadLayer({ name: `d${i}`, text: layerText(d, bare) }));
        const engine = new StreamEngine([baseLayer], servers);
        // Deltas that change nothing append no position: remember which delta made each position.
        const madeBy: number[] = [-1];
        deltaLayers.forEach((d, k) => {
          if (engine.applyDelta(d.config, { sources: ['config-set'], detail: '', step: 1 })) madeBy.push(k);
        });
        const positions = engine.positions.length;
        expect(madeBy).toHaveLength(positions);
        // The engine's own answer to "may search return it" agrees with the sets' rule at the newest position.
        for (const n of [...NAMES, 'nosuch']) {
          const st = engine.state(n);
          expect(engine.searchableNow(n), `searchableNow ${n}`).toBe(st !== undefined && isSearchable(st, undefined));
          // And by order, as a search document asks.
          if (st) expect(engine.searchableOrderNow(st.order), `searchableOrderNow ${n}`).toBe(isSearchable(st, undefined));
        }
        expect(engine.searchableOrderNow(engine.toolOrder.length), 'past the last tool').toBe(false);
        // Read positions out of order, so snapshots and replays are both exercised.
        const order = [...Array(positions).keys()].reverse();
        for (const i of order) {
          const made: LoadedLayer[] = deltaLayers.slice(0, (madeBy[i] ?? -1) + 1);
          const scratch = new StreamEngine([baseLayer, ...made], servers);
          // Values, and which field decided them (the tool's, '*' or the fallback). Not which layer or delta:
          // the engine drops a restated value, as JP diffs a delta, while a layer restating it takes over.
          const view = (states: Iterable<ToolState>) =>
            [...states].map((s) => `${s.name}:${s.enable.availability.value}(${s.enable.availability.from})/${s.enable.allowToggle.value}(${s.enable.allowToggle.from})`);
          expect(view(engine.statesAt(i).values())).toEqual(view(scratch.currentStates()));
          expect(computeSets(engine.statesAt(i).values(), { registered: false })).toEqual(computeSets(scratch.currentStates(), { registered: false }));
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('the sets after a layer edit of values, moved rather than computed afresh', () => {
  /** A keystroke in the workspace layer: one tool's enable or source rewritten, the tools and their order kept. */
  const keystrokeArb = fc.record({ tool: fc.nat(), enable: fc.option(fc.constantFrom(...ENABLES), { nil: undefined }), source: fc.constantFrom(...SOURCES) });
  /** Steps that each name one tool or none, so the steps before the edited tool's first mention are kept (a rebase past position 0). */
  const narrowStepArb = fc.oneof(
    fc.constant(step("jp q 'x'")),
    fc.tuple(fc.constantFrom('-t', '-T'), fc.constantFrom(...NAMES)).map(([f, n]) => step(`jp q 'x' ${f} ${n}`)),
    fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom('on', 'off', 'discoverable')).map(([n, v]) => step(`jp q 'x' --cfg 'conversation.tools.${n}.enable=${v}'`)),
  );
  /**
   * The scenario with each tool's lines at a fixed width: an edit keeps the text's length, so the
   * steps after the layers keep their spans and the derivation keeps the steps the edit cannot reach
   * (as in the workbench, where each layer is a text of its own).
   */
  const buildPadded = (s: Of<typeof scenarioArb>): string => {
    const pad = (line: string): string => line.padEnd(72, ' ');
    const text = (l: LayerSpec): string =>
      (l.star !== undefined ? `[conversation.tools.'*']\nenable = ${l.star}\n` : '') +
      l.tools.map((t) => `[conversation.tools.${JSON.stringify(t.name)}]\n${pad(`source = ${t.source}`)}\n${pad(t.enable !== undefined ? `enable = ${t.enable}` : '#')}\n`).join('');
    return scenario(`[policy]\nranking = "substring"\nforced_off_tool = "${s.forcedOff}"\n`, SERVERS, ...s.layers.map((l, i) => layer(text(l), i === s.layers.length - 1 ? 'workspace' : `layer${i}`)), ...s.steps);
  };
  const narrowArb = fc.record({ layers: fc.array(layerArb, { minLength: 1, maxLength: 2 }), steps: fc.array(narrowStepArb, { minLength: 1, maxLength: 6 }), forcedOff: fc.constantFrom('allow', 'reject') });

  it('equal computeSets over the states at every position, after each of random value edits of a layer', () => {
    let moved = 0;
    let kept = 0;
    fc.assert(
      fc.property(fc.oneof(scenarioArb, narrowArb), fc.array(keystrokeArb, { minLength: 1, maxLength: 5 }), (s, keystrokes) => {
        const derivation = new Derivation();
        const parse = (spec: Of<typeof scenarioArb>) => {
          const parsed = parseScenario(buildPadded(spec));
          if (!parsed.ok) throw new Error('generated scenario does not parse');
          return parsed.scenario;
        };
        derivation.run({ scenario: parse(s) });
        let spec = s;
        for (const k of keystrokes) {
          const layers = spec.layers.slice();
          const last = layers[layers.length - 1] as LayerSpec;
          if (last.tools.length === 0) return;
          const at = k.tool % last.tools.length;
          layers[layers.length - 1] = { ...last, tools: last.tools.map((t, i) => (i === at ? { ...t, enable: k.enable, source: k.source } : t)) };
          spec = { ...spec, layers };
          const t = derivation.run({ scenario: parse(spec) });
          const stats = derivation.last;
          if (stats && !stats.restarted && stats.toolsReresolved > 0) {
            moved++;
            if (stats.stepsReused > 0) kept++;
          }
          for (const p of t.positions) {
            const states = [...t.statesAt(p.index).values()].sort((a, b) => a.order - b.order);
            const want = computeSets(states, { registered: p.registered, appended: p.appended });
            const got = t.setsAt(p.index);
            const plain = (x: typeof got) => ({ configured: x.configured, permitted: x.permitted, offered: x.offered, searchable: x.searchable, servers: x.servers, catalogue: x.catalogue, sizes: x.sizes });
            expect(plain(got), `position ${p.index}`).toEqual(plain(want));
          }
        }
      }),
      { numRuns: 250 },
    );
    // The path under test was taken: edits re-resolved tools over a rebased engine, not a restart.
    expect(moved).toBeGreaterThan(20);
    // And past position 0: steps kept, the fork's sets at the rebase point moved from the parent's.
    expect(kept).toBeGreaterThan(10);
  });
});

describe('loading never throws, it only diagnoses', () => {
  const VALID_LAYER = layerText({
    star: '{ allow_toggle = "if_named" }',
    tools: [
      { name: 'a', enable: '"discoverable"', source: '"local"' },
      { name: 'b', enable: '{ availability = "off", allow_toggle = "never" }', source: '"mcp.up"' },
    ],
  }) + `[conversation.tools.a.parameters.p]\ntype = "string"\nrequired = true\nitems = { type = "string" }\n[providers.mcp.up]\ncommand = "x"\n`;
  const VALID_SCENARIO = scenario(
    '[policy]\nranking = "substring"\n',
    SERVERS,
    layer(VALID_LAYER),
    step("jp q -t a 'x' -u b", 'availability = { a = "on" }', `[[steps.cycles]]\ncalls = [ { tool = "a", args = { p = "x" }, expect = { status = "ok" } } ]\n[steps.cycles.expect]\noffered_includes = ["a"]\n[[steps.cycles]]\nreply = "ok"\n`),
    step('jp config set conversation.tools.a.enable=off', 'layer_contains = { workspace = ["off"] }'),
  ) + '[load]\nerror = "nothing"\n';

  /** Garbles a text: deletes, duplicates or inserts characters at random places. */
  const garbled = (text: string) =>
    fc
      .array(fc.tuple(fc.nat(text.length), fc.nat(8), fc.constantFrom('', '"', "'", '[', ']', '{', '}', '=', '\n', ',', '.', '#', '\\', '"""', "'''", '\u0000', '🚀', 'enable', '*')), { minLength: 1, maxLength: 6 })
      .map((edits) => {
        let t = text;
        for (const [at, del, ins] of edits) {
          const i = Math.min(at, t.length);
          t = t.slice(0, i) + ins + t.slice(i + del);
        }
        return t;
      });

  const layerNeverThrows = (text: string): void => {
    const l = loadLayer({ name: 'w', text });
    expect(Array.isArray(l.diagnostics)).toBe(true);
    for (const d of l.diagnostics) {
      expect(d.message).not.toMatch(/internal error/);
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.column).toBeGreaterThanOrEqual(1);
    }
  };

  it('random layer texts', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), layerNeverThrows), { numRuns: 300 });
  });

  it('garbled layer texts', () => {
    fc.assert(fc.property(garbled(VALID_LAYER), layerNeverThrows), { numRuns: 300 });
  });

  it('random TOML-shaped layer texts', () => {
    const value = fc.oneof(fc.constantFrom(...ENABLES, '1', '1.5', '[]', '[1, "a"]', '{ a = { b = 1 } }', '1979-05-27'), fc.string({ maxLength: 10 }).map((s) => JSON.stringify(s)));
    const key = fc.constantFrom('enable', 'source', 'summary', 'parameters', 'run', 'state', 'availability', 'allow_toggle', 'bogus', '"__proto__"', 'type', 'items');
    const header = fc.constantFrom('[conversation.tools.a]', "[conversation.tools.'*']", '[conversation.tools.a.enable]', '[conversation.tools.a.parameters.p]', '[providers.mcp.x]', '[conversation]', '[[conversation.tools]]', '');
    const text = fc.array(fc.tuple(header, fc.array(fc.tuple(key, value), { maxLength: 4 })), { maxLength: 5 }).map((sections) =>
      sections.map(([h, kvs]) => `${h}\n${kvs.map(([k, v]) => `${k} = ${v}`).join('\n')}\n`).join(''),
    );
    fc.assert(fc.property(text, layerNeverThrows), { numRuns: 300 });
  });

  const scenarioNeverThrows = (text: string): void => {
    const r = checkScenario('s.toml', text);
    for (const e of r.fileErrors) {
      expect(e.message).not.toMatch(/internal error/);
      expect(e.line).toBeGreaterThanOrEqual(1);
    }
    if (r.timeline) for (const e of r.timeline.entries) if (e.kind === 'step') expect(e.error ?? '').not.toMatch(/internal error/);
  };

  it('random scenario texts', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), scenarioNeverThrows), { numRuns: 200 });
  });

  it('garbled scenario texts', () => {
    fc.assert(fc.property(garbled(VALID_SCENARIO), scenarioNeverThrows), { numRuns: 300 });
  });

  it('random command lines', () => {
    const word = fc.oneof(fc.constantFrom('jp', 'q', 'query', 'config', 'set', '--id', '--layer', '-t', '-T', '-u', '-U', '--cfg', '--', "'", '"', '\\', 'a', 'conversation.tools.a.enable=off', 'conversation.tools.a.enable:={', "conversation.tools.'*'.enable:=true"), fc.string({ maxLength: 8 }));
    const line = fc.array(word, { maxLength: 8 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(line, (l) => {
        const parsed = parseCommand(l);
        if (!parsed.ok) expect(parsed.error.column).toBeGreaterThanOrEqual(1);
        const t = run(scenario(layer(VALID_LAYER), step(l)));
        for (const e of t.entries) if (e.kind === 'step') expect(e.error ?? '').not.toMatch(/internal error/);
      }),
      { numRuns: 200 },
    );
  });
});
