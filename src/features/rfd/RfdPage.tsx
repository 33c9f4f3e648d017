// The RFD view: RFD 108's tables as the engine computes them (the core's rfdTables, run in the worker),
// each cell the run's value and whether it agrees with the RFD, each row opening its scenario in the
// workbench at the timeline row that shows it. The open questions stay in their panel; a link goes there.
import { useEffect, useRef } from 'react';
import { rowAgrees } from '../../core';
import type { RfdCell, RfdRow, RfdTable } from '../../core';
import { useRfdTables } from '../../derive/reportHooks';
import { useCommands } from '../../commands/context';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { openRowScenario } from './open';
import './rfd.css';

function Cell({ c }: { readonly c: RfdCell }) {
  return (
    <td className={c.agrees ? 'agrees' : 'disagrees'}>
      <span className="rfd-value">{c.computed}</span>{' '}
      <span className={`rfd-verdict ${c.agrees ? 'good' : 'bad'}`}>{c.agrees ? '✓ agrees' : `✗ disagrees (the RFD: ${c.stated})`}</span>
      {c.detail && <div className="rfd-detail">{c.detail}</div>}
    </td>
  );
}

function Row({ row, table }: { readonly row: RfdRow; readonly table: RfdTable }) {
  const store = useWorkbenchStore();
  const ok = rowAgrees(row);
  return (
    <tr data-row={row.id} data-agrees={ok}>
      <th scope="row">{row.label}</th>
      {row.cells.map((c, i) => (
        <Cell key={i} c={c} />
      ))}
      {table.quoteColumn && <td className="rfd-quote">{row.quote}</td>}
      <td className="rfd-result">
        <span className={`rfd-verdict ${ok ? 'good' : 'bad'}`}>{ok ? 'pass' : 'fail'}</span>{' '}
        <button
          type="button"
          onClick={() => openRowScenario(store, row)}
          aria-label={`Open the scenario of ${table.title}: ${row.label}`}
          title={`Open “${row.scenario.name}” in the workbench at the row that shows it; your document is kept in Recent documents`}
          data-testid="rfd-open"
        >
          Open scenario
        </button>
        <div className="rfd-detail">
          {row.expectations.passed} of {row.expectations.passed + row.expectations.failed} expectations pass
        </div>
      </td>
    </tr>
  );
}

function Table({ table }: { readonly table: RfdTable }) {
  return (
    <section className="rfd-table" aria-labelledby={`rfd-${table.id}-h`} data-table={table.id}>
      <h3 id={`rfd-${table.id}-h`}>
        {table.title} <span className="rfd-source">RFD 108, {table.source}</span>
      </h3>
      <table>
        <thead>
          <tr>
            <th scope="col">row</th>
            {table.columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            {table.quoteColumn && <th scope="col">{table.quoteColumn}</th>}
            <th scope="col">result</th>
          </tr>
        </thead>
        <tbody>
          {table.rows.map((r) => (
            <Row key={r.id} row={r} table={table} />
          ))}
        </tbody>
      </table>
      {table.note && <p className="rfd-note">{table.note}</p>}
    </section>
  );
}

export function RfdPage() {
  const store = useWorkbenchStore();
  const registry = useCommands();
  const setPage = useWorkbench((s) => s.setPage);
  const { data: tables, error, isFetching } = useRfdTables();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const rows = tables?.flatMap((t) => t.rows) ?? [];
  const agree = rows.filter(rowAgrees).length;
  return (
    <div
      className="rfd-page"
      role="region"
      aria-labelledby="rfd-page-h"
      data-testid="rfd-page"
      onKeyDown={(e) => {
        if (e.key === 'Escape') setPage('workbench');
      }}
    >
      <div className="rfd-head">
        <h2 id="rfd-page-h" tabIndex={-1} ref={heading}>
          RFD 108, live
        </h2>
        {tables && (
          <span className={`rfd-verdict ${agree === rows.length ? 'good' : 'bad'}`} data-testid="rfd-summary">
            {agree} of {rows.length} rows agree
          </span>
        )}
        <span className="spacer" />
        <button type="button" onClick={() => void registry.run('report.save', { store })} data-testid="rfd-save-report">
          Save the review report (HTML)
        </button>
        <button
          type="button"
          onClick={() => {
            setPage('workbench');
            store.getState().setDockTab('questions');
          }}
          data-testid="rfd-open-questions"
        >
          The RFD&apos;s open questions
        </button>
        <button type="button" onClick={() => setPage('workbench')} aria-label="Close the RFD view (Escape)">
          Back to the workbench
        </button>
      </div>
      <p className="rfd-intro">
        Each row is a small scenario the engine runs; each cell is what the run produced, beside whether it agrees with what RFD 108 states. <strong>Open scenario</strong> loads the row&apos;s scenario
        in the workbench at the row of the timeline that shows it; your current document is kept in Recent documents and offered back.
      </p>
      {error && (
        <p className="rfd-error" role="alert">
          The tables could not be computed: {error.message}
        </p>
      )}
      {!tables && !error && <p className="muted">{isFetching ? 'Running the RFD scenarios…' : ''}</p>}
      {tables?.map((t) => (
        <Table key={t.id} table={t} />
      ))}
    </div>
  );
}
