// What sendRequest leaves in the timeline and in the conversation: each request's row, its own
// derivation when consecutive requests at one position force different tools, and availability
// messages under Anthropic directives only (the request panel lists the blocks of any request's
// messages, derive/host.ts).
import { describe, expect, it } from 'vitest';
import { layer, run, turn } from './test-kit';

const TOOLS = layer({ a: { summary: 'Tool a.' }, b: { summary: 'Tool b.' }, c: { enable: '"on"', summary: 'Tool c.' } });

describe('sendRequest', () => {
  it('puts one request row per request in the timeline, in order, with its step, cycle and position', () => {
    const t = run({ layer: TOOLS, body: [turn("jp q 'one'", [['{ tool = "c", args = {} }']]), turn("jp q 'two'", [])].join('\n') });
    const rows = t.entries.filter((e) => e.kind === 'request');
    expect(rows).toEqual(t.requests.map((r) => ({ kind: 'request', step: r.step, cycle: r.cycle, request: r.id, position: r.position })));
    expect(rows.map((e) => (e.kind === 'request' ? [e.step, e.cycle, e.request] : []))).toEqual([
      [1, 1, 0],
      [1, 2, 1],
      [2, 1, 2],
    ]);
  });

  it('two invocations at one position forcing different tools each get their own sets', () => {
    const t = run({ layer: TOOLS, body: [turn("jp q -u a 'one'", []), turn("jp q -u b 'two'", []), turn("jp q 'three'", [])].join('\n') });
    expect(new Set(t.requests.map((r) => r.position)).size).toBe(1);
    // Read in run order: each request derives after the previous one's derivation was kept.
    expect(t.requests.map((r) => [r.forced, r.sets.offered])).toEqual([
      ['a', ['a', 'c', 'describe_tools', 'search_tools']],
      ['b', ['b', 'c', 'describe_tools', 'search_tools']],
      [undefined, ['c', 'describe_tools', 'search_tools']],
    ]);
  });

  it('adds availability messages under Anthropic directives only', () => {
    const messages = (provider: string) =>
      run({ policy: { provider }, layer: TOOLS, body: [turn("jp q 'one'", [['{ tool = "search_tools", args = { query = "tool" } }']]), turn("jp q 'two'", [])].join('\n') })
        .requests.flatMap((r) => r.messages)
        .filter((m) => m.kind === 'tool-availability');
    expect(messages('anthropic')).toEqual([]);
    expect(messages('openai')).toEqual([]);
    expect(messages('anthropic-directives').length).toBeGreaterThan(0);
  });
});
