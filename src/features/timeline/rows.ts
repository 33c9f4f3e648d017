// What a timeline row says, as plain data: the words, icons and marks the
// panel renders. Pure and DOM-free so it is unit-tested; it only rephrases
// what the core computed (EntryView, RequestView, ExpectationView), a window of rows at a time.
import { cacheStatus } from '../../core';
import type { CacheStatus } from '../../core';
import type { EntryView, ExpectationView, RequestView, TimelineView } from '../../derive/protocol';

export interface SourceMark {
  readonly source: string;
  readonly icon: string;
  readonly word: string;
}

const SOURCES: Record<string, { icon: string; word: string }> = {
  cfg: { icon: '⚙', word: 'cfg' },
  directive: { icon: '⚑', word: 'directive' },
  'config-set': { icon: '✎', word: 'config set' },
  promotion: { icon: '▲', word: 'promotion' },
  'tool-write': { icon: '✍', word: 'tool write' },
};

export function sourceMarks(sources: readonly string[] | undefined): SourceMark[] {
  return (sources ?? []).map((source) => ({ source, ...(SOURCES[source] ?? { icon: '•', word: source }) }));
}

export const KIND_ICON: Record<EntryView['kind'], string> = {
  base: '●',
  step: '$',
  delta: '▲',
  'layer-edit': '✎',
  turn: '▶',
  request: '○',
  call: '↳',
  reply: '↩',
  restart: '↻',
  warning: '⚠',
};

/** Bytes with a unit: "980 B", "2.3 KB", "1.4 MB". */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)} KB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}

