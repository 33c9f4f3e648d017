// `tool-workbench check --json` and the UI's "export timeline" are read by scripts: each field of
// timelineToJson must carry what the timeline holds, under its documented name, and the optional parts
// (bodies, prompt-cache figures, a search, a write, a finding's tool) must appear exactly when asked for
// or present.
import { describe, expect, it } from 'vitest';
import { costOfTimeline } from '../cost/conversation';
import { approximateTokenCounter } from '../providers/cost';
import { DEFAULT_PRICE_TABLE } from '../providers/prices';
import type { ExpectationResult } from '../scenario/expectations';
import { timelineToJson } from './serialize';
import { call, layer, run, runAndCheck, search, turn } from './test-kit';

/* eslint-disable @typescript-eslint/no-explicit-any -- the JSON is untyped by design; the tests read it as a script would */
const json = (...args: Parameters<typeof timelineToJson>): any => timelineToJson(...args);

// A search that promotes alpha, a write that turns gamma on, under '*' = discoverable.
const promoted = () =>
  run({
    layer: layer({ alpha: { summary: 'Feed the kangaroo.' }, beta: { enable: '"on"', summary: 'Other.' }, gamma: { enable: '{ allow_toggle = "never" }' } }),
    body: turn("jp q 'x'", [[search('kangaroo'), call('beta', 'writes = ["conversation.tools.gamma.enable=on"], approved = true')]]),
  });

// No '*' table, a tool name Anthropic refuses, an empty prompt, a forced tool.
const refused = () =>
  run({
    layer: layer({ alpha: { summary: 'A.' }, 'bad.name': { enable: '"on"', summary: 'Other.' } }, {}),
    body: turn("jp q -u bad.name ''", [[call('bad.name')]]),
  });

describe('timelineToJson: positions', () => {
  it('says where each availability comes from: the defaults table, a layer, a delta (promotion or write), the fallback', () => {
    const j = json(promoted(), []);
    expect(j.positions.map((p: any) => p.index)).toEqual([0, 1]);
    expect(j.positions[0].event).toEqual({ kind: 'base' });
    expect(j.positions[1].event).toEqual(expect.objectContaining({ kind: 'delta', delta: 1, step: 1, cycle: 1 }));
    expect(j.positions[0].availability).toEqual({
      alpha: { availability: 'discoverable', allow_toggle: 'any', why: "'*' in layer workspace" },
      beta: { availability: 'on', allow_toggle: 'any', why: 'layer workspace' },
      gamma: { availability: 'discoverable', allow_toggle: 'never', why: "'*' in layer workspace" },
    });
    expect(j.positions[1].availability).toEqual({
      alpha: { availability: 'on', allow_toggle: 'any', why: 'delta 1 (promotion: search_tools("kangaroo"))' },
      beta: { availability: 'on', allow_toggle: 'any', why: 'layer workspace' },
      gamma: { availability: 'on', allow_toggle: 'any', why: 'delta 1 (tool-write: beta: conversation.tools.gamma.enable=on)' },
    });
    expect(Object.getPrototypeOf(j.positions[0].availability)).toBeNull();
    expect(json(refused(), []).positions[0].availability.alpha).toEqual({ availability: 'on', allow_toggle: 'any', why: 'default' });
  });

  it('gives each position its sets in config order and whether search_tools is registered', () => {
    const j = json(promoted(), []);
    const { index: _i, event: _e, availability: _a, ...rest } = j.positions[0];
    expect(rest).toEqual({
      search_tools: true,
      configured: ['alpha', 'beta', 'gamma', 'describe_tools', 'search_tools'],
      permitted: ['alpha', 'beta', 'gamma', 'describe_tools', 'search_tools'],
      offered: ['beta', 'describe_tools', 'search_tools'],
      searchable: ['alpha', 'gamma'],
      servers: [],
    });
    expect(j.positions[1].offered).toEqual(['alpha', 'beta', 'gamma', 'describe_tools', 'search_tools']);
    expect(j.positions[1].searchable).toEqual([]);
    expect(json(refused(), []).positions[0].search_tools).toBe(false);
  });
});

