// What discovery really costs (issue 13): the conversation's prompt-cache totals at a chosen model's
// prices, side by side with the all-on counterfactual (and appended promotions, and Anthropic's tool
// directives), the net saving, where discovery breaks even, and the dated price table, editable.
import { useMemo, useState } from 'react';
import { useBreakEven, useCosts } from '../../derive/costHooks';
import { countOf } from '../../components/Measures';
import { useTimeline } from '../../derive/hooks';
import type { CostTotals } from '../../core';
import type { CostView } from '../../derive/costProtocol';
import { downloadBlob, svgToPng } from '../../components/download';
import { choiceKey, chosenModel, usePrices } from '../../state/prices';
import { useWorkbench } from '../../state/context';
import { breakEvenSvg } from './breakEvenSvg';
import './cost.css';

export function usd(v: number): string {
  const a = Math.abs(v);
  return `${v < 0 ? '−' : ''}$${a === 0 ? '0' : a < 0.01 ? a.toFixed(5) : a.toFixed(4)}`;
}

const n = (v: number) => v.toLocaleString('en-US');

function TotalsRow({ label, t, money, testId }: { readonly label: string; readonly t: CostTotals; readonly money: boolean; readonly testId: string }) {
  return (
    <tr data-testid={testId}>
      <th scope="row">{label}</th>
      <td>{n(t.requests)}</td>
      <td>{n(t.input)} tok</td>
      <td data-testid={`${testId}-read`}>{n(t.cacheRead)} tok</td>
      <td>{n(t.cacheWrite)} tok</td>
      <td>{n(t.uncached)} tok</td>
      <td>{money ? usd(t.money) : '—'}</td>
    </tr>
  );
}

function Comparison({ view }: { readonly view: CostView }) {
  const s = view.saving;
  const verdict = view.money ? (s.usd >= 0 ? `Discovery saves ${usd(s.usd)}` : `Discovery costs ${usd(-s.usd)} more`) : s.uncached >= 0 ? `Discovery saves ${n(s.uncached)} prefill tokens` : `Discovery costs ${n(-s.uncached)} more prefill tokens`;
  return (
    <section aria-label="Against all on">
      <p className="cost-verdict" data-testid="cost-saving">
        <span className={`badge ${(view.money ? s.usd : s.uncached) >= 0 ? 'ok' : 'warn'}`}>{(view.money ? s.usd : s.uncached) >= 0 ? 'saves' : 'costs more'}</span> {verdict} against all on ({countOf(view.turnedOn, 'tool')} turned on), after its search calls and cache losses; cache reads {s.cacheRead >= 0 ? '+' : '−'}{n(Math.abs(s.cacheRead))} tok.
      </p>
      <table className="cost-table">
        <thead>
          <tr><th scope="col">run</th><th scope="col">requests</th><th scope="col">input</th><th scope="col">cache read</th><th scope="col">cache write</th><th scope="col">uncached</th><th scope="col">USD ({view.priced})</th></tr>
        </thead>
        <tbody>
          {view.variants.map((v) => <TotalsRow key={v.id} label={v.label} t={v.totals} money={view.money} testId={`cost-variant-${v.id}`} />)}
        </tbody>
      </table>
    </section>
  );
}

function BreakEven() {
  const [discoveries, setDiscoveries] = useState(1);
  const { data, isFetching, error } = useBreakEven(discoveries);
  const tools = useTimeline().data?.tools;
  const name = useWorkbench((s) => s.doc.name);
  const svg = useMemo(() => (data ? breakEvenSvg(data, `${name}: where discovery pays (${data.model}, ${data.priced})`) : undefined), [data, name]);
  const file = name.toLowerCase().replace(/[^a-z0-9]+/gu, '-').replace(/^-|-$/gu, '') || 'scenario';
  return (
    <section aria-label="Break-even" className="cost-breakeven">
      <div className="cost-bar">
        <h3>Where discovery breaks even</h3>
        <label>
          discoveries per conversation{' '}
          <input type="number" min={1} max={10} value={discoveries} onChange={(e) => setDiscoveries(Math.max(1, Math.min(10, Number(e.target.value) || 1)))} data-testid="breakeven-discoveries" />
        </label>
        {isFetching && <span className="muted">sweeping…</span>}
        <span className="spacer" />
        <button type="button" disabled={!svg} onClick={() => svg && downloadBlob(`${file}-break-even.svg`, new Blob([svg], { type: 'image/svg+xml' }))} data-testid="breakeven-export-svg">Export SVG</button>
        <button type="button" disabled={!svg} onClick={() => void (svg && svgToPng(svg, 900, 380).then((b) => downloadBlob(`${file}-break-even.png`, b)))} data-testid="breakeven-export-png">Export PNG</button>
      </div>
      {error && <div className="sim-error">The sweep failed: {error instanceof Error ? error.message : String(error)}</div>}
      {data && (
        <>
          <p className="muted" data-testid="breakeven-summary">
            Synthetic conversations over this catalogue&apos;s own definition sizes ({data.catalogue} discoverable{tools ? ` of its ${tools.label}` : ' tools'}; each turn calls one tool; {discoveries === 1 ? 'the first turn searches' : `the first ${discoveries} turns search`} before calling it). {data.breakEven.map((b) => `${b.turns} turn${b.turns === 1 ? '' : 's'}: ${b.size !== undefined ? `pays from ${b.size} tools` : 'never pays here'}`).join(' · ')}.
          </p>
          {/* Shown as an image: the scenario's name in the title can never become markup. */}
          <div className="cost-chart" data-testid="breakeven-chart">
            {svg && <img alt={`Break-even chart: ${data.breakEven.map((b) => `${b.turns} turns ${b.size !== undefined ? `from ${b.size} tools` : 'never'}`).join(', ')}`} src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} />}
          </div>
        </>
      )}
    </section>
  );
}

