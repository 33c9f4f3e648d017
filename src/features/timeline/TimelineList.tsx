// The timeline's rows: one per core position event (base, steps, deltas, turns, requests, calls,
// replies, warnings), indented by depth, with the marks of the expectations that stand on them.
import { memo, useMemo } from 'react';
import type { KeyboardEvent, RefObject } from 'react';
import type { EntryView, ExpectationView, TimelineView } from '../../derive/protocol';
import type { CacheStatus } from '../../core';
import { useCacheStatuses } from '../../derive/costHooks';
import { FIRST_QUERY } from './CommandField';
import { KIND_ICON, expectationMarks, expectationsByEntry, rowText, sourceMarks } from './rows';

interface RowProps {
  readonly entry: EntryView;
  readonly view: TimelineView;
  readonly expectations: readonly ExpectationView[];
  readonly selected: boolean;
  readonly editing: boolean;
  readonly onSelect: (entry: number) => void;
  readonly onEdit: (entry: EntryView) => void;
  /** Each request's cache status (by request id), once the cost model has run. */
  readonly statuses: readonly CacheStatus[] | undefined;
}

function TimelineRow({ entry: e, view, expectations, selected, editing, onSelect, onEdit, statuses }: RowProps) {
  const t = rowText(e, view.requests, statuses);
  const fails = expectations.some((x) => !x.pass);
  return (
    <div
      id={`tl-row-${e.index}`}
      data-entry={e.index}
      data-kind={e.kind}
      role="option"
      aria-selected={selected}
      className={`tl-row kind-${e.kind} ${e.error ? 'has-error' : ''} ${fails ? 'has-fail' : ''} ${editing ? 'is-editing' : ''}`}
      style={{ paddingLeft: 4 + e.depth * 12 }}
      title={t.title}
      onClick={() => onSelect(e.index)}
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
}

export interface TimelineListProps {
  readonly view: TimelineView;
  readonly selected: number | undefined;
  /** The step (0-based) being edited, if one is. */
  readonly editing: number | undefined;
  readonly empty: boolean;
  readonly listRef: RefObject<HTMLDivElement | null>;
  readonly onSelect: (entry: number) => void;
  /** A step row asked to be edited (double click). */
  readonly onEditStep: (stepIndex: number) => void;
  readonly onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => void;
  /** The empty timeline's button. */
  readonly onStartFirst: () => void;
}

const NO_MARKS: readonly ExpectationView[] = [];

// Memoized: typing in the command field re-renders the panel, not its rows.
export const TimelineList = memo(function TimelineList({ view, selected, editing, empty, listRef, onSelect, onEditStep, onKeyDown, onStartFirst }: TimelineListProps) {
  const marks = useMemo(() => expectationsByEntry(view), [view]);
  const statuses = useCacheStatuses();
  const select = (entry: number): void => {
    onSelect(entry);
    listRef.current?.focus();
  };
  const edit = (e: EntryView): void => {
    if (e.kind === 'step' && e.step !== undefined) onEditStep(e.step - 1);
  };
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
      {view.entries.map((e) => (
        <TimelineRow
          key={e.index}
          entry={e}
          view={view}
          expectations={marks.get(e.index) ?? NO_MARKS}
          selected={e.index === selected}
          editing={e.kind === 'step' && editing !== undefined && e.step === editing + 1}
          onSelect={select}
          onEdit={edit}
          statuses={statuses}
        />
      ))}
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
