// The break-even chart as an SVG string: one line per conversation length, saving (all-on minus
// discoverable) against catalogue size, a zero line, and a dot where each line starts to pay. The panel
// shows this SVG and exports the same string (SVG) or its rasterization (PNG).
import type { BreakEvenView } from '../../derive/costProtocol';

const COLORS = ['#2563eb', '#16a34a', '#d97706', '#9333ea', '#dc2626'];

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function formatSaving(v: number, unit: BreakEvenView['unit']): string {
  if (unit === 'USD') return `${v < 0 ? '−' : ''}$${Math.abs(v) < 0.01 ? Math.abs(v).toFixed(5) : Math.abs(v).toFixed(3)}`;
  return `${v < 0 ? '−' : ''}${Math.round(Math.abs(v)).toLocaleString('en-US')} tok`;
}

export function breakEvenSvg(v: BreakEvenView, title: string, width = 900, height = 380): string {
  const pad = { l: 78, r: 150, t: 36, b: 46 };
  const w = width - pad.l - pad.r;
  const h = height - pad.t - pad.b;
  const all = v.saving.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(0, ...all);
  const span = hi - lo || 1;
  const maxSize = Math.max(1, ...v.sizes);
  const x = (s: number) => pad.l + (s / maxSize) * w;
  const y = (val: number) => pad.t + ((hi - val) / span) * h;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`);
  parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push(`<text x="${pad.l}" y="20" font-size="14" font-weight="600" fill="#1d2330">${esc(title)}</text>`);
  parts.push(`<line x1="${pad.l}" y1="${y(0)}" x2="${pad.l + w}" y2="${y(0)}" stroke="#566074" stroke-dasharray="6 4"/>`);
  parts.push(`<text x="${pad.l - 6}" y="${y(0) + 4}" text-anchor="end" fill="#566074">0</text>`);
  parts.push(`<text x="${pad.l - 6}" y="${y(hi) + 4}" text-anchor="end" fill="#566074">${esc(formatSaving(hi, v.unit))}</text>`);
  if (lo < 0) parts.push(`<text x="${pad.l - 6}" y="${y(lo) + 4}" text-anchor="end" fill="#566074">${esc(formatSaving(lo, v.unit))}</text>`);
  parts.push(`<line x1="${pad.l}" y1="${pad.t + h}" x2="${pad.l + w}" y2="${pad.t + h}" stroke="#d8dce3"/>`);
  for (const s of [0, Math.round(maxSize / 2), maxSize]) parts.push(`<text x="${x(s)}" y="${pad.t + h + 16}" text-anchor="middle" fill="#566074">${s}</text>`);
  parts.push(`<text x="${pad.l + w / 2}" y="${height - 8}" text-anchor="middle" fill="#566074">discoverable tools in the catalogue</text>`);
  parts.push(`<text transform="translate(16 ${pad.t + h / 2}) rotate(-90)" text-anchor="middle" fill="#566074">saving of discovery, ${esc(v.unit)}</text>`);
  v.turns.forEach((turns, i) => {
    const color = COLORS[i % COLORS.length] ?? '#2563eb';
    const row = v.saving[i] ?? [];
    const d = v.sizes.map((s, k) => `${k === 0 ? 'M' : 'L'}${x(s).toFixed(1)} ${y(row[k] ?? 0).toFixed(1)}`).join(' ');
    parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2.5"/>`);
    const be = v.breakEven[i]?.size;
    if (be !== undefined) {
      const k = v.sizes.indexOf(be);
      parts.push(`<circle cx="${x(be)}" cy="${y(row[k] ?? 0)}" r="5" fill="${color}"><title>${turns} turns: pays from ${be} tools</title></circle>`);
    }
    const ly = pad.t + 12 + i * 20;
    parts.push(`<line x1="${pad.l + w + 14}" y1="${ly - 4}" x2="${pad.l + w + 34}" y2="${ly - 4}" stroke="${color}" stroke-width="2.5"/>`);
    parts.push(`<text x="${pad.l + w + 40}" y="${ly}" fill="#1d2330">${turns} turn${turns === 1 ? '' : 's'}${be !== undefined ? `: from ${be}` : ': never'}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}
