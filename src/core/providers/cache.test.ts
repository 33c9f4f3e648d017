import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareCache } from './cache';
import { utf8ByteLength } from './cost';
import { renderRequest } from './render';
import type { RenderInput } from './render';
import { PROVIDER_IDS } from './types';
import type { ConversationMessage, ProviderId } from './types';
import { makeTool } from './test-helpers';

const a = makeTool('alpha', 'Älpha — first.', [{ name: 'x', schema: { type: 'string' }, required: true }]);
const b = makeTool('beta', 'Beta.');
const c = makeTool('gamma', 'Gamma.');

const turn1: ConversationMessage[] = [{ kind: 'user', text: 'find a deploy tool' }];
const turn2: ConversationMessage[] = [
  ...turn1,
  { kind: 'assistant', toolCalls: [{ id: 's1', name: 'search_tools', arguments: { query: 'deploy' } }] },
  { kind: 'tool-result', callId: 's1', name: 'search_tools', content: 'beta: promoted', isError: false },
];

function render(provider: ProviderId, over: Partial<RenderInput> = {}) {
  return renderRequest({ provider, tools: [a, c], toolChoice: { kind: 'auto' }, system: 'sys', messages: turn1, ...over });
}

describe('compareCache', () => {
  it('the first request is a miss', () => {
    expect(compareCache(undefined, render('anthropic'))).toEqual({ status: 'miss', reason: 'first request' });
  });

  it.each(PROVIDER_IDS)('%s: identical requests hit', (provider) => {
    const r = compareCache(render(provider), render(provider));
    expect(r.status).toBe('hit');
    expect(r.firstDifference).toBeUndefined();
  });

  it.each(PROVIDER_IDS)('%s: appended messages hit', (provider) => {
    expect(compareCache(render(provider), render(provider, { messages: turn2 })).status).toBe('hit');
  });

  it.each(PROVIDER_IDS.filter((p) => p !== 'anthropic-directives'))(
    '%s: a promotion inserting a tool in the middle misses inside tools',
    (provider) => {
      const prev = render(provider);
      const cur = render(provider, { tools: [a, b, c], messages: turn2 });
      const r = compareCache(prev, cur);
      expect(r.status).toBe('miss');
      expect(r.firstDifference?.section).toBe('tools');
      const offset = r.firstDifference?.offset ?? -1;
      // Past the first tool (alpha, which has non-ASCII text), before the end of the tools section.
      expect(offset).toBeGreaterThan(utf8ByteLength(JSON.stringify(a.name)));
      expect(offset).toBeLessThan(utf8ByteLength(cur.toolsJson));
      expect(r.reason).toContain('tools array');
    },
  );

  it('the offset is in UTF-8 bytes', () => {
    const prev = render('anthropic');
    const cur = render('anthropic', { tools: [a, b, c] });
    const r = compareCache(prev, cur);
    let i = 0;
    while (prev.bytes[i] === cur.bytes[i]) i++;
    expect(r.firstDifference?.offset).toBe(new TextEncoder().encode(cur.bytes.slice(0, i)).length);
    expect(r.firstDifference?.offset).toBeGreaterThan(i); // Ä and — are multi-byte
  });

  it('anthropic directives mode: a fixed array plus a tool_addition block hits', () => {
    const catalogue = [a, b, c];
    const first: ConversationMessage[] = [
      { kind: 'tool-availability', blocks: [{ type: 'tool_availability', tools: ['alpha', 'gamma'] }] },
      ...turn1,
    ];
    const prev = render('anthropic-directives', { tools: catalogue, messages: first });
    const cur = render('anthropic-directives', {
      tools: catalogue,
      messages: [
        ...first,
        ...turn2.slice(1),
        { kind: 'tool-availability', blocks: [{ type: 'tool_addition', tools: ['beta'] }] },
      ],
    });
    expect(cur.messagesJson).toContain('"tool_addition"');
    expect(compareCache(prev, cur).status).toBe('hit');
  });

  it('a changed system prompt misses in the system section', () => {
    const r = compareCache(render('openai'), render('openai', { system: 'other' }));
    expect(r.status).toBe('miss');
    expect(r.firstDifference?.section).toBe('system');
  });

  it('Ollama: a forced-choice nudge at the end of the history breaks the next prefix', () => {
    const prev = render('ollama', { toolChoice: { kind: 'function', name: 'alpha' } });
    const r = compareCache(prev, render('ollama', { messages: turn2 }));
    expect(r.status).toBe('miss');
    expect(r.firstDifference?.section).toBe('messages');
  });

  it('a request shorter than the previous one misses at its end', () => {
    const r = compareCache(render('cerebras', { messages: turn2 }), render('cerebras'));
    expect(r.status).toBe('miss');
    expect(r.firstDifference?.section).toBe('messages');
    expect(r.firstDifference?.offset).toBe(utf8ByteLength(render('cerebras').bytes));
  });
});

describe('compareCache over long prefixes (blocks compared natively, then unit by unit)', () => {
  const naive = (x: string, y: string): number => {
    let i = 0;
    while (i < x.length && i < y.length && x.charCodeAt(i) === y.charCodeAt(i)) i++;
    if (i > 0 && i < Math.min(x.length, y.length) && x.charCodeAt(i - 1) >= 0xd800 && x.charCodeAt(i - 1) <= 0xdbff) i--;
    return i;
  };
  // One tools element holding the text, so the compared bytes are `[${tools}]${messages}`.
  const sectioned = (tools: string, messages: string) => ({ prefix: { tools: [{ text: tools }], system: '', messages: [{ text: messages }] }, bytes: `[${tools}]${messages}` });
  it('finds the first difference at any distance from a 4096-unit block boundary, surrogate pairs kept whole', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), fc.constantFrom('x', 'é', '😀', '\ud800'), fc.constantFrom('y', 'ü', '😃'), (at, was, is) => {
        const head = 'a'.repeat(at);
        const prev = sectioned(`${head}${was}tail`, 'm\n');
        const cur = sectioned(`${head}${is}tail`, 'm\n');
        const got = compareCache(prev, cur);
        const index = naive(prev.bytes, cur.bytes);
        expect(got.status).toBe('miss');
        expect(got.firstDifference).toEqual({ offset: utf8ByteLength(cur.bytes.slice(0, index)), section: 'tools' });
      }),
      { numRuns: 200 },
    );
  });
});

describe('the tools array serialized element by element', () => {
  it('is the text a whole toJson of the provider\'s tools section writes, for every provider, on a first and a second render', async () => {
    const { toJson } = await import('../json/serde');
    const { providerOf } = await import('./registry');
    const floaty = makeTool('delta', 'Delta.', [{ name: 'n', schema: { type: 'number', minimum: new (await import('../json/serde')).JsonFloat(1) } }]);
    for (const provider of PROVIDER_IDS) {
      const input: RenderInput = { provider, tools: [a, b, c, floaty], toolChoice: { kind: 'auto' }, system: 'sys', messages: turn1 };
      const tools = providerOf(provider).render(input).tools;
      const reference = tools === undefined ? '' : toJson(tools);
      expect(renderRequest(input).toolsJson, provider).toBe(reference);
      expect(renderRequest(input).toolsJson, provider).toBe(reference);
    }
  });
});
