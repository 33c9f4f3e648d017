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
  /** For calls: the search result, if the call was search_tools (whole rows: the simulator, the snapshot). */
  readonly search?: SearchOutcome;
  /** For calls in brief rows (the timeline list): the search's words and each hit's name and status. */
  readonly searchBrief?: SearchBrief;
  readonly callStatus?: 'ok' | 'error';
  /** For calls: the tool called (search_tools for a search). */
  readonly tool?: string;
}

/** What a timeline row says of a search: its query, limit, total and each hit's name and status (no summaries, scores or fields). */
export interface SearchBrief {
  readonly query: string;
  readonly limit: number;
  readonly total?: number;
  readonly returned: readonly { readonly name: string; readonly status: SearchOutcome['returned'][number]['status'] }[];
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

/**
 * One request's facts as a row or the inspector shows them: counts, not the name lists (at 100,000 tools
 * an offered list is tens of KB, and a derivation has hundreds of requests). Computed per request the
 * page asks about (the rows on screen, the inspector), memoized per (revision, request) in the worker.
 */
export interface RequestView {
  readonly id: number;
  readonly step: number;
  readonly cycle: number;
  readonly position: number;
  readonly toolChoice: string;
  readonly offeredCount: number;
  readonly permittedCount: number;
  readonly searchableCount: number;
  readonly arrayCount: number;
  /** The tools array is not the offered set in its order (RFD 105's fixed catalogue of directives). */
  readonly fixedArray: boolean;
  /** The first offered names (at most OFFERED_NAMES_SHOWN), for a row's hover. */
  readonly offeredFirst: readonly string[];
  readonly cost: { offered: number; permitted: number };
  readonly cache: { status: 'hit' | 'miss'; reason: string; firstDifference?: { offset: number; section: string } };
  /** Tools that entered the offered set since the previous request (promotions, directives), at most ADDED_NAMES_SHOWN of them. */
  readonly added: readonly string[];
  readonly addedCount: number;
  /** What the provider would refuse (error) or lose (warning) in this request. */
  readonly findings: readonly FindingView[];
}

/** One letter per row kind, for TimelineSpine.kinds. */
export const KIND_LETTERS: Readonly<Record<EntryView['kind'], string>> = {
  base: 'b', step: 's', delta: 'd', 'layer-edit': 'e', turn: 't', request: 'r', call: 'c', reply: 'y', restart: 'x', warning: 'w',
};

/** How many offered names a RequestView lists (offeredFirst, for a hover); offeredCount says how many there are. */
export const OFFERED_NAMES_SHOWN = 8;
/** How many joined names a RequestView lists (added, shown as chips); addedCount says how many there are. */
export const ADDED_NAMES_SHOWN = 24;
/** A brief row's call detail (a tool's result), in characters: enough for a hover. */
export const BRIEF_DETAIL_CHARS = 160;

/** A request with its whole name lists: the test hook's snapshot only, never a per-keystroke answer. */
export interface RequestSnapshot extends RequestView {
  readonly offered: readonly string[];
  readonly array: readonly string[];
  readonly addedAll: readonly string[];
}

export interface FindingView {
  readonly severity: 'error' | 'warning';
  readonly rule: string;
  readonly message: string;
  readonly tool?: string;
  /** The document the rule comes from, and when it was read. */
  readonly source: string;
}

/**
 * The timeline's rows as columns of small numbers, one element per row: enough for the selection, the
 * keys, the scrubber and the simulator to know each row's kind, position, step and cycle without its
 * words (which come in windows: `timelineWindow`).
 */
export interface TimelineSpine {
  /** One letter per row: KIND_LETTERS[kind]. */
  readonly kinds: string;
  readonly positions: readonly number[];
  /** The row's step (1-based), 0 before the first step. */
  readonly steps: readonly number[];
  /** The row's cycle, 0 when it has none. */
  readonly cycles: readonly number[];
}

/**
 * The answer to a derivation: small at every catalogue size (issue 32.4). The rows of the timeline and
 * of the sets come in windows (`timelineWindow`, `setsWindow`); a request's facts with its row.
 */
export interface TimelineView {
  readonly revision: number;
  readonly name: string;
  readonly policy: Policy;
  readonly diagnostics: readonly Diagnostic[];
  readonly entryCount: number;
  readonly spine: TimelineSpine;
  readonly requestCount: number;
  /** Per request id: its timeline row. */
  readonly requestEntries: readonly number[];
  readonly positionCount: number;
  /** Per position: the row that made it (the base config, the delta or layer edit). */
  readonly positionEntries: readonly number[];
  /** The counts at position 0 (the base config). */
  readonly baseCounts: PositionView['counts'];
  /** The first promotion's row (a freshly loaded document opens on it). */
  readonly firstPromotion?: number;
  /** The rows of steps that failed to start. */
  readonly errorEntries: readonly number[];
  /** The scenario's tools at its last position: the one count every panel shows (issue 24.5). */
  readonly tools: ToolCount;
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
   * The set counts at the row the derivation was asked about (`derive`'s `entry` hint), so the counts
   * paint from this one answer; the rows come from `setsWindow`.
   */
  readonly sets?: SetsSummary;
}

/** A timeline row with what it shows: its request's facts and the expectations that stand on it. */
export interface TimelineRow {
  readonly entry: EntryView;
  readonly request?: RequestView;
  readonly expectations: readonly ExpectationView[];
}

export interface TimelineWindow {
  readonly revision: number;
  readonly total: number;
  readonly offset: number;
  readonly rows: readonly TimelineRow[];
}

/** The whole timeline, for the test hook's snapshot and reviewers' scripts: never a per-keystroke answer. */
export interface TimelineSnapshot extends TimelineView {
  readonly entries: readonly EntryView[];
  readonly requests: readonly RequestSnapshot[];
  readonly positions: readonly PositionView[];
  readonly expectations: readonly ExpectationView[];
}

/** The chart's input: every request's definition cost and the markers between them (the chart tab only). */
export interface ChartRows {
  readonly revision: number;
  readonly rows: readonly (
    | { readonly kind: 'request'; readonly entry: number; readonly id: number; readonly step: number; readonly cycle: number; readonly permittedCount: number; readonly cost: { offered: number; permitted: number } }
    | { readonly kind: 'marker'; readonly entry: number; readonly entryKind: 'delta' | 'layer-edit'; readonly sources: readonly string[]; readonly label: string }
  )[];
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

/** The set counts at a position: what the answer to an edit carries. */
export interface SetsSummary {
  readonly revision: number;
  readonly position: number;
  readonly counts: { configured: number; permitted: number; offered: number; searchable: number };
  readonly registered: boolean;
  /** `counts.configured` in the words of TimelineView.tools. */
  readonly tools: ToolCount;
}

/** The sets panel's filter, applied in the worker. Empty lists: no narrowing by that group. */
export interface SetsQuery {
  readonly availability?: readonly ('on' | 'off' | 'discoverable')[];
  readonly membership?: readonly ('permitted' | 'offered' | 'searchable')[];
  readonly kind?: readonly ('local' | 'mcp' | 'builtin')[];
  /** A name/summary substring, case-insensitive. */
  readonly query?: string;
}

/** A window of the sets rows at a position, after the filter. */
export interface SetsWindow extends SetsSummary {
  /** Rows matching the filter. */
  readonly total: number;
  /** Rows at the position, unfiltered. */
  readonly all: number;
  readonly offset: number;
  readonly rows: readonly SetsRow[];
}

/** Every row of the sets at a position (the test hook's snapshot; `setsWindow` for the page). */
export interface SetsView extends SetsSummary {
  readonly rows: readonly SetsRow[];
}

/** What the worker computed for the page, for tests: request facts and sets rows built. */
export interface DeriveStats {
  /** Request facts built since the worker started, every revision. */
  readonly requestFacts: number;
  /** The newest derivation: its revision, the requests whose facts it built, and how many sets rows it built. */
  readonly revision?: number;
  readonly builtRequests: readonly number[];
  readonly setsRowsBuilt: number;
  /** The revisions whose `prepare` ran to its end (an opened document's first keystroke done ahead), newest last. */
  readonly prepared: readonly number[];
  /** The steps the newest derivation played itself (those before were done: a previous run's, or an offered file's derived ahead). */
  readonly stepsPlayed?: number;
  /** How the newest whole document came: itself, its file's bytes, or its file offered ahead (document.ts). */
  readonly wholeFrom?: 'doc' | 'source' | 'offer';
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
  /** The request's facts (the same as its timeline row's). */
  readonly view: RequestView;
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

/** The page gave up on a call (its query was dropped): the worker drops it if it waits, or stops it between slices. */
export interface RpcCancel {
  readonly id: number;
  readonly cancel: true;
}

/**
 * Calls and cancels made in one task of the page, in one message: a keystroke's answer makes the panels
 * ask for their windows and drop the previous revision's, and each message to a worker costs the main
 * thread a post (about half a millisecond each on a 2-core machine). A derivation is never held back
 * for a batch (client.ts).
 */
export interface RpcBatch {
  readonly batch: readonly (RpcRequest | RpcCancel)[];
}

export type RpcMessage = RpcRequest | RpcCancel | RpcBatch;

/**
 * An answer, an error, or `superseded`: a newer revision's derivation made the call useless before it
 * was answered (dispatch.ts), which the page takes as no answer, never as an error.
 */
export type RpcResponse =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string }
  | { readonly id: number; readonly ok: false; readonly superseded: true };
