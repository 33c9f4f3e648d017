// The cost of a timeline, the all-on counterfactual and the break-even sweep, on small scenarios whose
// figures are worked by hand from the approximate counter (ceil(bytes / 4)) where a test pins them.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseScenario } from '../scenario/parse';
import { runScenario } from '../turn/run';
import { checkExpectations } from '../scenario/expectations';
import { approximateTokenCounter } from '../providers/cost';
import { DEFAULT_PRICE_TABLE } from '../providers/prices';
import type { PriceTable } from '../providers/prices';
import type { Scenario } from '../scenario/types';
import { costOfTimeline } from './conversation';
import { allOnScenario, compareDiscovery, everDiscoverable } from './counterfactual';
import { breakEven } from './breakeven';
import { splitJsonArray } from './segments';

const counter = approximateTokenCounter;
const table = DEFAULT_PRICE_TABLE;

function scenario(text: string): Scenario {
  const p = parseScenario(text);
  if (!p.ok) throw new Error(p.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('\n'));
  return p.scenario;
}

const run = (s: Scenario) => runScenario({ scenario: s });

/** A catalogue of `n` local tools with long summaries, `discoverable` of them discoverable, and two turns. */
function catalogue(n: number, discoverable: number, provider: string, extra = ''): string {
  const tools = Array.from({ length: n }, (_, i) =>
    `[conversation.tools.tool_${i}]\nsource = "local"\nenable = "${i < n - discoverable ? 'on' : 'discoverable'}"\nsummary = "${'Tool number ' + i + ' does a thing with a fairly long description. '.repeat(6)}"\n`,
  ).join('\n');
  const last = `tool_${n - 1}`;
  return `name = "cost"\n[policy]\nprovider = "${provider}"\nranking = "substring"\n${extra}\n[[layers]]\nname = "workspace"\ntext = '''\n${tools}'''\n
[[steps]]\ncommand = "jp q 'find it'"\n  [[steps.cycles]]\n  calls = [ { tool = "search_tools", args = { query = "${last}" } } ]\n  [[steps.cycles]]\n  calls = [ { tool = "${last}", args = {} } ]\n  [[steps.cycles]]\n  reply = "done"\n
[[steps]]\ncommand = "jp q 'again'"\nelapsed = "10m"\n  [[steps.cycles]]\n  reply = "ok"\n`;
}

describe('splitJsonArray', () => {
  it.each([
    ['[]', []],
    ['[{"a":1}]', ['[{"a":1}]']],
    ['[{"a":"x,]"},{"b":[1,2]}]', ['[{"a":"x,]"}', ',{"b":[1,2]}]']],
    ['[{"a":"q\\"}"},2]', ['[{"a":"q\\"}"}', ',2]']],
  ])('%s', (json, parts) => {
    expect(splitJsonArray(json)).toEqual(parts);
    expect(splitJsonArray(json).join('')).toBe(json === '[]' ? '' : json);
  });
});

describe('costOfTimeline', () => {
  it('carries the cache through the conversation and lets elapsed time expire it', () => {
    const s = scenario(catalogue(24, 6, 'anthropic'));
    const c = costOfTimeline(run(s), { table, counter });
    // Step 1 has three requests at 0 s, step 2 one at 600 s: past Anthropic's 5 minutes.
    expect(c.requests.map((r) => r.at)).toEqual([0, 0, 0, 600]);
    expect(c.requests[2]?.figures.cacheRead).toBeGreaterThan(0);
    const last = c.requests[3];
    expect(last?.figures.expired).toBeGreaterThan(0);
    expect(last?.figures.cacheRead).toBe(0);
    for (const r of c.requests) expect(r.figures.input).toBe(r.figures.cacheRead + r.figures.cacheWrite + r.figures.uncached);
    expect(c.totals.input).toBe(c.requests.reduce((s2, r) => s2 + r.figures.input, 0));
    expect(c.priced).toBe('prices of 2026-12-01');
  });

  it('a promotion in config order loses what appending keeps (OpenAI)', () => {
    const order = costOfTimeline(run(scenario(catalogue(14, 4, 'openai'))), { table, counter });
    const append = costOfTimeline(run(scenario(catalogue(14, 4, 'openai', 'promoted_position = "append"'))), { table, counter });
    // The request after the promotion (step 1 cycle 2) reads more with the tool appended.
    expect(append.requests[1]?.figures.cacheRead).toBeGreaterThan(order.requests[1]?.figures.cacheRead ?? 0);
  });
});

describe('the all-on counterfactual', () => {
  it('turns every discoverable tool on and drops the searches', () => {
    const s = scenario(catalogue(6, 3, 'openai'));
    const t = run(s);
    expect(everDiscoverable(t)).toEqual(['tool_3', 'tool_4', 'tool_5']);
    const on = run(allOnScenario(s, t));
    expect(on.requests[0]?.sets.offered).toEqual(['tool_0', 'tool_1', 'tool_2', 'tool_3', 'tool_4', 'tool_5', 'describe_tools']);
    expect(on.calls.map((c) => c.tool)).toEqual(['tool_5']);
    expect(on.requests).toHaveLength(3);
  });

  it('reports the variants and the saving', () => {
    const s = scenario(catalogue(30, 26, 'anthropic'));
    const cmp = compareDiscovery(s, run(s), run, { table, counter });
    expect(cmp.variants.map((v) => v.id)).toEqual(['as-configured', 'append', 'directives', 'all-on']);
    const own = cmp.variants[0]?.cost.totals;
    const allOn = cmp.variants[3]?.cost.totals;
    expect(cmp.saving.money).toBeCloseTo((allOn?.money ?? 0) - (own?.money ?? 0), 12);
  });
});

