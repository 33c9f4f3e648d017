// The conversation stream: the layers plus config deltas, and at every config
// position each tool's effective availability and allow_toggle, why, and the
// counts behind the sets. Positions are derived incrementally: a delta
// recomputes only the tools it touches (an enable-only entry just moves the
// tool's enable), a '*' enable change re-reads only the tools that inherit from
// '*', and each position keeps just its changes. A delta is first diffed
// against the current config, as JP does, so a restated value adds nothing.
// Full per-position views are replayed from the nearest snapshot on demand.
import { effectiveEnable, effectiveRun } from '../config/effective';
import type { LoadedLayer } from '../config/layer';
import { mergeEnable } from '../config/enable';
import { mergeConfigs, mergeDefaults, mergeTool } from '../config/merge';
import { EMPTY_CONFIG, EMPTY_DEFAULTS } from '../config/read';
import type { DeltaSource, EffectiveEnable, EffectiveField, PartialConfig, PartialEnable, RunMode, Sourced, ToolConfig, ToolDefaults } from '../config/types';
import type { Resolution, SimServer } from '../catalogue/resolve';
import { resolveTool } from '../catalogue/resolve';
import { LayeredMap } from './layered-map';
import { PositionSets } from './position-sets';
import type { Sets } from './sets';

export interface ToolState {
  readonly name: string;
  /** Index in config order. */
  readonly order: number;
  /** The tool's config with every layer and delta merged in. */
  readonly config: ToolConfig;
  readonly enable: EffectiveEnable;
  readonly run: RunMode;
  /** The resolved definition, or why the tool cannot be resolved (its server is not running...). */
  readonly resolution: Resolution;
}

export type PositionEvent =
  | { readonly kind: 'base' }
  | {
      readonly kind: 'delta';
      /** 1-based delta number. */
      readonly delta: number;
      readonly sources: readonly DeltaSource[];
      readonly detail: string;
      readonly step: number;
      readonly cycle?: number;
    }
  | { readonly kind: 'layer-edit'; readonly layer: string; readonly detail: string; readonly step: number };

export interface ToolChange {
  readonly name: string;
  readonly before?: ToolState;
  readonly after: ToolState;
}

export interface PositionCounts {
  readonly configured: number;
  /** Tools at effective discoverable (offline servers' included): what registration counts. */
  readonly discoverable: number;
  readonly on: number;
  readonly off: number;
}

export interface ConfigPosition {
  readonly index: number;
  readonly event: PositionEvent;
  readonly changes: readonly ToolChange[];
  /** search_tools registered at this position (monotone). */
  readonly registered: boolean;
  readonly counts: PositionCounts;
  /** Bumped whenever a change can alter a definition (docs, parameters, source, servers). */
  readonly catalogueVersion: number;
  readonly defaults: ToolDefaults;
  /**
   * Tools promoted under `promoted_position = "append"` up to this position, in commit order: the
   * offered set's tail. Part of the position, so the sets at a position need nothing from the turn loop.
   */
  readonly appended: readonly string[];
}

function sameDefinitionInputs(a: ToolConfig, b: ToolConfig, runA: RunMode, runB: RunMode): boolean {
  return (
    runA === runB &&
    a.source === b.source &&
    a.summary === b.summary &&
    a.description === b.description &&
    a.examples === b.examples &&
    a.parameters === b.parameters
  );
}

const SNAPSHOT_LIMIT = 12;

/**
 * What an engine did to reach its positions, counted. Its shortcuts (enable-only moves, '*' re-reading
 * only the tools that inherit, shared orders and marks, replays from the nearest snapshot) give the same
 * states as the slow paths, so only these counts show a change that silently drops one; and they are
 * what keeps a keystroke bounded at 100,000 tools (issue 32). Plain increments: nothing is timed.
 */
export interface EngineWork {
  /** Tools whose state was computed from their merged config (load, layer edits, deltas beyond enable). */
  readonly recomputed: number;
  /** Deltas copied to drop the enable fields they restate (a delta that restates nothing is kept as it is). */
  readonly deltasTrimmed: number;
  /** Enable-only delta entries on known tools, moved without a recompute. */
  readonly enableMoves: number;
  /** Tools that re-read '*' under a '*' enable delta (a tool setting both fields itself does not). */
  readonly inheritReads: number;
  /** Passes over every configured tool (load, layer edits, '*' deltas beyond enable). */
  readonly fullPasses: number;
  /** Of those, the passes that found the tool order changed and rebuilt order, states and marks. */
  readonly reorders: number;
  /** Newest-state maps built anew without the tools a layer edit dropped. */
  readonly statesRebuilt: number;
  /** Definitions resolved afresh (the others kept their resolution: their inputs did not change). */
  readonly resolved: number;
  /** Copies of a tool order shared with a fork or its parent, made before appending to it. */
  readonly orderCopies: number;
  /** Forks that took their parent's tool order as it is, and forks that rebuilt it from their states. */
  readonly ordersShared: number;
  readonly ordersRebuilt: number;
  /** Forks that copied their parent's searchable marks (undoing the later changes), and those that rebuilt them. */
  readonly marksCopied: number;
  readonly marksRebuilt: number;
  /** Times the searchable marks outgrew their array (grown by doubling). */
  readonly marksGrown: number;
  /** Views of a past position made from a snapshot plus the changes after it (statesAt, forks)... */
  readonly replays: number;
  /** ...and the positions they replayed in all. */
  readonly replayedPositions: number;
  /** Positions after 0 a rebase rewrote: those that change a patched tool (the others are kept as they are). */
  readonly rebasedPositions: number;
  /** Snapshots dropped to keep at most SNAPSHOT_LIMIT of them. */
  readonly evictions: number;
}

