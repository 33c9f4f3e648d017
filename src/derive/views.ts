// The views of one derivation, built as the page asks for them (issue 32.4): the answer to an edit
// carries counts and the timeline's spine; the rows of the timeline and of the sets come in windows,
// and a request's facts (cache status, findings, cost, what joined) are computed for the rows asked
// about only, memoized for the derivation. At 10,000 tools the whole answer used to be 3.4 MB a keystroke.
import { originLabel, toolCount } from '../core';
import type { ExpectationResult, Timeline, ToolState } from '../core';
import { isOffered, isPermitted, isSearchable } from '../core/stream/sets';
import { entryView } from './entryView';
import { ADDED_NAMES_SHOWN, BRIEF_DETAIL_CHARS, KIND_LETTERS, OFFERED_NAMES_SHOWN } from './protocol';
import type {
  ChartRows,
  EntryView,
  ExpectationView,
  PositionView,
  RequestSnapshot,
  RequestView,
  SetsQuery,
  SetsRow,
  SetsSummary,
  SetsWindow,
  TimelineRow,
  TimelineSpine,
} from './protocol';

/** How many rows one window may ask for: a screen of rows with room to spare, never the whole list by accident. */
export const MAX_WINDOW = 500;

/** What a derivation's views need from the host besides the timeline. */
export interface ViewSources {
  readonly timeline: Timeline;
  readonly expectations: readonly ExpectationResult[];
  /** A layer offset as a link (line and column in that revision's layer text). */
  readonly layerLink: (layer: string, offset: number) => { layer: string; line: number; column: number };
  /** A tool's catalogue summary (its definition's, else its config's). */
  readonly summaryOf: (s: ToolState) => string;
  /** Counts each request's facts built, for the test hook (nothing is computed for rows never shown). */
  readonly counted: () => void;
}

const BUILTIN_SUMMARY: Record<string, string> = {
  describe_tools: 'Get detailed descriptions and usage examples for one or more tools.',
  search_tools: 'Search the available tools by keyword and load the matches into context.',
};

function findingViews(r: Timeline['requests'][number]): RequestView['findings'] {
  return r.findings().map((d) => ({ severity: d.severity, rule: d.rule, message: d.message, ...(d.tool !== undefined ? { tool: d.tool } : {}), source: `${d.source.document} (read ${d.source.read})` }));
}

function cacheView(t: Timeline, i: number): RequestView['cache'] {
  const c = t.requests[i]?.cache();
  if (!c) return { status: 'miss', reason: 'no request' };
  return { status: c.status, reason: c.reason, ...(c.firstDifference ? { firstDifference: { ...c.firstDifference } } : {}) };
}

/**
 * The rows of the sets at one position, before they are words: the engine's own values, not copies
 * (at 100,000 tools a spread of the states and three Sets of names cost ~100 ms a keystroke). Row i
 * is the tool at config order i, then the builtins; its membership is read from its state.
 */
interface PositionSets {
  /** Each tool's state at the position (the engine's map). */
  readonly states: ReadonlyMap<string, ToolState>;
  /** The configured tools in config order, without the builtins (the sets' catalogue column). */
  readonly names: readonly string[];
  /** Builtins past the configured tools (search_tools, describe_tools). */
  readonly builtins: readonly string[];
  readonly summary: SetsSummary;
  /** The indices matching the last filter asked, so scrolling a filtered list does not filter again. */
  filtered?: { readonly key: string; readonly indices: readonly number[] };
}

function filterKey(q: SetsQuery): string {
  return JSON.stringify([q.availability ?? [], q.membership ?? [], q.kind ?? [], (q.query ?? '').trim().toLowerCase()]);
}

function isFiltered(q: SetsQuery): boolean {
  return (q.availability?.length ?? 0) > 0 || (q.membership?.length ?? 0) > 0 || (q.kind?.length ?? 0) > 0 || (q.query ?? '').trim() !== '';
}

