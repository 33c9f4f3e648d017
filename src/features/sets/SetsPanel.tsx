// The sets at the selected position: every tool's availability and
// allow_toggle, its membership (P/O/S), its server and the server's status,
// and why it is where it is. The rows are the core's, asked of the worker a
// window at a time (useSetsWindow), filtered and searched there; this panel
// virtualizes them, and never decides membership itself.
import { memo, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { AvailabilityBadge, MembershipChips } from '../../components/Availability';
import { useBehind, useProvenance, useSelectedPosition, useSetCounts, useSetsBlocks, useTimelineRow } from '../../derive/hooks';
import type { SetsQuery, SetsRow, TimelineView } from '../../derive/protocol';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { useCommands } from '../../commands/context';
import { AVAILABILITIES, KINDS, MEMBERSHIPS, NO_FILTER, isFiltered, serverStatusWord, toggle } from './filter';
import type { SetsFilter } from './filter';
import { AvailabilityMenu } from './AvailabilityMenu';
import type { MenuState } from './AvailabilityMenu';
import './sets.css';
import { SetCounts } from './Legend';
import { Updating } from '../../components/Updating';
import { LiveNowOfServer } from '../../live/LiveNow';
import { ServerWordOfRow } from './ServerWord';

/** Row heights: fixed, so 10,000 rows scroll without measuring. */
export const ROW_HEIGHT = 46;
export const EXPANDED_HEIGHT = 150;

type Link = NonNullable<SetsRow['link']>;

const ALLOW_TOGGLE_HELP: Record<string, string> = {
  any: 'allow_toggle = any: bulk -t / -T and named directives may change it',
  if_named: 'allow_toggle = if_named: only a directive that names it may change it',
  never: 'allow_toggle = never: locked; no directive may change it',
};

/** Rows are asked for in blocks of this many, so scrolling a few rows does not ask again. */
const BLOCK = 16;
/** Blocks asked past those in view while the list scrolls (about ten frames of a fast scroll). */
const AHEAD = 8;

/** Follows a provenance link: a layer line in the editor, or a timeline row. Stable across derivations (the rows are memoized). */
function useFollowLink(view: TimelineView | undefined) {
  const store = useWorkbenchStore();
  const current = useRef(view);
  current.current = view;
  return useCallback(
    (link: Link) => {
      const s = store.getState();
      if ('layer' in link) {
        // The layer editor shows the line; a layer that no longer exists (renamed since) just selects nothing.
        if (!s.revealInLayer(link.layer, link.line, link.column, { focus: true })) s.showBanner('info', `There is no layer ${link.layer} any more.`);
        return;
      }
      const v = current.current;
      const entry = v?.positionEntries[link.position];
      if (entry !== undefined) s.selectEntry(entry);
    },
    [store],
  );
}

function linkTitle(link: Link | undefined): string {
  if (!link) return '';
  return 'layer' in link ? `Go to layer ${link.layer}, line ${link.line}` : `Go to the timeline row of position ${link.position}`;
}

function ProvenanceChain({ name, follow }: { readonly name: string; readonly follow: (l: Link) => void }) {
  const { data, isPending } = useProvenance(name);
  if (isPending && !data) return <div className="st-chain muted">Tracing…</div>;
  if (!data || data.steps.length === 0) return <div className="st-chain muted">{data?.text ?? 'not configured'}</div>;
  return (
    <ol className="st-chain" aria-label={`Why ${name} is where it is: ${data.text}`}>
      {data.steps.map((s, i) => (
        <li key={i}>
          {s.link ? (
            <button type="button" className="st-link" onClick={() => s.link && follow(s.link)} title={linkTitle(s.link)}>
              {s.label}
            </button>
          ) : (
            <span>{s.label}</span>
          )}
          <span className="st-arrow" aria-hidden="true">
            →
          </span>
          <AvailabilityBadge value={s.availability} />
          <span className="st-toggle">toggle {s.allowToggle}</span>
        </li>
      ))}
    </ol>
  );
}

interface RowProps {
  readonly row: SetsRow;
  readonly index: number;
  readonly total: number;
  readonly top: number;
  readonly expanded: boolean;
  readonly onToggle: (name: string) => void;
  readonly follow: (l: Link) => void;
  readonly menuOpen: boolean;
  readonly onMenu: (row: SetsRow, trigger: HTMLElement) => void;
}

/** Two rows that read the same (every derivation sends new row objects; most rows are unchanged). */
function sameRow(a: SetsRow, b: SetsRow): boolean {
  if (a === b) return true;
  const x = a as unknown as Record<string, unknown>;
  const y = b as unknown as Record<string, unknown>;
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  for (const k of keys) {
    if (x[k] === y[k]) continue;
    if (k !== 'link' || !a.link || !b.link) return false;
    const l = a.link as Record<string, unknown>;
    const m = b.link as Record<string, unknown>;
    if (Object.keys(l).length !== Object.keys(m).length || Object.keys(l).some((j) => l[j] !== m[j])) return false;
  }
  return true;
}

/** memo's shallow comparison, except that the row is compared by what it reads. */
function sameRowProps(a: RowProps, b: RowProps): boolean {
  const x = a as unknown as Record<string, unknown>;
  const y = b as unknown as Record<string, unknown>;
  for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) if (k !== 'row' && x[k] !== y[k]) return false;
  return sameRow(a.row, b.row);
}