type Counted = { -readonly [K in keyof EngineWork]: number };

function sameField<T>(a: EffectiveField<T>, b: EffectiveField<T>): boolean {
  return a.value === b.value && a.origin === b.origin && a.from === b.from;
}

/** The on / any fallback fields (effectiveEnable returns the same objects every time). */
const FALLBACK = effectiveEnable(undefined, EMPTY_DEFAULTS);

/** A tool entry of a delta that sets nothing but enable fields. */
function enableOnly(t: ToolConfig): boolean {
  if (t.parameters.size > 0) return false;
  for (const k in t) {
    if (k === 'name' || k === 'enable' || k === 'parameters' || k === 'declared') continue;
    if ((t as unknown as Record<string, unknown>)[k] !== undefined) return false;
  }
  return true;
}

function withEnable(t: ToolConfig, enable: PartialEnable): ToolConfig {
  return { ...t, enable };
}

function touchesDefaultsEnable(delta: PartialConfig): boolean {
  return delta.defaults.enable.availability !== undefined || delta.defaults.enable.allowToggle !== undefined;
}

/** A delta whose '*' part is enable only (no run, format...): definitions cannot change through '*'. */
function onlyDefaultsEnable(delta: PartialConfig): boolean {
  return Object.keys(delta.defaults).every((k) => k === 'enable');
}

export class StreamEngine {
  private base: PartialConfig = EMPTY_CONFIG;
  private overlayDefaults: ToolDefaults = EMPTY_DEFAULTS;
  private readonly overlayTools = new Map<string, ToolConfig>();
  private defaults: ToolDefaults = EMPTY_DEFAULTS;
  /** The state at the newest position (layered: a fork shares it and copies only what it changed). */
  private states = LayeredMap.empty<string, ToolState>();
  private order: string[] = [];
  /**
   * Whether `order` is shared with a fork or its parent (restore): copied before a tool is appended. A
   * fork per keystroke copied it whole (100,000 names), and the copy lived as long as its revision.
   */
  private orderShared = false;
  private readonly positionList: ConfigPosition[] = [];
  /** States at some positions, each a LayeredMap sharing its root with the others and with `states`. */
  private readonly snapshots = new Map<number, LayeredMap<string, ToolState>>();
  private readonly pinned = new Set<number>();
  private registered = false;
  private catalogueVersion = 0;
  private deltaCount = 0;
  /** The appended promotions at the newest position; replaced, never mutated, so positions share it. */
  private appended: readonly string[] = [];
  private readonly setsByPosition = new PositionSets(this);
  /** What each position did to the base and the overlay, so a fork can rebuild them (forkAt). */
  private history: { readonly index: number; readonly base?: PartialConfig; readonly delta?: PartialConfig; readonly touchesDefaults?: boolean; readonly reordered?: boolean }[] = [];
  /** Running counts at the newest position, mutated in place; each position keeps a copy. */
  private readonly counts = { configured: 0, discoverable: 0, on: 0, off: 0 };
  /**
   * The tools at effective discoverable that resolve, at the newest position, by tool order (1: in
   * it): the tools search_tools may return (less a forced one). Kept with the counts, so a search
   * filter asking by a document's order reads one byte; a fork copies it natively (a Set of the names
   * was a ~50 ms copy per fork at 100,000 tools).
   */
  private discoverableByOrder = new Uint8Array(64);
  private readonly counted: Counted = {
    recomputed: 0,
    deltasTrimmed: 0,
    enableMoves: 0,
    inheritReads: 0,
    fullPasses: 0,
    reorders: 0,
    statesRebuilt: 0,
    resolved: 0,
    orderCopies: 0,
    ordersShared: 0,
    ordersRebuilt: 0,
    marksCopied: 0,
    marksRebuilt: 0,
    marksGrown: 0,
    replays: 0,
    replayedPositions: 0,
    rebasedPositions: 0,
    evictions: 0,
  };

  constructor(
    layers: readonly LoadedLayer[],
    private readonly servers: ReadonlyMap<string, SimServer>,
  ) {
    this.base = layers.reduce((acc, l) => mergeConfigs(acc, l.config), EMPTY_CONFIG);
    this.defaults = this.base.defaults;
    const changes = this.recomputeAll();
    this.push({ kind: 'base' }, changes);
    this.history.push({ index: 0, base: this.base });
    this.snapshots.set(0, this.states.fork());
  }