/**
 * A row as the timeline list shows it: a call's search as its words and names (its result, the same
 * hits as JSON, left out), another call's result cut to a hover's length; a delta's words, when they
 * only repeat its label, left out.
 */
function briefEntry(e: EntryView): EntryView {
  if ((e.kind === 'delta' || e.kind === 'layer-edit') && e.words !== undefined && e.words === e.label) {
    const { words: _words, ...rest } = e;
    return rest;
  }
  if (e.kind !== 'call') return e;
  const { search, detail, ...rest } = e;
  return {
    ...rest,
    ...(detail !== undefined && !search ? { detail: detail.length > BRIEF_DETAIL_CHARS ? `${detail.slice(0, BRIEF_DETAIL_CHARS - 1)}…` : detail } : {}),
    ...(search ? { searchBrief: { query: search.query, limit: search.limit, ...(search.total !== undefined ? { total: search.total } : {}), returned: search.returned.map((h) => ({ name: h.name, status: h.status })) } } : {}),
  };
}

const BUILTIN_MEMBERSHIP = { permitted: true, offered: true, searchable: false } as const;

/** A configured tool's membership at a plain position (no forced tool), read from its state as the sets' rules do. */
function membership(s: ToolState): { permitted: boolean; offered: boolean; searchable: boolean } {
  return { permitted: isPermitted(s, undefined), offered: isOffered(s, undefined), searchable: isSearchable(s, undefined) };
}

export class DerivationViews {
  private readonly entries = new Map<number, EntryView>();
  private readonly requests = new Map<number, RequestView>();
  private readonly positions = new Map<number, PositionSets>();
  private byEntry: Map<number, ExpectationView[]> | undefined;
  /** Sets rows built (for the test hook: the rows of a window, never all of them). */
  setsRowsBuilt = 0;

  constructor(
    private readonly revision: number,
    private readonly src: ViewSources,
  ) {}

  private get t(): Timeline {
    return this.src.timeline;
  }

  entry(i: number): EntryView | undefined {
    let e = this.entries.get(i);
    if (!e) {
      const x = this.t.entries[i];
      if (!x) return undefined;
      e = entryView(x, i, this.t);
      this.entries.set(i, e);
    }
    return e;
  }

  /** One request's facts, memoized: the rows on screen and the inspector ask, nothing else builds them. */
  request(id: number): RequestView | undefined {
    const hit = this.requests.get(id);
    if (hit) return hit;
    const t = this.t;
    const r = t.requests[id];
    if (!r) return undefined;
    this.src.counted();
    const offered = r.sets.offered;
    const array = r.array;
    const prev = id > 0 ? new Set(t.requests[id - 1]?.sets.offered ?? []) : undefined;
    const added = prev ? offered.filter((n) => !prev.has(n)) : [];
    const view: RequestView = {
      id: r.id, step: r.step, cycle: r.cycle, position: r.position,
      toolChoice: r.toolChoice.kind === 'function' ? r.toolChoice.name : r.toolChoice.kind,
      // Counts from the sizes: the permitted list, built to be read, is a copy of the catalogue's
      // permitted tools kept with the request's sets for the revision's life.
      offeredCount: offered.length, permittedCount: r.sets.sizes.permitted, searchableCount: r.sets.sizes.searchable,
      arrayCount: array.length, fixedArray: array.length !== offered.length || array.some((n, i) => n !== offered[i]),
      offeredFirst: offered.slice(0, OFFERED_NAMES_SHOWN),
      cost: { ...r.cost }, cache: cacheView(t, id),
      added: added.slice(0, ADDED_NAMES_SHOWN), addedCount: added.length,
      findings: findingViews(r),
    };
    this.requests.set(id, view);
    return view;
  }

