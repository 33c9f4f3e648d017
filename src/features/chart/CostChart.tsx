// The cost chart: offered against permitted definition cost at every request
// of the conversation (uPlot), with promotions, directives and config edits
// marked, a cursor at the selected request, click to select, and export as
// PNG or SVG. `threshold` draws a horizontal line (e.g. a context budget).
import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useSelectedRequest, useTokens } from '../../derive/labHooks';
import { useWorkbench } from '../../state/context';
import { useChartRows } from '../../derive/hooks';
import { downloadBlob, svgToPng } from '../../components/download';
import { formatBytes, formatCount } from '../../components/Measures';
import type { CostSeries } from './series';
import { axisNumber, costSeries, MARKER_WORDS, SERIES_NAMES, yAxisLabels } from './series';
import type { ChartUnit } from './series';
import { useCosts } from '../../derive/costHooks';
import { CHART_COLORS, chartSvg } from './svgExport';
import './chart.css';

export interface CostChartProps {
  /** A horizontal line at this value (in the chart's unit), with a label. */
  readonly threshold?: { readonly value: number; readonly label: string };
}

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

const EMPTY: CostSeries = { unit: 'bytes', x: [], offered: [], permitted: [], labels: [], markers: [], entries: [] };

interface DrawState {
  series: CostSeries;
  selected: number | undefined;
  threshold: CostChartProps['threshold'];
}

function drawOverlay(u: uPlot, state: DrawState): void {
  const ctx = u.ctx;
  const { left, top, width, height } = u.bbox;
  const dpr = devicePixelRatio || 1;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top - 12 * dpr, width, height + 12 * dpr);
  ctx.clip();
  for (const mk of state.series.markers) {
    const x = u.valToPos(mk.request + 1, 'x', true);
    ctx.strokeStyle = CHART_COLORS[mk.kind];
    ctx.fillStyle = CHART_COLORS[mk.kind];
    ctx.lineWidth = 1.5 * dpr;
    ctx.setLineDash([3 * dpr, 3 * dpr]);
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, top + height);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x - 5 * dpr, top - 9 * dpr);
    ctx.lineTo(x + 5 * dpr, top - 9 * dpr);
    ctx.closePath();
    ctx.fill();
  }
  if (state.threshold) {
    const y = u.valToPos(state.threshold.value, 'y', true);
    ctx.strokeStyle = CHART_COLORS.threshold;
    ctx.lineWidth = 1.5 * dpr;
    ctx.setLineDash([8 * dpr, 4 * dpr]);
    ctx.beginPath();
    ctx.moveTo(left, y);
    ctx.lineTo(left + width, y);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.font = `${12 * dpr}px system-ui, sans-serif`;
    ctx.textAlign = 'right';
    // A halo in the background colour keeps the label legible over the series lines.
    ctx.lineJoin = 'round';
    ctx.lineWidth = 4 * dpr;
    ctx.strokeStyle = cssVar('--bg', '#ffffff');
    ctx.strokeText(state.threshold.label, left + width - 4 * dpr, y - 5 * dpr);
    ctx.fillStyle = CHART_COLORS.threshold;
    ctx.fillText(state.threshold.label, left + width - 4 * dpr, y - 5 * dpr);
  }
  if (state.selected !== undefined) {
    const x = u.valToPos(state.selected + 1, 'x', true);
    ctx.strokeStyle = cssVar('--fg', '#1d2330');
    ctx.lineWidth = 2 * dpr;
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, top + height);
    ctx.stroke();
  }
  ctx.restore();
}

