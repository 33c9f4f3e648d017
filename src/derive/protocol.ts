// The views the derive worker answers with, and its messages. The worker keeps the newest
// timeline; the UI asks for views of it (rows of the sets at a position, one request's rendering,
// a search) by revision. Which methods there are is methods.ts's table.
import type { Diagnostic, Policy, SearchOutcome, ToolCount } from '../core';
import type { CacheDifference } from './labProtocol';
import type { WorkspaceView } from './workspaceProtocol';
import type { MethodName } from './methods';

export interface EntryView {
  readonly index: number;
  readonly kind: 'base' | 'step' | 'delta' | 'layer-edit' | 'turn' | 'request' | 'call' | 'reply' | 'restart' | 'warning';
  /** 0 base/step, 1 delta/turn/warning, 2 request/reply/restart, 3 call. */
  readonly depth: number;
  readonly label: string;
  readonly detail?: string;
  readonly position: number;
  readonly step?: number;
  readonly cycle?: number;
  readonly request?: number;
  readonly error?: string;
  /** For deltas: what made them. */
  readonly sources?: readonly string[];
  /** For deltas: the 1-based delta number. */
  readonly delta?: number;
  /** For deltas and layer edits: the words that made them (the command line, or "promotion: a, b"). */
  readonly words?: string;
  /** For calls: the search result, if the call was search_tools. */
  readonly search?: SearchOutcome;
  readonly callStatus?: 'ok' | 'error';
  /** For calls: the tool called (search_tools for a search). */
  readonly tool?: string;
}

export interface ExpectationView {
  readonly label: string;
  readonly key: string;
  readonly expected: unknown;
  readonly actual: unknown;
  readonly pass: boolean;
  readonly entry: number;
}

export interface PositionView {
  readonly index: number;
  readonly registered: boolean;
  readonly counts: { configured: number; discoverable: number; on: number; off: number };
}

export interface RequestView {
  readonly id: number;
  readonly step: number;
  readonly cycle: number;
  readonly position: number;
  readonly toolChoice: string;
  readonly offered: readonly string[];
  readonly permittedCount: number;
  readonly searchableCount: number;
  readonly array: readonly string[];
  readonly cost: { offered: number; permitted: number };
  readonly cache: { status: 'hit' | 'miss'; reason: string; firstDifference?: { offset: number; section: string } };
  /** Tools that entered the offered set since the previous request (promotions, directives). */
  readonly added: readonly string[];
  /** What the provider would refuse (error) or lose (warning) in this request. */
  readonly findings: readonly FindingView[];
}

export interface FindingView {
  readonly severity: 'error' | 'warning';
  readonly rule: string;
  readonly message: string;
  readonly tool?: string;
  /** The document the rule comes from, and when it was read. */
  readonly source: string;
}

export interface TimelineView {
  readonly revision: number;
  readonly name: string;
  readonly policy: Policy;
  readonly diagnostics: readonly Diagnostic[];
  readonly entries: readonly EntryView[];
  readonly positions: readonly PositionView[];
  /** The scenario's tools at its last position: the one count every panel shows (issue 24.5). */
  readonly tools: ToolCount;
  readonly requests: readonly RequestView[];
  readonly expectations: readonly ExpectationView[];
  /** The check's one count (the core's summarizeCheck), shown alike by the header and the timeline. */
  readonly passed: number;
  readonly failed: number;
  /** The rows of what `failed` counts (failed expectations, unexpected load errors), in timeline order. */
  readonly problemEntries: readonly number[];
  /** Problems with the scenario itself (not a layer). */
  readonly scenarioErrors: readonly string[];
  /** Milliseconds the derivation took in the worker. */
  readonly millis: number;
  /** The scenario's `[workspace]`: what loaded, with which persona, and its problems. */
  readonly workspace?: WorkspaceView;
  /**
   * The sets at the row the derivation was asked about (`derive`'s `entry` hint), so the sets
   * panel paints from this one answer instead of a second round trip (see `useSets`).
   */
  readonly sets?: SetsView;
}

export interface SetsRow {
  readonly name: string;
  readonly order: number;
  readonly kind: 'local' | 'mcp' | 'builtin';
  readonly availability: 'on' | 'off' | 'discoverable';
  readonly allowToggle: string;
  readonly permitted: boolean;
  readonly offered: boolean;
  readonly searchable: boolean;
  readonly server?: string;
  readonly serverStatus?: string;
  readonly summary: string;
  readonly run: string;
  /** One-line reason, e.g. "'*' in layer workspace". */
  readonly why: string;
  /** Where to jump for the deciding value: a layer line or a timeline position. */
  readonly link?: { readonly layer: string; readonly line: number; readonly column: number } | { readonly position: number };
}

export interface ProvenanceView {
  readonly text: string;
  /** Each step of the chain, with where it was decided (a layer line or a timeline position). */
  readonly steps: readonly { label: string; availability: string; allowToggle: string; position: number; link?: SetsRow['link'] }[];
}

export interface SetsView {
  readonly revision: number;
  readonly position: number;
  readonly rows: readonly SetsRow[];
  readonly counts: { configured: number; permitted: number; offered: number; searchable: number };
  readonly registered: boolean;
  /** `counts.configured` in the words of TimelineView.tools. */
  readonly tools: ToolCount;
}

export interface RequestDetail {
  readonly id: number;
  readonly provider: string;
  readonly bodyJson: string;
  readonly toolChoice: unknown;
  /** Length in UTF-8 bytes of what the cache compares (tools, system, messages). */
  readonly prefixBytes: number;
  /** On a cache miss against a previous request: both requests' bytes around the first difference. */
  readonly difference?: CacheDifference;
  readonly cache: RequestView['cache'];
  readonly cost: RequestView['cost'];
  readonly tokens?: { offered: number; permitted: number; counter: string };
  readonly directiveBlocks: readonly { type: string; tools: readonly string[] }[];
  /** Directive blocks from this index on were added since the previous request. */
  readonly newBlocksFrom: number;
}

// The method table (methods.ts) declares every method; these are its types, for the modules that
// have always read them here.
export type { Answer, MethodName, Methods, Params, Result } from './methods';

export interface RpcRequest {
  readonly id: number;
  readonly method: MethodName;
  readonly params: unknown;
}

export type RpcResponse = { readonly id: number; readonly ok: true; readonly result: unknown } | { readonly id: number; readonly ok: false; readonly error: string };