  private expectationsOf(entry: number): readonly ExpectationView[] {
    if (!this.byEntry) {
      const m = new Map<number, ExpectationView[]>();
      for (const e of this.src.expectations) {
        const x: ExpectationView = { label: e.label, key: e.key, expected: e.expected, actual: e.actual, pass: e.pass, entry: e.entry };
        const list = m.get(e.entry);
        if (list) list.push(x);
        else m.set(e.entry, [x]);
      }
      this.byEntry = m;
    }
    return this.byEntry.get(entry) ?? [];
  }

  /** `brief`: calls carry a SearchBrief instead of the search and a cut result (the timeline list's rows). */
  rows(offset: number, limit: number, brief = false): TimelineRow[] {
    const from = Math.max(0, Math.floor(offset));
    const to = Math.min(this.t.entries.length, from + Math.max(0, Math.min(MAX_WINDOW, Math.floor(limit))));
    const out: TimelineRow[] = [];
    for (let i = from; i < to; i++) {
      const whole = this.entry(i);
      if (!whole) continue;
      const entry = brief ? briefEntry(whole) : whole;
      const request = entry.kind === 'request' && entry.request !== undefined ? this.request(entry.request) : undefined;
      out.push({ entry, ...(request ? { request } : {}), expectations: this.expectationsOf(i) });
    }
    return out;
  }

  spine(): TimelineSpine {
    const kinds: string[] = [];
    const positions: number[] = [];
    const steps: number[] = [];
    const cycles: number[] = [];
    for (const e of this.t.entries) {
      kinds.push(KIND_LETTERS[e.kind]);
      positions.push(e.position);
      steps.push('step' in e && typeof e.step === 'number' ? e.step : 0);
      cycles.push('cycle' in e && typeof e.cycle === 'number' ? e.cycle : 0);
    }
    return { kinds: kinds.join(''), positions, steps, cycles };
  }

  /** Per request id, its row. */
  requestEntries(): number[] {
    const out: number[] = [];
    this.t.entries.forEach((e, i) => {
      if (e.kind === 'request') out[e.request] = i;
    });
    return out;
  }

  /** Per position, the row that made it: its delta, layer edit or the base config, else its first row. */
  positionEntries(): number[] {
    const made: number[] = [];
    const first: number[] = [];
    this.t.entries.forEach((e, i) => {
      if (first[e.position] === undefined) first[e.position] = i;
      if (made[e.position] === undefined && (e.kind === 'delta' || e.kind === 'layer-edit' || e.kind === 'base')) made[e.position] = i;
    });
    return this.t.positions.map((_, p) => made[p] ?? first[p] ?? 0);
  }

  firstPromotion(): number | undefined {
    for (let i = 0; i < this.t.entries.length; i++) {
      const e = this.t.entries[i];
      if (e?.kind !== 'delta') continue;
      const ev = this.t.positions[e.position]?.event;
      if (ev?.kind === 'delta' && ev.sources.includes('promotion')) return i;
    }
    return undefined;
  }

  errorEntries(): number[] {
    const out: number[] = [];
    this.t.entries.forEach((e, i) => {
      if (e.kind === 'step' && e.error) out.push(i);
    });
    return out;
  }

  positionViews(): PositionView[] {
    return this.t.positions.map((p) => ({ index: p.index, registered: p.registered, counts: { ...p.counts } }));
  }

  private clampPosition(position: number): number {
    return Math.max(0, Math.min(Math.floor(position), this.t.positions.length - 1));
  }

  private positionSets(position: number): PositionSets {
    const p = this.clampPosition(position);
    let hit = this.positions.get(p);
    if (hit) return hit;
    const t = this.t;
    const sets = t.setsAt(p);
    const registered = t.positions[p]?.registered ?? false;
    const tools = toolCount(t.positions[p]?.counts.configured ?? 0, registered);
    const { configured, permitted, offered, searchable } = sets.sizes;
    hit = {
      states: t.statesAt(p),
      names: sets.catalogue,
      builtins: tools.builtins,
      summary: { revision: this.revision, position: p, counts: { configured, permitted, offered, searchable }, registered, tools },
    };
    // A derivation is asked about a few positions (the selected one, a link followed); keep the newest few.
    if (this.positions.size >= 4) this.positions.delete(this.positions.keys().next().value as number);
    this.positions.set(p, hit);
    return hit;
  }