const ToolRow = memo(function ToolRow({ row, index, total, top, expanded, onToggle, follow, menuOpen, onMenu }: RowProps) {
  const status = serverStatusWord(row);
  const statusTone = status === 'running' ? 'ok' : status === 'local' || status === 'builtin' ? 'plain' : 'bad';
  const where = row.server !== undefined ? `${row.server} · ${status}` : status;
  const editable = row.kind !== 'builtin';
  return (
    <div
      role="listitem"
      aria-posinset={index + 1}
      aria-setsize={total}
      data-tool={row.name}
      data-index={index}
      className={`st-row ${expanded ? 'expanded' : ''} ${row.offered ? 'is-offered' : ''}`}
      style={{ transform: `translateY(${top}px)`, height: expanded ? EXPANDED_HEIGHT : ROW_HEIGHT }}
    >
      <div className="st-line">
        <button
          type="button"
          className="st-name"
          aria-expanded={expanded}
          title={row.summary ? `${row.name}\n${row.summary}` : row.name}
          onClick={() => onToggle(row.name)}
        >
          <span className="st-caret" aria-hidden="true">
            {expanded ? '▾' : '▸'}
          </span>
          <span className="st-name-text mono" title={row.name}>{row.name}</span>
        </button>
        <span className="st-summary" title={row.summary}>
          {row.summary}
        </span>
        <AvailabilityBadge value={row.availability} />
        <MembershipChips permitted={row.permitted} offered={row.offered} searchable={row.searchable} />
        <button
          type="button"
          className="st-menu"
          aria-haspopup="menu"
          aria-expanded={menuOpen}
          aria-label={`Set the availability of ${row.name}`}
          title={row.kind === 'builtin' ? 'Builtins are locked on' : 'Set the availability in the layers (one undoable edit)'}
          disabled={!editable}
          onClick={(e) => onMenu(row, e.currentTarget)}
        >
          ▾
        </button>
      </div>
      <div className="st-line st-sub">
        {row.kind === 'mcp' && row.server !== undefined ? (
          <ServerWordOfRow name={row.server} recorded={status} />
        ) : (
          <span className={`st-server ${statusTone}`} title={`${row.kind} tool`}>
            {where}
          </span>
        )}
        {row.kind === 'mcp' && <LiveNowOfServer name={row.server} />}
        <span className="st-sep" aria-hidden="true">
          ·
        </span>
        {row.link ? (
          <button type="button" className="st-link st-why" title={`${row.why}\n${linkTitle(row.link)}`} onClick={() => row.link && follow(row.link)}>
            {row.why}
          </button>
        ) : (
          <span className="st-why" title={row.why}>
            {row.why}
          </span>
        )}
        <span className="st-toggle" title={ALLOW_TOGGLE_HELP[row.allowToggle] ?? `allow_toggle = ${row.allowToggle}`}>
          toggle {row.allowToggle}
        </span>
      </div>
      {expanded && (
        <div className="st-detail">
          <div className="st-detail-facts">
            <span>kind {row.kind}</span>
            <span>run {row.run}</span>
            {row.summary && <span className="st-detail-summary">{row.summary}</span>}
          </div>
          {row.kind === 'builtin' ? <div className="st-chain muted">builtin: locked on, always offered</div> : <ProvenanceChain name={row.name} follow={follow} />}
        </div>
      )}
    </div>
  );
}, sameRowProps);