function PriceTable() {
  const table = usePrices((s) => s.table);
  const setPrice = usePrices((s) => s.setPrice);
  const reset = usePrices((s) => s.reset);
  const problem = usePrices((s) => s.problem);
  const fields = [['input', 'input'], ['cacheRead', 'cache read'], ['cacheWrite', 'cache write'], ['output', 'output']] as const;
  return (
    <details className="cost-prices" data-testid="price-table">
      <summary>Price table: USD per million tokens, {table.edited ? `read ${table.date}, edited ${table.edited}` : `read ${table.date}`} (kept in this browser)</summary>
      {problem && <div className="sim-error">{problem}</div>}
      <table className="cost-table">
        <thead><tr><th scope="col">provider</th><th scope="col">model</th>{fields.map(([, l]) => <th key={l} scope="col">{l}</th>)}<th scope="col">source</th></tr></thead>
        <tbody>
          {table.models.map((m) => (
            <tr key={`${m.provider}/${m.id}`}>
              <td>{m.provider}</td>
              <td>{m.id}</td>
              {fields.map(([f, l]) => (
                <td key={f}>
                  <input type="number" min={0} step="0.001" aria-label={`${m.id} ${l} price`} defaultValue={m[f]} data-testid={`price-${m.provider}-${m.id}-${f}`} onChange={(e) => { const v = Number(e.target.value); if (e.target.value !== '' && Number.isFinite(v) && v >= 0) setPrice(m.provider, m.id, f, v); }} />
                </td>
              ))}
              <td className="muted">{m.source}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={reset} data-testid="price-reset">Reset to the prices of {table.date}</button>
    </details>
  );
}

export function CostPanel() {
  const { data: view, error, isFetching } = useCosts();
  const choose = usePrices((s) => s.choose);
  const chosen = usePrices((s) => s.chosen);
  const provider = view?.provider ?? '';
  return (
    <div className="cost" data-testid="cost-panel">
      <div className="cost-bar">
        <h3>What discovery costs</h3>
        {view && (
          <label>
            model{' '}
            <select value={chosenModel(chosen, provider) ?? view.model} onChange={(e) => choose(choiceKey(provider), e.target.value)} data-testid="cost-model">
              {view.models.map((m) => <option key={m} value={m}>{m}</option>)}
            </select>
          </label>
        )}
        {view && <span className="muted">{provider} · {view.priced} · tokens by {view.counter}</span>}
        {isFetching && <span className="muted">pricing…</span>}
      </div>
      {error && <div className="sim-error">The cost model failed: {error instanceof Error ? error.message : String(error)}</div>}
      {!view && !error && <div className="empty">No requests yet: the cost model prices each request of the conversation.</div>}
      {view && (
        <>
          <p className="muted cost-rules">{view.summary}</p>
          <Comparison view={view} />
          <p className="cost-total" data-testid="cost-total">
            This conversation: {n(view.totals.input)} input tokens, {n(view.totals.cacheRead)} read from the cache, {n(view.totals.cacheWrite)} written, {n(view.totals.output)} output{view.money ? `: ${usd(view.totals.money)} (${view.priced})` : ' (local: no money)'}.
          </p>
          <details>
            <summary>Rules and sources ({view.citations.length} cited, {view.undocumented.length} not documented)</summary>
            <ul>{view.citations.map((c) => <li key={c.rule}>{c.rule}: {c.document}, {c.url} (read {c.read})</li>)}</ul>
            <ul>{view.undocumented.map((u) => <li key={u}>Not documented: {u}</li>)}</ul>
          </details>
        </>
      )}
      <BreakEven />
      <PriceTable />
    </div>
  );
}

