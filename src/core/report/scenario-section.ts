// One scenario in the HTML report: its check result, a summary of its timeline step by step, the cost
// of each request (bytes and tokens, cache hit or miss; then tokens and dollars in the provider's
// prompt-cache model, issue 13's core/cost), the cost chart, and every problem with its expected and
// actual values. Read from the core's check report; nothing is recomputed but token counts and prices.
import type { ToolDefinition } from '../catalogue/types';
import { costOfTimeline } from '../cost/conversation';
import type { ConversationCost } from '../cost/conversation';
import { cacheStatus } from '../cost/cache-status';
import type { PriceTable } from '../providers/prices';
import type { TokenCounter } from '../providers/cost';
import { setTokens } from '../providers/cost';
import type { CheckReport } from '../scenario/report';
import type { RequestRecord, Timeline } from '../turn/timeline';
import { buildCostSeries, chartSvg, markerKindOf } from './chart';
import type { CostSeries, SeriesRow } from './chart';
import { esc, escValue, figure } from './escape';

/** The cost series of a run (bytes): one point per request, the deltas before it as markers. */
export function timelineCostSeries(t: Timeline): CostSeries {
  const rows: SeriesRow[] = [];
  t.entries.forEach((e, index) => {
    if (e.kind === 'delta' || e.kind === 'layer-edit') {
      const ev = t.positions[e.position]?.event;
      const marker = markerKindOf(ev?.kind === 'delta' ? ev.sources : [], e.kind);
      if (ev && ev.kind !== 'base' && marker) rows.push({ kind: 'marker', marker, label: ev.detail });
    } else if (e.kind === 'request') {
      const r = t.requests[e.request];
      if (r) rows.push({ kind: 'request', entry: index, step: r.step, cycle: r.cycle, offered: r.cost.offered, permitted: r.cost.permitted });
    }
  });
  return buildCostSeries(rows, 'bytes');
}

function tokensOf(r: RequestRecord, names: readonly string[], counter: TokenCounter): number {
  return setTokens(names.map((n) => r.definitions.get(n)).filter((d): d is ToolDefinition => d !== undefined), counter);
}

function stepsTable(t: Timeline): string {
  const rows = t.steps.map((s) => {
    const entry = t.entries[s.entry];
    const command = entry?.kind === 'step' ? entry.command : '';
    const requests = t.requests.filter((r) => r.step === s.step);
    const first = requests[0];
    const last = requests[requests.length - 1];
    const promoted = t.positions.filter((p) => p.event.kind === 'delta' && p.event.step === s.step && p.event.sources.includes('promotion')).flatMap((p) => p.changes.map((c) => c.name));
    const reply = t.entries.filter((e) => e.kind === 'reply' && e.step === s.step).map((e) => (e.kind === 'reply' ? e.text : '')).pop();
    const result = s.error !== undefined ? `<span class="bad">error: ${esc(s.error)}</span>` : reply !== undefined && reply !== '' ? `reply: ${esc(reply)}` : 'ok';
    const tools = first && last ? (first === last ? `${first.array.length}` : `${first.array.length} → ${last.array.length}`) : '—';
    return `<tr><td class="num">${s.step}</td><td><code>${esc(command)}</code></td><td class="num">${requests.length}</td><td class="num">${tools}</td><td>${promoted.length > 0 ? promoted.map((n) => `<code>${esc(n)}</code>`).join(', ') : '—'}</td><td>${result}</td></tr>`;
  });
  return `<table>
<caption>Timeline, step by step</caption>
<thead><tr><th scope="col">step</th><th scope="col">command</th><th scope="col">requests</th><th scope="col">tools in the array (first → last)</th><th scope="col">promoted</th><th scope="col">result</th></tr></thead>
<tbody>${rows.join('\n')}</tbody>
</table>`;
}

function costTable(t: Timeline, counter: TokenCounter, table: PriceTable): string {
  // The cache column is the one status of every panel: the byte comparison with the cache model's reading.
  let cost: ConversationCost | undefined;
  try {
    cost = costOfTimeline(t, { table, counter });
  } catch {
    cost = undefined;
  }
  let offeredBytes = 0;
  let offeredTokens = 0;
  const rows = t.requests.map((r, i) => {
    const c = r.cache();
    const status = cacheStatus(c, cost?.requests[r.id]?.figures, cost?.effective.minTokens);
    const ot = tokensOf(r, r.sets.offered, counter);
    const pt = tokensOf(r, r.sets.permitted, counter);
    offeredBytes += r.cost.offered;
    offeredTokens += ot;
    return `<tr><td class="num">${i + 1}</td><td class="where">step ${r.step} · cycle ${r.cycle}</td><td class="num">${r.array.length}</td><td class="num">${figure(r.cost.offered)} B</td><td class="num">${figure(ot)}</td><td class="num">${figure(r.cost.permitted)} B</td><td class="num">${figure(pt)}</td><td><span class="${status.tone === 'hit' ? 'good' : 'bad'}">${esc(status.text)}</span> <span class="muted">${esc(c.reason)}</span></td></tr>`;
  });
  return `<table>
<caption>Each request's definition cost (JP's estimate: name, description and schema in UTF-8 bytes; tokens by ${esc(counter.id)})</caption>
<thead><tr><th scope="col">request</th><th scope="col">where</th><th scope="col">tools in the array</th><th scope="col">offered, bytes</th><th scope="col">offered, tokens</th><th scope="col">permitted, bytes</th><th scope="col">permitted, tokens</th><th scope="col">prefix cache</th></tr></thead>
<tbody>${rows.join('\n')}</tbody>
<tfoot><tr><th scope="row" colspan="3">all requests</th><td class="num">${figure(offeredBytes)} B</td><td class="num">${figure(offeredTokens)}</td><td colspan="3"></td></tr></tfoot>
</table>`;
}

