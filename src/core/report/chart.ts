// The cost chart as a standalone SVG: one point per request, offered against permitted definition cost,
// the deltas before each request as markers, axes with units and a legend. Pure; every text is escaped.
// The browser's cost chart exports it (features/chart) and the HTML report inlines it.

export type MarkerKind = 'promotion' | 'directive' | 'config';

/** What the chart plots: definition cost (bytes, tokens), or the prompt cache's tokens, or money (issue 13). */
export type ChartUnit = 'bytes' | 'tokens' | 'cache' | 'usd';

/** The two series' names and the y axis' words per unit (the series keep the names offered/permitted in code). */
export const SERIES_NAMES: Readonly<Record<ChartUnit, { readonly a: string; readonly b: string; readonly axis: string; readonly short: string }>> = {
  bytes: { a: 'offered', b: 'permitted', axis: 'definition cost (bytes)', short: 'bytes' },
  tokens: { a: 'offered', b: 'permitted', axis: 'definition cost (tokens, estimated)', short: 'tokens, estimated' },
  cache: { a: 'read from the prompt cache', b: 'input tokens', axis: 'prompt tokens (estimated)', short: 'tokens, estimated' },
  usd: { a: 'this request', b: 'conversation so far', axis: 'USD', short: 'USD' },
};

export interface Marker {
  /** 0-based request index the marker stands before. */
  readonly request: number;
  readonly kind: MarkerKind;
  readonly label: string;
}

export interface CostSeries {
  readonly unit: ChartUnit;
  /** 1-based request numbers. */
  readonly x: readonly number[];
  readonly offered: readonly number[];
  readonly permitted: readonly number[];
  /** "step 2 · cycle 1" per request. */
  readonly labels: readonly string[];
  readonly markers: readonly Marker[];
  /** The timeline row of each request, for click-to-select. */
  readonly entries: readonly number[];
}

export const MARKER_WORDS: Readonly<Record<MarkerKind, string>> = {
  promotion: 'promotion',
  directive: 'directive (-t/-T/--cfg)',
  config: 'config edit',
};

/** A delta's marker kind from its sources (a layer edit is a config edit); undefined when it has none. */
export function markerKindOf(sources: readonly string[] | undefined, entryKind: string): MarkerKind | undefined {
  if (entryKind === 'layer-edit') return 'config';
  if (!sources || sources.length === 0) return undefined;
  if (sources.includes('promotion')) return 'promotion';
  if (sources.includes('directive') || sources.includes('cfg')) return 'directive';
  return 'config';
}

/** One row of a timeline as the chart reads it: a request's point, or a delta that marks the next one. */
export type SeriesRow =
  | { readonly kind: 'marker'; readonly marker: MarkerKind; readonly label: string }
  | { readonly kind: 'request'; readonly entry: number; readonly step: number; readonly cycle: number; readonly offered: number; readonly permitted: number };

/** The series of a timeline's rows: one point per request, the markers before it attached to it. */
export function buildCostSeries(rows: Iterable<SeriesRow>, unit: CostSeries['unit']): CostSeries {
  const x: number[] = [];
  const offered: number[] = [];
  const permitted: number[] = [];
  const labels: string[] = [];
  const entries: number[] = [];
  const markers: Marker[] = [];
  let pending: { kind: MarkerKind; label: string }[] = [];
  for (const row of rows) {
    if (row.kind === 'marker') {
      pending.push({ kind: row.marker, label: row.label });
      continue;
    }
    const i = x.length;
    x.push(i + 1);
    offered.push(row.offered);
    permitted.push(row.permitted);
    labels.push(`step ${row.step} · cycle ${row.cycle}`);
    entries.push(row.entry);
    for (const m of pending) markers.push({ request: i, ...m });
    pending = [];
  }
  return { unit, x, offered, permitted, labels, markers, entries };
}

/** Round tick values covering [0, max] (about `count` of them). */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let v = 0; v <= max + step * 0.5; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  if ((ticks[ticks.length - 1] ?? 0) < max) ticks.push((ticks[ticks.length - 1] ?? 0) + step);
  return ticks;
}

