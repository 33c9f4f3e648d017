// The piecewise prefix comparison (providers/cache.ts) and segments (segments.ts) against the joined-
// text computation they replaced (test-kit.ts): cache status, first difference, byte counts, segment
// keys and tokens, and the priced conversation, over random request sequences of every provider,
// hand-made pieces whose boundaries do not line up, and whole scenarios.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../catalogue/types';
import { compareCache } from '../providers/cache';
import { EMPTY_CACHE, cacheStep, priceRequest } from '../providers/cache-model';
import { approximateTokenCounter } from '../providers/cost';
import { DEFAULT_PRICE_TABLE } from '../providers/prices';
import { renderRequest } from '../providers/render';
import type { RenderedRequest } from '../providers/render';
import { makeTool } from '../providers/test-helpers';
import { PROVIDER_IDS } from '../providers/types';
import type { ConversationMessage, ProviderId, ToolChoice } from '../providers/types';
import { parseScenario } from '../scenario/parse';
import { runScenario } from '../turn/run';
import type { Timeline } from '../turn/timeline';
import { costOfTimeline, rulesFor } from './conversation';
import { TokenMemo, requestSegments } from './segments';
import { joinedCompareCache, joinedRequestSegments } from './test-kit';

const WORDS = ['Reads a file.', 'Älpha — first.', 'emoji 😀 here', 'lone \ud800 surrogate', 'plain', '', 'quote " and \\ slash', 'x'.repeat(300)];

/** A pool of definitions, some sharing a prefix of their JSON, some non-ASCII. */
const POOL: readonly ToolDefinition[] = Array.from({ length: 12 }, (_, i) =>
  makeTool(`tool_${i % 9}`, WORDS[i % WORDS.length], i % 3 === 0 ? [{ name: 'target', schema: { type: 'string', description: WORDS[(i + 2) % WORDS.length] ?? '' }, required: i % 2 === 0 }] : []),
);

const messageArb: fc.Arbitrary<ConversationMessage> = fc.oneof(
  fc.constantFrom(...WORDS).map((text): ConversationMessage => ({ kind: 'user', text })),
  fc.constantFrom(...WORDS).map((text): ConversationMessage => ({ kind: 'assistant', text })),
  fc.nat({ max: 8 }).map((i): ConversationMessage => ({ kind: 'assistant', toolCalls: [{ id: `c${i}`, name: `tool_${i}`, arguments: { q: WORDS[i % WORDS.length] ?? '' } }] })),
  fc.nat({ max: 8 }).map((i): ConversationMessage => ({ kind: 'tool-result', callId: `c${i}`, name: `tool_${i}`, content: WORDS[i % WORDS.length] ?? '', isError: i % 2 === 0 })),
  fc.nat({ max: 8 }).map((i): ConversationMessage => ({ kind: 'tool-availability', blocks: [{ type: 'tool_addition', tools: [`tool_${i}`] }] })),
);

const choiceArb: fc.Arbitrary<ToolChoice> = fc.oneof(fc.constant<ToolChoice>({ kind: 'auto' }), fc.constant<ToolChoice>({ kind: 'required' }), fc.nat({ max: 8 }).map((i): ToolChoice => ({ kind: 'function', name: `tool_${i}` })));

/** A request: a few tools of the pool (repeats allowed), a system prompt, a conversation. */
const requestArb = fc.record({
  tools: fc.array(fc.nat({ max: POOL.length - 1 }), { maxLength: 7 }),
  system: fc.constantFrom('', 'sys', 'Système 😀'),
  messages: fc.array(messageArb, { maxLength: 6 }),
  choice: choiceArb,
});

/** A request sequence in which each request often extends or edits the one before. */
const sequenceArb = fc.record({
  provider: fc.constantFrom<ProviderId>(...PROVIDER_IDS),
  first: requestArb,
  steps: fc.array(fc.record({ kind: fc.constantFrom('extend', 'same', 'other', 'drop-tool', 'add-tool', 'cut'), next: requestArb }), { maxLength: 6 }),
});

/** The value type of an arbitrary. */
type Arb<A> = A extends fc.Arbitrary<infer T> ? T : never;
type Req = Arb<typeof requestArb>;

function sequence(v: Arb<typeof sequenceArb>): Req[] {
  const out: Req[] = [v.first];
  for (const { kind, next } of v.steps) {
    const prev = out[out.length - 1] as Req;
    switch (kind) {
      case 'extend':
        out.push({ ...prev, messages: [...prev.messages, ...next.messages] });
        break;
      case 'same':
        out.push(prev);
        break;
      case 'drop-tool':
        out.push({ ...prev, tools: prev.tools.slice(0, -1), messages: [...prev.messages, ...next.messages] });
        break;
      case 'add-tool':
        out.push({ ...prev, tools: [...prev.tools, ...next.tools.slice(0, 1)], messages: [...prev.messages, ...next.messages] });
        break;
      case 'cut':
        out.push({ ...prev, messages: prev.messages.slice(0, -1) });
        break;
      default:
        out.push(next);
    }
  }
  return out;
}

const rendered = (provider: ProviderId, r: Req): RenderedRequest =>
  renderRequest({ provider, tools: r.tools.map((i) => POOL[i] as ToolDefinition), toolChoice: r.choice, system: r.system, messages: r.messages });

