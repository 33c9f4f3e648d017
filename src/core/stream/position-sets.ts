// The sets at a config position: the one answer that requests, steps, the timeline, the sets panel and
// the hosts all read (issue 23.0). A position is a complete value: its states, its registration and
// the promotions appended so far (`ConfigPosition.appended`) are all it takes.
//
// Computed once per position, and incrementally: the sets of a position are the sets of an earlier
// one with the membership of the tools changed in between moved (a promotion moves one tool; a
// 10,000-tool catalogue is not walked again). A layer edit that reorders, adds or removes tools is
// the one barrier: the sets after it are computed afresh from the states. One that only changes
// values (the common keystroke) moves its changed tools like a delta. A fork of the engine starts
// with its parent's sets (adopt), and a rebased fork with position 0's moved by the patched tools
// (adoptPatched), so a keystroke at 100,000 tools does not walk every state again. The property tests
// (position-sets.test.ts, properties.test.ts) hold the incremental answer to computeSets.
import { builtinNames, computeSets, isOffered, isPermitted, isSearchable } from './sets';
import type { Sets, SetSizes } from './sets';
import type { ConfigPosition, ToolChange, ToolState } from './engine';

/** One set in config order, as lists: names and their config orders (ascending), for merging by order. */
interface Flat {
  readonly names: readonly string[];
  readonly orders: readonly number[];
  /** The MCP server of each tool (same index): the permitted column's, for `servers`. */
  readonly servers?: readonly (string | undefined)[];
}

/** A tool moved into or out of a column (or rewritten: out and in, its server changed). */
export interface Move {
  readonly order: number;
  readonly name: string;
  readonly was: boolean;
  readonly is: boolean;
  readonly server?: string | undefined;
}

/**
 * A column past this many moves since its base is made into lists (a new base its later positions
 * share): reading it then merges a few moves, not hundreds.
 */
function movesLimit(base: Flat): number {
  return 32 + (base.names.length >> 4);
}

/**
 * One set at one position: a base in lists, shared by the positions after it (and, through adopt and
 * adoptPatched, by the engines of later keystrokes), with the moves since it (sorted by order, one per
 * order, each relative to the base). A position's column is made in O(its moves); its lists only when
 * read. Each promotion used to copy the offered and searchable columns whole, for every position of the
 * replay, whether read or not: at 10,000 tools 1.8 MB a keystroke that lived as long as its revision,
 * a third of what a small-layer keystroke left to V8's old generation. Most columns are never read
 * (the replay reads the offered set of a request's position, the views a few positions), and one read
 * is one merge of the base with the moves.
 */
export class Column {
  readonly length: number;
  private flat: Flat | undefined;

  private constructor(
    private readonly base: Flat,
    private readonly moves: readonly Move[],
    private readonly limit: number,
  ) {
    let length = base.names.length;
    for (const m of moves) length += (m.is ? 1 : 0) - (m.was ? 1 : 0);
    this.length = length;
    if (moves.length === 0) this.flat = base;
  }

  /** A column of these lists (the caller gives them up). `limit`: moves kept before they are made into lists (tests). */
  static of(flat: Flat, limit = movesLimit(flat)): Column {
    return new Column(flat, [], limit);
  }

  get names(): readonly string[] {
    return this.lists().names;
  }

  get orders(): readonly number[] {
    return this.lists().orders;
  }

  get servers(): readonly (string | undefined)[] {
    return this.lists().servers ?? [];
  }

  private lists(): Flat {
    return (this.flat ??= applyMoves(this.base, this.moves));
  }

  /**
   * This column with `more` moved (sorted by order, one per order, each relative to this column). The
   * column itself when nothing moved; a new base once the moves pass the limit.
   */
  moved(more: readonly Move[]): Column {
    if (more.length === 0) return this;
    const moves = composeMoves(this.moves, more);
    if (moves.length > this.limit) {
      const flat = applyMoves(this.base, moves);
      return new Column(flat, [], movesLimit(flat));
    }
    return new Column(this.base, moves, this.limit);
  }
}

/**
 * Moves relative to a base from `first` (relative to it) then `then` (relative to the base with
 * `first` applied), both sorted by order: one move an order, from what the base had to what `then`
 * leaves; a tool moved out and back in (neither before nor after) drops out.
 */
function composeMoves(first: readonly Move[], then: readonly Move[]): Move[] {
  const out: Move[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length || j < then.length) {
    const a = first[i];
    const b = then[j];
    if (b === undefined || (a !== undefined && a.order < b.order)) {
      out.push(a as Move);
      i++;
    } else if (a === undefined || b.order < a.order) {
      out.push(b);
      j++;
    } else {
      if (a.was || b.is) out.push({ order: b.order, name: b.name, was: a.was, is: b.is, server: b.server });
      i++;
      j++;
    }
  }
  return out;
}