  setsSummary(position: number): SetsSummary {
    return this.positionSets(position).summary;
  }

  /** The ids of the requests whose facts were built (for the test hook). */
  builtRequests(): number[] {
    return [...this.requests.keys()].sort((a, b) => a - b);
  }

  /** The state of row i's tool; undefined past the configured tools (a builtin's row). */
  private stateAt(ps: PositionSets, i: number): ToolState | undefined {
    const name = ps.names[i];
    return name === undefined ? undefined : ps.states.get(name);
  }


  private setsRow(ps: PositionSets, i: number): SetsRow | undefined {
    this.setsRowsBuilt++;
    const s = this.stateAt(ps, i);
    if (s) {
      const src = s.config.source?.value;
      const server = src?.kind === 'mcp' ? src.server : undefined;
      const a = s.enable.availability;
      const link: SetsRow['link'] =
        a.origin.kind === 'layer' ? this.src.layerLink(a.origin.layer, a.origin.span.start) : a.origin.kind === 'delta' ? { position: this.positionOfDelta(a.origin.delta) } : undefined;
      return {
        name: s.name,
        order: s.order,
        kind: src?.kind ?? 'local',
        availability: a.value,
        allowToggle: s.enable.allowToggle.value,
        ...membership(s),
        ...(server !== undefined ? { server, serverStatus: s.resolution.ok ? 'running' : s.resolution.reason } : {}),
        summary: this.src.summaryOf(s),
        run: s.run,
        why: `${originLabel(a.origin, a.from)} → ${a.value}`,
        ...(link ? { link } : {}),
      };
    }
    const b = ps.builtins[i - ps.names.length];
    if (b === undefined) return undefined;
    return { name: b, order: i, kind: 'builtin', availability: 'on', allowToggle: 'never', permitted: true, offered: true, searchable: false, summary: BUILTIN_SUMMARY[b] ?? '', run: 'unattended', why: 'builtin (locked on)' };
  }

  /** Whether row i (its tool's state `s`; undefined for a builtin) passes the filter. */
  private matches(ps: PositionSets, i: number, s: ToolState | undefined, q: SetsQuery, words: string): boolean {
    const name = s ? s.name : (ps.builtins[i - ps.names.length] ?? '');
    // Each test read only when its filter is set: the walk visits every tool of the catalogue.
    if (q.availability && q.availability.length > 0 && !q.availability.includes(s ? s.enable.availability.value : 'on')) return false;
    if (q.kind && q.kind.length > 0 && !q.kind.includes(s ? (s.config.source?.value.kind ?? 'local') : 'builtin')) return false;
    if (q.membership && q.membership.length > 0) {
      const member = s ? membership(s) : BUILTIN_MEMBERSHIP;
      if (!q.membership.some((m) => member[m])) return false;
    }
    if (words !== '') {
      const summary = s ? this.src.summaryOf(s) : (BUILTIN_SUMMARY[name] ?? '');
      if (!name.toLowerCase().includes(words) && !summary.toLowerCase().includes(words)) return false;
    }
    return true;
  }