/** Dollars to the hundredth of a cent's fraction the cost panel shows: $0.0123. */
function usd(v: number): string {
  return `$${v.toFixed(4)}`;
}

/** Each request in the provider's prompt-cache model at its default model's prices (core/cost). */
function moneyTable(t: Timeline, counter: TokenCounter, table: PriceTable): string {
  let cost;
  try {
    cost = costOfTimeline(t, { table, counter });
  } catch (e) {
    return `<p class="muted">No prompt-cache cost: ${esc(e instanceof Error ? e.message : String(e))}.</p>`;
  }
  const rows = cost.requests.map((r, i) => `<tr><td class="num">${i + 1}</td><td class="where">step ${r.step} · cycle ${r.cycle}</td><td class="num">${figure(r.figures.input)}</td><td class="num">${figure(r.figures.cacheRead)}</td><td class="num">${figure(r.figures.cacheWrite)}</td><td class="num">${figure(r.figures.uncached)}</td><td class="num">${figure(r.output)}</td><td class="num">${usd(r.money.total)}</td></tr>`);
  const x = cost.totals;
  return `<table>
<caption>Each request in ${esc(cost.provider)}'s prompt-cache model at ${esc(cost.model.id)} (${esc(cost.priced)}; tokens by ${esc(cost.counter)})</caption>
<thead><tr><th scope="col">request</th><th scope="col">where</th><th scope="col">input, tokens</th><th scope="col">read from the cache, tokens</th><th scope="col">written to the cache, tokens</th><th scope="col">uncached, tokens</th><th scope="col">output, tokens</th><th scope="col">cost, USD</th></tr></thead>
<tbody>${rows.join('\n')}</tbody>
<tfoot><tr><th scope="row" colspan="2">all requests</th><td class="num">${figure(x.input)}</td><td class="num">${figure(x.cacheRead)}</td><td class="num">${figure(x.cacheWrite)}</td><td class="num">${figure(x.uncached)}</td><td class="num">${figure(x.output)}</td><td class="num">${usd(x.money)}</td></tr></tfoot>
</table>`;
}

function problemsTable(report: CheckReport): string {
  const problems = report.problems ?? [];
  if (problems.length === 0) return '<p class="good">Every expectation passed.</p>';
  const rows = problems.map((p) => `<tr><td>${esc(p.label)}</td><td><code>${esc(p.key)}</code></td><td><code>${p.key === 'load error' ? 'no error' : escValue(p.expected)}</code></td><td><code>${p.key === 'load error' ? esc(String(p.actual)) : escValue(p.actual)}</code></td></tr>`);
  return `<table class="problems">
<caption>Failed expectations and unexpected errors</caption>
<thead><tr><th scope="col">where</th><th scope="col">key</th><th scope="col">expected</th><th scope="col">actual</th></tr></thead>
<tbody>${rows.join('\n')}</tbody>
</table>`;
}

export function scenarioSection(report: CheckReport, id: string, counter: TokenCounter, prices: PriceTable): string {
  const name = report.name ?? report.file;
  const status = report.fileErrors.length > 0 ? '<span class="bad">the file does not run</span>' : `<span class="${report.failed > 0 ? 'bad' : 'good'}">${report.passed} passed, ${report.failed} failed</span>`;
  const parts = [`<section class="scenario" id="${esc(id)}" aria-labelledby="${esc(id)}-h">`, `<h3 id="${esc(id)}-h">${esc(name)}</h3>`, `<p class="meta"><code>${esc(report.file)}</code> · ${status}</p>`];
  if (report.description) parts.push(`<p class="description">${esc(report.description.trim())}</p>`);
  if (report.fileErrors.length > 0) {
    parts.push(`<ul class="bad">${report.fileErrors.map((e) => `<li>${e.line}:${e.column}: ${esc(e.message)}</li>`).join('')}</ul>`);
    parts.push('</section>');
    return parts.join('\n');
  }
  const t = report.timeline;
  if (t) {
    parts.push(problemsTable(report));
    parts.push(stepsTable(t));
    if (t.requests.length > 0) {
      parts.push(costTable(t, counter, prices));
      parts.push(moneyTable(t, counter, prices));
      const svg = chartSvg(timelineCostSeries(t), { width: 760, height: 300, title: `Definition cost per request: ${name}`, inline: true });
      parts.push(`<figure class="chart">${svg}<figcaption>Offered against permitted definition cost, in bytes, request by request; markers show the deltas before a request.</figcaption></figure>`);
    }
  }
  parts.push('</section>');
  return parts.join('\n');
}