function lowerBound(orders: readonly number[], order: number): number {
  let lo = 0;
  let hi = orders.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((orders[mid] ?? 0) < order) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The lists of `prev` with `moves` (sorted by order) applied, in one pass; servers kept when `prev` has them. */
function applyMoves(prev: Flat, moves: readonly Move[]): Flat {
  if (moves.length === 0) return prev;
  let size = prev.names.length;
  for (const m of moves) size += (m.is ? 1 : 0) - (m.was ? 1 : 0);
  const servers = prev.servers;
  // Sized once: a promotion moves one tool out of a column of thousands, copied in one pass.
  const names = new Array<string>(size);
  const orders = new Array<number>(size);
  const outServers: (string | undefined)[] | undefined = servers ? new Array<string | undefined>(size) : undefined;
  let i = 0;
  let o = 0;
  const copyTo = (end: number): void => {
    for (; i < end; i++, o++) {
      names[o] = prev.names[i] ?? '';
      orders[o] = prev.orders[i] ?? 0;
      if (outServers) outServers[o] = servers?.[i];
    }
  };
  for (const m of moves) {
    const at = lowerBound(prev.orders, m.order);
    copyTo(at);
    // The tool's old entry (same order) is dropped; its new one, if any, takes its place.
    if (m.was && i < prev.orders.length && prev.orders[i] === m.order) i++;
    if (m.is) {
      names[o] = m.name;
      orders[o] = m.order;
      if (outServers) outServers[o] = m.server;
      o++;
    }
  }
  copyTo(prev.orders.length);
  return outServers ? { names, orders, servers: outServers } : { names, orders };
}

/** The membership of every tool at one position, without builtins or the appended order. */
interface Core {
  readonly configured: Column;
  /** With the MCP server of each permitted tool, for `servers`. */
  readonly permitted: Column;
  readonly offered: Column;
  readonly searchable: Column;
}

/** What a position's sets are computed from; the engine supplies it. */
export interface SetsSource {
  readonly positions: readonly ConfigPosition[];
  /** Every tool's state at a position, in config order. */
  orderedStatesAt(index: number): Iterable<ToolState>;
}

const CORE_LIMIT = 24;
const FORCED_LIMIT = 8;

function serverOf(s: ToolState): string | undefined {
  const source = s.config.source?.value;
  return source?.kind === 'mcp' ? source.server : undefined;
}

function fullCore(states: Iterable<ToolState>): Core {
  const c = { names: [] as string[], orders: [] as number[] };
  const p = { names: [] as string[], orders: [] as number[], servers: [] as (string | undefined)[] };
  const o = { names: [] as string[], orders: [] as number[] };
  const s = { names: [] as string[], orders: [] as number[] };
  for (const st of states) {
    c.names.push(st.name);
    c.orders.push(st.order);
    if (!isPermitted(st, undefined)) continue;
    p.names.push(st.name);
    p.orders.push(st.order);
    p.servers.push(serverOf(st));
    if (isOffered(st, undefined)) {
      o.names.push(st.name);
      o.orders.push(st.order);
    } else if (isSearchable(st, undefined)) {
      s.names.push(st.name);
      s.orders.push(st.order);
    }
  }
  return { configured: Column.of(c), permitted: Column.of(p), offered: Column.of(o), searchable: Column.of(s) };
}

/**
 * The core of a position from the core of an earlier one and the tools changed in between (each once).
 * A tool whose membership did not move costs a few reads: columns without a move are shared.
 */
function nextCore(prev: Core, changed: Iterable<{ readonly before: ToolState | undefined; readonly after: ToolState }>): Core {
  const c: Move[] = [];
  const p: Move[] = [];
  const o: Move[] = [];
  const s: Move[] = [];
  for (const { before, after } of changed) {
    const base = { order: after.order, name: after.name };
    if (!before) c.push({ ...base, was: false, is: true });
    const wasP = before !== undefined && isPermitted(before, undefined);
    const isP = isPermitted(after, undefined);
    const server = isP ? serverOf(after) : undefined;
    if (wasP !== isP || (isP && before !== undefined && serverOf(before) !== server)) p.push({ ...base, was: wasP, is: isP, server });
    const wasO = wasP && before !== undefined && isOffered(before, undefined);
    const isO = isP && isOffered(after, undefined);
    if (wasO !== isO) o.push({ ...base, was: wasO, is: isO });
    const wasS = wasP && !wasO && before !== undefined && isSearchable(before, undefined);
    const isS = isP && !isO && isSearchable(after, undefined);
    if (wasS !== isS) s.push({ ...base, was: wasS, is: isS });
  }
  const byOrder = (a: Move, b: Move): number => a.order - b.order;
  return {
    configured: prev.configured.moved(c.sort(byOrder)),
    permitted: prev.permitted.moved(p.sort(byOrder)),
    offered: prev.offered.moved(o.sort(byOrder)),
    searchable: prev.searchable.moved(s.sort(byOrder)),
  };
}

/** The Sets value of a core at a position; each list is built when first read. */
function setsOf(core: Core, registered: boolean, appended: readonly string[]): Sets {
  const builtins = builtinNames(registered);
  const b = builtins.length;
  // Appended promotions only move offered tools to the tail: the offered set's size is the core's.
  const sizes: SetSizes = { configured: core.configured.length + b, permitted: core.permitted.length + b, offered: core.offered.length + b, searchable: core.searchable.length };
  let configured: readonly string[] | undefined;
  let permitted: readonly string[] | undefined;
  let offered: readonly string[] | undefined;
  let servers: readonly string[] | undefined;
  return {
    get configured(): readonly string[] {
      return (configured ??= [...core.configured.names, ...builtins]);
    },
    get permitted(): readonly string[] {
      return (permitted ??= [...core.permitted.names, ...builtins]);
    },
    get offered(): readonly string[] {
      if (offered) return offered;
      if (appended.length === 0) return (offered = [...core.offered.names, ...builtins]);
      // Promotions under `promoted_position = "append"` follow the builtins, in commit order.
      const tail = new Set(appended);
      const inConfig = new Set(core.offered.names);
      return (offered = [...core.offered.names.filter((n) => !tail.has(n)), ...builtins, ...appended.filter((n) => inConfig.has(n))]);
    },
    // Read as the lists are, when asked: most positions' searchable set is never read.
    get searchable(): readonly string[] {
      return core.searchable.names;
    },
    get catalogue(): readonly string[] {
      return core.configured.names;
    },
    sizes,
    get servers(): readonly string[] {
      if (servers) return servers;
      const seen = new Set<string>();
      for (const s of core.permitted.servers) if (s !== undefined) seen.add(s);
      return (servers = [...seen]);
    },
  };
}

/**
 * The sets at every position of one stream, each computed once (a few dozen kept; a position asked
 * for again after it was dropped is computed from the nearest kept one).
 */
export class PositionSets {
  private readonly cores = new Map<number, Core>();
  private readonly sets = new Map<number, Sets>();
  private readonly configOrder = new Map<number, Sets>();
  private readonly forced = new Map<string, Sets>();

  constructor(private readonly source: SetsSource) {}

  /** The sets at a position for an invocation forcing `forced` (none: a plain invocation). */
  at(index: number, forced?: string): Sets {
    const p = this.source.positions[index];
    if (!p) throw new Error(`no config position ${index}`);
    if (forced !== undefined) {
      const key = `${index}\u0000${forced}`;
      let hit = this.forced.get(key);
      if (!hit) {
        // A forced tool moves one tool across every set; rare enough to compute from the states.
        hit = computeSets(this.source.orderedStatesAt(index), { registered: p.registered, forced, appended: p.appended });
        remember(this.forced, key, hit, FORCED_LIMIT);
      }
      return hit;
    }
    let hit = this.sets.get(index);
    if (!hit) {
      hit = setsOf(this.core(index), p.registered, p.appended);
      remember(this.sets, index, hit, CORE_LIMIT);
    }
    return hit;
  }

  /** The sets at a position with the offered set in config order (appended promotions in place): the JSON's positions. */
  inConfigOrderAt(index: number): Sets {
    const p = this.source.positions[index];
    if (!p) throw new Error(`no config position ${index}`);
    if (p.appended.length === 0) return this.at(index);
    let hit = this.configOrder.get(index);
    if (!hit) {
      hit = setsOf(this.core(index), p.registered, []);
      remember(this.configOrder, index, hit, CORE_LIMIT);
    }
    return hit;
  }

  /**
   * A fork's sets (StreamEngine.forkAt): its positions up to `index` are the parent's, values shared,
   * and so are their cores.
   */
  adopt(parent: PositionSets, index: number): void {
    for (const [k, core] of parent.cores) if (k <= index) this.cores.set(k, core);
  }

  /**
   * A rebased fork's sets (StreamEngine.rebaseAt at `index`): its positions up to `index` are the
   * parent's with the `patched` tools in their new state from position 0 on, none reordered (the
   * derivation rebases only then). Position 0's core is the parent's with those tools moved, and so
   * is the core at `index` (where the kept steps end: while typing, the position the page asks about);
   * the others are derived from them when asked. A core the parent did not keep is not adopted
   * (computed when asked). Position 0 has no bulk threshold: an edit high in a catalogue layer patches
   * most tools, but only moves their text, so nothing is merged.
   */
  adoptPatched(parent: PositionSets, index: number, states0: ReadonlyMap<string, ToolState>, patched: ReadonlyMap<string, ToolState>): void {
    const moved = (core: Core, before: (name: string) => ToolState | undefined, after: (name: string) => ToolState | undefined): Core | undefined => {
      const changed: { before: ToolState; after: ToolState }[] = [];
      for (const name of patched.keys()) {
        const b = before(name);
        const a = after(name);
        if (!b || !a || b.order !== a.order) return undefined;
        changed.push({ before: b, after: a });
      }
      return nextCore(core, changed);
    };
    const core0 = parent.cores.get(0);
    const next0 = core0 ? moved(core0, (n) => states0.get(n), (n) => patched.get(n)) : undefined;
    if (next0) this.cores.set(0, next0);
    const coreAt = index > 0 ? parent.cores.get(index) : undefined;
    if (!coreAt || patched.size > bulkLimit(coreAt)) return;
    // Each patched tool's state at `index` in either engine: its newest change up to there, else its state at 0.
    const budget = 4 * bulkLimit(coreAt);
    const before = statesAt(parent.source.positions, index, patched, budget);
    const after = statesAt(this.source.positions, index, patched, budget);
    if (!before || !after) return;
    const nextAt = moved(coreAt, (n) => before.get(n) ?? states0.get(n), (n) => after.get(n) ?? patched.get(n));
    if (nextAt) this.cores.set(index, nextAt);
  }

  private core(index: number): Core {
    const hit = this.cores.get(index);
    if (hit) return hit;
    const positions = this.source.positions;
    // The nearest kept core at or before `index` with no reordering layer edit in between.
    let from = -1;
    for (const k of this.cores.keys()) if (k < index && k > from) from = k;
    let barrier = -1;
    for (let i = index; i > from; i--) {
      if (i === 0 || (positions[i]?.event.kind === 'layer-edit' && !keepsOrder(positions, i))) {
        barrier = i;
        break;
      }
    }
    let core: Core | undefined;
    let base = from >= 0 && barrier < 0 ? this.cores.get(from) : undefined;
    // Nothing kept and nothing reordered since position 0: position 0's core first, this one from it. A
    // derivation's fork moves position 0's core (rebaseFrom), so the first keystroke after an open
    // derives its sets from it rather than reading every tool's state (~70-160 ms at 100,000 tools).
    if (!base && from < 0 && barrier === 0 && index > 0) {
      base = this.core(0);
      from = 0;
    }
    if (base) {
      const changed = new Map<string, { before: ToolState | undefined; after: ToolState }>();
      let count = 0;
      for (let i = from + 1; i <= index; i++) {
        for (const c of positions[i]?.changes ?? []) {
          const seen = changed.get(c.name);
          changed.set(c.name, { before: seen ? seen.before : c.before, after: c.after });
          count++;
        }
      }
      if (count <= bulkLimit(base)) core = nextCore(base, changed.values());
    }
    core ??= fullCore(this.source.orderedStatesAt(index));
    // Position 0's core is kept: every later position and every rebased fork is derived from it.
    if (this.cores.size >= CORE_LIMIT) {
      for (const k of this.cores.keys()) {
        if (k !== 0) {
          this.cores.delete(k);
          break;
        }
      }
    }
    this.cores.set(index, core);
    return core;
  }
}

/**
 * The newest state up to position `index` (position 0 left out) of each of `names` that changed in
 * between; undefined past `budget` changes read (walking the states is cheaper then).
 */
function statesAt(positions: readonly ConfigPosition[], index: number, names: ReadonlyMap<string, unknown>, budget: number): Map<string, ToolState> | undefined {
  const out = new Map<string, ToolState>();
  let read = 0;
  for (let i = index; i >= 1 && out.size < names.size; i--) {
    const changes = positions[i]?.changes ?? [];
    read += changes.length;
    if (read > budget) return undefined;
    for (let j = changes.length - 1; j >= 0; j--) {
      const c = changes[j] as ToolChange;
      if (names.has(c.name) && !out.has(c.name)) out.set(c.name, c.after);
    }
  }
  return out;
}

/** Past an eighth of the catalogue changed, walking the states once is cheaper than merging. */
function bulkLimit(core: Core): number {
  return Math.max(64, core.configured.length >> 3);
}

/**
 * Whether the layer edit that made position `i` kept every tool in its place (values changed only):
 * no tool added (a change without a state before), removed (the configured count fell) or moved
 * (a change of order). Its changes then move the sets like a delta's.
 */
function keepsOrder(positions: readonly ConfigPosition[], i: number): boolean {
  const p = positions[i];
  const prev = positions[i - 1];
  if (!p || !prev || p.counts.configured !== prev.counts.configured) return false;
  for (const c of p.changes) if (!c.before || c.before.order !== c.after.order) return false;
  return true;
}

function remember<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  if (map.size >= limit) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}
