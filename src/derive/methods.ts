// The derive worker's protocol as one table: a row per method, saying which host answers it (the
// worker's dispatch), which of its params name its answer (the react-query key) and, as types only,
// its params and answer (the client's typed `call`). A new method is one row here plus its
// implementation on the host the row names; host.ts fails to compile until that host answers it.
// The view types stay in protocol.ts and the *Protocol.ts files; this module has no runtime imports,
// so the page's client can read it without pulling in any host code.
import type { CacheStatus, Policy, PolicyKey, PriceTable, RecordedStep, RfdTable, ScenarioDoc, FindabilityReport } from '../core';
import type { ChartRows, DeriveStats, ProvenanceView, RequestDetail, SetsQuery, SetsView, SetsWindow, TimelineSnapshot, TimelineView, TimelineWindow } from './protocol';
import type { DocumentEdits } from './document';
import type { AutoTurnView, EvalView, PolicyDiffView, RequestToolsView, SearchLabView, TokensView } from './labProtocol';
import type { BreakEvenView, CostView } from './costProtocol';
import type { DiscoverableView, WorkspaceInput } from './workspaceProtocol';
import type { ImportPreview, ImportPreviewParams, ServersView } from './serversProtocol';
import type { FindabilityView } from './findabilityProtocol';
import type { TaskRunSettings, TasksChunk, TasksStarted, TaskTurnView } from './tasksProtocol';
import type { AbAnswerParams, AbEstimateView, AbEvent, AbParams } from './abProtocol';
import type { Arm } from '../core/tasks/ab';
import type { Slicer } from './dispatch';

/**
 * The objects that answer methods in the worker: `derive` is DeriveHost itself (the timeline and its
 * views), the rest are the sub-hosts it holds (labHost.ts, costHost.ts, …).
 */
export type HostName = 'derive' | 'lab' | 'cost' | 'workspace' | 'servers' | 'findability' | 'tasks' | 'ab';

export interface Row<H extends HostName, P, A, K extends keyof P> {
  readonly host: H;
  /**
   * The params that name the answer, for its query key (absent: all of them). A param left out is
   * either big (a document, a catalogue's text) and stood for by what the caller adds to the key
   * (`deriveKey`'s `extra`), or read at call time on purpose (`derive`'s `entry`).
   */
  readonly keyed?: readonly K[];
  /**
   * While one call runs, only the newest waiting call is sent, and every caller it replaced gets its
   * (newer) answer: typing sends a derivation per keystroke.
   */
  readonly coalesce?: true;
  /**
   * What a derivation of a newer revision makes of a call of this revision (the worker's dispatch,
   * dispatch.ts): 'view' (a window or a fact of the revision on screen) is answered `superseded` if
   * it has not started, or between two of its slices where its host slices it (`timelineWindow`);
   * 'settled' (long work, asked once typing pauses) runs after every other waiting call, one at a time,
   * in slices where its host can, and is answered `superseded`, waiting or under way. The page's
   * query takes `superseded` as no answer, not as an error (client.ts). Only for params with a revision.
   */
  readonly supersede?: Supersede;
  /** Never set: carries the method's params and answer (a promise for methods that load a module first). */
  readonly signature?: (params: P) => A;
}

export type Supersede = 'view' | 'settled';

/** A row of method `P => A`: `method<P, A>()(host, options)` (curried so the host and keyed params are inferred). */
function method<P, A>() {
  return <H extends HostName, K extends keyof P = keyof P>(
    host: H,
    options: { readonly keyed?: readonly K[]; readonly coalesce?: true; readonly supersede?: P extends { readonly revision: number } ? Supersede : never } = {},
  ): Row<H, P, A, K> => ({ host, ...options });
}

/**
 * `derive`'s params: a derivation of `revision`, with the document as the worker is to hold it
 * (document.ts): `doc` whole (opened, replaced, restored, a resync), or `edits` since the revision
 * the worker holds (typing: a layer's content changes); neither: the revision the worker holds.
 * The page calls `DeriveClient.derive` with the store's document, and the client works out which.
 */
export interface DeriveParams {
  readonly revision: number;
  readonly doc?: ScenarioDoc;
  /** The bytes of the file the document was opened from, in place of `doc` (document.ts `openedFrom`), transferred: the worker decodes and parses them. */
  readonly source?: Uint8Array;
  /** The file offered to the worker ahead, in place of `doc` (document.ts `offerFile`): the worker read, parsed and derived it as it came. */
  readonly offer?: number;
  readonly edits?: DocumentEdits;
  /** The files of the folder the scenario's `[workspace]` names, when the UI opened one. */
  readonly workspace?: WorkspaceInput;
  /**
   * The selected timeline row (null: the last one, as `useSelectedEntry` reads it); when given, the
   * answer carries the sets at that row's position (`TimelineView.sets`).
   */
  readonly entry?: number | null;
}