  /** What this engine did so far (a fork counts from its own creation). */
  get work(): EngineWork {
    return { ...this.counted };
  }

  get positions(): readonly ConfigPosition[] {
    return this.positionList;
  }

  get current(): ConfigPosition {
    // Never empty: the constructor pushes position 0, and restore keeps the positions up to its own.
    return this.positionList[this.positionList.length - 1] as ConfigPosition;
  }

  get isRegistered(): boolean {
    return this.registered;
  }

  get currentDefaults(): ToolDefaults {
    return this.defaults;
  }

  get toolOrder(): readonly string[] {
    return this.order;
  }

  /** The newest state of one tool. */
  state(name: string): ToolState | undefined {
    return this.states.get(name);
  }

  /** isSearchable(state(name), forced) for a name other than the forced tool, at the newest position. */
  searchableNow(name: string): boolean {
    const s = this.states.get(name);
    return s !== undefined && this.discoverableByOrder[s.order] === 1;
  }

  /** searchableNow of the tool at `order` in config order. */
  searchableOrderNow(order: number): boolean {
    return this.discoverableByOrder[order] === 1;
  }

  /** The newest state of every tool, in config order (the map is kept in it: see recomputeAll and restore). */
  currentStates(): IterableIterator<ToolState> {
    return this.states.values();
  }

  /** The merged config of a tool with a pending delta on top, without committing it. */
  pendingTool(name: string, pending: PartialConfig): ToolConfig | undefined {
    const cur = this.states.get(name)?.config;
    const up = pending.tools.get(name);
    if (cur && up) return mergeTool(cur, up);
    return up ?? cur;
  }

  pendingDefaults(pending: PartialConfig): ToolDefaults {
    return mergeDefaults(this.defaults, pending.defaults);
  }

  /** Effective enable of a tool under a pending delta. */
  pendingEnable(name: string, pending: PartialConfig): EffectiveEnable {
    // What the pending delta does not touch is the newest state's (the common case in a bulk directive).
    if (!pending.tools.has(name) && !touchesDefaultsEnable(pending)) {
      const s = this.states.get(name);
      if (s) return s.enable;
    }
    return effectiveEnable(this.pendingTool(name, pending), this.pendingDefaults(pending));
  }

  /** Whether a name is configured under a pending delta. */
  pendingHas(name: string, pending: PartialConfig): boolean {
    return this.states.has(name) || pending.tools.has(name);
  }

  /** Names configured under a pending delta, in config order (new names appended). */
  pendingOrder(pending: PartialConfig): string[] {
    const extra: string[] = [];
    for (const name of pending.tools.keys()) if (!this.states.has(name)) extra.push(name);
    return [...this.order, ...extra];
  }

  /**
   * JP's add_config_delta (jp-today 5.3): the incoming partial is diffed against the current config, so
   * an enable field that already holds the same value is dropped. Without it a delta would pin a value
   * the layers give anyway (`-t x -T x`, `--cfg x.enable=off` on an off tool), and a later edit of the
   * live layers (semantics 8.2) could no longer change it.
   */
  private withoutNoOps(delta: PartialConfig): PartialConfig {
    const sameEnable = (cur: PartialEnable, up: PartialEnable): PartialEnable => {
      const keepA = up.availability !== undefined && up.availability.value !== cur.availability?.value;
      const keepT = up.allowToggle !== undefined && up.allowToggle.value !== cur.allowToggle?.value;
      if (keepA === (up.availability !== undefined) && keepT === (up.allowToggle !== undefined)) return up;
      return { ...(keepA ? { availability: up.availability } : {}), ...(keepT ? { allowToggle: up.allowToggle } : {}) };
    };
    let tools: Map<string, ToolConfig> | undefined;
    for (const [name, t] of delta.tools) {
      const cur = this.states.get(name)?.config;
      if (!cur) continue;
      const enable = sameEnable(cur.enable, t.enable);
      if (enable === t.enable) continue;
      tools ??= new Map(delta.tools);
      const { name: _n, enable: _e, parameters, declared: _d, ...rest } = t;
      const other = parameters.size > 0 || Object.values(rest).some((v) => v !== undefined);
      if (!other && enable.availability === undefined && enable.allowToggle === undefined) tools.delete(name);
      else tools.set(name, { ...t, enable });
    }
    const defaultsEnable = sameEnable(this.defaults.enable, delta.defaults.enable);
    if (!tools && defaultsEnable === delta.defaults.enable) return delta;
    this.counted.deltasTrimmed += 1;
    return { ...delta, tools: tools ?? delta.tools, defaults: { ...delta.defaults, enable: defaultsEnable } };
  }

