// The timeline's rows: one per core position event (base, steps, deltas, turns, requests, calls,
// replies, warnings), indented by depth, with the marks of the expectations that stand on them.
// Virtualized: the list asks the worker for the rows in view (timelineWindow), each with its request's
// facts, so a rows never shown is never computed nor sent (issue 32.4).
import { memo, useCallback, useEffect } from 'react';
import type { KeyboardEvent, RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { EntryView, ExpectationView, RequestView, TimelineRow as RowData, TimelineView } from '../../derive/protocol';
import type { CacheStatus } from '../../core';
import { useCacheStatuses } from '../../derive/costHooks';
import { useTimelineWindow } from '../../derive/hooks';
import { samePlain } from '../../derive/same';
import { spineEntry } from '../../derive/spine';
import { FIRST_QUERY } from './CommandField';
import { KIND_ICON, expectationMarks, rowText, sourceMarks } from './rows';
import type { SelectionScroll } from './rows';

/** A row's height before it is measured (one line); a step's error line makes its row taller. */
export const TIMELINE_ROW_HEIGHT = 24;
/** Rows are asked for in blocks of this many, so scrolling a few rows does not ask again. */
const BLOCK = 16;

interface RowProps {
  readonly entry: EntryView;
  readonly request: RequestView | undefined;
  readonly expectations: readonly ExpectationView[];
  readonly selected: boolean;
  readonly editing: boolean;
  readonly onSelect: (entry: number) => void;
  readonly onEdit: (entry: EntryView) => void;
  /** Each request's cache status (by request id), once the cost model has run. */
  readonly statuses: readonly (CacheStatus | undefined)[] | undefined;
  readonly top: number;
  readonly measure: (el: HTMLElement | null) => void;
}

/**
 * How memo compares each prop: each derivation sends new objects for rows that read the same, and the
 * statuses array is new whenever one request's status comes (a row reads its own request's). Typed by
 * RowProps' keys, so a new prop must say how it compares.
 */
const COMPARE: { readonly [K in keyof RowProps]-?: 'identity' | 'data' | 'own status' } = {
  entry: 'data',
  request: 'data',
  expectations: 'data',
  selected: 'identity',
  editing: 'identity',
  onSelect: 'identity',
  onEdit: 'identity',
  statuses: 'own status',
  top: 'identity',
  measure: 'identity',
};

function sameRowProps(a: RowProps, b: RowProps): boolean {
  for (const [key, how] of Object.entries(COMPARE) as [keyof RowProps, (typeof COMPARE)[keyof RowProps]][]) {
    const same =
      how === 'identity'
        ? a[key] === b[key]
        : how === 'data'
          ? samePlain(a[key], b[key])
          : a.statuses === b.statuses || (a.request === undefined && b.request === undefined) || samePlain(a.statuses?.[a.request?.id ?? -1], b.statuses?.[b.request?.id ?? -1]);
    if (!same) return false;
  }
  return true;
}

const TimelineRow = memo(function TimelineRow({ entry: e, request, expectations, selected, editing, onSelect, onEdit, statuses, top, measure }: RowProps) {
  const t = rowText(e, request, statuses);
  const fails = expectations.some((x) => !x.pass);
  // The same handler while the row shows the same entry: React sets a fresh `onclick` on the element
  // (its click trap) whenever the onClick prop changes, a handler object in Blink's heap per row per
  // derivation.
  const index = e.index;
  const select = useCallback(() => onSelect(index), [onSelect, index]);
  return (
    <div
      ref={measure}
      id={`tl-row-${e.index}`}
      data-entry={e.index}
      data-index={e.index}
      data-kind={e.kind}
      data-request={e.request}
      role="option"
      aria-selected={selected}
      className={`tl-row kind-${e.kind} ${e.error ? 'has-error' : ''} ${fails ? 'has-fail' : ''} ${editing ? 'is-editing' : ''}`}
      style={{ paddingLeft: 4 + e.depth * 12, transform: `translateY(${top}px)` }}
      title={t.title}
      onClick={select}
      onDoubleClick={() => onEdit(e)}
    >
      <div className="tl-line">
        {e.kind !== 'delta' && e.kind !== 'layer-edit' && (
          <span className="tl-icon" aria-hidden="true">
            {KIND_ICON[e.kind]}
          </span>
        )}
        {sourceMarks(e.sources).map((m) => (
          <span key={m.source} className={`tl-src tl-src-${m.source}`}>
            <span aria-hidden="true">{m.icon}</span> {m.word}
          </span>
        ))}
        <span className={`tl-text ${e.kind === 'step' ? 'mono' : ''}`}>
          {t.text}
          {t.suffix && <span className="tl-suffix"> {t.suffix}</span>}
        </span>
        {t.facts.map((f, i) => (
          <span key={i} className={`tl-fact ${f.tone ?? ''} ${f.optional ? `optional-${f.optional}` : ''}`} title={f.title}>
            {f.text}
          </span>
        ))}
        {expectationMarks(expectations).map((m) => (
          <span key={String(m.pass)} className={`xmark ${m.pass ? 'pass' : 'fail'}`} role="img" aria-label={m.text} title={m.title} data-testid={m.pass ? 'expectation-pass' : 'expectation-fail'}>
            {m.pass ? '✓' : '✗'} {m.count}
            {m.count === 1 && <span className="xkeys">{m.keys}</span>}
          </span>
        ))}
        {editing && <span className="tl-fact">editing…</span>}
      </div>
      {e.kind === 'step' && e.error && <div className="tl-error">{e.error}</div>}
    </div>
  );
}, sameRowProps);

/** A row whose words have not come yet: its place, kind and selection, from the spine. */
function PendingRow({ view, index, selected, top, measure }: { readonly view: TimelineView; readonly index: number; readonly selected: boolean; readonly top: number; readonly measure: (el: HTMLElement | null) => void }) {
  const e = spineEntry(view, index);
  return (
    <div ref={measure} id={`tl-row-${index}`} data-entry={index} data-index={index} data-kind={e?.kind} data-pending="true" role="option" aria-selected={selected} aria-busy="true" className={`tl-row kind-${e?.kind ?? 'turn'}`} style={{ transform: `translateY(${top}px)` }}>
      <div className="tl-line">
        <span className="tl-icon" aria-hidden="true">
          {e ? KIND_ICON[e.kind] : ''}
        </span>
        <span className="tl-text muted">…</span>
      </div>
    </div>
  );
}

export interface TimelineListProps {
  readonly view: TimelineView;
  readonly selected: number | undefined;
  /** The step (0-based) being edited, if one is. */
  readonly editing: number | undefined;
  readonly empty: boolean;
  readonly listRef: RefObject<HTMLDivElement | null>;
  /** Where the list scrolls when the selection changes (useTimelineNavigation's). */
  readonly scroll: SelectionScroll;
  readonly onSelect: (entry: number) => void;
  /** A step row asked to be edited (double click). */
  readonly onEditStep: (stepIndex: number) => void;
  readonly onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => void;
  /** The empty timeline's button. */
  readonly onStartFirst: () => void;
}

const NO_MARKS: readonly ExpectationView[] = [];

// Memoized: typing in the command field re-renders the panel, not its rows.
export const TimelineList = memo(function TimelineList({ view, selected, editing, empty, listRef, scroll, onSelect, onEditStep, onKeyDown, onStartFirst }: TimelineListProps) {
  const count = view.entryCount;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => listRef.current,
    estimateSize: () => TIMELINE_ROW_HEIGHT,
    // A few rows either side; the window asked of the worker adds a block either side of those.
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;
  // The rows in view and a block either side, in whole blocks: a scroll of a few rows asks nothing.
  const offset = Math.max(0, Math.floor(first / BLOCK) - 1) * BLOCK;
  const limit = last < 0 ? 0 : (Math.floor(last / BLOCK) + 2) * BLOCK - offset;
  const { data } = useTimelineWindow(offset, limit, true, true);
  const rows = new Map<number, RowData>();
  let fromRequest = Infinity;
  let toRequest = -Infinity;
  for (const r of data?.rows ?? []) {
    rows.set(r.entry.index, r);
    if (r.request) {
      fromRequest = Math.min(fromRequest, r.request.id);
      toRequest = Math.max(toRequest, r.request.id + 1);
    }
  }
  // The cache statuses of the window's requests only.
  const statuses = useCacheStatuses(Number.isFinite(fromRequest) ? fromRequest : 0, Number.isFinite(toRequest) ? toRequest : 0);

  // Keep the selected row in view when the user moves the selection, not on every derivation; the row
  // a load chose leaves the list at its start (SelectionScroll).
  useEffect(() => {
    const to = scroll.follow(selected, count);
    if (to === 'row' && selected !== undefined) virtualizer.scrollToIndex(selected, { align: 'auto' });
    else if (to === 'start') virtualizer.scrollToOffset(0);
  }, [selected, count, virtualizer, scroll]);

  const select = useCallback(
    (entry: number): void => {
      onSelect(entry);
      listRef.current?.focus();
    },
    [onSelect, listRef],
  );
  const edit = useCallback(
    (e: EntryView): void => {
      if (e.kind === 'step' && e.step !== undefined) onEditStep(e.step - 1);
    },
    [onEditStep],
  );
  return (
    <div
      ref={listRef}
      className="panel-body tl-list"
      role="listbox"
      aria-labelledby="tl-title"
      aria-activedescendant={selected !== undefined ? `tl-row-${selected}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <div className="tl-virtual" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((v) => {
          const r = rows.get(v.index);
          // A row from an older derivation still reads right while the new one comes (keepPreviousData).
          if (!r) return <PendingRow key={v.index} view={view} index={v.index} selected={v.index === selected} top={v.start} measure={virtualizer.measureElement} />;
          const e = r.entry;
          return (
            <TimelineRow
              key={v.index}
              entry={e}
              request={r.request}
              expectations={r.expectations.length > 0 ? r.expectations : NO_MARKS}
              selected={e.index === selected}
              editing={e.kind === 'step' && editing !== undefined && e.step === editing + 1}
              onSelect={select}
              onEdit={edit}
              statuses={statuses}
              top={v.start}
              measure={virtualizer.measureElement}
            />
          );
        })}
      </div>
      {empty && (
        <div className="tl-empty">
          <p>No steps yet. Each step is one jp command line, run in order against the layers.</p>
          <button type="button" onClick={onStartFirst}>
            Start with <code>{FIRST_QUERY}</code>
          </button>
        </div>
      )}
    </div>
  );
});
