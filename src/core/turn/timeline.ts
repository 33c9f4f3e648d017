// The timeline: the value a scenario run produces. Every row knows its config
// position, so the UI and the command line read sets, requests and search
// results from here and never recompute them. It knows nothing of expectations:
// the checker (scenario/expectations.ts) reads what it needs from it afterwards.
import type { Diagnostic } from '../config/types';
import type { Span } from '../config/toml-ast';
import type { ToolDefinition } from '../catalogue/types';
import type { RenderedRequest } from '../providers/render';
import type { ConversationMessage, ToolChoice } from '../providers/types';
import type { ProviderDiagnostic } from '../providers/rules';
import type { Policy } from '../scenario/policy';
import type { ConfigPosition, StreamEngine, ToolState } from '../stream/engine';
import type { Sets } from '../stream/sets';
import type { SearchField } from '../search/types';
import type { Layer } from '../config/layer';
import type { PromotionStatus } from './fold';

export interface CacheResult {
  readonly status: 'hit' | 'miss';
  readonly reason: string;
  readonly firstDifference?: { readonly offset: number; readonly section: 'tools' | 'system' | 'messages' };
}

export interface RequestRecord {
  readonly id: number;
  readonly step: number;
  readonly cycle: number;
  /** The config position the request was resolved at (its cycle's start). */
  readonly position: number;
  readonly forced?: string;
  readonly toolChoice: ToolChoice;
  readonly registered: boolean;
  readonly sets: Sets;
  /** The array the provider gets (the fixed catalogue in Anthropic directives mode). */
  readonly array: readonly string[];
  readonly definitions: ReadonlyMap<string, ToolDefinition>;
  /** JP's definition cost estimate (UTF-8 bytes) of the offered and the permitted sets. */
  readonly cost: { readonly offered: number; readonly permitted: number };
  readonly messages: readonly ConversationMessage[];
  rendered(): RenderedRequest;
  cache(): CacheResult;
  /** What the provider would refuse (error) or lose (warning) in this request (providers/request-rules.ts). */
  findings(): readonly ProviderDiagnostic[];
}

export interface SearchOutcome {
  readonly query: string;
  readonly limit: number;
  readonly returned: readonly { readonly name: string; readonly score: number; readonly fields: readonly SearchField[]; readonly status: PromotionStatus; readonly summary: string }[];
  readonly total?: number;
}

export interface CallRecord {
  readonly step: number;
  readonly cycle: number;
  /** 0-based index in the cycle (the commit buffer's key). */
  readonly index: number;
  readonly tool: string;
  readonly args: unknown;
  readonly status: 'ok' | 'error';
  readonly result: string;
  readonly error?: string;
  readonly search?: SearchOutcome;
  readonly write?: { readonly proposed: readonly string[]; readonly applied: boolean; readonly reason?: string };
  readonly replayed: boolean;
}

export type TimelineEntry =
  | { readonly kind: 'base'; readonly position: number }
  | { readonly kind: 'step'; readonly step: number; readonly command: string; readonly position: number; readonly error?: string; readonly commandSpan: Span }
  | { readonly kind: 'delta'; readonly step: number; readonly cycle?: number; readonly position: number }
  | { readonly kind: 'layer-edit'; readonly step: number; readonly layer: string; readonly position: number }
  | { readonly kind: 'turn'; readonly step: number; readonly query: string; readonly position: number }
  | { readonly kind: 'request'; readonly step: number; readonly cycle: number; readonly request: number; readonly position: number }
  | { readonly kind: 'call'; readonly step: number; readonly cycle: number; readonly call: CallRecord; readonly position: number }
  | { readonly kind: 'reply'; readonly step: number; readonly cycle: number; readonly text: string; readonly position: number }
  | { readonly kind: 'restart'; readonly step: number; readonly cycle: number; readonly position: number }
  | { readonly kind: 'warning'; readonly step?: number; readonly message: string; readonly position: number };

/** What a step left behind: where it ended, its error, and what an expectation on the step reads. */
export interface StepRecord {
  readonly step: number;
  /** The step's own row in `entries`. */
  readonly entry: number;
  /** The step's last row (expectations on the step stand there). */
  readonly lastEntry: number;
  /** The config position after the step. */
  readonly position: number;
  /** Seconds since the conversation started when the step began: the sum of the steps' `elapsed`. */
  readonly time: number;
  readonly registered: boolean;
  /** Why the step's command failed (it then leaves the conversation as it was). */
  readonly error?: string;
  /** The layers as they stood after the step (`jp config set` edits them). */
  readonly layers: readonly Layer[];
  /** The sets a plain invocation would start with after the step: no forced tool; derived on first read. */
  readonly sets: Sets;
}

export interface Timeline {
  readonly name: string;
  readonly policy: Policy;
  readonly diagnostics: readonly Diagnostic[];
  /** The layers as they stand at the end (after `jp config set` edits). */
  readonly finalLayers: readonly Layer[];
  readonly entries: readonly TimelineEntry[];
  readonly positions: readonly ConfigPosition[];
  readonly requests: readonly RequestRecord[];
  readonly calls: readonly CallRecord[];
  /** One record per scenario step, in order. */
  readonly steps: readonly StepRecord[];
  /** The row that load expectations stand on: the last row before the first step. */
  readonly loadEntry: number;
  readonly engine: StreamEngine;
  /** Each tool's state at a position, in config order. */
  statesAt(position: number): ReadonlyMap<string, ToolState>;
  /** The sets a plain invocation would start with at a position. */
  setsAt(position: number): Sets;
}