  /**
   * Appends a config delta as a new position. A delta that changes nothing appends nothing and returns
   * undefined. `append`: tools this delta promotes under `promoted_position = "append"`; they join the
   * position's `appended` tail (once each) when the delta is committed.
   */
  applyDelta(incoming: PartialConfig, event: Omit<Extract<PositionEvent, { kind: 'delta' }>, 'delta' | 'kind'>, append: readonly string[] = []): ConfigPosition | undefined {
    const delta = this.withoutNoOps(incoming);
    const touchesDefaults = Object.keys(delta.defaults).some((k) => k !== 'enable') || delta.defaults.enable.availability !== undefined || delta.defaults.enable.allowToggle !== undefined;
    if (delta.tools.size === 0 && !touchesDefaults) return undefined;
    this.deltaCount += 1;
    const fresh = append.filter((n, i) => !this.appended.includes(n) && append.indexOf(n) === i);
    if (fresh.length > 0) this.appended = [...this.appended, ...fresh];
    let changes: ToolChange[] = [];
    if (!touchesDefaults) {
      for (const [name, t] of delta.tools) {
        const only = enableOnly(t);
        this.overlay(name, t, only);
        const known = this.states.get(name);
        if (!known) this.appendToOrder(name);
        // Directives, promotions and most --cfg values touch enable only: the config, run and definition stay.
        const c = known && only ? this.moveEnable(known, t.enable) : this.recompute(name, known ? known.order : this.order.length - 1);
        if (c) changes.push(c);
      }
      return this.logged(delta, false, this.push({ ...event, kind: 'delta', delta: this.deltaCount }, changes));
    }
    this.overlayDefaults = mergeDefaults(this.overlayDefaults, delta.defaults);
    this.defaults = mergeDefaults(this.base.defaults, this.overlayDefaults);
    for (const [name, t] of delta.tools) this.overlay(name, t, enableOnly(t));
    if (onlyDefaultsEnable(delta)) {
      // '*' enable changed: a tool's config, run and definition stay; only its effective enable may move.
      for (const name of delta.tools.keys()) {
        if (this.states.has(name)) continue;
        this.appendToOrder(name);
      }
      for (let i = 0; i < this.order.length; i++) {
        const name = this.order[i] as string;
        const c = delta.tools.has(name) ? this.recompute(name, i) : this.refreshEnable(name);
        if (c) changes.push(c);
      }
    } else changes = this.recomputeAll();
    return this.logged(delta, true, this.push({ ...event, kind: 'delta', delta: this.deltaCount }, changes));
  }

  private logged(delta: PartialConfig, touchesDefaults: boolean, position: ConfigPosition): ConfigPosition {
    this.history.push({ index: position.index, delta, touchesDefaults });
    return position;
  }

  /** Layers are live (semantics 8.2): an edit of a layer applies to every later position. */
  replaceLayers(layers: readonly LoadedLayer[], event: Extract<PositionEvent, { kind: 'layer-edit' }>): ConfigPosition {
    this.base = layers.reduce((acc, l) => mergeConfigs(acc, l.config), EMPTY_CONFIG);
    this.defaults = mergeDefaults(this.base.defaults, this.overlayDefaults);
    const order = this.order;
    const position = this.push(event, this.recomputeAll());
    // recomputeAll replaces `order` when the edit dropped or reordered tools: a fork before this
    // position cannot take the newest order (or the marks kept by it) as its own (restore).
    this.history.push({ index: position.index, base: this.base, reordered: this.order !== order });
    // A layer edit may remove or reorder tools, which changes cannot replay: pin a full snapshot.
    this.snapshots.set(position.index, this.states.fork());
    this.pinned.add(position.index);
    return position;
  }

  private appendToOrder(name: string): void {
    if (this.orderShared) {
      this.order = this.order.slice();
      this.orderShared = false;
      this.counted.orderCopies += 1;
    }
    this.order.push(name);
  }

  /** Takes `order` (the parent's) without a copy: either one copies it before it appends to it. */
  private shareOrder(parent: StreamEngine, order: string[]): void {
    this.order = order;
    this.orderShared = true;
    parent.orderShared = true;
    this.counted.ordersShared += 1;
  }

  private mergedTool(name: string): ToolConfig | undefined {
    const b = this.base.tools.get(name);
    const o = this.overlayTools.get(name);
    if (b && o) return mergeTool(b, o);
    return b ?? o;
  }

  private recompute(name: string, order: number): ToolChange | undefined {
    const config = this.mergedTool(name);
    const before = this.states.get(name);
    if (!config) {
      return undefined;
    }
    this.counted.recomputed += 1;
    const run = effectiveRun(config, this.defaults);
    const enable = this.effective(config);
    let resolution: Resolution;
    if (before && sameDefinitionInputs(before.config, config, before.run, run)) resolution = before.resolution;
    else {
      resolution = resolveTool(config, run, this.servers);
      this.counted.resolved += 1;
      this.catalogueVersion += 1;
    }
    const after: ToolState = { name, order, config, enable, run, resolution };
    if (before && before.config === config && before.enable.availability === enable.availability && before.enable.allowToggle === enable.allowToggle && before.order === order && before.run === run) {
      return undefined;
    }
    this.adjustCounts(before, -1);
    this.adjustCounts(after, +1);
    this.states.set(name, after);
    return before ? { name, before, after } : { name, after };
  }