describe('the prefix compared piece by piece', () => {
  it('gives the joined comparison\'s status, first difference and byte counts, and its segments, for request sequences of every provider', () => {
    fc.assert(
      fc.property(sequenceArb, (v) => {
        const memo = new TokenMemo(approximateTokenCounter);
        let prev: RenderedRequest | undefined;
        for (const r of sequence(v)) {
          // Rendered twice: the second shares the first's tool objects (where the provider shares them) or not.
          const cur = rendered(v.provider, r);
          expect(compareCache(prev, cur)).toEqual(joinedCompareCache(prev, cur));
          expect(compareCache(prev, rendered(v.provider, r))).toEqual(joinedCompareCache(prev, cur));
          expect(requestSegments(cur, memo)).toEqual(joinedRequestSegments(cur, memo));
          prev = cur;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds the first difference where the two requests\' pieces do not line up (any texts, any boundaries)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', 'é', '😀', '\ud800', '\udc00', ']'), maxLength: 12 });
    const prefixArb = fc.record({ tools: fc.option(fc.array(text, { maxLength: 5 }), { nil: undefined }), system: text, messages: fc.array(text.map((t) => `${t}\n`), { maxLength: 4 }) });
    fc.assert(
      fc.property(prefixArb, prefixArb, (x, y) => {
        const of = (p: typeof x) => {
          const toolsJson = p.tools === undefined ? '' : `[${p.tools.join(',')}]`;
          const messagesJson = p.messages.join('');
          return {
            prefix: { tools: p.tools?.map((t) => ({ text: t })), system: p.system, messages: p.messages.map((t) => ({ text: t })) },
            toolsJson,
            systemJson: p.system,
            messagesJson,
            bytes: toolsJson + p.system + messagesJson,
          };
        };
        const a = of(x);
        const b = of(y);
        expect(compareCache(a, b)).toEqual(joinedCompareCache(a, b));
        expect(compareCache(a, a)).toEqual(joinedCompareCache(a, a));
        // b extending a: a is a prefix of it.
        const ext = of({ ...x, messages: [...x.messages, ...y.messages] });
        expect(compareCache(a, ext)).toEqual(joinedCompareCache(a, ext));
        expect(compareCache(ext, a)).toEqual(joinedCompareCache(ext, a));
      }),
      { numRuns: 1000 },
    );
  });
});

const conformanceDir = resolve(__dirname, '../../../../shared/conformance');
const conformance = readdirSync(conformanceDir)
  .filter((f) => f.endsWith('.toml'))
  .sort()
  .map((f) => readFileSync(join(conformanceDir, f), 'utf8'));

/** A catalogue whose requests promote, force and edit tools, under a provider. */
function generated(n: number, provider: string): string {
  const tools = Array.from({ length: n }, (_, i) => `[conversation.tools.tool_${i}]\nsource = "local"\nenable = "${i % 5 === 0 ? 'on' : 'discoverable'}"\nsummary = "Tool ${i} ${['reads files', 'lists issues', 'déploie 😀', 'sends mail'][i % 4]}."\n`).join('\n');
  const steps = [
    `[[steps]]\ncommand = "jp q one"\n  [[steps.cycles]]\n  calls = [ { tool = "search_tools", args = { query = "files" } } ]\n  [[steps.cycles]]\n  reply = "ok"`,
    `[[steps]]\ncommand = "jp q two -u tool_3"\nelapsed = "10m"\n  [[steps.cycles]]\n  calls = [ { tool = "search_tools", args = { query = "mail" } } ]\n  [[steps.cycles]]\n  reply = "ok"`,
    `[[steps]]\ncommand = "jp config set conversation.tools.tool_5.summary=Changed"`,
    `[[steps]]\ncommand = "jp q three"\n  [[steps.cycles]]\n  reply = "done"`,
  ];
  return `name = "g"\n[policy]\nprovider = "${provider}"\nranking = "substring"\n[[layers]]\nname = "workspace"\ntext = '''\n${tools}'''\n\n${steps.join('\n\n')}\n`;
}

function runText(text: string): Timeline {
  const p = parseScenario(text);
  if (!p.ok) throw new Error(p.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('; '));
  return runScenario({ scenario: p.scenario });
}

describe('a whole conversation, compared and priced piece by piece', () => {
  const texts = [...conformance, ...PROVIDER_IDS.map((p, i) => generated(12 + i, p))];
  it('holds requests that hit, miss in the tools and miss in the messages', () => {
    const kinds = new Set(texts.flatMap((text) => runText(text).requests.map((r) => r.cache().firstDifference?.section ?? r.cache().status)));
    expect([...kinds].sort()).toEqual(['hit', 'messages', 'miss', 'tools'].sort());
  });
  it.each(texts.map((t, i) => [i, t] as const))('scenario %i: every request\'s cache status, segments and priced figures are the joined computation\'s', (_, text) => {
    const t = runText(text);
    const { model, effective } = rulesFor(t.policy.provider, DEFAULT_PRICE_TABLE);
    const memo = new TokenMemo(approximateTokenCounter);
    const cost = costOfTimeline(t, { table: DEFAULT_PRICE_TABLE, counter: approximateTokenCounter, memo });
    let state = EMPTY_CACHE;
    for (const r of t.requests) {
      const prev = r.id > 0 ? t.requests[r.id - 1]?.rendered() : undefined;
      expect(r.cache(), `request ${r.id}`).toEqual(joinedCompareCache(prev, r.rendered()));
      const at = t.steps[r.step - 1]?.time ?? 0;
      const step = cacheStep(effective, state, { segments: joinedRequestSegments(r.rendered(), memo), at });
      state = step.state;
      const got = cost.requests[r.id];
      expect(got?.figures, `request ${r.id}`).toEqual(step.figures);
      expect(got?.money, `request ${r.id}`).toEqual(priceRequest(step.figures, got?.output ?? 0, model));
    }
  });
});
