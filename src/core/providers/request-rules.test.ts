// The empty-content finding reads only the messages a request adds to the one before (request-rules.ts
// keeps the previous request's rendered list): its findings must be the ones a read of the whole list
// finds, for any conversation and any order of requests, including requests of other conversations
// and of shorter snapshots between them (a derivation re-making records).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonObject } from '../catalogue/schema';
import { providerOf } from './registry';
import { checkRequest } from './request-rules';
import { checkToolName, checkToolSchema } from './rules';
import { makeTool } from './test-helpers';
import type { RequestCheckInput } from './request-rules';
import type { ProviderDiagnostic } from './rules';
import { PROVIDER_IDS } from './types';
import type { ToolDefinition } from '../catalogue/types';
import type { ConversationMessage, ProviderId } from './types';

/** The finding as it was computed before it was made incremental: the whole rendered list, every request. */
function emptyContentFromScratch(input: RequestCheckInput): ProviderDiagnostic[] {
  const { provider } = input;
  const { words, emptyContent: rule } = providerOf(provider);
  if (!rule || input.messages.length === 0) return [];
  const body = providerOf(provider).render({ tools: [], toolChoice: { kind: 'auto' }, system: '', messages: input.messages }).body;
  const list = isJsonObject(body) ? body[rule.list] : undefined;
  if (!Array.isArray(list)) return [];
  const out: ProviderDiagnostic[] = [];
  list.forEach((m: unknown, i) => {
    if (!isJsonObject(m)) return;
    const content = m[rule.content];
    const last = i === list.length - 1 && m.role === 'assistant';
    const empty = (Array.isArray(content) && content.length === 0) || content === '';
    const emptyText = Array.isArray(content) && content.some((b: unknown) => isJsonObject(b) && b.type === 'text' && b.text === '');
    if ((empty && !last) || emptyText) {
      out.push({ rule: 'empty-content', severity: 'error', provider, source: rule.source, message: `${words} refuses the request: ${rule.list}[${i}] (role ${String(m.role)}) has ${emptyText ? 'an empty text block' : 'no content'}` });
    }
  });
  return out;
}

const text = fc.constantFrom('', '', 'hi', 'find the file');
const call = fc.record({ id: fc.constantFrom('c1', 'c2', 'c3'), name: fc.constantFrom('read_file', 'search_tools'), arguments: fc.constant({ q: 'x' }) });
const message: fc.Arbitrary<ConversationMessage> = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), text }),
  fc.record({ kind: fc.constant('assistant' as const), text: fc.option(text, { nil: undefined }), toolCalls: fc.option(fc.array(call, { maxLength: 2 }), { nil: undefined }) }, { requiredKeys: ['kind'] }),
  fc.record({ kind: fc.constant('tool-result' as const), callId: fc.constantFrom('c1', 'c2'), name: fc.constant('read_file'), content: text, isError: fc.boolean() }),
  fc.record({ kind: fc.constant('tool-availability' as const), blocks: fc.array(fc.record({ type: fc.constantFrom('tool_addition' as const, 'tool_removal' as const), tools: fc.array(fc.constantFrom('a', 'b'), { maxLength: 2 }) }), { maxLength: 2 }) }),
);

/**
 * A run of requests: mostly the next snapshot of conversation A (its messages so far, the same message
 * objects, in a fresh array as a timeline takes them), sometimes a snapshot of another conversation B,
 * a shorter snapshot of A again, or A with one message replaced by an equal copy (same content, new object).
 */
const step = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('next' as const), add: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('other' as const), length: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('shorter' as const), length: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('copy' as const), at: fc.nat() }) },
);

