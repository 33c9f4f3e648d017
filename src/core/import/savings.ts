// What marking a catalogue discoverable saves: the definition cost of offering every
// tool against the discoverable setup the scenario has (its on tools plus the two
// builtins), per MCP server and in total, in JP's bytes and in tokens. The figures
// are read from the core's states and sets at a position; nothing is re-decided here.
import { describeToolsDefinition, searchToolsDefinition } from '../catalogue/builtins';
import type { ToolDefinition } from '../catalogue/types';
import { definitionCost, definitionTokens } from '../providers/cost';
import type { TokenCounter } from '../providers/cost';
import { tokenBasis, toolsArrayTokens } from '../providers/tool-tokens';
import type { ProviderId } from '../providers/types';
import type { ToolState } from '../stream/engine';
import type { Sets } from '../stream/sets';

export interface CostFigure {
  readonly tools: number;
  readonly bytes: number;
  /** With a token counter only. */
  readonly tokens?: number;
}

export interface ServerSavings {
  readonly server: string;
  /**
   * All on, as JP runs today, for this server: its resolvable tools that are not off (the Savings.all
   * rule, without describe_tools). It counted its off tools too, so a card said "every tool" for more
   * than the Servers tab's all-on row (issue 24.5).
   */
  readonly all: CostFigure;
  /** Those the discoverable setup offers (availability on). */
  readonly offered: CostFigure;
  /** Those left to search_tools (searchable). */
  readonly searchable: number;
}

export interface Savings {
  readonly servers: readonly ServerSavings[];
  /**
   * All on, as JP runs today: every resolvable tool that is not off (the discoverable ones turned on)
   * plus describe_tools. The Cost tab's "all on (JP today)" run is the same set; a tool the user turned
   * off is not something discovery saves (issue 24.5: this counted it, and the two panels disagreed).
   */
  readonly all: CostFigure;
  /** The offered set as the scenario has it, builtins included (search_tools once registered). */
  readonly discoverable: CostFigure;
  readonly saved: { readonly bytes: number; readonly tokens?: number; readonly percent: number };
  readonly counter?: string;
  /** What the token figures are: an estimate, with which tokenizer, over what (tool-tokens.ts). */
  readonly tokenBasis?: { readonly label: string; readonly why: string };
  readonly rfd: RfdComparison;
  readonly selection: SelectionComparison;
}

/** RFD 108: "A multi-server MCP setup spends tens of thousands of tokens on definitions". */
export const RFD_TOKENS_QUOTE = 'tens of thousands of tokens';
export const RFD_TOKENS_BAND = { low: 10_000, high: 99_999 } as const;
/** RFD 108 (after Anthropic): "model tool selection degrades past roughly 30–50 available tools". */
export const SELECTION_THRESHOLD = { low: 30, high: 50 } as const;

export interface RfdComparison {
  readonly verdict: 'below' | 'within' | 'above' | 'unknown';
  readonly sentence: string;
}

export interface SelectionComparison {
  readonly all: 'below' | 'within' | 'above';
  readonly discoverable: 'below' | 'within' | 'above';
  readonly sentence: string;
}

const n = (x: number): string => x.toLocaleString('en-US');

export function compareWithRfd(allTokens: number | undefined, allBytes: number): RfdComparison {
  if (allTokens === undefined) {
    return { verdict: 'unknown', sentence: `All on (JP today), the tools array costs ${n(allBytes)} bytes; token counts are loading.` };
  }
  const verdict = allTokens < RFD_TOKENS_BAND.low ? 'below' : allTokens > RFD_TOKENS_BAND.high ? 'above' : 'within';
  const where = verdict === 'within' ? 'matches' : verdict === 'below' ? 'is below' : 'is above';
  return { verdict, sentence: `All on (JP today), the tools array costs about ${n(allTokens)} tokens (an estimate), which ${where} the RFD's "${RFD_TOKENS_QUOTE}".` };
}

