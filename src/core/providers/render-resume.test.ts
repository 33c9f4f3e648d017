// A render resumes from the previous one of its shape (wire.ts renderMessages): the messages both
// requests share are taken as they are. Held here to a render from scratch (the same conversation as
// fresh objects, which share nothing) over conversations grown, cut, branched and re-rendered in any
// order, for every provider: bodies and every text the cache compares.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toJson } from '../json/serde';
import { renderRequest } from './render';
import { makeTool } from './test-helpers';
import { PROVIDER_IDS } from './types';
import type { ConversationMessage, ProviderId } from './types';

const TEXTS = ['hi', 'Älpha — 😀', '', 'again', 'x'.repeat(50)];
const tools = [makeTool('alpha', 'Alpha.', [{ name: 'x', schema: { type: 'string' }, required: true }]), makeTool('beta', 'Beta.')];

const messageArb: fc.Arbitrary<ConversationMessage> = fc.oneof(
  fc.constantFrom(...TEXTS).map((text): ConversationMessage => ({ kind: 'user', text })),
  fc.constantFrom(...TEXTS).map((text): ConversationMessage => ({ kind: 'assistant', text })),
  fc.nat({ max: 3 }).map((i): ConversationMessage => ({ kind: 'assistant', toolCalls: Array.from({ length: 1 + (i % 2) }, (_, k) => ({ id: `c${i}${k}`, name: 'alpha', arguments: { x: TEXTS[i] ?? '' } })) })),
  fc.nat({ max: 3 }).map((i): ConversationMessage => ({ kind: 'tool-result', callId: `c${i}0`, name: 'alpha', content: TEXTS[i] ?? '', isError: i === 2 })),
  fc.nat({ max: 1 }).map((i): ConversationMessage => ({ kind: 'tool-availability', blocks: [{ type: i === 0 ? 'tool_addition' : 'tool_removal', tools: ['beta'] }] })),
);

/** Each step: grow the conversation, cut it back, branch from an earlier length, or re-render an earlier one. */
const stepArb = fc.record({ kind: fc.constantFrom('grow', 'grow', 'cut', 'branch', 'again'), more: fc.array(messageArb, { minLength: 1, maxLength: 4 }), at: fc.nat() });

const clone = (ms: readonly ConversationMessage[]): ConversationMessage[] => ms.map((m) => structuredClone(m));

function texts(provider: ProviderId, messages: readonly ConversationMessage[]): unknown {
  const r = renderRequest({ provider, tools, toolChoice: { kind: 'auto' }, system: 'sys', messages });
  return { body: toJson(r.body), bytes: r.bytes, messages: r.prefix.messages.map((p) => p.text) };
}

describe('a render resumed from the previous one', () => {
  it('is the render from scratch, whatever the order of the conversations rendered', () => {
    fc.assert(
      fc.property(fc.constantFrom<ProviderId>(...PROVIDER_IDS), fc.array(messageArb, { maxLength: 4 }), fc.array(stepArb, { minLength: 1, maxLength: 10 }), (provider, first, steps) => {
        const seen: ConversationMessage[][] = [first];
        const bodies: { body: unknown; text: string }[] = [];
        let cur = first;
        for (const s of steps) {
          if (s.kind === 'grow') cur = [...cur, ...s.more];
          else if (s.kind === 'cut') cur = cur.slice(0, s.at % (cur.length + 1));
          else if (s.kind === 'branch') cur = [...cur.slice(0, s.at % (cur.length + 1)), ...s.more];
          else cur = seen[s.at % seen.length] as ConversationMessage[];
          seen.push(cur);
          expect(texts(provider, cur)).toEqual(texts(provider, clone(cur)));
          const body = renderRequest({ provider, tools, toolChoice: { kind: 'auto' }, system: 'sys', messages: cur }).body;
          bodies.push({ body, text: toJson(body) });
        }
        // No later render changed an earlier body (they share message objects).
        for (const b of bodies) expect(toJson(b.body)).toBe(b.text);
        // The earlier renders' bodies were not changed by the later ones.
        for (const ms of seen) expect(texts(provider, ms)).toEqual(texts(provider, clone(ms)));
      }),
      { numRuns: 400 },
    );
  });
});
