// Each provider's cache rules, table-driven, with every expected figure worked by hand in the row's
// comment from the rule it tests (cache-rules.ts cites the documents).
import { describe, expect, it } from 'vitest';
import { EMPTY_CACHE, cacheStep, cachedLength, effectiveRules, priceRequest } from './cache-model';
import type { CacheState, Segment } from './cache-model';
import { cacheRulesFor } from './cache-rules';
import type { ProviderId } from './types';
import { DEFAULT_PRICE_TABLE, modelFor } from './prices';
import type { ModelPrice } from './prices';

const tool = (name: string, tokens: number): Segment => ({ key: `tool ${name}`, tokens, section: 'tools' });
const sys = (tokens: number): Segment => ({ key: 'system', tokens, section: 'system' });
const msg = (name: string, tokens: number): Segment => ({ key: `message ${name}`, tokens, section: 'messages' });

interface Req {
  readonly at: number;
  readonly segments: readonly Segment[];
}
interface Row {
  readonly name: string;
  readonly provider: ProviderId;
  readonly model?: string;
  readonly requests: readonly Req[];
  /** [read, write, uncached] per request. */
  readonly expected: readonly (readonly [number, number, number])[];
}

const A = tool('a', 500);
const B = tool('b', 500);
const C = tool('c', 500);
const D = tool('d', 200);
const S = sys(100);

function run(row: Row): (readonly [number, number, number])[] {
  const model = modelFor(DEFAULT_PRICE_TABLE, row.provider, row.model) as ModelPrice;
  const upstream = row.provider === 'openrouter' && model.upstream ? cacheRulesFor(model.upstream) : undefined;
  const rules = effectiveRules(cacheRulesFor(row.provider), model, upstream);
  let state: CacheState = EMPTY_CACHE;
  return row.requests.map((r) => {
    const step = cacheStep(rules, state, r);
    state = step.state;
    return [step.figures.cacheRead, step.figures.cacheWrite, step.figures.uncached] as const;
  });
}

