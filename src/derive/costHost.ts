// The worker side of costProtocol.ts: the core's cost model over the newest timelines. The
// counterfactual and the variants run the scenario again with the host's own runner (its workspace
// layers and shared indexes), in the worker, never on the main thread.
import { DEFAULT_MESSAGE_TOKENS, TokenMemo, breakEven, cacheStatus, catalogueSizes, compareDiscoveryInSteps, costOfTimelineInSteps, modelsFor } from '../core';
import { parseDoc } from './document';
import type { CacheStatus, ConversationCost, PriceTable, Scenario, ScenarioDoc, Timeline, TokenCounter } from '../core';
import { createTokenCounter } from '../core/providers/tokens';
import type { BreakEvenView, CostView } from './costProtocol';
import { inSlices, noSlices } from './dispatch';
import type { Slicer } from './dispatch';

export interface CostSource {
  readonly timeline: Timeline;
  readonly doc: ScenarioDoc;
  /** Runs another scenario as this revision's was run (its workspace layers, the shared indexes). */
  run(scenario: Scenario): Timeline;
}

const SIZES_MAX = 24;

/** Up to 24 catalogue sizes from 0 to the catalogue's size (every size when it is small). */
export function sweepSizes(catalogue: number): number[] {
  const top = Math.max(catalogue, 1);
  if (top <= SIZES_MAX) return Array.from({ length: top + 1 }, (_, i) => i);
  const out = new Set<number>([0]);
  for (let i = 1; i <= SIZES_MAX; i++) out.add(Math.round((top * i) / SIZES_MAX));
  return [...out];
}

export const SWEEP_TURNS = [1, 2, 5, 10, 20];

export class CostHost {
  private counter: TokenCounter | undefined;
  private memo: TokenMemo | undefined;
  private cache: { key: string; view: CostView } | undefined;

  constructor(private readonly source: (revision: number) => CostSource) {}

  private async tokens(): Promise<TokenMemo> {
    this.counter ??= await createTokenCounter();
    this.memo ??= new TokenMemo(this.counter);
    return this.memo;
  }

  private scenario(doc: ScenarioDoc): Scenario {
    const parsed = parseDoc(doc).parse;
    if (!parsed.ok) throw new Error(parsed.errors[0]?.message ?? 'the scenario does not parse');
    return parsed.scenario;
  }

  /**
   * Whole-conversation work, so it runs in slices (a request at a time, `slicer`): the worker answers a
   * newer derivation between two of them, and abandons this one if it was asked for an older revision.
   */
  async costs({ revision, table, model, compare = true }: { revision: number; table: PriceTable; model?: string; compare?: boolean }, slicer: Slicer = noSlices): Promise<CostView> {
    const key = `${revision}\u0000${model ?? ''}\u0000${compare}\u0000${JSON.stringify(table)}`;
    if (this.cache?.key === key) return this.cache.view;
    const memo = await this.tokens();
    const src = this.source(revision);
    const options = { table, counter: memo.counter, memo, ...(model !== undefined ? { model } : {}) };
    const cmp = compare
      ? await inSlices(compareDiscoveryInSteps(this.scenario(src.doc), src.timeline, (s) => src.run(s), options), slicer)
      : { variants: [{ id: 'as-configured', label: 'discoverable, as configured', cost: await inSlices(costOfTimelineInSteps(src.timeline, options), slicer) }], saving: { money: 0, tokens: 0, uncached: 0, cacheRead: 0 }, turnedOn: [] };
    const own = cmp.variants[0]?.cost as ConversationCost;
    // Each request's status compares its rendered segments with the previous request's: sliced too.
    const statuses: CacheStatus[] = [];
    for (const r of own.requests) {
      statuses.push(cacheStatus(src.timeline.requests[r.id]?.cache() ?? { status: 'miss', reason: 'first request' }, r.figures, own.effective.minTokens));
      await slicer();
    }
    const view: CostView = {
      provider: own.provider,
      model: own.model.id,
      models: modelsFor(table, own.provider).map((m) => m.id),
      priced: own.priced,
      counter: own.counter,
      money: own.rules.money,
      summary: own.rules.summary,
      undocumented: own.rules.undocumented,
      citations: own.rules.citations,
      requests: own.requests.map((r, i) => ({ id: r.id, step: r.step, cycle: r.cycle, at: r.at, input: r.figures.input, cacheRead: r.figures.cacheRead, cacheWrite: r.figures.cacheWrite, uncached: r.figures.uncached, output: r.output, usd: r.money.total, reason: r.figures.reason, status: statuses[i]! })),
      totals: own.totals,
      variants: cmp.variants.map((v) => ({ id: v.id, label: v.label, totals: v.cost.totals })),
      saving: { usd: cmp.saving.money, tokens: cmp.saving.tokens, uncached: cmp.saving.uncached, cacheRead: cmp.saving.cacheRead },
      turnedOn: cmp.turnedOn.length,
    };
    this.cache = { key, view };
    return view;
  }

  async cacheStatuses({ revision, table, model, from, to }: { revision: number; table: PriceTable; model?: string; from: number; to: number }, slicer: Slicer = noSlices): Promise<{ readonly from: number; readonly statuses: readonly CacheStatus[] }> {
    // The prompt cache is a sequence: the conversation is priced whole (memoized per key), and the range is what crosses.
    const view = await this.costs({ revision, table, compare: false, ...(model !== undefined ? { model } : {}) }, slicer);
    const start = Math.max(0, Math.floor(from));
    return { from: start, statuses: view.requests.slice(start, Math.max(start, Math.floor(to))).map((r) => r.status) };
  }

  async breakEven({ revision, table, model, discoveries }: { revision: number; table: PriceTable; model?: string; discoveries: number }): Promise<BreakEvenView> {
    const memo = await this.tokens();
    const src = this.source(revision);
    const t = src.timeline;
    const sizes = catalogueSizes(t, memo);
    const sweep = sweepSizes(sizes.discoverableTools.length);
    const r = breakEven({
      provider: t.policy.provider, table, ...(model !== undefined ? { model } : {}), ...sizes,
      promotedPosition: t.policy.promoted_position, sizes: sweep, turns: SWEEP_TURNS, discoveries, messages: DEFAULT_MESSAGE_TOKENS,
    });
    return {
      unit: r.unit, model: r.model, priced: r.priced, catalogue: sizes.discoverableTools.length, sizes: sweep, turns: SWEEP_TURNS,
      saving: SWEEP_TURNS.map((turns) => sweep.map((size) => r.cells.find((c) => c.turns === turns && c.size === size)?.saving ?? 0)),
      breakEven: r.breakEven,
    };
  }
}
