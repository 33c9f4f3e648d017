// The views of the derive methods behind the simulator, the request inspector, the cost
// chart, the search lab and the open-questions panel (issue 5). Their rows in methods.ts
// route them to labHost.ts.
import type { AutoAction, PolicyKey, Policy, StepDoc } from '../core';
import type { RunMode } from '../core/config/types';
import type { DiffRow, TimelineDiff } from './policyDiff';

export type { DiffRow, DiffChange, TimelineDiff } from './policyDiff';

export interface ParamView {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
}

/** One tool of a request's permitted set, with what the simulator needs to call it. */
export interface RequestToolView {
  readonly name: string;
  readonly offered: boolean;
  readonly kind: 'local' | 'mcp' | 'builtin';
  readonly summary: string;
  readonly params: readonly ParamView[];
  /** For an MCP tool: its server and its name there (so the simulator can run it on a live server). */
  readonly server?: string;
  readonly backendName?: string;
  /** Its effective `run` mode (absent for a tool with no definition): whether the model's call of it runs without a question (issue 33). */
  readonly run?: RunMode;
}

export interface RequestToolsView {
  readonly id: number;
  readonly tools: readonly RequestToolView[];
}

export interface TokensView {
  /** The tokenizer's id, e.g. o200k_base. */
  readonly counter: string;
  /** Short words for beside a figure: "estimate: o200k_base over the anthropic tools JSON". */
  readonly label: string;
  /** Why that tokenizer, for a title or a note (core/providers/tool-tokens.ts). */
  readonly why: string;
  /** Per request id: tokens of the offered and the permitted sets as the provider's tools JSON. */
  readonly requests: readonly { readonly offered: number; readonly permitted: number }[];
}

/** Where two consecutive requests' cached bytes part: a window of each around the first difference. */
export interface CacheDifference {
  /** UTF-8 byte offset into the current request (the core's firstDifference). */
  readonly offset: number;
  readonly section: string;
  /** The shared text just before the difference. */
  readonly before: string;
  /** The previous request's text from the difference on. */
  readonly previous: string;
  /** This request's text from the difference on. */
  readonly current: string;
  /** Whether `before` was cut at its start. */
  readonly clipped: boolean;
}

export interface SearchHitView {
  readonly name: string;
  readonly score: number;
  readonly fields: readonly string[];
  /** What a search_tools call made here would report: promoted (usable) or found, unavailable. */
  readonly status: 'usable' | 'unavailable';
  readonly summary: string;
  /** 1-based rank in the other ranking, when it found the tool too. */
  readonly otherRank?: number;
}

export interface RankingResult {
  readonly id: string;
  readonly label: string;
  readonly hits: readonly SearchHitView[];
  /** Every match before the limit. */
  readonly total: number;
  readonly millis: number;
  /** This is the ranking the simulated model gets (policy `ranking`). */
  readonly active: boolean;
}

export interface SearchLabView {
  readonly position: number;
  readonly query: string;
  readonly limit: number;
  /** The searchable set at the position (what a search may return). */
  readonly searchable: number;
  readonly rankings: readonly RankingResult[];
  readonly error?: string;
}

export interface EvalView {
  readonly queries: number;
  readonly ks: readonly number[];
  readonly errors: readonly string[];
  /** How many tools the catalogue at the position has (what the queries ran over). */
  readonly tools: number;
  readonly rankings: readonly {
    readonly id: string;
    readonly label: string;
    readonly recall: readonly number[];
    readonly mrr: number;
    readonly misses: readonly { readonly query: string; readonly relevant: readonly string[]; readonly returned: readonly string[] }[];
  }[];
  readonly millis: number;
}

/** The two runs' prompt-cache totals (issue 13), so a switch that only moves the cache shows a number that moves. */
export interface PromptCacheDiff {
  readonly cacheRead: { readonly before: number; readonly after: number };
  readonly usd: { readonly before: number; readonly after: number };
  readonly model: { readonly before: string; readonly after: string };
  readonly priced: string;
  readonly money: boolean;
}

export interface PolicyDiffView extends TimelineDiff {
  readonly prompt?: PromptCacheDiff;
  readonly key: PolicyKey;
  readonly from: Policy[PolicyKey];
  readonly to: Policy[PolicyKey];
  readonly rows: readonly DiffRow[];
  readonly scenarioError?: string;
  readonly millis: number;
}

/** The auto model's play of a document's open turn: the step as played, and each move with its reason. */
export interface AutoTurnView {
  readonly stepIndex: number;
  readonly step?: StepDoc;
  readonly moves: readonly AutoAction[];
  /** Why the play stopped before a reply, if it did. */
  readonly stopped?: string;
}