export function CostChart({ threshold }: CostChartProps) {
  const { view, request: selectedRequest } = useSelectedRequest();
  const unit = useWorkbench((s) => s.chartUnit);
  const setUnit = useWorkbench((s) => s.setChartUnit);
  const selectEntry = useWorkbench((s) => s.selectEntry);
  const name = useWorkbench((s) => s.doc.name);
  const { data: tokens, isFetching: tokensLoading } = useTokens(unit === 'tokens');
  const needsCosts = unit === 'cache' || unit === 'usd';
  const { data: costs, isFetching: costsLoading } = useCosts(needsCosts);
  const { data: chart } = useChartRows();
  const series = useMemo(() => (view && chart ? costSeries(chart, unit, unit === 'tokens' ? tokens : undefined, needsCosts ? costs : undefined) : undefined), [view, chart, unit, tokens, costs, needsCosts]);
  const names = SERIES_NAMES[unit];
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const state = useRef<DrawState>({ series: series ?? EMPTY, selected: selectedRequest, threshold });
  const [error, setError] = useState<string | undefined>(undefined);
  const [hover, setHover] = useState<number | undefined>(undefined);
  if (series) state.current = { series, selected: selectedRequest, threshold };

  const seriesCount = series ? 2 : 0;
  const n = series?.x.length ?? 0;

  // Create the plot once per unit; data changes go through setData.
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const fg = cssVar('--fg-2', '#566074');
    const grid = cssVar('--border', '#d8dce3');
    const unitWord = SERIES_NAMES[unit].short;
    const axisWords = SERIES_NAMES[unit].axis;
    const value = (v: number | null | undefined) => (v === null || v === undefined ? '—' : unit === 'bytes' ? formatBytes(v) : unit === 'usd' ? axisNumber('usd', v) : `~${formatCount(v)} tokens`);
    const opts: uPlot.Options = {
      width: Math.max(320, el.clientWidth),
      height: Math.max(140, el.clientHeight),
      padding: [18, 16, 0, 4],
      scales: { x: { time: false, range: (_u, min, max) => [Math.min(min, 1) - 0.35, Math.max(max, 1) + 0.35] }, y: { range: (_u, _min, max) => [0, Math.max(unit === 'usd' ? 1e-6 : 1, max * 1.08, (state.current.threshold?.value ?? 0) * 1.08)] } },
      axes: [
        { label: 'request (in conversation order)', stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000], values: (_u, vals) => vals.map((v) => (Number.isInteger(v) ? String(v) : '')), labelSize: 24, size: 34 },
        { label: (u: uPlot) => (u.bbox.height / (devicePixelRatio || 1) < 170 ? unitWord : axisWords), stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, values: (_u, vals) => yAxisLabels(unit, vals), size: 64, labelSize: 22 },
      ],
      series: [
        { label: 'request', value: (_u, v) => (v === null || v === undefined ? '—' : `#${v} (${state.current.series.labels[v - 1] ?? ''})`) },
        { label: `${SERIES_NAMES[unit].a} (${unitWord})`, stroke: CHART_COLORS.offered, width: 2.5, points: { show: true, size: 6, fill: CHART_COLORS.offered }, value: (_u, v) => value(v) },
        { label: `${SERIES_NAMES[unit].b} (${unitWord})`, stroke: CHART_COLORS.permitted, width: 2.5, dash: [7, 4], points: { show: true, size: 5, fill: CHART_COLORS.permitted }, value: (_u, v) => value(v) },
      ],
      cursor: { drag: { x: false, y: false }, points: { size: 8 } },
      legend: { show: false },
      hooks: { draw: [(u) => drawOverlay(u, state.current)], setCursor: [(u) => setHover(u.cursor.idx ?? undefined)] },
    };
    let u: uPlot;
    try {
      const s = state.current.series;
      u = new uPlot(opts, [[...s.x], [...s.offered], [...s.permitted]], el);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return;
    }
    plot.current = u;
    const onClick = () => {
      const idx = u.cursor.idx;
      if (idx === null || idx === undefined) return;
      const entry = state.current.series.entries[idx];
      if (entry !== undefined) selectEntry(entry);
    };
    u.over.addEventListener('click', onClick);
    const ro = new ResizeObserver(() => {
      u.setSize({ width: Math.max(320, el.clientWidth), height: Math.max(140, el.clientHeight) });
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.over.removeEventListener('click', onClick);
      u.destroy();
      plot.current = null;
    };
  }, [unit, selectEntry]);

  useEffect(() => {
    const u = plot.current;
    if (!u || !series) return;
    u.setData([[...series.x], [...series.offered], [...series.permitted]]);
  }, [series]);

  useEffect(() => {
    plot.current?.redraw(false, false);
  }, [selectedRequest, threshold]);

  const exportSvg = () => {
    if (!series) return;
    downloadBlob(`${slug(name)}-cost.svg`, new Blob([chartSvg(series, svgOptions(titleOf(name, unit, costs?.priced), selectedRequest, threshold))], { type: 'image/svg+xml' }));
  };
  const exportPng = async () => {
    if (!series) return;
    const o = svgOptions(titleOf(name, unit, costs?.priced), selectedRequest, threshold);
    const blob = await svgToPng(chartSvg(series, o), o.width, o.height);
    downloadBlob(`${slug(name)}-cost.png`, blob);
  };

  const kinds = series ? (['promotion', 'directive', 'config'] as const).filter((k) => series.markers.some((m) => m.kind === k)) : [];
  const sel = selectedRequest !== undefined && series ? series.x.indexOf(selectedRequest + 1) : -1;
  const readout = hover ?? (sel >= 0 ? sel : undefined);
  const fmt = (v: number) => (unit === 'bytes' ? formatBytes(v) : unit === 'usd' ? axisNumber('usd', v) : `~${formatCount(v)} tokens`);
  const definitionCost = unit === 'bytes' || unit === 'tokens';
  return (
    <div className="chart" data-testid="cost-chart" data-series={seriesCount} data-points={n}>
      <div className="chart-bar">
        <div className="chart-units" role="radiogroup" aria-label="Unit">
          {UNITS.map(([u, word]) => (
            <label key={u} className={unit === u ? 'on' : ''}>
              <input type="radio" name="chart-unit" value={u} checked={unit === u} onChange={() => setUnit(u)} data-testid={`chart-unit-${u}`} />
              {word}
            </label>
          ))}
        </div>
        {unit === 'tokens' && tokensLoading && <span className="muted">counting tokens…</span>}
        {unit === 'tokens' && tokens && (
          <span className="muted chart-basis" data-testid="chart-token-basis" title={tokens.why}>
            {tokens.label}
          </span>
        )}
        {needsCosts && costsLoading && <span className="muted">pricing…</span>}
        {needsCosts && costs && (
          <span className="muted" data-testid="chart-priced">
            {costs.provider} · {costs.model} · {costs.priced} · conversation{' '}
            {costs.money ? `${axisNumber('usd', costs.totals.money)}, ${costs.saving.usd >= 0 ? 'saves' : 'costs'} ${axisNumber('usd', Math.abs(costs.saving.usd))} ${costs.saving.usd >= 0 ? 'against' : 'more than'} all on` : `${formatCount(costs.totals.cacheRead)} prefill tokens reused, ${formatCount(Math.abs(costs.saving.uncached))} ${costs.saving.uncached >= 0 ? 'fewer' : 'more'} to prefill than all on`}
          </span>
        )}
        <div className="chart-legend" aria-label="Legend">
          <span className="legend-key"><span className="swatch offered" aria-hidden="true" />{names.a}</span>
          <span className="legend-key"><span className="swatch permitted" aria-hidden="true" />{names.b}</span>
          {kinds.map((k) => (
            <span key={k} className={`legend-key ${k}`}>
              <span className="tri" aria-hidden="true" style={{ borderTopColor: CHART_COLORS[k] }} />
              {MARKER_WORDS[k]}
            </span>
          ))}
          <span className="legend-key cursor"><span className="bar" aria-hidden="true" />selected{sel >= 0 ? ` #${sel + 1}` : ''}</span>
          {threshold && <span className="legend-key"><span className="swatch threshold" aria-hidden="true" />{threshold.label}</span>}
        </div>
        <span className="spacer" />
        <span className="chart-readout" aria-live="off" data-testid="chart-readout">
          {series && readout !== undefined && series.x[readout] !== undefined
            ? `#${readout + 1} ${series.labels[readout] ?? ''}: ${names.a} ${fmt(series.offered[readout] ?? 0)}, ${names.b} ${fmt(series.permitted[readout] ?? 0)}${definitionCost ? `, saving ${fmt((series.permitted[readout] ?? 0) - (series.offered[readout] ?? 0))}` : ''}`
            : 'Hover a request for its numbers; click to select it.'}
        </span>
        <span className="spacer" />
        <button type="button" onClick={() => void exportPng()} disabled={!series || n === 0} data-testid="chart-export-png">Export PNG</button>
        <button type="button" onClick={exportSvg} disabled={!series || n === 0} data-testid="chart-export-svg">Export SVG</button>
      </div>
      {error && <div className="sim-error">The chart failed: {error}</div>}
      {n === 0 && <div className="empty chart-empty">No requests yet: the chart plots one point per request.</div>}
      <div ref={host} className="chart-plot" role="img" aria-label={series ? chartSummary(series) : 'Cost chart'} title="Click a point to select its request" />
    </div>
  );
}

const UNITS: readonly (readonly [ChartUnit, string])[] = [
  ['bytes', 'bytes'],
  ['tokens', 'tokens'],
  ['cache', 'cache reads'],
  ['usd', 'USD'],
];

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/gu, '-').replace(/^-|-$/gu, '') || 'scenario';
}

/** The exported chart's title: what it plots, and the price date when it plots money. */
function titleOf(name: string, unit: ChartUnit, priced: string | undefined): string {
  return `${name}: ${SERIES_NAMES[unit].axis} per request${unit === 'usd' && priced ? ` (${priced})` : ''}`;
}

function svgOptions(title: string, selected: number | undefined, threshold: CostChartProps['threshold']) {
  return { width: 1100, height: 460, title, ...(selected !== undefined ? { selected } : {}), ...(threshold ? { threshold } : {}) };
}

function chartSummary(s: CostSeries): string {
  const n = s.x.length;
  if (n === 0) return 'Cost chart: no requests';
  const last = n - 1;
  return `Cost chart of ${n} requests in ${s.unit}: offered from ${s.offered[0] ?? 0} to ${s.offered[last] ?? 0}, permitted ${s.permitted[last] ?? 0} at the last request; ${s.markers.length} markers.`;
}
