// The tasks of a run, one row each, virtualized (a MetaTool run has 2,062): the request, the tools it
// needs with their state at the turn's start and rank, the outcome as a badge in words, the queries.
// A click (or Enter) opens the task's turn from the scratch copy below.
import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { OUTCOME_LABELS } from '../../core';
import type { TaskResult } from '../../core';

const ROW_HEIGHT = 26;

export function OutcomeBadge({ result }: { readonly result: TaskResult }) {
  return <span className={`badge tk-${result.outcome}`} title={result.reason}>{OUTCOME_LABELS[result.outcome]}</span>;
}

function needs(r: TaskResult): string {
  return r.needed.map((n) => `${n.name} (${n.state}${n.rank !== undefined ? `, rank ${n.rank}` : ''})`).join(', ');
}

export function TaskTable({ rows, selected, onOpen }: { readonly rows: readonly TaskResult[]; readonly selected: number | undefined; readonly onOpen: (index: number) => void }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 10, getItemKey: (i) => rows[i]?.index ?? i });
  if (rows.length === 0) return <div className="empty">No task matches the filters.</div>;
  return (
    <div className="tk-table" role="table" aria-label="Tasks" data-testid="tk-table" aria-rowcount={rows.length + 1}>
      <div className="tk-row tk-head" role="row">
        <span role="columnheader">#</span>
        <span role="columnheader">request</span>
        <span role="columnheader">needs (state at the turn's start, rank)</span>
        <span role="columnheader">outcome</span>
        <span role="columnheader">search_tools queries</span>
      </div>
      <div className="tk-scroll" ref={scrollRef}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const r = rows[v.index] as TaskResult;
            return (
              <div
                key={v.key}
                role="row"
                aria-rowindex={v.index + 2}
                aria-selected={selected === r.index}
                tabIndex={0}
                className="tk-row"
                data-testid="tk-row"
                data-outcome={r.outcome}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${v.start}px)` }}
                onClick={() => onOpen(r.index)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    onOpen(r.index);
                  }
                }}
              >
                <span role="cell" className="num">{r.index + 1}</span>
                <span role="cell" className="tk-query" title={r.query}>{r.query}</span>
                <span role="cell" className="tk-needs" title={needs(r)}>{needs(r)}</span>
                <span role="cell"><OutcomeBadge result={r} /></span>
                <span role="cell" className="tk-queries" title={r.queries.join(' | ')}>{r.searched ? r.queries.join(' | ') : 'no search'}</span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