const ROWS: readonly Row[] = [
  // Anthropic (claude-sonnet-4-5, minimum 1,024). JP's one breakpoint follows the last tool.
  // 1: tools 1,500 ≥ 1,024: written (1,500), system + message 100 + 50 uncached; 2: same tools, read 1,500.
  { name: 'anthropic: the tools array is written, then read', provider: 'anthropic', requests: [{ at: 0, segments: [A, B, C, S, msg('1', 50)] }, { at: 10, segments: [A, B, C, S, msg('1', 50), msg('2', 70)] }], expected: [[0, 1500, 150], [1500, 0, 220]] },
  // Tools 500 + 400 = 900 < 1,024: nothing is cached; all 1,000 tokens uncached, twice.
  { name: 'anthropic: below the minimum nothing is cached', provider: 'anthropic', requests: [{ at: 0, segments: [A, tool('x', 400), S] }, { at: 1, segments: [A, tool('x', 400), S] }], expected: [[0, 0, 1000], [0, 0, 1000]] },
  // claude-opus-4-5's own minimum is 4,096: 1,500 tokens of tools are not cached.
  { name: 'anthropic: the model\'s own minimum (opus 4.5, 4,096)', provider: 'anthropic', model: 'claude-opus-4-5', requests: [{ at: 0, segments: [A, B, C, S] }, { at: 1, segments: [A, B, C, S] }], expected: [[0, 0, 1600], [0, 0, 1600]] },
  // Appended promotion: the old array (1,500) is a prefix one block before the breakpoint: read 1,500, write d's 200.
  { name: 'anthropic: an appended promotion reads the old array, writes the new tool', provider: 'anthropic', requests: [{ at: 0, segments: [A, B, C, S] }, { at: 5, segments: [A, B, C, D, S] }], expected: [[0, 1500, 100], [1500, 200, 100]] },
  // Promotion in config order (d between b and c): no written prefix is repeated: write all 1,700.
  { name: 'anthropic: a promotion in config order writes the whole array again', provider: 'anthropic', requests: [{ at: 0, segments: [A, B, C, S] }, { at: 5, segments: [A, B, D, C, S] }], expected: [[0, 1500, 100], [0, 1700, 100]] },
  // TTL 300 s: 301 s later the entry is gone (write 1,500 again); at exactly 300 s it is still there.
  { name: 'anthropic: the 5-minute time-to-live expires', provider: 'anthropic', requests: [{ at: 0, segments: [A, B, C] }, { at: 301, segments: [A, B, C] }, { at: 601, segments: [A, B, C] }], expected: [[0, 1500, 0], [0, 1500, 0], [1500, 0, 0]] },
  // A hit refreshes: reads at 200 s and 400 s (200 s after the refresh), though 400 s > 300 s after the write.
  { name: 'anthropic: a hit restarts the time-to-live', provider: 'anthropic', requests: [{ at: 0, segments: [A, B, C] }, { at: 200, segments: [A, B, C] }, { at: 400, segments: [A, B, C] }], expected: [[0, 1500, 0], [1500, 0, 0], [1500, 0, 0]] },
  // Directives: the array is fixed; a promotion is a message, so the tools prefix is read every time.
  { name: 'anthropic directives: a promotion is a message, the array is read', provider: 'anthropic-directives', requests: [{ at: 0, segments: [A, B, C, S, msg('avail', 20)] }, { at: 3, segments: [A, B, C, S, msg('avail', 20), msg('tool_addition', 15)] }], expected: [[0, 1500, 120], [1500, 0, 135]] },
  // OpenAI: 1,000 shared tokens < 1,024: nothing read.
  { name: 'openai: below 1,024 tokens nothing is read', provider: 'openai', requests: [{ at: 0, segments: [A, B] }, { at: 1, segments: [A, B, msg('1', 300)] }], expected: [[0, 0, 1000], [0, 0, 1300]] },
  // 1,500 + 100 = 1,600 shared; in steps of 128: 1,024 + 4 × 128 = 1,536 read, 1,600 + 30 - 1,536 = 94 uncached.
  { name: 'openai: a shared prefix counts in steps of 128', provider: 'openai', requests: [{ at: 0, segments: [A, B, C, S] }, { at: 1, segments: [A, B, C, S, msg('1', 30)] }], expected: [[0, 0, 1600], [1536, 0, 94]] },
  // Promotion in config order: the shared prefix is a, b (1,000 < 1,024): nothing read. Appended: the new tool
  // comes after c but before the system prompt, so a, b, c (1,500) are shared → 1,408 read (11 × 128).
  { name: 'openai: config order cuts the prefix at the promoted tool', provider: 'openai', requests: [{ at: 0, segments: [A, B, C, S] }, { at: 1, segments: [A, B, D, C, S] }], expected: [[0, 0, 1600], [0, 0, 1800]] },
  { name: 'openai: appended, the old array stays a prefix', provider: 'openai', requests: [{ at: 0, segments: [A, B, C, S] }, { at: 1, segments: [A, B, C, D, S] }], expected: [[0, 0, 1600], [1408, 0, 392]] },
  // Expired after 5 minutes of inactivity (lower bound of the documented 5-10).
  { name: 'openai: the cache is cleared after 5 minutes', provider: 'openai', requests: [{ at: 0, segments: [A, B, C] }, { at: 301, segments: [A, B, C] }], expected: [[0, 0, 1500], [0, 0, 1500]] },
  // Google (gemini-2.5-flash, minimum 2,048, no step): 1,600 shared: 0; 2,100 shared: all 2,100.
  { name: 'google: below the model\'s 2,048 minimum nothing is read', provider: 'google', requests: [{ at: 0, segments: [A, B, C, S] }, { at: 1, segments: [A, B, C, S] }], expected: [[0, 0, 1600], [0, 0, 1600]] },
  { name: 'google: above it every shared token is read', provider: 'google', requests: [{ at: 0, segments: [A, B, C, tool('e', 600), S] }, { at: 9999, segments: [A, B, C, tool('e', 600), S, msg('1', 7)] }], expected: [[0, 0, 2200], [2200, 0, 7]] },
  // Cerebras: no minimum, 128-token blocks: 300 shared → 256 read.
  { name: 'cerebras: 128-token blocks, no minimum', provider: 'cerebras', requests: [{ at: 0, segments: [tool('x', 300)] }, { at: 1, segments: [tool('x', 300), msg('1', 10)] }], expected: [[0, 0, 300], [256, 0, 54]] },
  // Cerebras: the TTL counts from the write and a hit does not restart it (undocumented; the data says so), but
  // every request stores its prefix again: at 400 s the entry written at 200 s is live (1,500 → 1,408 in blocks).
  { name: 'cerebras: 5 minutes from the write', provider: 'cerebras', requests: [{ at: 0, segments: [A, B, C] }, { at: 200, segments: [A, B, C] }, { at: 400, segments: [A, B, C] }], expected: [[0, 0, 1500], [1408, 0, 92], [1408, 0, 92]] },
  // OpenRouter, openai/gpt-4.1: OpenAI's rules upstream (1,536 as above).
  { name: 'openrouter: an OpenAI model caches as OpenAI does', provider: 'openrouter', model: 'openai/gpt-4.1', requests: [{ at: 0, segments: [A, B, C, S] }, { at: 1, segments: [A, B, C, S, msg('1', 30)] }], expected: [[0, 0, 1600], [1536, 0, 94]] },
  // OpenRouter, an Anthropic model: JP sends no cache_control through OpenRouter, so nothing.
  { name: 'openrouter: an Anthropic model caches nothing', provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5', requests: [{ at: 0, segments: [A, B, C, S] }, { at: 1, segments: [A, B, C, S] }], expected: [[0, 0, 1600], [0, 0, 1600]] },
  // llama.cpp: one slot, the previous request only: x then y then x saves nothing on the third.
  { name: 'llama.cpp: only the previous request\'s prefix is reused', provider: 'llamacpp', requests: [{ at: 0, segments: [tool('x', 300), S] }, { at: 1, segments: [tool('y', 200), S] }, { at: 2, segments: [tool('x', 300), S] }], expected: [[0, 0, 400], [0, 0, 300], [0, 0, 400]] },
  { name: 'llama.cpp: no time-to-live, the slot keeps its cache', provider: 'llamacpp', requests: [{ at: 0, segments: [tool('x', 300), S] }, { at: 100_000, segments: [tool('x', 300), S, msg('1', 5)] }], expected: [[0, 0, 400], [400, 0, 5]] },
  // Ollama: keep_alive 5 minutes unloads the model, and its KV cache with it.
  { name: 'ollama: unloaded after 5 minutes', provider: 'ollama', requests: [{ at: 0, segments: [tool('x', 300), S] }, { at: 299, segments: [tool('x', 300), S] }, { at: 700, segments: [tool('x', 300), S] }], expected: [[0, 0, 400], [400, 0, 0], [0, 0, 400]] },
];

describe('prompt-cache rules per provider', () => {
  it.each(ROWS)('$name', (row) => {
    expect(run(row)).toEqual(row.expected);
  });
});

describe('the reason beside the cache status', () => {
  it('says what was read or written, never a bare hit or miss (the status beside it is "prefix reused · N cached", issue 24.6)', () => {
    const reasons: string[] = [];
    for (const row of ROWS) {
      const model = modelFor(DEFAULT_PRICE_TABLE, row.provider, row.model) as ModelPrice;
      const upstream = row.provider === 'openrouter' && model.upstream ? cacheRulesFor(model.upstream) : undefined;
      const rules = effectiveRules(cacheRulesFor(row.provider), model, upstream);
      let state: CacheState = EMPTY_CACHE;
      for (const r of row.requests) {
        const step = cacheStep(rules, state, r);
        state = step.state;
        reasons.push(step.figures.reason);
      }
    }
    expect(reasons.some((r) => r.startsWith('read: '))).toBe(true);
    expect(reasons.some((r) => r.startsWith('nothing read: '))).toBe(true);
    for (const r of reasons) expect(r).not.toMatch(/\b(hit|miss)\b/u);
  });
});

describe('cachedLength', () => {
  it.each([
    // [shared, minimum, step, cached]
    [1023, 1024, 128, 0],
    [1024, 1024, 128, 1024],
    [1151, 1024, 128, 1024],
    [1152, 1024, 128, 1152],
    [300, 0, 128, 256],
    [2100, 2048, 1, 2100],
    [0, 0, 1, 0],
  ])('%i shared, minimum %i, step %i → %i', (shared, min, step, cached) => {
    expect(cachedLength(shared, min, step)).toBe(cached);
  });
});

describe('write and read price factors', () => {
  it('Anthropic (claude-sonnet-4-5, $3 input): a write costs 1.25× ($3.75/MTok), a read 0.1× ($0.30/MTok)', () => {
    const m = modelFor(DEFAULT_PRICE_TABLE, 'anthropic', 'claude-sonnet-4-5') as ModelPrice;
    const rules = cacheRulesFor('anthropic');
    expect(m.cacheWrite).toBeCloseTo(m.input * rules.writeFactor, 10);
    expect(m.cacheRead).toBeCloseTo(m.input * rules.readFactor, 10);
    // 1,500 written × 3.75 + 1,500 read × 0.30 + 300 uncached × 3 + 100 output × 15, per million:
    // 0.005625 + 0.00045 + 0.0009 + 0.0015 = 0.008475
    const money = priceRequest({ cacheWrite: 1500, cacheRead: 1500, uncached: 300 }, 100, m);
    expect(money.cacheWrite).toBeCloseTo(0.005625, 12);
    expect(money.cacheRead).toBeCloseTo(0.00045, 12);
    expect(money.total).toBeCloseTo(0.008475, 12);
  });
  it('every Anthropic row keeps the documented factors', () => {
    for (const m of DEFAULT_PRICE_TABLE.models.filter((x) => x.provider === 'anthropic')) {
      expect(m.cacheWrite / m.input, m.id).toBeCloseTo(1.25, 10);
      expect(m.cacheRead / m.input, m.id).toBeCloseTo(0.1, 10);
    }
  });
  it('OpenAI bills no write: written tokens cost the input price', () => {
    const rules = cacheRulesFor('openai');
    expect(rules.writeFactor).toBe(1);
    for (const m of DEFAULT_PRICE_TABLE.models.filter((x) => x.provider === 'openai')) expect(m.cacheWrite, m.id).toBe(m.input);
  });
  it('local runtimes bill nothing', () => {
    for (const p of ['ollama', 'llamacpp'] as const) {
      expect(cacheRulesFor(p).money).toBe(false);
      expect(priceRequest({ cacheWrite: 0, cacheRead: 400, uncached: 10 }, 50, modelFor(DEFAULT_PRICE_TABLE, p) as ModelPrice).total).toBe(0);
    }
  });
});

describe('cache rules as data', () => {
  it('every provider cites a document for its rules and says what is not documented', () => {
    for (const p of ['anthropic', 'anthropic-directives', 'openai', 'google', 'openrouter', 'cerebras', 'ollama', 'llamacpp'] as const) {
      const r = cacheRulesFor(p);
      expect(r.citations.length, p).toBeGreaterThan(0);
      for (const c of r.citations) expect(c.read, p).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(r.prefixOrder[0], p).toBe('tools');
    }
    expect(cacheRulesFor('anthropic').breakpointsAfter).toEqual(['tools']);
    expect(cacheRulesFor('google').undocumented.some((u) => u.includes('time-to-live'))).toBe(true);
  });
  it('a step on an empty cache state starts from nothing', () => {
    const rules = effectiveRules(cacheRulesFor('openai'));
    expect(cacheStep(rules, EMPTY_CACHE, { at: 0, segments: [] }).figures).toMatchObject({ input: 0, cacheRead: 0, uncached: 0 });
  });
});
