// Where discovery breaks even: synthetic conversations built from a catalogue's own tool sizes, swept
// over catalogue size (how many tools are discoverable) and conversation length (turns), each run
// through the same cache model and prices as a real timeline, discoverable against all-on. A turn uses
// one tool (call, result, reply); the first `discoveries` turns find their tool with search_tools first.
import { EMPTY_CACHE, cacheStep, priceRequest } from '../providers/cache-model';
import type { CacheState, Segment } from '../providers/cache-model';
import type { PriceTable } from '../providers/prices';
import { priceDateLabel } from '../providers/prices';
import type { ProviderId } from '../providers/types';
import { NO_TOTALS, addTotals, rulesFor } from './conversation';
import type { CostTotals } from './conversation';

/** Token sizes of the synthetic messages. */
export interface MessageTokens {
  readonly user: number;
  readonly reply: number;
  /** The model's call of an ordinary tool (output). */
  readonly call: number;
  readonly result: number;
  /** The model's search_tools call (output). */
  readonly searchCall: number;
  readonly searchResult: number;
  /** A directive block's fixed part (Anthropic directives), plus 3 tokens a tool name. */
  readonly directive: number;
}

/** Assumptions, shown beside the chart: a short question, a tool result of a few hundred tokens. */
export const DEFAULT_MESSAGE_TOKENS: MessageTokens = { user: 40, reply: 80, call: 30, result: 300, searchCall: 20, searchResult: 120, directive: 12 };

export interface BreakEvenInput {
  readonly provider: ProviderId;
  readonly table: PriceTable;
  readonly model?: string;
  /** Tokens of each always-offered tool as the provider renders it, in config order. */
  readonly onTools: readonly number[];
  /** Tokens of each discoverable tool, in config order; a size larger than the list reuses it from the start. */
  readonly discoverableTools: readonly number[];
  readonly builtins: { readonly describe: number; readonly search: number };
  readonly systemTokens: number;
  readonly promotedPosition: 'config_order' | 'append';
  readonly sizes: readonly number[];
  readonly turns: readonly number[];
  /** Discoveries per conversation (at most one per turn, and no more than the catalogue holds). */
  readonly discoveries: number;
  readonly messages?: MessageTokens;
  readonly secondsBetweenTurns?: number;
}

export interface BreakEvenCell {
  readonly size: number;
  readonly turns: number;
  readonly discoverable: CostTotals;
  readonly allOn: CostTotals;
  /** all-on minus discoverable, in the result's unit: positive where discovery pays. */
  readonly saving: number;
}

export interface BreakEvenResult {
  /** USD, or prefill tokens for a local runtime. */
  readonly unit: 'USD' | 'prefill tokens';
  readonly model: string;
  readonly priced: string;
  readonly cells: readonly BreakEvenCell[];
  /** Per conversation length: the smallest swept size from which discovery stays cheaper; undefined if it never does. */
  readonly breakEven: readonly { readonly turns: number; readonly size?: number }[];
}

interface Sim {
  state: CacheState;
  totals: CostTotals;
  readonly messages: Segment[];
}

function toolSegments(input: BreakEvenInput, size: number, mode: 'discoverable' | 'all-on' | 'directives', promoted: readonly number[]): Segment[] {
  const d = input.discoverableTools;
  const disc = (i: number): Segment => ({ key: `tool:d:${i}`, tokens: d.length === 0 ? 0 : (d[i % d.length] ?? 0), section: 'tools' });
  const on = input.onTools.map((tokens, i): Segment => ({ key: `tool:on:${i}`, tokens, section: 'tools' }));
  const describe: Segment = { key: 'tool:describe_tools', tokens: input.builtins.describe, section: 'tools' };
  const search: Segment = { key: 'tool:search_tools', tokens: input.builtins.search, section: 'tools' };
  const all = Array.from({ length: size }, (_, i) => disc(i));
  if (mode === 'all-on') return [...on, ...all, describe];
  if (mode === 'directives') return [...on, ...all, describe, ...(size > 0 ? [search] : [])];
  const registered = size > 0 ? [search] : [];
  if (input.promotedPosition === 'append') return [...on, describe, ...registered, ...promoted.map(disc)];
  return [...on, ...[...promoted].sort((a, b) => a - b).map(disc), describe, ...registered];
}

/** One conversation of `turns` turns over a catalogue of `size` discoverable tools. */
function simulate(input: BreakEvenInput, size: number, turns: number, mode: 'discoverable' | 'all-on' | 'directives'): CostTotals {
  const { model, effective } = rulesFor(input.provider, input.table, input.model);
  const m = input.messages ?? DEFAULT_MESSAGE_TOKENS;
  const gap = input.secondsBetweenTurns ?? 30;
  const sim: Sim = { state: EMPTY_CACHE, totals: NO_TOTALS, messages: [] };
  const system: Segment = { key: 'system', tokens: input.systemTokens, section: 'system' };
  const promoted: number[] = [];
  const push = (tokens: number) => sim.messages.push({ key: `m:${sim.messages.length}`, tokens, section: 'messages' });
  const send = (at: number, output: number) => {
    const segments = [...toolSegments(input, size, mode, promoted), system, ...sim.messages];
    const step = cacheStep(effective, sim.state, { segments, at });
    sim.state = step.state;
    sim.totals = addTotals(sim.totals, { figures: step.figures, output, money: priceRequest(step.figures, output, model) });
  };
  const discoveries = mode === 'all-on' ? 0 : Math.min(input.discoveries, turns, size);
  for (let k = 0; k < turns; k++) {
    const at = k * gap;
    push(m.user);
    if (mode === 'directives' && k === 0) push(m.directive + 3 * (input.onTools.length + 2));
    if (k < discoveries) {
      send(at, m.searchCall);
      push(m.searchCall);
      push(m.searchResult);
      promoted.push(k);
      if (mode === 'directives') push(m.directive + 3);
    }
    send(at, m.call);
    push(m.call);
    push(m.result);
    send(at, m.reply);
    push(m.reply);
  }
  return sim.totals;
}

/** The sweep: every size against every conversation length, discoverable (or directives) against all-on. */
export function breakEven(input: BreakEvenInput): BreakEvenResult {
  const { model, rules } = rulesFor(input.provider, input.table, input.model);
  const unit = rules.money ? 'USD' : 'prefill tokens';
  const metric = (t: CostTotals) => (rules.money ? t.money : t.uncached);
  const mode = input.provider === 'anthropic-directives' ? 'directives' : 'discoverable';
  const cells: BreakEvenCell[] = [];
  for (const turns of input.turns) {
    for (const size of input.sizes) {
      const discoverable = simulate(input, size, turns, mode);
      const allOn = simulate(input, size, turns, 'all-on');
      cells.push({ size, turns, discoverable, allOn, saving: metric(allOn) - metric(discoverable) });
    }
  }
  const breakEvenAt = input.turns.map((turns) => {
    const row = cells.filter((c) => c.turns === turns).sort((a, b) => a.size - b.size);
    let size: number | undefined;
    for (let i = row.length - 1; i >= 0; i--) {
      const c = row[i];
      if (!c || c.saving <= 0) break;
      size = c.size;
    }
    return { turns, ...(size !== undefined ? { size } : {}) };
  });
  return { unit, model: model.id, priced: priceDateLabel(input.table), cells, breakEven: breakEvenAt };
}