export const methods = {
  // The timeline and its views (host.ts).
  derive: method<DeriveParams, TimelineView>()('derive', { keyed: ['revision'], coalesce: true }),
  /**
   * The rows [offset, offset + limit) of the timeline, each with its request's facts. `brief`: a call's
   * search as SearchBrief and its result cut (the list's rows); whole rows for the simulator's step.
   */
  timelineWindow: method<{ revision: number; offset: number; limit: number; brief?: boolean }, Promise<TimelineWindow>>()('derive', { supersede: 'view' }),
  /** The rows [offset, offset + limit) of the sets at a position, after the filter (past the end: the last position). */
  setsWindow: method<{ revision: number; position: number; offset: number; limit: number } & SetsQuery, SetsWindow>()('derive', { supersede: 'view' }),
  /**
   * The first layer edit's lazy work done ahead (Derivation.prepare): the worker asks it of itself once
   * an opened document's derivation is answered, to run while it is idle, so the first keystroke costs
   * what later ones do. Answers nothing; a newer derivation supersedes it.
   */
  prepare: method<{ revision: number }, Promise<void>>()('derive', { supersede: 'settled' }),
  /** Every row of the sets at a position (the test hook's snapshot); a position past the end reads as the last one, a negative one as 0. */
  sets: method<{ revision: number; position: number }, SetsView>()('derive'),
  /** The whole timeline with every request's lists: the test hook's snapshot. */
  timelineSnapshot: method<{ revision: number }, TimelineSnapshot>()('derive'),
  /** Every request's definition cost and the markers: the cost chart. */
  chartRows: method<{ revision: number }, ChartRows>()('derive', { supersede: 'view' }),
  /** The rows that are problems, refused requests included (every request's findings: asked by a key, not per keystroke). */
  problemRows: method<{ revision: number }, readonly number[]>()('derive'),
  /** Request facts and sets rows built (the test hook). */
  stats: method<Record<string, never>, DeriveStats>()('derive'),
  provenance: method<{ revision: number; position: number; name: string }, ProvenanceView>()('derive', { supersede: 'view' }),
  request: method<{ revision: number; id: number }, RequestDetail>()('derive'),
  /** What "Record expectations" writes on a step (1-based), read by the core's checker rules. */
  record: method<{ revision: number; step: number }, RecordedStep>()('derive'),
  /** RFD 108's tables as the core computes them (tokens by o200k_base once it loads). */
  rfd: method<Record<string, never>, Promise<readonly RfdTable[]>>()('derive'),
  /** The review report of a derived revision (the same HTML `tool-workbench report` writes). */
  report: method<{ revision: number; generatedAt: string; prices?: PriceTable }, Promise<string>>()('derive'),

  // The simulator, request inspector, cost chart, search lab and open questions (labHost.ts).
  /** The permitted tools of a request, offered first marked, with their parameters. */
  tools: method<{ revision: number; id: number }, RequestToolsView>()('lab', { supersede: 'view' }),
  /** Definition tokens of every request (the tokenizer loads lazily, in the worker). */
  tokens: method<{ revision: number }, Promise<TokensView>>()('lab', { supersede: 'settled' }),
  /** Both rankings over the catalogue at a position, filtered to its searchable set. */
  search: method<{ revision: number; position: number; query: string; limit: number }, SearchLabView>()('lab', { supersede: 'view' }),
  /** recall@k and MRR of both rankings for a JSONL query set, over the catalogue at a position. */
  evalQueries: method<{ revision: number; position: number; text: string }, EvalView>()('lab', { supersede: 'settled' }),
  /** The scenario under the current policy against the same with one switch flipped; the caller's key names the flip. */
  policyDiff: method<{ doc: ScenarioDoc; key: PolicyKey; value: Policy[PolicyKey]; table?: PriceTable }, Promise<PolicyDiffView>>()('lab', { keyed: [] }),
  /** Plays the open turn of the step at `stepIndex` with the core's auto model; a query of it adds the revision to its key. */
  autoTurn: method<{ doc: ScenarioDoc; stepIndex: number }, AutoTurnView>()('lab', { keyed: ['stepIndex'] }),

  // Prices in the provider's prompt-cache model (costHost.ts); the price table travels with each call.
  /** `compare: false` prices the conversation alone (no counterfactual runs): what the request inspector needs. */
  costs: method<{ revision: number; table: PriceTable; model?: string; compare?: boolean }, Promise<CostView>>()('cost', { supersede: 'settled' }),
  breakEven: method<{ revision: number; table: PriceTable; model?: string; discoveries: number }, Promise<BreakEvenView>>()('cost', { supersede: 'settled' }),
  /** The cache statuses of requests [from, to): a timeline window's, the simulator's step's, the inspector's. */
  cacheStatuses: method<{ revision: number; table: PriceTable; model?: string; from: number; to: number }, Promise<{ readonly from: number; readonly statuses: readonly CacheStatus[] }>>()('cost', { supersede: 'settled' }),

  // A JP workspace (workspaceHost.ts).
  /** Plans "make discoverable" for the persona of a recent derivation and measures its saving. */
  discoverable: method<{ revision: number; keep: number }, Promise<DiscoverableView>>()('workspace', { supersede: 'settled' }),

  // The import dialog and the servers panel (serversHost.ts).
  /** The caller's key names the catalogue's text (it may be megabytes). */
  importPreview: method<ImportPreviewParams, Promise<ImportPreview>>()('servers', { keyed: ['origin', 'policy', 'serverNames', 'url', 'revision'] }),
  serversView: method<{ revision: number; position: number }, Promise<ServersView>>()('servers'),

  // The findability report (findabilityHost.ts).
  /**
   * The findability report of the scenario's base config at `revision`; `tasks`: a task set as JSONL
   * (the search lab's query set); `baseline`: an earlier report to compare with. The caller's key
   * stands for both (a hash of the tasks, the baseline's label).
   */
  findability: method<{ revision: number; tasks?: string; baseline?: FindabilityReport }, Promise<FindabilityView>>()('findability', { keyed: ['revision'], supersede: 'settled' }),

  // Task runs (tasksHost.ts), a chunk of tasks per call so derivations interleave.
  tasksStart: method<{ revision: number; tasks: string; settings: TaskRunSettings }, Promise<TasksStarted>>()('tasks', { keyed: ['revision', 'settings'] }),
  tasksNext: method<{ run: number; count: number }, TasksChunk>()('tasks'),
  taskTurn: method<{ run: number; index: number }, TaskTurnView>()('tasks'),

  // The model A/B (abHost.ts): each answer is the next request for the page to send, or the finished run.
  abEstimate: method<AbParams, Promise<AbEstimateView>>()('ab'),
  abStart: method<AbParams, Promise<AbEvent>>()('ab'),
  abAnswer: method<AbAnswerParams, Promise<AbEvent>>()('ab'),
  abTurn: method<{ run: number; arm: Arm; index: number }, TaskTurnView>()('ab'),
};