/** Short axis numbers: 950, 1.2k, 12k, 1.5M. */
export function shortNumber(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${(v / 1e6).toFixed(a >= 1e7 ? 0 : 1)}M`;
  if (a >= 1e3) return `${(v / 1e3).toFixed(a >= 1e4 ? 0 : 1)}k`;
  return String(Math.round(v));
}

/** Axis numbers: dollars with enough decimals for a cent's fraction, else 950, 1.2k, 12k. */
export function axisNumber(unit: ChartUnit, v: number): string {
  if (unit !== 'usd') return shortNumber(v);
  if (v === 0) return '$0';
  return `$${Math.abs(v) < 0.01 ? v.toFixed(4) : v.toFixed(3)}`;
}

export interface SvgOptions {
  readonly width?: number;
  readonly height?: number;
  readonly title?: string;
  /** 0-based request index of the cursor. */
  readonly selected?: number;
  readonly threshold?: { readonly value: number; readonly label: string };
  /** Inline in an HTML page: no xmlns (the HTML parser supplies the namespace), no other host named. */
  readonly inline?: boolean;
}

export const CHART_COLORS = {
  offered: '#2f5fd0',
  permitted: '#b26a00',
  promotion: '#17803d',
  directive: '#8e3fbf',
  config: '#66707f',
  threshold: '#c0352b',
  cursor: '#1d2330',
  grid: '#e3e6ec',
  text: '#1d2330',
  muted: '#566074',
} as const;

export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/gu, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

const MARKER_ORDER: readonly MarkerKind[] = ['promotion', 'directive', 'config'];

export function chartSvg(series: CostSeries, options: SvgOptions = {}): string {
  const width = options.width ?? 960;
  const height = options.height ?? 420;
  const title = options.title ?? 'Definition cost per request';
  const m = { left: 78, right: 20, top: 44, bottom: 84 };
  const w = width - m.left - m.right;
  const h = height - m.top - m.bottom;
  const n = series.x.length;
  // Dollars per request are fractions of a cent: only counts floor the axis at 1.
  const maxY = Math.max(series.unit === 'usd' ? 1e-6 : 1, ...series.permitted, ...series.offered, options.threshold?.value ?? 0);
  const ticks = niceTicks(maxY);
  const top = ticks[ticks.length - 1] ?? maxY;
  const xs = (i: number) => m.left + (n <= 1 ? w / 2 : (i / (n - 1)) * w);
  const ys = (v: number) => m.top + h - (v / top) * h;
  const names = SERIES_NAMES[series.unit];
  const unit = names.short;
  const out: string[] = [];
  const ns = options.inline ? '' : ' xmlns="http://www.w3.org/2000/svg"';
  out.push(`<svg${ns} role="img" aria-label="${escapeXml(title)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, Roboto, Arial, sans-serif" font-size="12">`);
  out.push(`<title>${escapeXml(title)}</title>`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  // The visible title is cut to the chart's width (about 8.5 px a character at 15 px); <title> and the
  // accessible name keep it whole.
  const room = Math.max(8, Math.floor((width - m.left - 8) / 8.5));
  const shown = title.length > room ? `${title.slice(0, room - 1).trimEnd()}…` : title;
  out.push(`<text x="${m.left}" y="22" font-size="15" font-weight="600" fill="${CHART_COLORS.text}">${escapeXml(shown)}</text>`);
  // Grid and y axis.
  for (const t of ticks) {
    const y = ys(t).toFixed(1);
    out.push(`<line x1="${m.left}" x2="${m.left + w}" y1="${y}" y2="${y}" stroke="${CHART_COLORS.grid}"/>`);
    out.push(`<text x="${m.left - 8}" y="${y}" text-anchor="end" dominant-baseline="middle" fill="${CHART_COLORS.muted}">${escapeXml(axisNumber(series.unit, t))}</text>`);
  }
  out.push(`<text transform="translate(18 ${m.top + h / 2}) rotate(-90)" text-anchor="middle" fill="${CHART_COLORS.text}">${escapeXml(names.axis)}</text>`);
  // x axis.
  out.push(`<line x1="${m.left}" x2="${m.left + w}" y1="${m.top + h}" y2="${m.top + h}" stroke="${CHART_COLORS.muted}"/>`);
  const every = Math.max(1, Math.ceil(n / 20));
  for (let i = 0; i < n; i += every) {
    out.push(`<text x="${xs(i).toFixed(1)}" y="${m.top + h + 16}" text-anchor="middle" fill="${CHART_COLORS.muted}">${series.x[i] ?? i + 1}</text>`);
  }
  out.push(`<text x="${m.left + w / 2}" y="${m.top + h + 36}" text-anchor="middle" fill="${CHART_COLORS.text}">request (in conversation order)</text>`);
  // Markers.
  for (const mk of series.markers) {
    const x = xs(mk.request).toFixed(1);
    const color = CHART_COLORS[mk.kind];
    out.push(`<line x1="${x}" x2="${x}" y1="${m.top}" y2="${m.top + h}" stroke="${color}" stroke-dasharray="3 3" stroke-width="1.5"><title>${escapeXml(`${MARKER_WORDS[mk.kind]}: ${mk.label}`)}</title></line>`);
    out.push(`<path d="M${x} ${m.top - 2} l-5 -8 h10 z" fill="${color}"/>`);
  }
  // Series.
  const line = (values: readonly number[], color: string, dash: string, name: string) => {
    const pts = values.map((v, i) => `${xs(i).toFixed(1)},${ys(v).toFixed(1)}`).join(' ');
    out.push(`<polyline data-series="${name}" points="${pts}" fill="none" stroke="${color}" stroke-width="2.5"${dash ? ` stroke-dasharray="${dash}"` : ''} stroke-linejoin="round"/>`);
    for (let i = 0; i < values.length; i++) out.push(`<circle cx="${xs(i).toFixed(1)}" cy="${ys(values[i] ?? 0).toFixed(1)}" r="3" fill="${color}"/>`);
  };
  line(series.permitted, CHART_COLORS.permitted, '7 4', 'permitted');
  line(series.offered, CHART_COLORS.offered, '', 'offered');
  // Threshold.
  if (options.threshold) {
    const y = ys(options.threshold.value).toFixed(1);
    out.push(`<line x1="${m.left}" x2="${m.left + w}" y1="${y}" y2="${y}" stroke="${CHART_COLORS.threshold}" stroke-width="1.5" stroke-dasharray="8 4"/>`);
    out.push(`<text x="${m.left + w - 4}" y="${Number(y) - 5}" text-anchor="end" fill="${CHART_COLORS.threshold}" stroke="#ffffff" stroke-width="4" stroke-linejoin="round" paint-order="stroke">${escapeXml(options.threshold.label)}</text>`);
  }
  // Cursor.
  if (options.selected !== undefined && options.selected >= 0 && options.selected < n) {
    const x = xs(options.selected).toFixed(1);
    out.push(`<line x1="${x}" x2="${x}" y1="${m.top}" y2="${m.top + h}" stroke="${CHART_COLORS.cursor}" stroke-width="1.5"/>`);
  }
  // Legend.
  const ly = height - 22;
  let lx = m.left;
  const item = (draw: string, label: string) => {
    out.push(draw.replaceAll('$X', String(lx)).replaceAll('$Y', String(ly)));
    out.push(`<text x="${lx + 30}" y="${ly}" dominant-baseline="middle" fill="${CHART_COLORS.text}">${escapeXml(label)}</text>`);
    lx += 48 + label.length * 7;
  };
  item(`<line x1="$X" x2="${lx + 24}" y1="$Y" y2="$Y" stroke="${CHART_COLORS.offered}" stroke-width="2.5"/>`, `${names.a} (${unit})`);
  item(`<line x1="$X" x2="${lx + 24}" y1="$Y" y2="$Y" stroke="${CHART_COLORS.permitted}" stroke-width="2.5" stroke-dasharray="7 4"/>`, `${names.b} (${unit})`);
  for (const k of MARKER_ORDER) {
    if (!series.markers.some((mk) => mk.kind === k)) continue;
    item(`<path d="M${lx + 12} ${ly + 4} l-5 -8 h10 z" fill="${CHART_COLORS[k]}"/>`, MARKER_WORDS[k]);
  }
  if (options.threshold) item(`<line x1="$X" x2="${lx + 24}" y1="$Y" y2="$Y" stroke="${CHART_COLORS.threshold}" stroke-width="1.5" stroke-dasharray="8 4"/>`, options.threshold.label);
  out.push('</svg>');
  return out.join('\n');
}