/** A short JSON-ish rendering of an expected or actual value, for a hover and an accessible name. */
export function formatValue(v: unknown, max = 300): string {
  let s: string;
  if (typeof v === 'string') s = JSON.stringify(v);
  else if (v === undefined) s = '(nothing)';
  else {
    try {
      s = JSON.stringify(v) ?? String(v);
    } catch {
      s = String(v);
    }
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export function expectationText(e: ExpectationView): string {
  return `${e.pass ? 'pass' : 'fail'}: ${e.label} ${e.key}, expected ${formatValue(e.expected)}, actual ${formatValue(e.actual)}`;
}

/** A row's expectations as at most two marks: the failures and the passes, each listing its expectations. */
export interface ExpectationMark {
  readonly pass: boolean;
  readonly count: number;
  readonly keys: string;
  /** One line, for the accessible name. */
  readonly text: string;
  /** One expectation a line, for the hover. */
  readonly title: string;
}

export function expectationMarks(list: readonly ExpectationView[]): ExpectationMark[] {
  const out: ExpectationMark[] = [];
  for (const pass of [false, true]) {
    const xs = list.filter((x) => x.pass === pass);
    if (xs.length === 0) continue;
    out.push({
      pass,
      count: xs.length,
      keys: xs.map((x) => x.key).join(', '),
      text: `${xs.length} ${pass ? 'passed' : 'failed'}: ${xs.map((x) => `${x.key}, expected ${formatValue(x.expected, 200)}, actual ${formatValue(x.actual, 200)}`).join('; ')}`,
      title: xs.map((x) => `${pass ? '✓' : '✗'} ${x.label} · ${x.key}\n   expected ${formatValue(x.expected)}\n   actual   ${formatValue(x.actual)}`).join('\n'),
    });
  }
  return out;
}

export interface RowText {
  /** The main words (untrusted text included; rendered as text). */
  readonly text: string;
  /** Words after the main ones that a narrow panel may hide visually. */
  readonly suffix?: string;
  /** Small facts after the main words, e.g. "8 tools", "2.4 KB", "miss". */
  readonly facts: readonly { readonly text: string; readonly title?: string; readonly tone?: 'hit' | 'miss' | 'warn' | 'err' | 'ok'; /** 1: hidden first in a narrow panel (still in the hover); 2: hidden only in a very narrow one. */ readonly optional?: 1 | 2 }[];
  /** The full text for a hover. */
  readonly title: string;
}

/** "2 refused" (or "1 warning") on a request row: what the chosen provider would refuse or lose. */
export function findingsFact(r: RequestView): RowText['facts'][number] | undefined {
  const errors = r.findings.filter((f) => f.severity === 'error').length;
  const warnings = r.findings.length - errors;
  if (r.findings.length === 0) return undefined;
  // Short words, so a narrow timeline still shows them; the hover names the provider and each rule.
  const text = errors > 0 ? `${errors} refused` : `${warnings} warning${warnings === 1 ? '' : 's'}`;
  const head = errors > 0 ? `The provider would refuse this request (${errors} error${errors === 1 ? '' : 's'}${warnings > 0 ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}):` : 'The provider accepts this request but loses information:';
  return { text, tone: errors > 0 ? 'err' : 'warn', title: [head, ...r.findings.map((f) => `${f.severity}: ${f.message}`)].join('\n') };
}

/** A request's cache fact: the short form of the one status (issue 24.6), the whole status in its title. */
function cacheFact(r: RequestView, said: CacheStatus | undefined): RowText['facts'][number] {
  const s = said ?? cacheStatus(r.cache);
  // A 1024 px timeline has room for the figure only; the prefix word and the reason are in the title.
  const short = s.cached === undefined ? s.text : `${s.cached.toLocaleString('en-US')} cached`;
  return { text: short, title: `${s.text} (prefix comparison: ${r.cache.reason})`, tone: s.tone };
}

/** `r`: the row's request facts (request rows); `statuses`: each request's cache status by id, once the cost model ran. */
export function rowText(e: EntryView, r: RequestView | undefined, statuses?: readonly (CacheStatus | undefined)[]): RowText {
  switch (e.kind) {
    case 'base':
      return { text: 'base config', facts: [], title: 'The layers merged, before any step' };
    case 'step':
      return { text: e.label, facts: e.error ? [{ text: 'error', tone: 'err' }] : [], title: e.error ? `${e.label}\n${e.error}` : e.label };
    case 'delta': {
      const head = `delta ${e.delta ?? ''}`.trim();
      const changes = e.detail ? ` — ${e.detail}` : '';
      // A brief row leaves out words that only repeat its label ("promotion: a, b").
      const words = e.words ?? (e.label !== head ? e.label : undefined);
      return { text: `${head}${changes}`, facts: [], title: [head, words, e.detail].filter(Boolean).join('\n') };
    }
    case 'layer-edit': {
      const changes = e.detail ? ` — ${e.detail}` : '';
      return { text: `${e.label}${changes}`, facts: [], title: [e.label, e.words, e.detail].filter(Boolean).join('\n') };
    }
    case 'turn':
      return { text: e.label, facts: [], title: e.label };
    case 'request': {
      if (!r) return { text: e.label, facts: [], title: e.label };
      // The kind, the tool count and the offered cost never give way; in directives mode the array (the
      // whole fixed catalogue) is a separate, labelled number, as the cost is the offered set's.
      const fixedArray = r.fixedArray;
      const sets = `${r.offeredCount} offered, ${r.permittedCount} permitted, ${r.searchableCount} searchable`;
      const facts: RowText['facts'][number][] = fixedArray
        ? [
            { text: `${r.offeredCount} offered`, title: `${sets}; the provider's array holds ${r.arrayCount} tools (the fixed catalogue of RFD 105's directives)` },
            { text: `array ${r.arrayCount}`, title: `the tools array holds ${r.arrayCount} tools: the fixed catalogue of RFD 105's directives (every configured tool, deferred); availability goes by directive blocks`, optional: 2 },
          ]
        : [{ text: `${r.arrayCount} tool${r.arrayCount === 1 ? '' : 's'}`, title: sets }];
      facts.push({ text: formatBytes(r.cost.offered), title: `definition cost of the offered set: ${r.cost.offered} bytes (permitted set: ${r.cost.permitted} bytes)` });
      facts.push(cacheFact(r, statuses?.[r.id]));
      if (r.addedCount > 0) facts.push({ text: `+${r.addedCount} new`, title: `newly offered: ${namesText(r.added, r.addedCount)}`, optional: 1 });
      const fact = findingsFact(r);
      if (fact) facts.push(fact);
      const forced = r.toolChoice !== 'auto' ? ` · tool_choice ${r.toolChoice}` : '';
      return { text: `cycle ${e.cycle ?? r.cycle}`, suffix: `· request${forced}`, facts, title: `request ${r.id + 1}, cycle ${r.cycle} of step ${r.step}: ${r.offeredCount} tools offered, ${formatBytes(r.cost.offered)} (${r.cost.offered} bytes); ${r.arrayCount} in the tools array\noffered: ${namesText(r.offeredFirst, r.offeredCount)}\ncache: ${(statuses?.[r.id] ?? cacheStatus(r.cache)).text} (${r.cache.reason})` };
    }
    case 'call': {
      const facts: RowText['facts'][number][] = [];
      const search = e.search ?? e.searchBrief;
      if (search) {
        const usable = search.returned.filter((x) => x.status === 'usable').length;
        const unavailable = search.returned.length - usable;
        const total = search.total ?? search.returned.length;
        facts.push({ text: `${search.returned.length} of ${total}`, title: `returned ${search.returned.length} of ${total} matches (limit ${search.limit}): ${search.returned.map((x) => `${x.name} (${x.status === 'usable' ? 'usable' : 'found-unavailable'})`).join(', ')}` });
        facts.push({ text: `${usable} usable`, tone: 'ok', optional: 1 });
        if (unavailable > 0) facts.push({ text: `${unavailable} found-unavailable`, tone: 'warn' });
      }
      if (e.callStatus === 'error') facts.push({ text: 'error', tone: 'err', ...(e.error ? { title: e.error } : {}) });
      const text = search ? `search_tools(${JSON.stringify(search.query)})` : e.label;
      // A brief row has no result text for a search: its hits, each with its status, stand in for it.
      const hits = search && e.detail === undefined ? search.returned.map((x) => `${x.name} (${x.status})`).join(', ') : undefined;
      return { text, facts, title: [e.label, e.error, e.detail ?? hits].filter(Boolean).join('\n') };
    }
    case 'reply':
      // A turn the simulator has not finished is run with an empty reply: say so rather than show "".
      if (e.label === 'reply: ""') return { text: 'reply: (empty)', facts: [], title: 'An empty reply ends the turn. A cycle that still awaits the model (the simulator) runs as an empty reply until you answer it.' };
      return { text: e.label, facts: [], title: e.label };
    case 'restart':
      return { text: 'restart', facts: [], title: e.label };
    case 'warning':
      return { text: e.label, facts: [{ text: 'warning', tone: 'warn' }], title: e.label };
  }
}

/** The row a freshly loaded document opens on: the first promotion (ui.md: "mid-story"). */
export function firstPromotionEntry(view: TimelineView): number | undefined {
  return view.firstPromotion;
}

/**
 * Where the row list scrolls when the selection changes. The user's own moves (click, keys, scrubber,
 * tour, commands) bring the selected row into view; the row a freshly loaded document opens on does
 * not: the list shows its start (the base config and the first step), the row still selected, since
 * the story starts there (issue 35: at 1440×900 the demo opened scrolled past both).
 */
export class SelectionScroll {
  private followed: number | undefined;
  private loadChose: number | undefined;

  /** A load selected this row: when the list gets it, show the list's start instead. */
  chosenOnLoad(entry: number): void {
    this.loadChose = entry;
    this.followed = undefined;
  }

  /** What to scroll to for the selection the list has now: 'row', 'start', or nothing. */
  follow(selected: number | undefined, count: number): 'row' | 'start' | undefined {
    if (selected === undefined || selected >= count || selected === this.followed) return undefined;
    this.followed = selected;
    const quiet = selected === this.loadChose;
    this.loadChose = undefined;
    return quiet ? 'start' : 'row';
  }
}

/** The row for a config position: the delta or layer edit that made it (or the base config). */
export function entryOfPosition(view: TimelineView, position: number): number | undefined {
  return view.positionEntries[position];
}

/** A list of names that may be the first of more: "a, b and 12 more". */
function namesText(names: readonly string[], count: number): string {
  return count > names.length ? `${names.join(', ')} and ${count - names.length} more` : names.join(', ');
}

/** Keyboard moves along the rows. */
export function moveSelection(key: string, current: number, count: number, page = 10): number | undefined {
  if (count === 0) return undefined;
  switch (key) {
    case 'ArrowDown':
    case 'j':
      return Math.min(count - 1, current + 1);
    case 'ArrowUp':
    case 'k':
      return Math.max(0, current - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'PageDown':
      return Math.min(count - 1, current + page);
    case 'PageUp':
      return Math.max(0, current - page);
    default:
      return undefined;
  }
}

/** The next row (after `current`, wrapping) among the problem rows (the worker's problemRows, in row order). */
export function nextProblem(problems: readonly number[], current: number): number | undefined {
  return problems.find((i) => i > current) ?? problems[0];
}