type Table = typeof methods;
export type MethodName = keyof Table;
type Signature<M extends MethodName> = NonNullable<Table[M]['signature']>;
export type Params<M extends MethodName> = Parameters<Signature<M>>[0];
/** What the host returns: the result, or a promise of it for the methods that load a module first. */
export type Answer<M extends MethodName> = ReturnType<Signature<M>>;
export type Result<M extends MethodName> = Awaited<Answer<M>>;
/** Every method as a function: what the client calls and the hosts answer. */
export type Methods = { [M in MethodName]: (params: Params<M>) => Answer<M> };
/**
 * The methods the table routes to host `H`: the host's class must have each, with this signature.
 * `slicer`: where long work may give way to the worker's other messages (dispatch.ts; only the
 * `supersede: 'settled'` rows are given one that pauses).
 */
export type Answers<H extends HostName> = { [M in MethodName as Table[M]['host'] extends H ? M : never]: (params: Params<M>, slicer?: Slicer) => Answer<M> };
/** The params a method's query key is made of (`Row.keyed`). */
export type KeyParams<M extends MethodName> = Table[M] extends Row<HostName, infer P, unknown, infer K> ? Pick<P, K> : never;

export function isMethod(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.hasOwn(methods, name);
}

/**
 * The react-query key of a method's answer: the method and its keyed params, then whatever the caller
 * adds for the params left out of the key (see `Row.keyed`).
 */
export function deriveKey<M extends MethodName>(method: M, params: KeyParams<M>, ...extra: readonly unknown[]): readonly unknown[] {
  const keyed = (methods[method] as { readonly keyed?: readonly string[] }).keyed;
  const all = params as Readonly<Record<string, unknown>>;
  const picked = keyed ? Object.fromEntries(keyed.filter((k) => all[k] !== undefined).map((k) => [k, all[k]])) : params;
  return ['derive', method, picked, ...extra];
}
