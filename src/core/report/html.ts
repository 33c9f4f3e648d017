// The review report: one self-contained HTML file a pull request can carry. RFD 108's tables with
// whether each row agrees, then every scenario (its check, its timeline step by step, its requests'
// costs, a cost chart as inline SVG, and each failed expectation with its expected and actual values).
// No script, no font, no link to anything: inline CSS and SVG only, and a Content-Security-Policy that
// forbids every fetch, so the file opens offline and cannot reach the network. All text is escaped.
import type { TokenCounter } from '../providers/cost';
import type { CheckReport } from '../scenario/report';
import { rfdCounts } from '../rfd/tables';
import { rowAgrees } from '../rfd/types';
import type { RfdCell, RfdRow, RfdTable } from '../rfd/types';
import { esc, slug } from './escape';
import { scenarioSection } from './scenario-section';
import { DEFAULT_PRICE_TABLE } from '../providers/prices';
import type { PriceTable } from '../providers/prices';
import { REPORT_CSS } from './style';

export interface ReportInput {
  readonly title?: string;
  /** When it was made, as the shell's clock says (the core has none); left out when absent. */
  readonly generatedAt?: string;
  readonly scenarios: readonly CheckReport[];
  readonly rfd: readonly RfdTable[];
  readonly tokens: TokenCounter;
  /** The prices requests are costed at (default: the cited table in core/providers/prices). */
  readonly prices?: PriceTable;
}

function cellHtml(c: RfdCell): string {
  const verdict = c.agrees ? '<span class="good">agrees</span>' : `<span class="bad">disagrees</span> <span class="muted">(the RFD: ${esc(c.stated)})</span>`;
  return `<td><span class="value">${esc(c.computed)}</span> ${verdict}${c.detail ? `<br><span class="muted small">${esc(c.detail)}</span>` : ''}</td>`;
}

function rowHtml(row: RfdRow, table: RfdTable): string {
  const ok = rowAgrees(row);
  const x = row.expectations;
  return `<tr><th scope="row">${esc(row.label)}</th>${row.cells.map(cellHtml).join('')}${table.quoteColumn ? `<td class="quote">${esc(row.quote ?? '')}</td>` : ''}<td><span class="${ok ? 'good' : 'bad'}">${ok ? 'pass' : 'fail'}</span> <span class="muted small">${x.passed} of ${x.passed + x.failed} expectations · ${esc(row.scenario.name)}</span></td></tr>`;
}

function rfdSection(tables: readonly RfdTable[]): string {
  const { agree, disagree } = rfdCounts(tables);
  const parts = [
    '<section id="rfd" aria-labelledby="rfd-h">',
    '<h2 id="rfd-h">RFD 108, live</h2>',
    `<p>Each row is a small scenario run through the engine; each cell is the run's value beside whether it agrees with what the RFD states. <span class="${disagree > 0 ? 'bad' : 'good'}">${agree} of ${agree + disagree} rows agree</span>.</p>`,
  ];
  for (const t of tables) {
    const head = `<tr><th scope="col">row</th>${t.columns.map((c) => `<th scope="col">${esc(c)}</th>`).join('')}${t.quoteColumn ? `<th scope="col">${esc(t.quoteColumn)}</th>` : ''}<th scope="col">result</th></tr>`;
    parts.push(`<table id="rfd-${esc(t.id)}">
<caption>${esc(t.title)} <span class="muted small">(RFD 108, ${esc(t.source)})</span></caption>
<thead>${head}</thead>
<tbody>${t.rows.map((r) => rowHtml(r, t)).join('\n')}</tbody>
</table>${t.note ? `\n<p class="note">${esc(t.note)}</p>` : ''}`);
  }
  parts.push('</section>');
  return parts.join('\n');
}

function summary(input: ReportInput): string {
  const passed = input.scenarios.reduce((n, s) => n + s.passed, 0);
  const failed = input.scenarios.reduce((n, s) => n + s.failed, 0);
  const bad = input.scenarios.filter((s) => s.fileErrors.length > 0).length;
  const rfd = rfdCounts(input.rfd);
  return `<ul class="summary">
<li>${input.scenarios.length} scenario${input.scenarios.length === 1 ? '' : 's'}: <span class="${failed > 0 ? 'bad' : 'good'}">${passed} passed, ${failed} failed</span>${bad > 0 ? `, <span class="bad">${bad} that do not run</span>` : ''}</li>
<li>RFD 108's tables: <span class="${rfd.disagree > 0 ? 'bad' : 'good'}">${rfd.agree} of ${rfd.agree + rfd.disagree} rows agree</span></li>
</ul>`;
}

function contents(input: ReportInput, ids: readonly string[]): string {
  const items = input.scenarios.map((s, i) => {
    const mark = s.fileErrors.length > 0 || s.failed > 0 ? ' <span class="bad">(fails)</span>' : '';
    return `<li><a href="#${esc(ids[i] ?? '')}">${esc(s.name ?? s.file)}</a>${mark}</li>`;
  });
  return `<nav aria-label="Contents"><h2>Contents</h2><ol><li><a href="#rfd">RFD 108, live</a></li><li><a href="#scenarios">Scenarios</a><ol>${items.join('')}</ol></li></ol></nav>`;
}

export function reportHtml(input: ReportInput): string {
  const title = input.title ?? 'Tool catalogue review: RFD 108';
  const ids = input.scenarios.map((s, i) => `scenario-${i + 1}-${slug(s.name ?? s.file)}`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>${esc(title)}</h1>
<p class="muted">Made by tool-workbench report${input.generatedAt ? ` on ${esc(input.generatedAt)}` : ''}. Definition cost is JP's estimate in UTF-8 bytes; tokens by ${esc(input.tokens.id)}.</p>
${summary(input)}
</header>
${contents(input, ids)}
<main>
${rfdSection(input.rfd)}
<section id="scenarios" aria-labelledby="scenarios-h">
<h2 id="scenarios-h">Scenarios</h2>
${input.scenarios.map((s, i) => scenarioSection(s, ids[i] ?? `scenario-${i + 1}`, input.tokens, input.prices ?? DEFAULT_PRICE_TABLE)).join('\n')}
</section>
</main>
</body>
</html>
`;
}
