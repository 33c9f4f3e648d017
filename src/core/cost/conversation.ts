// What a conversation costs at one model's prices: each request of a timeline through the provider's
// prompt-cache model, the cache state carried from request to request (with the time the scenario's
// steps let pass), priced, and totalled. Pure: the caller passes the token counter and the price table.
import { EMPTY_CACHE, cacheStep, effectiveRules, priceRequest } from '../providers/cache-model';
import type { CacheFigures, EffectiveRules, RequestMoney } from '../providers/cache-model';
import { cacheRulesFor } from '../providers/cache-rules';
import type { CacheRules } from '../providers/cache-rules';
import type { TokenCounter } from '../providers/cost';
import { modelFor, priceDateLabel } from '../providers/prices';
import type { ModelPrice, PriceTable } from '../providers/prices';
import type { ProviderId } from '../providers/types';
import type { Timeline } from '../turn/timeline';
import { TokenMemo, requestSegments } from './segments';

export interface CostOptions {
  readonly table: PriceTable;
  /** The model to price at (a row of the table for the timeline's provider); default: the provider's first. */
  readonly model?: string;
  readonly counter: TokenCounter;
  /** Reuse token counts across runs (the counterfactual, the variants). */
  readonly memo?: TokenMemo;
}

export interface RequestCost {
  readonly id: number;
  readonly step: number;
  readonly cycle: number;
  /** Seconds since the conversation started. */
  readonly at: number;
  readonly figures: CacheFigures;
  /** Tokens of the model's answer to this request (its calls and reply text). */
  readonly output: number;
  readonly money: RequestMoney;
}

export interface CostTotals {
  readonly requests: number;
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly uncached: number;
  readonly output: number;
  /** USD (0 for local runtimes). */
  readonly money: number;
}

export interface ConversationCost {
  readonly provider: ProviderId;
  readonly model: ModelPrice;
  readonly rules: CacheRules;
  readonly effective: EffectiveRules;
  /** "prices of 2026-12-01": shown beside every money figure. */
  readonly priced: string;
  readonly counter: string;
  readonly requests: readonly RequestCost[];
  readonly totals: CostTotals;
}

export const NO_TOTALS: CostTotals = { requests: 0, input: 0, cacheRead: 0, cacheWrite: 0, uncached: 0, output: 0, money: 0 };

export function addTotals(a: CostTotals, r: Pick<RequestCost, 'figures' | 'output' | 'money'>): CostTotals {
  return {
    requests: a.requests + 1,
    input: a.input + r.figures.input,
    cacheRead: a.cacheRead + r.figures.cacheRead,
    cacheWrite: a.cacheWrite + r.figures.cacheWrite,
    uncached: a.uncached + r.figures.uncached,
    output: a.output + r.output,
    money: a.money + r.money.total,
  };
}

/** The rules and the price row for a provider and model: OpenRouter takes its upstream's cache rules. */
export function rulesFor(provider: ProviderId, table: PriceTable, modelId?: string): { model: ModelPrice; rules: CacheRules; effective: EffectiveRules } {
  const model = modelFor(table, provider, modelId);
  if (!model) throw new Error(`the price table has no model for ${provider}`);
  const rules = cacheRulesFor(provider);
  const upstream = provider === 'openrouter' && model.upstream ? cacheRulesFor(model.upstream) : undefined;
  return { model, rules, effective: effectiveRules(rules, model, upstream) };
}

/** Output tokens per step and cycle: the calls the model made (name and arguments) and its reply text. */
function outputTokens(t: Timeline, memo: TokenMemo): Map<string, number> {
  const out = new Map<string, number>();
  const add = (step: number, cycle: number, n: number) => out.set(`${step}:${cycle}`, (out.get(`${step}:${cycle}`) ?? 0) + n);
  for (const c of t.calls) if (!c.replayed) add(c.step, c.cycle, memo.count(JSON.stringify({ name: c.tool, arguments: c.args ?? {} })));
  for (const e of t.entries) if (e.kind === 'reply' && e.text !== '') add(e.step, e.cycle, memo.count(e.text));
  return out;
}

export function costOfTimeline(t: Timeline, options: CostOptions): ConversationCost {
  const steps = costOfTimelineInSteps(t, options);
  for (;;) {
    const s = steps.next();
    if (s.done) return s.value;
  }
}

/**
 * `costOfTimeline` a request at a time: it yields after each request is priced and returns the same
 * cost. The derive worker runs it in slices, so a derivation asked meanwhile is answered between two
 * requests instead of after the whole conversation (src/derive/dispatch.ts).
 */
export function* costOfTimelineInSteps(t: Timeline, options: CostOptions): Generator<void, ConversationCost, undefined> {
  const memo = options.memo ?? new TokenMemo(options.counter);
  const provider = t.policy.provider;
  const { model, rules, effective } = rulesFor(provider, options.table, options.model);
  const outputs = outputTokens(t, memo);
  let state = EMPTY_CACHE;
  let totals = NO_TOTALS;
  const requests: RequestCost[] = [];
  for (const r of t.requests) {
    const at = t.steps[r.step - 1]?.time ?? 0;
    const step = cacheStep(effective, state, { segments: requestSegments(r.rendered(), memo), at });
    state = step.state;
    const output = outputs.get(`${r.step}:${r.cycle}`) ?? 0;
    const cost: RequestCost = { id: r.id, step: r.step, cycle: r.cycle, at, figures: step.figures, output, money: priceRequest(step.figures, output, model) };
    requests.push(cost);
    totals = addTotals(totals, cost);
    yield;
  }
  return { provider, model, rules, effective, priced: priceDateLabel(options.table), counter: options.counter.id, requests, totals };
}