function band(count: number): 'below' | 'within' | 'above' {
  return count < SELECTION_THRESHOLD.low ? 'below' : count > SELECTION_THRESHOLD.high ? 'above' : 'within';
}

export function compareWithSelection(allTools: number, offeredTools: number): SelectionComparison {
  const a = band(allTools);
  const d = band(offeredTools);
  const words = { below: 'under', within: 'inside', above: 'past' } as const;
  return {
    all: a,
    discoverable: d,
    sentence: `All on (JP today) puts ${n(allTools)} tools in the tools array, ${words[a]} the 30–50-tool range where selection degrades; the discoverable setup puts ${n(offeredTools)}, ${words[d]} it.`,
  };
}

/**
 * Bytes are JP's definition cost; tokens, with a provider, are counted over that provider's tools JSON
 * for these tools (tool-tokens.ts), else over JP's own measure (name + description + schema).
 */
function figure(defs: readonly ToolDefinition[], counter: TokenCounter | undefined, provider: ProviderId | undefined): CostFigure {
  let bytes = 0;
  let tokens = 0;
  for (const d of defs) {
    bytes += definitionCost(d);
    if (counter && !provider) tokens += definitionTokens(d, counter);
  }
  if (counter && provider) tokens = toolsArrayTokens(defs, provider, counter);
  return { tools: defs.length, bytes, ...(counter ? { tokens } : {}) };
}

/** Savings at one position: `states` and `sets` are the core's (timeline.statesAt / setsAt). */
export function discoverySavings(states: Iterable<ToolState>, sets: Sets, counter?: TokenCounter, provider?: ProviderId): Savings {
  const offered = new Set(sets.offered);
  const searchable = new Set(sets.searchable);
  const byServer = new Map<string, { all: ToolDefinition[]; offered: ToolDefinition[]; searchable: number }>();
  const allDefs: ToolDefinition[] = [];
  const offeredDefs: ToolDefinition[] = [];
  for (const s of states) {
    if (!s.resolution.ok) continue;
    const def = s.resolution.definition;
    const allOn = s.enable.availability.value !== 'off' || offered.has(s.name);
    if (allOn) allDefs.push(def);
    if (offered.has(s.name)) offeredDefs.push(def);
    if (def.server === undefined) continue;
    let entry = byServer.get(def.server);
    if (!entry) {
      entry = { all: [], offered: [], searchable: 0 };
      byServer.set(def.server, entry);
    }
    if (allOn) entry.all.push(def);
    if (offered.has(s.name)) entry.offered.push(def);
    if (searchable.has(s.name)) entry.searchable += 1;
  }
  const builtinsOffered = [describeToolsDefinition, ...(offered.has(searchToolsDefinition.name) ? [searchToolsDefinition] : [])];
  const all = figure([...allDefs, describeToolsDefinition], counter, provider);
  const discoverable = figure([...offeredDefs, ...builtinsOffered], counter, provider);
  const savedBytes = all.bytes - discoverable.bytes;
  const savedTokens = all.tokens !== undefined && discoverable.tokens !== undefined ? all.tokens - discoverable.tokens : undefined;
  return {
    servers: [...byServer].map(([server, e]) => ({ server, all: figure(e.all, counter, provider), offered: figure(e.offered, counter, provider), searchable: e.searchable })),
    all,
    discoverable,
    saved: { bytes: savedBytes, ...(savedTokens !== undefined ? { tokens: savedTokens } : {}), percent: all.bytes === 0 ? 0 : Math.round((1000 * savedBytes) / all.bytes) / 10 },
    ...(counter ? { counter: counter.id, tokenBasis: provider ? tokenBasis(provider, counter.id) : { label: `estimate: ${counter.id} over name + description + schema`, why: `Counted with ${counter.id} over the text JP measures for a tool.` } } : {}),
    rfd: compareWithRfd(all.tokens, all.bytes),
    selection: compareWithSelection(all.tools, discoverable.tools),
  };
}
