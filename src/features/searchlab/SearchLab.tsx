// The search lab: at the selected position, one query through both rankings
// side by side (score, matched fields, what a search_tools call would promote),
// and a JSONL query set scored per ranking (recall@k, MRR, misses). The worker
// searches the indexes the runs use; nothing is indexed here.
import { useEffect, useRef, useState } from 'react';
import { useEvalQueries, useLabSearch } from '../../derive/labHooks';
import { useSelectedPosition } from '../../derive/hooks';
import type { RankingResult } from '../../derive/labProtocol';
import { useWorkbench } from '../../state/context';
import { countOf, SearchStatus } from '../../components/Measures';
import { readFileText } from '../../components/readText';
import './searchlab.css';

const FIELD_WORDS: Record<string, string> = {
  name: 'name',
  parameter_name: 'parameter name',
  summary: 'summary',
  description: 'description',
  parameter_description: 'parameter description',
};

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** A tool name that may wrap after its underscores rather than mid-word. */
function breakable(name: string) {
  const parts = name.split('_');
  return parts.map((p, i) => (
    <span key={i}>
      {p}
      {i < parts.length - 1 ? '_' : ''}
      {i < parts.length - 1 && <wbr />}
    </span>
  ));
}

function Ranking({ r }: { readonly r: RankingResult }) {
  return (
    <section className={`lab-ranking ${r.active ? 'active' : ''}`} aria-label={`${r.label} results`} data-testid={`lab-ranking-${r.id}`} data-hits={r.hits.length}>
      <header>
        <h3>{r.label}</h3>
        {r.active && <span className="word lab-active" title="policy ranking: the simulated search_tools uses this one">the model&apos;s ranking</span>}
        <span className="muted">{r.hits.length} of {r.total} matches · {r.millis.toFixed(1)} ms</span>
      </header>
      {r.hits.length === 0 ? (
        <p className="muted lab-none">No match in the searchable set.</p>
      ) : (
        <table>
          <thead>
            <tr><th scope="col">#</th><th scope="col">tool</th><th scope="col">score</th><th scope="col">matched fields</th><th scope="col">would be</th></tr>
          </thead>
          <tbody>
            {r.hits.map((h, i) => (
              <tr key={h.name} data-tool={h.name}>
                <td className="num">{i + 1}</td>
                <td>
                  <code>{breakable(h.name)}</code>
                  {h.summary && <div className="lab-summary">{h.summary}</div>}
                </td>
                <td className="num">{h.score.toFixed(2)}</td>
                <td className="lab-fields">{h.fields.map((f) => FIELD_WORDS[f] ?? f).join(', ')}</td>
                <td>
                  <SearchStatus status={h.status} />
                  <div className="lab-other muted">{h.otherRank !== undefined ? `#${h.otherRank} in the other` : 'not in the other'}</div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Loads a query set from a file, or opens the column to paste one. */
function QuerySetButtons({ onPaste, onError }: { readonly onPaste?: () => void; readonly onError: (message: string | undefined) => void }) {
  const setText = useWorkbench((s) => s.setLabQuerySet);
  const file = useRef<HTMLInputElement>(null);
  return (
    <span className="lab-set-buttons">
      <button type="button" onClick={() => file.current?.click()} title="recall@k and MRR of both rankings over a JSONL query set">Load a query set…</button>
      {onPaste && <button type="button" onClick={onPaste}>Paste one</button>}
      <input
        ref={file}
        type="file"
        accept=".jsonl,.json,.txt,application/json"
        hidden
        data-testid="lab-queryset-file"
        onChange={(e) => {
          const f = e.target.files?.[0];
          // A query file that is not UTF-8 is refused (and the query set kept), with the place of its first bad byte.
          if (f)
            void readFileText(f).then((r) => {
              onError(r.ok ? undefined : `Could not load ${f.name}: ${r.error}. The query set is unchanged.`);
              if (r.ok) setText(r.text);
            });
          e.target.value = '';
        }}
      />
    </span>
  );
}

function QuerySet({ position, onClose }: { readonly position: number; readonly onClose: () => void }) {
  const text = useWorkbench((s) => s.labQuerySet);
  const setText = useWorkbench((s) => s.setLabQuerySet);
  const debounced = useDebounced(text, 250);
  const { data, isFetching, error } = useEvalQueries(position, debounced);
  return (
    <section className="lab-eval" aria-label="Query set">
      <div className="lab-eval-input">
        <label htmlFor="lab-queryset">
          Query set (JSONL: one <code>{'{"query": "...", "relevant": ["tool", ...]}'}</code> per line)
        </label>
        <textarea id="lab-queryset" className="mono" rows={4} value={text} onChange={(e) => setText(e.target.value)} data-testid="lab-queryset" spellCheck={false} placeholder={'{"query": "workflow logs", "relevant": ["github_get_job_logs"]}'} />
        <div className="lab-eval-buttons">
          <button type="button" onClick={() => { setText(''); onClose(); }}>Clear and close</button>
          {isFetching && <span className="muted">scoring…</span>}
        </div>
      </div>
      {error && <p className="sim-error">{error.message}</p>}
      {data && text.trim() !== '' && (
        <div className="lab-eval-result" data-testid="lab-eval">
          {data.errors.length > 0 && (
            <ul className="lab-eval-errors" role="alert">
              {data.errors.slice(0, 5).map((e) => <li key={e}>{e}</li>)}
              {data.errors.length > 5 && <li>… and {data.errors.length - 5} more</li>}
            </ul>
          )}
          <table className="lab-metrics">
            <caption>{countOf(data.queries, 'query', 'queries')} over the {countOf(data.tools, 'tool')} of the catalogue at this position</caption>
            <thead>
              <tr>
                <th scope="col">ranking</th>
                {data.ks.map((k) => <th key={k} scope="col">recall@{k}</th>)}
                <th scope="col">MRR</th>
                <th scope="col">misses</th>
              </tr>
            </thead>
            <tbody>
              {data.rankings.map((r) => (
                <tr key={r.id} data-ranking={r.id}>
                  <th scope="row">{r.label}</th>
                  {r.recall.map((x, i) => <td key={i} className="num">{x.toFixed(3)}</td>)}
                  <td className="num" data-testid={`lab-mrr-${r.id}`}>{r.mrr.toFixed(3)}</td>
                  <td className="num">{r.misses.length}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="lab-misses">
            {data.rankings.map((r) => (
              <details key={r.id} open={r.misses.length > 0 && r.misses.length <= 5}>
                <summary>Misses of {r.label}: {r.misses.length} (no relevant tool in the top {data.ks[data.ks.length - 1]})</summary>
                <ul data-testid={`lab-misses-${r.id}`}>
                  {r.misses.slice(0, 50).map((m, i) => (
                    <li key={i}>
                      <code>{m.query}</code> — wanted {m.relevant.join(', ')}; got {m.returned.slice(0, 3).join(', ') || 'nothing'}{m.returned.length > 3 ? ', …' : ''}
                    </li>
                  ))}
                  {r.misses.length > 50 && <li>… and {r.misses.length - 50} more</li>}
                </ul>
              </details>
            ))}
          </div>
        </div>
      )}
    </section>
  );
}

export function SearchLab() {
  const { view, position } = useSelectedPosition();
  const query = useWorkbench((s) => s.labQuery);
  const setQuery = useWorkbench((s) => s.setLabQuery);
  const limit = useWorkbench((s) => s.labLimit);
  const setLimit = useWorkbench((s) => s.setLabLimit);
  const debounced = useDebounced(query, 120);
  const { data, isFetching } = useLabSearch(position, debounced, limit);
  const hasSet = useWorkbench((s) => s.labQuerySet.trim() !== '');
  const [pasting, setPasting] = useState(false);
  const [fileError, setFileError] = useState<string | undefined>(undefined);
  // The query-set column takes room only when a set is loaded (or being pasted).
  const showSet = hasSet || pasting;
  if (!view) return <div className="empty">Deriving…</div>;
  return (
    <div className={`lab ${showSet ? 'with-set' : ''}`} data-testid="search-lab">
      <div className="lab-left" role="region" aria-label="Query through both rankings" tabIndex={0}>
        <form className="lab-query" onSubmit={(e) => e.preventDefault()}>
          <label className="grow">
            query at position {position}
            <input data-testid="lab-query" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="e.g. failed workflow logs" spellCheck={false} />
          </label>
          <label className="narrow">
            limit
            <input type="number" min={1} max={50} value={limit} data-testid="lab-limit" onChange={(e) => setLimit(Math.max(1, Math.min(50, Number(e.target.value) || 10)))} />
          </label>
          <QuerySetButtons onError={setFileError} {...(showSet ? {} : { onPaste: () => setPasting(true) })} />
        </form>
        {fileError && (
          <p className="sim-error" role="alert" data-testid="lab-queryset-file-error">
            {fileError}
          </p>
        )}
        <p className="muted lab-scope">
          {data ? `Searches the ${data.searchable} searchable tools at this position (as search_tools would); promotion status as the fold would report it.` : 'Both rankings search the searchable set at the selected position.'}
          {isFetching ? ' Searching…' : ''}
        </p>
        {data?.error && <p className="sim-error" role="alert" data-testid="lab-error">{data.error}</p>}
        {query === '' ? (
          <p className="muted">Type a query to compare substring (the RFD&apos;s starting point) and BM25 side by side.</p>
        ) : (
          data && !data.error && (
            <div className="lab-side">
              {data.rankings.map((r) => <Ranking key={r.id} r={r} />)}
            </div>
          )
        )}
      </div>
      {showSet && (
        <div className="lab-right" role="region" aria-label="Query set evaluation" tabIndex={0}>
          <QuerySet position={position} onClose={() => setPasting(false)} />
        </div>
      )}
    </div>
  );
}