  /** Merges a delta's tool entry into the conversation overlay (what layer edits are replayed under). */
  private overlay(name: string, t: ToolConfig, only: boolean): void {
    const existing = this.overlayTools.get(name);
    this.overlayTools.set(name, existing ? (only ? withEnable(existing, mergeEnable(existing.enable, t.enable)) : mergeTool(existing, t)) : t);
  }

  /** A known tool under a delta that sets only enable fields (the same result as recompute, cheaper). */
  private moveEnable(before: ToolState, up: PartialEnable): ToolChange {
    const config = withEnable(before.config, mergeEnable(before.config.enable, up));
    // A field the entry sets is now the tool's own; a field it leaves keeps its effective value ('*' did
    // not change either). The same result as effectiveEnable(config, defaults), without re-reading '*'.
    const enable: EffectiveEnable = {
      availability: up.availability ? this.ownField(up.availability) : before.enable.availability,
      allowToggle: up.allowToggle ? this.ownField(up.allowToggle) : before.enable.allowToggle,
    };
    const after: ToolState = { name: before.name, order: before.order, config, enable, run: before.run, resolution: before.resolution };
    this.counted.enableMoves += 1;
    this.adjustCounts(before, -1);
    this.adjustCounts(after, +1);
    this.states.set(before.name, after);
    return { name: before.name, before, after };
  }

  /** `{ value, from: 'tool', origin }` of a tool's own field; one bulk directive shares one value, so one field. */
  private ownField<T>(v: Sourced<T>): EffectiveField<T> {
    if (this.lastOwn?.[0] !== v) this.lastOwn = [v, { value: v.value, from: 'tool', origin: v.origin }];
    return this.lastOwn[1] as EffectiveField<T>;
  }

  private lastOwn: [Sourced<unknown>, EffectiveField<unknown>] | undefined;

  /** A tool whose config is unchanged, under new '*' enable defaults. */
  private refreshEnable(name: string): ToolChange | undefined {
    const before = this.states.get(name);
    if (!before) return undefined;
    const own = before.config.enable;
    // A tool that sets both fields itself does not read '*'.
    if (own.availability && own.allowToggle) return undefined;
    this.counted.inheritReads += 1;
    const d = this.defaults.enable;
    const availability = own.availability ? before.enable.availability : d.availability ? this.defaultsField(d.availability) : FALLBACK.availability;
    const allowToggle = own.allowToggle ? before.enable.allowToggle : d.allowToggle ? this.defaultsField(d.allowToggle) : FALLBACK.allowToggle;
    if (sameField(availability, before.enable.availability) && sameField(allowToggle, before.enable.allowToggle)) return undefined;
    const after: ToolState = { name, order: before.order, config: before.config, enable: { availability, allowToggle }, run: before.run, resolution: before.resolution };
    this.adjustCounts(before, -1);
    this.adjustCounts(after, +1);
    this.states.set(name, after);
    return { name, before, after };
  }

  /** `{ value, from: 'defaults', origin }` of a '*' field, shared by every tool that inherits it. */
  private defaultsField<T>(v: Sourced<T>): EffectiveField<T> {
    let f = this.inherited.get(v);
    if (!f) this.inherited.set(v, (f = { value: v.value, from: 'defaults', origin: v.origin }));
    return f as EffectiveField<T>;
  }

  private readonly inherited = new Map<Sourced<unknown>, EffectiveField<unknown>>();

  /** effectiveEnable(config, defaults), with the inherited and fallback fields shared between tools. */
  private effective(t: ToolConfig): EffectiveEnable {
    const own = t.enable;
    const d = this.defaults.enable;
    return {
      availability: own.availability ? { value: own.availability.value, from: 'tool', origin: own.availability.origin } : d.availability ? this.defaultsField(d.availability) : FALLBACK.availability,
      allowToggle: own.allowToggle ? { value: own.allowToggle.value, from: 'tool', origin: own.allowToggle.origin } : d.allowToggle ? this.defaultsField(d.allowToggle) : FALLBACK.allowToggle,
    };
  }