function FilterGroup<T extends string>({ label, values, checked, onToggle, words }: { readonly label: string; readonly values: readonly T[]; readonly checked: ReadonlySet<T>; readonly onToggle: (v: T) => void; readonly words?: Partial<Record<T, string>> }) {
  return (
    <div className="st-filter" role="group" aria-label={label}>
      {values.map((v) => (
        <button key={v} type="button" className="st-chip-btn" aria-pressed={checked.has(v)} onClick={() => onToggle(v)}>
          {words?.[v] ?? v}
        </button>
      ))}
    </div>
  );
}

interface ToolListProps {
  /** Rows matching the filter, and the filter the worker applies. */
  readonly filter: SetsQuery;
  readonly position: number;
  readonly expanded: string | undefined;
  readonly onToggle: (name: string) => void;
  readonly follow: (l: Link) => void;
  readonly menuTool: string | undefined;
  readonly onMenu: (row: SetsRow, trigger: HTMLElement) => void;
  readonly onScroll: (() => void) | undefined;
  /** The rows' count once known (the last window's total): the list keeps its length while the next window comes. */
  readonly onTotal: (total: number, all: number) => void;
  readonly known: number | undefined;
}

/** The virtualized rows: its own component, so scrolling re-renders only the list; it asks the worker for the rows in view. */
function ToolList({ filter, position, expanded, onToggle, follow, menuTool, onMenu, onScroll, onTotal, known }: ToolListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The rows come in blocks, each its own query (cached a minute per derivation, position and filter):
  // the blocks in view, asked again on every derivation, and while the list scrolls, AHEAD blocks past
  // them in the scroll's direction, so a fast scroll (or a jump back to rows seen) finds its rows here.
  const [view, setView] = useState({ first: 0, last: BLOCK - 1 });
  const [scrolling, setScrolling] = useState<{ down: boolean } | undefined>(undefined);
  const lastTop = useRef(0);
  const restTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onListScroll = useCallback(() => {
    onScroll?.();
    const top = scrollRef.current?.scrollTop ?? 0;
    const down = top >= lastTop.current;
    lastTop.current = top;
    setScrolling((s) => (s && s.down === down ? s : { down }));
    clearTimeout(restTimer.current);
    restTimer.current = setTimeout(() => setScrolling(undefined), 1_000);
  }, [onScroll]);
  useEffect(() => () => clearTimeout(restTimer.current), []);
  const blocks: number[] = [];
  for (let k = Math.floor(view.first / BLOCK); k <= Math.floor(view.last / BLOCK); k++) blocks.push(k);
  const lastShown = blocks.at(-1) ?? 0;
  const firstShown = blocks[0] ?? 0;
  if (scrolling) for (let k = 1; k <= AHEAD; k++) blocks.push(scrolling.down ? lastShown + k : firstShown - k);
  const windows = useSetsBlocks(blocks.filter((k) => k >= 0), BLOCK, filter);
  const data = windows.find((w) => w !== undefined);
  // While every block in view is still coming (a jump to rows never asked), the list keeps its length:
  // a list of none would clamp the scroll to the top.
  const total = data?.total ?? known ?? 0;
  useEffect(() => {
    if (data) onTotal(data.total, data.all);
  }, [data, onTotal]);
  const byIndex = new Map<number, SetsRow>();
  for (const w of windows) if (w && data && w.total === data.total) w.rows.forEach((r, k) => byIndex.set(w.offset + k, r));
  let expandedIndex = -1;
  if (expanded !== undefined) for (const [i, r] of byIndex) if (r.name === expanded) expandedIndex = i;
  // Stable callbacks: the virtualizer recomputes every row's offset whenever getItemKey changes.
  const estimateSize = useCallback((i: number) => (i === expandedIndex ? EXPANDED_HEIGHT : ROW_HEIGHT), [expandedIndex]);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    // Three rows (138 px) either side cover a wheel notch ahead; each row a scroll brings in is ~60 KB
    // of Blink garbage (layout objects, fragments, shaped text), collected only with the page's rare
    // major GCs, so rows mounted past that are memory (8 a side: ~35 % more rows per 900 px flick).
    overscan: 3,
  });
  useEffect(() => {
    virtualizer.measure();
  }, [virtualizer, expandedIndex]);
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index;
  const last = items.at(-1)?.index;
  // The rows in view (with the overscan) choose the blocks, before the frame is painted; none laid out
  // keeps the blocks as they are.
  const firstBlock = first === undefined ? undefined : Math.floor(first / BLOCK);
  const lastBlock = last === undefined ? undefined : Math.floor(last / BLOCK);
  useLayoutEffect(() => {
    if (firstBlock === undefined || lastBlock === undefined) return;
    setView((v) => (Math.floor(v.first / BLOCK) === firstBlock && Math.floor(v.last / BLOCK) === lastBlock ? v : { first: firstBlock * BLOCK, last: lastBlock * BLOCK }));
  }, [firstBlock, lastBlock]);

  // ↑/↓ move between rows (the virtualizer scrolls the target into the DOM first).
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    const from = Number(target.closest<HTMLElement>('[data-index]')?.dataset.index ?? -1);
    let to: number | undefined;
    if (e.key === 'ArrowDown') to = Math.min(total - 1, from + 1);
    else if (e.key === 'ArrowUp') to = Math.max(0, from - 1);
    else if (e.key === 'Home' && e.ctrlKey) to = 0;
    else if (e.key === 'End' && e.ctrlKey) to = total - 1;
    if (to === undefined || to < 0) return;
    e.preventDefault();
    virtualizer.scrollToIndex(to, { align: 'auto' });
    const focus = (tries: number) => {
      const el = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${to}"] .st-name`);
      if (el) el.focus();
      else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
    };
    requestAnimationFrame(() => focus(10));
  };

  return (
    <div ref={scrollRef} className="panel-body st-scroll" onKeyDown={onKeyDown} onScroll={onListScroll}>
      <div role="list" aria-label={`Tools at position ${position}`} className="st-list" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((v) => {
          const row = byIndex.get(v.index);
          if (!row) {
            return (
              <div key={`pending-${v.index}`} role="listitem" aria-busy="true" aria-posinset={v.index + 1} aria-setsize={total} data-index={v.index} data-pending="true" className="st-row st-pending" style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}>
                <div className="st-line muted">…</div>
              </div>
            );
          }
          return (
            <ToolRow
              key={row.name}
              row={row}
              index={v.index}
              total={total}
              top={v.start}
              expanded={row.name === expanded}
              onToggle={onToggle}
              follow={follow}
              menuOpen={menuTool === row.name}
              onMenu={onMenu}
            />
          );
        })}
      </div>
    </div>
  );
}

