// The findability report as text, for `tool-workbench findability`.
import type { FindabilityComparison, FindabilityReport, FindabilityWord } from './types';

const pct = (x: number) => `${Math.round(x * 100)}%`;

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ').trimEnd());
}

/** How many tools a catalogue line talks about, as "findable in the top 5: 91 of 99". */
export function findableLine(report: FindabilityReport, k = report.limit): string {
  const active = report.rankings.find((r) => r.active);
  const at = active?.atK.find((x) => x.k === k)?.tools ?? active?.findable ?? 0;
  return `findable in the top ${k}: ${at} of ${report.tools.length}`;
}

/** The words of the tools at risk, in the order every panel names them. */
export const AT_RISK_WORDS = ['hard to find', 'thinly described', 'unreachable'] as const;

export type AtRiskCounts = Record<(typeof AT_RISK_WORDS)[number], number> & { readonly atRisk: number };

/**
 * How many tools carry each at-risk word (issue 24.8): the one count the findability tab, its
 * "At risk (N)" heading and a server's card all read, so none can call a tool its own words find
 * first something else.
 */
export function atRiskCounts(tools: readonly { readonly word: FindabilityWord }[]): AtRiskCounts {
  const counts = { 'hard to find': 0, 'thinly described': 0, unreachable: 0, atRisk: 0 };
  for (const t of tools) {
    if (t.word === 'findable') continue;
    counts[t.word] += 1;
    counts.atRisk += 1;
  }
  return counts;
}

/** "2 thinly described · 1 unreachable", only the words it has; "none at risk" when every tool is findable. */
export function atRiskWords(tools: readonly { readonly word: FindabilityWord }[]): string {
  const c = atRiskCounts(tools);
  if (c.atRisk === 0) return 'none at risk';
  return AT_RISK_WORDS.filter((w) => c[w] > 0).map((w) => `${c[w]} ${w}`).join(' · ');
}

export function formatFindability(report: FindabilityReport, options: { hardest?: number } = {}): string {
  const shown = options.hardest ?? 20;
  const lines: string[] = [];
  const active = report.rankings.find((r) => r.active);
  lines.push(`${report.tools.length} discoverable tools; search_tools limit ${report.limit}; the scenario's ranking: ${active?.id ?? report.ranking}${report.tasks > 0 ? `; ${report.tasks} tasks` : ''}`);
  lines.push(findableLine(report));
  const ks = active?.atK.map((x) => x.k) ?? [];
  const header = ['ranking', ...ks.map((k) => `top ${k}`), 'score', 'unreachable'];
  const rows = report.rankings.map((r, i) => [
    `${r.id}${r.active ? ' *' : ''}`,
    ...r.atK.map((x) => String(x.tools)),
    pct(r.score),
    String(report.tools.filter((t) => (t.rankings[i]?.found ?? 0) === 0).length),
  ]);
  lines.push('', ...table([header, ...rows]), '(* the scenario\'s ranking; score: the share of a tool\'s queries that return it within the limit, averaged)');
  const byName = new Map(report.tools.map((t) => [t.name, t]));
  // "hardest" holds every tool at risk: hard to find, thinly described or unreachable; each line says which.
  lines.push('', `at risk (${report.hardest.length}), hardest first:`);
  for (const name of report.hardest.slice(0, shown)) {
    const t = byName.get(name);
    if (!t) continue;
    // The score names what it divides (issue 24.7): the tool's queries under the scenario's ranking.
    const own = t.rankings[Math.max(0, report.rankings.findIndex((r) => r.active))];
    const of = own ? ` (${own.found} of ${own.queries} ${own.queries === 1 ? 'query' : 'queries'})` : '';
    lines.push(`  ${name}${t.server ? ` (${t.server})` : ''}: ${t.word}, score ${pct(t.score)}${of}, best rank ${t.best ?? 'none'}`);
    for (const r of t.reasons) lines.push(`    - ${r.text}`);
    if (t.fix) lines.push(`    fix: ${t.fix.title}`);
  }
  if (report.hardest.length > shown) lines.push(`  … and ${report.hardest.length - shown} more (--json has them all)`);
  lines.push('', `look-alike groups (${report.lookAlikes.length}):`);
  for (const g of report.lookAlikes.slice(0, shown)) lines.push(`  ${g.tools.join(', ')}${g.shared.length > 0 ? ` — share: ${g.shared.join(', ')}` : ''}`);
  if (report.lookAlikes.length > shown) lines.push(`  … and ${report.lookAlikes.length - shown} more`);
  if (report.unknownTaskTools.length > 0) lines.push('', `tasks name tools that are not discoverable here: ${report.unknownTaskTools.slice(0, 10).join(', ')}${report.unknownTaskTools.length > 10 ? ', …' : ''}`);
  return lines.join('\n');
}

export function formatComparison(c: FindabilityComparison): string {
  const lines = [`before: findable ${c.before.findable} of ${c.before.tools}; after: findable ${c.after.findable} of ${c.after.tools}; ${c.changes.length} tools changed`];
  for (const ch of c.changes) {
    const side = (s: typeof ch.before) => (s ? `${s.word} ${pct(s.score)} best ${s.best ?? 'none'}` : 'absent');
    lines.push(`  ${ch.direction.padEnd(7)} ${ch.name}: ${side(ch.before)} → ${side(ch.after)}`);
  }
  return lines.join('\n');
}