  private recomputeAll(): ToolChange[] {
    const names: string[] = [...this.base.tools.keys()];
    for (const name of this.overlayTools.keys()) if (!this.base.tools.has(name)) names.push(name);
    const changes: ToolChange[] = [];
    this.counted.fullPasses += 1;
    const reordered = names.length !== this.order.length || names.some((n, i) => this.order[i] !== n);
    if (reordered) {
      const keep = new Set(names);
      let dropped = false;
      for (const name of this.order) {
        if (!keep.has(name)) {
          this.adjustCounts(this.states.get(name), -1);
          dropped = true;
        }
      }
      if (dropped) {
        // One new map rather than a delete per dropped tool (a delete folds a layered map).
        const kept = LayeredMap.empty<string, ToolState>();
        for (const [name, st] of this.states) if (keep.has(name)) kept.set(name, st);
        this.states = kept;
        this.counted.statesRebuilt += 1;
      }
      this.order = names;
      this.orderShared = false;
      this.catalogueVersion += 1;
    }
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      const c = this.recompute(name, i);
      if (c) changes.push(c);
    }
    if (reordered) {
      this.counted.reorders += 1;
      // The newest states in config order too (a view iterates them as they are, like a replayed position's).
      const states = [...this.states.values()].sort((a, b) => a.order - b.order);
      this.states = LayeredMap.empty();
      for (const st of states) this.states.set(st.name, st);
      // Tools that swapped places cleared each other's marks on the way: mark the set afresh.
      this.discoverableByOrder.fill(0);
      for (const st of states) if (st.enable.availability.value === 'discoverable' && st.resolution.ok) this.markOrder(st.order, 1);
    }
    return changes;
  }

  private adjustCounts(s: ToolState | undefined, sign: 1 | -1): void {
    if (!s) return;
    const a = s.enable.availability.value;
    this.counts.configured += sign;
    this.counts[a] += sign;
    if (a === 'discoverable' && s.resolution.ok) this.markOrder(s.order, sign > 0 ? 1 : 0);
  }

  private markOrder(order: number, value: 0 | 1): void {
    if (order >= this.discoverableByOrder.length) {
      const grown = new Uint8Array(Math.max(order + 1, this.discoverableByOrder.length * 2));
      grown.set(this.discoverableByOrder);
      this.discoverableByOrder = grown;
      this.counted.marksGrown += 1;
    }
    this.discoverableByOrder[order] = value;
  }

  private push(event: PositionEvent, changes: ToolChange[]): ConfigPosition {
    if (this.counts.discoverable > 0) this.registered = true;
    const position: ConfigPosition = {
      index: this.positionList.length,
      event,
      changes,
      registered: this.registered,
      counts: { ...this.counts },
      catalogueVersion: this.catalogueVersion,
      defaults: this.defaults,
      appended: this.appended,
    };
    this.positionList.push(position);
    return position;
  }

  /**
   * A new engine that stands where this one stood at position `index`: the same positions up to it
   * (shared, they are values), its states, overlay and appended promotions. What comes after is the
   * fork's own; this engine is not changed. The incremental derivation (turn/derivation.ts) resumes a
   * run from the first step an edit can affect with it.
   */
  forkAt(index: number): StreamEngine {
    const fork = new StreamEngine([], this.servers);
    fork.restore(this, index);
    fork.setsByPosition.adopt(this.setsByPosition, index);
    return fork;
  }

  private restore(parent: StreamEngine, index: number): void {
    const p = parent.positionList[index];
    if (!p) throw new Error(`no config position ${index}`);
    const reorderedAfter = parent.history.some((h) => h.index > index && h.reordered === true);
    this.positionList.length = 0;
    this.positionList.push(...parent.positionList.slice(0, index + 1));
    this.history = parent.history.filter((h) => h.index <= index);
    this.base = EMPTY_CONFIG;
    this.overlayDefaults = EMPTY_DEFAULTS;
    this.overlayTools.clear();
    // The overlay as applyDelta built it, delta by delta.
    for (const h of this.history) {
      if (h.base) this.base = h.base;
      if (!h.delta) continue;
      if (h.touchesDefaults) this.overlayDefaults = mergeDefaults(this.overlayDefaults, h.delta.defaults);
      for (const [name, t] of h.delta.tools) this.overlay(name, t, enableOnly(t));
    }
    this.defaults = p.defaults;
    // The states at the fork, sharing the parent's layered maps (O(their writes), not O(tools)): the
    // parent's newest, a snapshot, or the nearest snapshot with the changes after it replayed. Each is
    // in config order: a snapshot is, and a change either replaces a tool (which keeps its place) or
    // adds one at the end (a delta's new tool takes the next order).
    if (index >= parent.positionList.length - 1) {
      this.states = parent.states.fork();
      this.shareOrder(parent, parent.order);
    } else {
      const exact = parent.snapshots.get(index);
      if (exact) this.states = exact.fork();
      else {
        let from = 0;
        for (const k of parent.snapshots.keys()) if (k <= index && k > from) from = k;
        const snap = parent.snapshots.get(from);
        this.states = snap ? snap.fork() : LayeredMap.empty();
        this.counted.replays += 1;
        for (let i = from + 1; i <= index; i++) {
          this.counted.replayedPositions += 1;
          for (const c of (parent.positionList[i] as ConfigPosition).changes) this.states.set(c.name, c.after);
        }
      }
      // The same tools as the parent's newest, in the same order (none added after the fork, none
      // dropped or moved by a layer edit after it): its order, shared.
      if (!reorderedAfter && this.states.size === parent.order.length) this.shareOrder(parent, parent.order);
      else {
        this.order = [...this.states.keys()];
        this.orderShared = false;
        this.counted.ordersRebuilt += 1;
      }
    }
    this.registered = p.registered;
    // The version at the fork: a version says which catalogue a position has within one engine (the
    // positions up to the fork are the parent's, and what the fork adds without changing a definition
    // has the same catalogue). Nothing keyed by a version outlives its engine but the derivation's
    // reach test (turn/derivation.ts), which reads "no definition changed since load" from it.
    this.catalogueVersion = p.catalogueVersion;
    this.deltaCount = this.positionList.filter((x) => x.event.kind === 'delta').length;
    Object.assign(this.counts, p.counts);
    if (!reorderedAfter && parent.order.length === this.order.length) {
      // The parent's searchable marks at its newest position (native copies), with the changes after
      // the fork undone newest first: at 100,000 tools walking every state was a cost of each fork.
      this.discoverableByOrder = parent.discoverableByOrder.slice();
      this.counted.marksCopied += 1;
      for (let i = parent.positionList.length - 1; i > index; i--) {
        const changes = (parent.positionList[i] as ConfigPosition).changes;
        for (let j = changes.length - 1; j >= 0; j--) {
          const c = changes[j] as ToolChange;
          const b = c.before;
          const member = b !== undefined && b.enable.availability.value === 'discoverable' && b.resolution.ok;
          this.markOrder(c.after.order, member ? 1 : 0);
        }
      }
    } else {
      this.discoverableByOrder = new Uint8Array(Math.max(64, this.order.length));
      this.counted.marksRebuilt += 1;
      for (const s of this.states.values()) if (s.enable.availability.value === 'discoverable' && s.resolution.ok) this.markOrder(s.order, 1);
    }
    this.appended = p.appended;
    this.snapshots.clear();
    this.pinned.clear();
    for (const [k, m] of parent.snapshots) if (k <= index) this.snapshots.set(k, m);
    for (const k of parent.pinned) if (k <= index) this.pinned.add(k);
  }

  /** The merged layers the conversation was loaded from (position 0's base). */
  get loadedBase(): PartialConfig {
    return this.history[0]?.base ?? this.base;
  }

  /** Whether the delta that made position `index` touched '*' (every tool that inherits may move). */
  touchesDefaultsAt(index: number): boolean {
    return this.history.some((h) => h.index === index && h.touchesDefaults === true);
  }

  /**
   * Position 0's state of each of `names` had the conversation been loaded from `base` instead (no
   * delta applies at position 0): the resolution is the old one where the definition's inputs are the
   * same in value, so a definition (and its search document) is built again only when it changed.
   */
  statesUnder(base: PartialConfig, names: Iterable<string>, sameInputs: (a: ToolConfig, b: ToolConfig) => boolean): Map<string, ToolState> {
    const out = new Map<string, ToolState>();
    const states0 = this.statesAt(0);
    for (const name of names) {
      const config = base.tools.get(name);
      const before = states0.get(name);
      if (!config || !before) continue;
      const run = effectiveRun(config, base.defaults);
      const enable = effectiveEnable(config, base.defaults);
      let resolution = before.resolution;
      if (run !== before.run || !sameInputs(before.config, config)) {
        resolution = resolveTool(config, run, this.servers);
        this.counted.resolved += 1;
      }
      out.set(name, { name, order: before.order, config, enable, run, resolution });
    }
    return out;
  }

  /**
   * A new engine that stands where this one stood at position `index`, as if the conversation had been
   * loaded from `base`: every position up to `index` is this engine's with the tools of `patched` in
   * their new state (counts moved by the difference, registration recomputed). Valid only when no
   * position up to `index` changed '*' or edited a layer, and a delta up to it changed a patched tool
   * only if the tool's new state differs from the old in where its values were written, not in value:
   * the derivation checks that (turn/derivation.ts).
   */
  rebaseAt(index: number, base: PartialConfig, patched: ReadonlyMap<string, ToolState>): StreamEngine {
    const fork = new StreamEngine([], this.servers);
    fork.restore(this, index);
    const states0 = this.statesAt(0);
    const delta = { configured: 0, discoverable: 0, on: 0, off: 0 };
    for (const [name, after] of patched) {
      const before = states0.get(name);
      if (!before) continue;
      delta[before.enable.availability.value] -= 1;
      delta[after.enable.availability.value] += 1;
    }
    fork.base = base;
    fork.defaults = base.defaults;
    fork.history = fork.history.map((h) => (h.index === 0 ? { index: 0, base } : h));
    let registered = false;
    const positions = fork.positionList;
    // A patched tool a kept delta changed (only in where its base values were written: the derivation
    // replays from any delta on a tool changed in value) is changed there again, the way applyDelta
    // would, over its patched state and its overlay so far.
    const deltas = new Map<number, PartialConfig>();
    for (const h of fork.history) if (h.delta) deltas.set(h.index, h.delta);
    const current = new Map(patched);
    const overlays = new Map<string, ToolConfig>();
    for (let i = 0; i < positions.length; i++) {
      const p = positions[i] as ConfigPosition;
      const counts = { configured: p.counts.configured, discoverable: p.counts.discoverable + delta.discoverable, on: p.counts.on + delta.on, off: p.counts.off + delta.off };
      if (counts.discoverable > 0) registered = true;
      const d = deltas.get(i);
      if (d) {
        for (const [name, t] of d.tools) {
          if (!patched.has(name)) continue;
          const existing = overlays.get(name);
          overlays.set(name, existing ? (enableOnly(t) ? withEnable(existing, mergeEnable(existing.enable, t.enable)) : mergeTool(existing, t)) : t);
        }
      }
      let changes = p.changes;
      if (i === 0) {
        // Position 0 changes every tool (100,000 at that size): a copy with the patched ones replaced,
        // each at its order (load makes one change per tool, in config order; statesUnder patches only
        // tools position 0 has, at their order there).
        const copy = p.changes.slice();
        for (const [name, after] of patched) copy[after.order] = { name, after };
        changes = copy;
      }
      else if (patched.size > 0 && p.changes.some((c) => patched.has(c.name))) {
        fork.counted.rebasedPositions += 1;
        changes = p.changes.map((c) => {
          const before = current.get(c.name);
          if (!before) return c;
          const t = d?.tools.get(c.name);
          let after: ToolState;
          if (t && enableOnly(t)) after = { ...c.after, config: withEnable(before.config, mergeEnable(before.config.enable, t.enable)), enable: { availability: t.enable.availability ? { value: t.enable.availability.value, from: 'tool', origin: t.enable.availability.origin } : before.enable.availability, allowToggle: t.enable.allowToggle ? { value: t.enable.allowToggle.value, from: 'tool', origin: t.enable.allowToggle.origin } : before.enable.allowToggle } };
          else {
            const lower = base.tools.get(c.name);
            const upper = overlays.get(c.name);
            const config = lower && upper ? mergeTool(lower, upper) : (lower ?? upper ?? c.after.config);
            after = { ...c.after, config, enable: effectiveEnable(config, base.defaults) };
          }
          current.set(c.name, after);
          return { name: c.name, before, after };
        });
      }
      positions[i] = { ...p, changes, counts, registered, defaults: base.defaults };
    }
    const updates = new Map<string, ToolState>();
    for (const [name, st] of current) {
      const was = fork.states.get(name);
      if (!was) continue;
      updates.set(name, st);
      // The searchable marks restore copied, moved for the patched tools alone.
      const wasIn = was.enable.availability.value === 'discoverable' && was.resolution.ok;
      const isIn = st.enable.availability.value === 'discoverable' && st.resolution.ok;
      if (wasIn !== isIn) fork.markOrder(st.order, isIn ? 1 : 0);
    }
    fork.states = LayeredMap.patched(fork.states, updates);
    const last = positions[positions.length - 1] as ConfigPosition;
    fork.registered = last.registered;
    Object.assign(fork.counts, last.counts);
    // Only position 0's snapshot survives, patched: every later view is replayed from it.
    const snap0 = LayeredMap.patched(states0, patched);
    fork.snapshots.clear();
    fork.pinned.clear();
    fork.snapshots.set(0, snap0);
    fork.setsByPosition.adoptPatched(this.setsByPosition, index, states0, patched);
    return fork;
  }

  /**
   * Every tool's state at a position, in config order: statesAt's map is kept in it (the newest states
   * by recomputeAll, a snapshot by construction, a replay because a change either replaces a tool, which
   * keeps its place, or appends one with the next order; a layer edit that reorders pins a snapshot).
   */
  orderedStatesAt(index: number): Iterable<ToolState> {
    return this.statesAt(index).values();
  }

  /**
   * The sets at a position for an invocation that forces `forced` (none: a plain one): the one answer
   * requests, steps, the timeline and every view read (position-sets.ts).
   */
  setsAt(index: number, forced?: string): Sets {
    return this.setsByPosition.at(index, forced);
  }

  /** setsAt with the offered set in config order, appended promotions in place (the JSON's positions). */
  setsInConfigOrderAt(index: number): Sets {
    return this.setsByPosition.inConfigOrderAt(index);
  }

  /** Every tool's state at a position (a map in config order). Replayed from the nearest snapshot. */
  statesAt(index: number): ReadonlyMap<string, ToolState> {
    const last = this.positionList.length - 1;
    if (index >= last) return this.states;
    const cached = this.snapshots.get(index);
    if (cached) return cached;
    let from = 0;
    for (const k of this.snapshots.keys()) if (k <= index && k > from) from = k;
    const snap = this.snapshots.get(from);
    const map = snap ? snap.fork() : LayeredMap.empty<string, ToolState>();
    this.counted.replays += 1;
    for (let i = from + 1; i <= index; i++) {
      this.counted.replayedPositions += 1;
      for (const c of (this.positionList[i] as ConfigPosition).changes) map.set(c.name, c.after);
    }
    if (this.snapshots.size >= SNAPSHOT_LIMIT) {
      for (const k of this.snapshots.keys()) {
        if (k !== 0 && !this.pinned.has(k)) {
          this.snapshots.delete(k);
          this.counted.evictions += 1;
          break;
        }
      }
    }
    this.snapshots.set(index, map);
    return map;
  }
}