describe('empty content, read incrementally', () => {
  it.each(PROVIDER_IDS)('%s: each request of any run finds what a read of its whole rendered list finds', (provider: ProviderId) => {
    let found = 0;
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 40 }), fc.array(message, { maxLength: 20 }), fc.array(step, { minLength: 1, maxLength: 30 }), (a, b, steps) => {
        let length = 0;
        const conv = a.slice();
        for (const s of steps) {
          let messages: ConversationMessage[];
          if (s.kind === 'next') messages = conv.slice(0, (length = Math.min(conv.length, length + s.add)));
          else if (s.kind === 'other') messages = b.slice(0, b.length === 0 ? 0 : s.length % (b.length + 1));
          else if (s.kind === 'shorter') messages = conv.slice(0, length === 0 ? 0 : s.length % (length + 1));
          else {
            const at = s.at % conv.length;
            conv[at] = { ...(conv[at] as ConversationMessage) };
            messages = conv.slice(0, length);
          }
          const input: RequestCheckInput = { provider, tools: [], toolChoice: { kind: 'auto' }, messages };
          const expected = emptyContentFromScratch(input);
          found += expected.length;
          expect(checkRequest(input).filter((d) => d.rule === 'empty-content')).toEqual(expected);
        }
      }),
      { numRuns: 150 },
    );
    // The runs reach the finding (else the comparison would be of empty lists) where JP's conversation
    // can make it: Anthropic's empty text blocks and empty directive messages. Gemini's rule stays
    // unreached: JP renders no empty reply, and its text parts carry no `type`.
    if (provider === 'anthropic' || provider === 'anthropic-directives') expect(found).toBeGreaterThan(0);
  });

  it('a conversation of another provider in between changes nothing', () => {
    const conv: ConversationMessage[] = [{ kind: 'user', text: 'go' }, { kind: 'assistant', text: '', toolCalls: [] }, { kind: 'user', text: '' }, { kind: 'assistant', toolCalls: [{ id: 'c1', name: 'read_file', arguments: {} }] }, { kind: 'tool-result', callId: 'c1', name: 'read_file', content: '', isError: false }];
    for (let n = 1; n <= conv.length; n++) {
      for (const provider of ['anthropic', 'google', 'anthropic', 'openai'] as const) {
        const input: RequestCheckInput = { provider, tools: [], toolChoice: { kind: 'auto' }, messages: conv.slice(0, n) };
        expect(checkRequest(input).filter((d) => d.rule === 'empty-content')).toEqual(emptyContentFromScratch(input));
      }
    }
    // Anthropic refuses the empty user text of the third message once it is sent.
    expect(checkRequest({ provider: 'anthropic', tools: [], toolChoice: { kind: 'auto' }, messages: conv }).some((d) => d.rule === 'empty-content')).toBe(true);
  });
});

describe('tool findings, read incrementally', () => {
  // A pool of definitions: clean ones, names some provider refuses, and a schema keyword some refuse.
  const POOL: readonly ToolDefinition[] = [
    makeTool('read_file', 'Read.'),
    makeTool('write_file', 'Write.'),
    makeTool('git.status', 'Status.'),
    makeTool('has space', 'Spaced.'),
    makeTool('x'.repeat(70), 'Long.'),
    makeTool('pick', 'Pick.', [{ name: 'choice', schema: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }]),
    makeTool('9lives', 'Starts with a digit.'),
    makeTool('search', 'Search.'),
  ];
  /** The tool findings as they were computed before: every definition of the array, every request. */
  const fromScratch = (provider: ProviderId, tools: readonly ToolDefinition[]): ProviderDiagnostic[] => tools.flatMap((d) => [...checkToolName(provider, d.name), ...checkToolSchema(provider, d)]);
  const edit = fc.oneof(
    fc.record({ kind: fc.constant('append' as const), tool: fc.nat() }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), tool: fc.nat() }),
    fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('same' as const) }),
    fc.record({ kind: fc.constant('in-place' as const), at: fc.nat(), tool: fc.nat() }),
    fc.record({ kind: fc.constant('other' as const), tools: fc.array(fc.nat(), { maxLength: 6 }) }),
  );
  it.each(PROVIDER_IDS)('%s: each request of any run finds what a check of every tool finds', (provider: ProviderId) => {
    let found = 0;
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 10 }), fc.array(edit, { minLength: 1, maxLength: 25 }), (start, edits) => {
        const pick = (i: number): ToolDefinition => POOL[i % POOL.length] as ToolDefinition;
        let tools: ToolDefinition[] = start.map(pick);
        for (const e of edits) {
          // A new array for each request, as a timeline makes them; 'same' and 'in-place' keep the object.
          if (e.kind === 'append') tools = [...tools, pick(e.tool)];
          else if (e.kind === 'insert') tools = [...tools.slice(0, e.at % (tools.length + 1)), pick(e.tool), ...tools.slice(e.at % (tools.length + 1))];
          else if (e.kind === 'remove') tools = tools.filter((_, i) => i !== e.at % Math.max(1, tools.length));
          else if (e.kind === 'in-place' && tools.length > 0) tools[e.at % tools.length] = pick(e.tool);
          else if (e.kind === 'other') tools = e.tools.map(pick);
          const expected = fromScratch(provider, tools);
          found += expected.length;
          const got = checkRequest({ provider, tools, toolChoice: { kind: 'auto' }, messages: [] }).filter((d) => d.rule !== 'ollama-parameters');
          expect(got).toEqual(expected);
        }
      }),
      { numRuns: 150 },
    );
    // The pool's names and keywords draw findings wherever the provider publishes a rule.
    if (providerOf(provider).schemaKeywords !== undefined || 'allowed' in providerOf(provider).names) expect(found).toBeGreaterThan(0);
  });
});