describe('timelineToJson: requests', () => {
  it('gives each request its place, tool choice, sets, array, cost and cache comparison', () => {
    const t = promoted();
    const j = json(t, []);
    expect(j.requests).toHaveLength(2);
    const [first, second] = j.requests;
    expect(first).toEqual({
      step: 1,
      cycle: 1,
      position: 0,
      tool_choice: 'auto',
      offered: ['beta', 'describe_tools', 'search_tools'],
      permitted: ['alpha', 'beta', 'gamma', 'describe_tools', 'search_tools'],
      searchable: ['alpha', 'gamma'],
      servers: [],
      array: ['beta', 'describe_tools', 'search_tools'],
      overhead_chars: t.requests[0]?.cost,
      cache: { status: 'miss', reason: 'first request', summary: 'first request' },
      provider_findings: [],
    });
    expect(first.overhead_chars.offered).toBeGreaterThan(0);
    expect(first.overhead_chars.permitted).toBeGreaterThan(first.overhead_chars.offered);
    expect(second).toEqual(expect.objectContaining({ step: 1, cycle: 2, position: 1, array: ['alpha', 'beta', 'gamma', 'describe_tools', 'search_tools'] }));
    expect(second.cache).toEqual(expect.objectContaining({ status: 'miss', summary: 'prefix changed', firstDifference: { offset: 10, section: 'tools' } }));
  });

  it('names a forced tool as the tool choice, and lists provider findings with their tool when they have one', () => {
    const j = json(refused(), []);
    expect(j.requests[0].tool_choice).toBe('bad.name');
    expect(j.requests[1].tool_choice).toBe('auto');
    const findings = j.requests[0].provider_findings;
    expect(findings).toEqual([
      {
        severity: 'error',
        rule: 'tool-name',
        message: expect.stringContaining('refuses the tool name `bad.name`'),
        tool: 'bad.name',
        source: expect.stringContaining('Anthropic Messages API'),
      },
      { severity: 'error', rule: 'empty-content', message: expect.stringContaining('messages[0] (role user) has an empty text block'), source: expect.stringContaining('Anthropic') },
    ]);
    expect('tool' in findings[1]).toBe(false);
  });

  it('adds the rendered body only with `bodies`', () => {
    const t = promoted();
    expect('body' in json(t, []).requests[0]).toBe(false);
    expect('body' in json(t, [], { bodies: false }).requests[0]).toBe(false);
    const j = json(t, [], { bodies: true });
    expect(j.requests[0].body).toEqual(t.requests[0]?.rendered().body);
    expect(j.requests[0].body.tools.map((x: any) => x.name)).toEqual(['beta', 'describe_tools', 'search_tools']);
  });

  it('with a cost, adds each request prompt-cache figures, the cache summary with its cached tokens, and the totals', () => {
    const t = refused();
    const cost = costOfTimeline(t, { table: DEFAULT_PRICE_TABLE, counter: approximateTokenCounter });
    const j = json(t, [], { cost });
    const [a, b] = cost.requests;
    if (!a || !b) throw new Error('two requests expected');
    expect(j.requests[0].prompt_cache).toEqual({
      input_tokens: a.figures.input,
      cache_read_tokens: a.figures.cacheRead,
      cache_write_tokens: a.figures.cacheWrite,
      uncached_tokens: a.figures.uncached,
      output_tokens: a.output,
      seconds: a.at,
      usd: a.money.total,
      why: a.figures.reason,
    });
    expect(j.requests[0].prompt_cache.input_tokens).toBeGreaterThan(0);
    expect(j.requests[0].prompt_cache.output_tokens).toBeGreaterThan(0);
    expect(j.requests[0].prompt_cache.usd).toBeGreaterThan(0);
    expect(j.requests[0].prompt_cache.why).toMatch(/below the model's minimum of 1024/);
    expect(j.requests[1].prompt_cache.input_tokens).toBe(b.figures.input);
    expect(j.requests[0].cache).toEqual({ status: 'miss', reason: 'first request', summary: 'first request · 0 cached', cached_tokens: 0 });
    // The second request reuses the first one's bytes, but below the model's minimum: the summary says so.
    expect(j.requests[1].cache).toEqual(expect.objectContaining({ status: 'hit', summary: 'prefix reused · below the 1,024-token minimum: 0 cached', cached_tokens: 0 }));
    expect(j.cost).toEqual({
      provider: 'anthropic',
      model: cost.model.id,
      prices: cost.priced,
      tokenizer: 'approx:bytes/4',
      totals: {
        requests: 2,
        input_tokens: a.figures.input + b.figures.input,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        uncached_tokens: a.figures.uncached + b.figures.uncached,
        output_tokens: a.output + b.output,
        usd: cost.totals.money,
      },
    });
    expect(j.cost.prices).toMatch(/^prices of /);
    expect(j.cost.totals.usd).toBeGreaterThan(0);
    const plain = json(t, []);
    expect('cost' in plain).toBe(false);
    expect('prompt_cache' in plain.requests[0]).toBe(false);
  });
});

describe('timelineToJson: calls, header and expectations', () => {
  it('gives each call its place, status and result, with its search and its write only when it has them', () => {
    const j = json(promoted(), []);
    expect(j.calls).toHaveLength(2);
    const [s, w] = j.calls;
    expect(s).toEqual({
      step: 1,
      cycle: 1,
      index: 0,
      tool: 'search_tools',
      status: 'ok',
      result: expect.stringContaining('"name":"alpha"'),
      search: expect.objectContaining({ query: 'kangaroo', returned: [expect.objectContaining({ name: 'alpha', status: 'usable', summary: 'Feed the kangaroo.' })] }),
    });
    expect('write' in s).toBe(false);
    expect(w).toEqual({ step: 1, cycle: 1, index: 1, tool: 'beta', status: 'ok', result: 'beta ran with {}.', write: { proposed: ['conversation.tools.gamma.enable=on'], applied: true } });
    const failed = json(refused(), []).calls[0];
    expect(failed).toEqual({ step: 1, cycle: 1, index: 0, tool: 'bad.name', status: 'ok', result: 'bad.name ran with {}.' });
  });

  it('carries the name, the policy, the diagnostics and every expectation result', () => {
    const { timeline, expectations } = runAndCheck({
      layer: layer({ alpha: { enable: '"on"' } }),
      body: `[[steps]]\ncommand = "jp q 'x'"\n[steps.expect]\noffered = ["alpha", "describe_tools"]\nsearch_tools = true\n`,
    });
    const j = json(timeline, expectations);
    expect(j.name).toBe('test');
    expect(j.policy).toBe(timeline.policy);
    expect(j.policy.provider).toBe('anthropic');
    expect(j.diagnostics).toEqual([]);
    expect(j.expectations).toHaveLength(2);
    expect(j.expectations).toEqual(
      expectations.map((e: ExpectationResult) => ({ where: e.label, key: e.key, expected: e.expected, actual: e.actual, pass: e.pass })),
    );
    expect(j.expectations.map((e: any) => [e.key, e.pass])).toEqual([
      ['offered', true],
      ['search_tools', false],
    ]);
    expect(j.expectations[0].where).not.toBe('');
    expect(j.expectations[1].expected).toBe(true);
    expect(j.expectations[1].actual).toBe(false);
  });
});