describe('properties', () => {
  const providers = ['anthropic', 'anthropic-directives', 'openai', 'google', 'openrouter', 'cerebras', 'ollama', 'llamacpp'] as const;

  it('cached tokens never exceed the shared prefix, nor the input', () => {
    fc.assert(
      fc.property(fc.constantFrom(...providers), fc.integer({ min: 2, max: 10 }), fc.integer({ min: 0, max: 8 }), fc.boolean(), (provider, n, d, append) => {
        const s = scenario(catalogue(n, Math.min(d, n - 1), provider, append ? 'promoted_position = "append"' : ''));
        const c = costOfTimeline(run(s), { table, counter });
        for (const r of c.requests) {
          expect(r.figures.cacheRead).toBeLessThanOrEqual(r.figures.sharedPrefix);
          expect(r.figures.cacheRead + r.figures.cacheWrite).toBeLessThanOrEqual(r.figures.input);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('all-on and discoverable agree when no tool is discoverable', () => {
    fc.assert(
      fc.property(fc.constantFrom(...providers), fc.integer({ min: 1, max: 12 }), (provider, n) => {
        const text = catalogue(n, 0, provider).replace(/calls = \[ \{ tool = "search_tools"[^\n]*\n/, 'reply = "nothing to search"\n');
        const s = scenario(text);
        const t = run(s);
        const cmp = compareDiscovery(s, t, run, { table, counter });
        const own = cmp.variants[0]?.cost.totals;
        const allOn = cmp.variants.find((v) => v.id === 'all-on')?.cost.totals;
        expect(allOn).toEqual(own);
        expect(cmp.saving.money).toBe(0);
      }),
      { numRuns: 24 },
    );
  });

  it('the directives mode never loses the cache to a promotion', () => {
    const anyMinimum: PriceTable = { ...table, models: table.models.map((m) => (m.provider === 'anthropic' ? { ...m, minCacheTokens: 0 } : m)) };
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 14 }), fc.integer({ min: 1, max: 10 }), (n, d) => {
        const s = scenario(catalogue(n, Math.min(d, n - 1), 'anthropic-directives'));
        const t = run(s);
        const c = costOfTimeline(t, { table: anyMinimum, counter });
        // Every request of the first turn (no time passes) after the first reads the whole array and writes nothing.
        const first = c.requests.filter((r) => r.step === 1);
        for (const r of first.slice(1)) {
          expect(r.figures.cacheWrite).toBe(0);
          expect(r.figures.cacheRead).toBe(first[0]?.figures.cacheWrite);
        }
      }),
      { numRuns: 30 },
    );
  });
});

describe('breakEven', () => {
  const base = {
    table,
    onTools: [200, 200],
    discoverableTools: [400],
    builtins: { describe: 150, search: 250 },
    systemTokens: 40,
    promotedPosition: 'config_order' as const,
    sizes: [0, 1, 2, 5, 10, 20, 40],
    turns: [1, 5],
    discoveries: 1,
  };
  it('at size 0 both runs are one and the same', () => {
    const r = breakEven({ ...base, provider: 'openai' });
    for (const c of r.cells.filter((x) => x.size === 0)) expect(c.saving).toBe(0);
  });
  it('a large catalogue pays and a single tool does not (uncached input, OpenAI)', () => {
    const r = breakEven({ ...base, provider: 'openai' });
    const one = r.cells.find((c) => c.size === 1 && c.turns === 1);
    const big = r.cells.find((c) => c.size === 40 && c.turns === 1);
    expect(one?.saving).toBeLessThan(0);
    expect(big?.saving).toBeGreaterThan(0);
    expect(r.breakEven.find((b) => b.turns === 1)?.size).toBeGreaterThan(1);
    expect(r.unit).toBe('USD');
  });
  it('local runtimes count prefill tokens', () => {
    expect(breakEven({ ...base, provider: 'llamacpp' }).unit).toBe('prefill tokens');
  });
});

describe('cost expectations', () => {
  it('cache_tokens and cost_usd pin a request\'s figures; a wrong pin fails with the actual figures', () => {
    const s = scenario(catalogue(14, 4, 'openai'));
    const t = run(s);
    const c = costOfTimeline(t, { table, counter });
    const r = c.requests[2];
    const text = catalogue(14, 4, 'openai').replace(
      '  [[steps.cycles]]\n  reply = "done"',
      `  [[steps.cycles]]\n  reply = "done"\n  [steps.cycles.expect]\n  cache_tokens = { read = ${r?.figures.cacheRead ?? -1}, input = ${r?.figures.input ?? -1} }\n  cost_usd = ${Math.round((r?.money.total ?? 0) * 1e6) / 1e6}`,
    );
    const results = checkExpectations(scenario(text), t);
    expect(results.map((e) => [e.key, e.pass])).toEqual([['cache_tokens', true], ['cost_usd', true]]);
    const wrong = checkExpectations(scenario(text.replace(/read = \d+/, 'read = 7')), t);
    expect(wrong[0]).toMatchObject({ key: 'cache_tokens', pass: false, actual: { read: r?.figures.cacheRead } });
    const badModel = checkExpectations(scenario(text.replace('cache_tokens = {', 'cache_tokens = { model = "nope",')), t);
    expect(badModel[0]?.actual).toContain('no model "nope"');
  });
});
