// The cost keys of a cycle: what its request costs in the prompt-cache model, at the scenario's
// provider and a model of the dated price table. `cache_tokens = { read = 1024 }` pins "this request
// reads 1,024 cached tokens"; `cost_usd = 0.0042` pins its price (to a millionth of a dollar).
import { costOfTimeline } from '../cost/conversation';
import type { ConversationCost, RequestCost } from '../cost/conversation';
import { TokenMemo } from '../cost/segments';
import { approximateTokenCounter } from '../providers/cost';
import type { TokenCounter } from '../providers/cost';
import { DEFAULT_PRICE_TABLE } from '../providers/prices';
import type { PriceTable } from '../providers/prices';
import type { Timeline } from '../turn/timeline';
import type { Comparison } from './check';

export interface CostCheckOptions {
  /** The tokenizer the figures are counted with (default: the labelled bytes/4 approximation). */
  readonly counter?: TokenCounter;
  readonly table?: PriceTable;
}

/** A cycle's request, costed on demand at a model (one cost run per model, shared by every key). */
export interface CostSubject {
  readonly request: number;
  cost(model: string | undefined): RequestCost | { readonly error: string };
}

export function costSubjects(timeline: Timeline, options: CostCheckOptions): (request: number) => CostSubject {
  const counter = options.counter ?? approximateTokenCounter;
  const memo = new TokenMemo(counter);
  const runs = new Map<string, ConversationCost | { error: string }>();
  const run = (model: string | undefined): ConversationCost | { error: string } => {
    const key = model ?? '';
    let r = runs.get(key);
    if (!r) {
      try {
        r = costOfTimeline(timeline, { table: options.table ?? DEFAULT_PRICE_TABLE, counter, memo, ...(model !== undefined ? { model } : {}) });
      } catch (e) {
        r = { error: e instanceof Error ? e.message : String(e) };
      }
      runs.set(key, r);
    }
    return r;
  };
  return (request) => ({
    request,
    cost(model) {
      const r = run(model);
      if ('error' in r) return r;
      if (model !== undefined && r.model.id !== model) return { error: `no model ${JSON.stringify(model)} for provider ${r.provider} in the price table` };
      return r.requests[request] ?? { error: `no request ${request}` };
    },
  });
}

const TOKEN_FIELDS = ['input', 'read', 'write', 'uncached'] as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function modelOf(v: unknown): string | undefined {
  return isRecord(v) && typeof v.model === 'string' ? v.model : undefined;
}

/** `cache_tokens = { input?, read?, write?, uncached?, model? }`: each given count must match. */
function cacheTokens(expected: unknown, s: CostSubject): Comparison {
  if (!isRecord(expected)) return { pass: false, actual: 'cache_tokens must be a table such as { read = 1024, write = 0 }' };
  const c = s.cost(modelOf(expected));
  if ('error' in c) return { pass: false, actual: c.error };
  const actual: Record<string, number> = { input: c.figures.input, read: c.figures.cacheRead, write: c.figures.cacheWrite, uncached: c.figures.uncached };
  const unknown = Object.keys(expected).filter((k) => k !== 'model' && !(TOKEN_FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0) return { pass: false, actual: `unknown field ${unknown[0] ?? ''}; expected input, read, write, uncached or model` };
  const pass = TOKEN_FIELDS.every((k) => expected[k] === undefined || expected[k] === actual[k]);
  return { pass, actual };
}

/** `cost_usd = 0.0042` or `{ usd = 0.0042, model = "gpt-4.1" }`: the request's price, to a millionth of a dollar. */
function costUsd(expected: unknown, s: CostSubject): Comparison {
  const usd = typeof expected === 'number' ? expected : isRecord(expected) && typeof expected.usd === 'number' ? expected.usd : undefined;
  if (usd === undefined) return { pass: false, actual: 'cost_usd must be a number of dollars, or { usd = N, model = "..." }' };
  const c = s.cost(modelOf(expected));
  if ('error' in c) return { pass: false, actual: c.error };
  const actual = Math.round(c.money.total * 1e6) / 1e6;
  return { pass: Math.abs(actual - usd) < 5e-7, actual };
}

/** What a cost key reads of its request at the provider's default model, for display and recording. */
function readTokens(s: CostSubject): unknown {
  const c = s.cost(undefined);
  return 'error' in c ? c.error : { input: c.figures.input, read: c.figures.cacheRead, write: c.figures.cacheWrite, uncached: c.figures.uncached };
}

function readUsd(s: CostSubject): unknown {
  const c = s.cost(undefined);
  return 'error' in c ? c.error : Math.round(c.money.total * 1e6) / 1e6;
}

/** The checker's rule shape (scenario/expectations.ts): what a key reads, and how it compares. */
export const COST_RULES: ReadonlyMap<string, { readonly read: (subject: CostSubject) => unknown; readonly check: (expected: unknown, subject: CostSubject) => Comparison }> = new Map([
  ['cache_tokens', { read: readTokens, check: cacheTokens }],
  ['cost_usd', { read: readUsd, check: costUsd }],
]);