  /** The rows [offset, offset + limit) of the sets at a position, after the filter (done here, not in the page). */
  setsWindow(position: number, offset: number, limit: number, q: SetsQuery): SetsWindow {
    const ps = this.positionSets(position);
    const all = ps.names.length + ps.builtins.length;
    let indices: readonly number[] | undefined;
    if (isFiltered(q)) {
      const key = filterKey(q);
      if (ps.filtered?.key !== key) {
        const words = (q.query ?? '').trim().toLowerCase();
        const found: number[] = [];
        // The engine's map is in config order: walked beside the names, a lookup by name only where they part.
        const states = ps.states.values();
        for (let i = 0; i < all; i++) {
          let s: ToolState | undefined;
          if (i < ps.names.length) {
            const next = states.next();
            s = !next.done && next.value.name === ps.names[i] ? next.value : this.stateAt(ps, i);
          }
          if (this.matches(ps, i, s, q, words)) found.push(i);
        }
        ps.filtered = { key, indices: found };
      }
      indices = ps.filtered?.indices;
    }
    const total = indices ? indices.length : all;
    const from = Math.max(0, Math.min(Math.floor(offset), total));
    const to = Math.min(total, from + Math.max(0, Math.min(MAX_WINDOW, Math.floor(limit))));
    const rows: SetsRow[] = [];
    for (let k = from; k < to; k++) {
      const row = this.setsRow(ps, indices ? (indices[k] ?? -1) : k);
      if (row) rows.push(row);
    }
    return { ...ps.summary, total, all, offset: from, rows };
  }

  /** Every row at a position: the test hook's snapshot. */
  allSetsRows(position: number): SetsRow[] {
    const ps = this.positionSets(position);
    const rows: SetsRow[] = [];
    for (let i = 0; i < ps.names.length + ps.builtins.length; i++) {
      const row = this.setsRow(ps, i);
      if (row) rows.push(row);
    }
    return rows;
  }

  positionOfDelta(delta: number): number {
    const p = this.t.positions.find((x) => x.event.kind === 'delta' && x.event.delta === delta);
    return p?.index ?? 0;
  }

  /** Every request with its whole lists: the test hook's snapshot. */
  requestSnapshots(): RequestSnapshot[] {
    return this.t.requests.map((r, id) => {
      const view = this.request(id);
      const prev = id > 0 ? new Set(this.t.requests[id - 1]?.sets.offered ?? []) : undefined;
      return { ...(view as RequestView), offered: r.sets.offered, array: r.array, addedAll: prev ? r.sets.offered.filter((n) => !prev.has(n)) : [] };
    });
  }

  allEntries(): EntryView[] {
    return this.t.entries.map((_, i) => this.entry(i) as EntryView);
  }

  allExpectations(): ExpectationView[] {
    return this.src.expectations.map((e) => ({ label: e.label, key: e.key, expected: e.expected, actual: e.actual, pass: e.pass, entry: e.entry }));
  }

  /** Every request's definition cost and the delta markers, in row order: the cost chart. */
  chartRows(): ChartRows {
    const rows: ChartRows['rows'][number][] = [];
    this.t.entries.forEach((e, i) => {
      if (e.kind === 'delta' || e.kind === 'layer-edit') {
        const v = this.entry(i);
        if (v) rows.push({ kind: 'marker', entry: i, entryKind: e.kind, sources: v.sources ?? [], label: v.words ?? v.label });
      } else if (e.kind === 'request') {
        const r = this.t.requests[e.request];
        if (r) rows.push({ kind: 'request', entry: i, id: r.id, step: r.step, cycle: r.cycle, permittedCount: r.sets.sizes.permitted, cost: { ...r.cost } });
      }
    });
    return { revision: this.revision, rows };
  }

  /** Failed expectations, steps that did not start and requests the provider would refuse, in row order. */
  problemRows(): number[] {
    const bad = new Set<number>();
    for (const e of this.src.expectations) if (!e.pass) bad.add(e.entry);
    this.t.entries.forEach((e, i) => {
      if (e.kind === 'step' && e.error) bad.add(i);
      // Findings only, not the row's other facts: the key asks for every request's.
      if (e.kind === 'request' && this.t.requests[e.request]?.findings().some((f) => f.severity === 'error')) bad.add(i);
    });
    return [...bad].sort((a, b) => a - b);
  }
}