/** Its own component: the panel does not re-render as each keystroke's derivation starts and ends. */
function SetsUpdating({ revision, busy }: { readonly revision: number | undefined; readonly busy: boolean }) {
  const behind = useBehind(revision);
  return <Updating on={busy || behind} />;
}

export function SetsPanel() {
  const { data, isFetching, isPlaceholderData } = useSetCounts();
  const { view, position, entry } = useSelectedPosition();
  const { data: selectedRow } = useTimelineRow(entry);
  const setAvailability = useWorkbench((s) => s.setToolAvailability);
  const follow = useFollowLink(view);
  const [filter, setFilter] = useState<SetsFilter>(NO_FILTER);
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const [expanded, setExpanded] = useState<string | undefined>(undefined);
  const searchRef = useRef<HTMLInputElement>(null);

  // The filter and the search run in the worker, over every row; the list asks for the rows in view.
  const query4: SetsQuery = useMemo(
    () => ({ availability: [...filter.availability], membership: [...filter.membership], kind: [...filter.kind], query: deferredQuery.trim() }),
    [filter, deferredQuery],
  );
  const [shown, setShown] = useState<{ total: number; all: number } | undefined>(undefined);
  const onTotal = useCallback((total: number, all: number) => setShown((s) => (s && s.total === total && s.all === all ? s : { total, all })), []);

  const onToggle = useCallback((name: string) => setExpanded((cur) => (cur === name ? undefined : name)), []);
  const [menu, setMenu] = useState<MenuState | undefined>(undefined);
  const onMenu = useCallback((row: SetsRow, trigger: HTMLElement) => {
    const r = trigger.getBoundingClientRect();
    const width = 300;
    setMenu((cur) => (cur?.tool === row.name ? undefined : { tool: row.name, current: row.availability, trigger, top: Math.min(r.bottom + 2, window.innerHeight - 130), left: Math.max(4, Math.min(r.right - width, window.innerWidth - width - 4)) }));
  }, []);
  const closeMenu = useCallback(() => setMenu(undefined), []);

  const registry = useCommands();
  useEffect(() => {
    registry.register(
      { id: 'sets.search', title: 'Sets: search the tools', group: 'Sets', run: () => searchRef.current?.focus() },
      {
        id: 'sets.clearFilters',
        title: 'Sets: clear the filters and the search',
        group: 'Sets',
        run: () => {
          setFilter(NO_FILTER);
          setQuery('');
        },
      },
    );
  }, [registry]);

  const counts = data?.counts;
  const entryView = selectedRow?.entry;
  const filtered = isFiltered({ ...filter, query });

  return (
    <section className="panel sets" aria-label="Sets">
      <div className="panel-head">
        <h2>Sets</h2>
        <span className="st-at" title={entryView ? entryView.label : ''}>
          at position {data?.position ?? position}
        </span>
        <span className="spacer" />
        <SetsUpdating revision={view?.revision} busy={isFetching || isPlaceholderData} />
      </div>
      {counts && <SetCounts counts={counts} registered={data?.registered ?? true} {...(data?.tools ? { tools: data.tools } : {})} />}
      <div className="st-tools">
        <input
          ref={searchRef}
          type="search"
          className="st-search"
          placeholder="Search tools"
          aria-label="Search tools by name or summary"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setQuery('');
          }}
        />
        <FilterGroup label="Filter by availability" values={AVAILABILITIES} checked={filter.availability} onToggle={(v) => setFilter((f) => ({ ...f, availability: toggle(f.availability, v) }))} />
        <FilterGroup label="Filter by set" values={MEMBERSHIPS} checked={filter.membership} onToggle={(v) => setFilter((f) => ({ ...f, membership: toggle(f.membership, v) }))} />
        <FilterGroup label="Filter by kind" values={KINDS} checked={filter.kind} onToggle={(v) => setFilter((f) => ({ ...f, kind: toggle(f.kind, v) }))} />
        {filtered && (
          <span className="st-shown" data-testid="sets-shown">
            {shown?.total ?? 0} of {shown?.all ?? counts?.configured ?? 0} shown
            <button
              type="button"
              className="st-link"
              onClick={() => {
                setFilter(NO_FILTER);
                setQuery('');
              }}
            >
              clear
            </button>
          </span>
        )}
      </div>
      {!data ? (
        <div className="panel-body empty">{view && view.scenarioErrors.length > 0 ? 'The scenario has errors (see the timeline).' : 'Deriving…'}</div>
      ) : data.counts.configured === 0 ? (
        <div className="panel-body empty">No tools configured. Add a [conversation.tools.NAME] table to a layer.</div>
      ) : (
        <>
          {shown && shown.total === 0 && <div className="panel-body empty">No tool matches the filters.</div>}
          <ToolList filter={query4} position={data.position} expanded={expanded} onToggle={onToggle} follow={follow} menuTool={menu?.tool} onMenu={onMenu} onScroll={menu ? closeMenu : undefined} onTotal={onTotal} known={shown?.total} />
        </>
      )}
      {menu && <AvailabilityMenu state={menu} onClose={closeMenu} onPick={(a) => setAvailability(menu.tool, a)} />}
    </section>
  );
}
