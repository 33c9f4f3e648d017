// The findability panel's tables: the rankings side by side, the hard-to-find tools with their
// reasons, and every tool's best rank under each ranking.
import type { FindabilityReport, ToolFindability } from '../../core';
import { FindabilityBadge } from '../../components/Findability';

/** A tool name that may wrap after its underscores rather than mid-word. */
function ToolName({ name }: { readonly name: string }) {
  const parts = name.split('_');
  return (
    <code>
      {parts.map((p, i) => (
        <span key={i}>
          {p}
          {i < parts.length - 1 && <>_<wbr /></>}
        </span>
      ))}
    </code>
  );
}

const pct = (x: number) => `${Math.round(x * 100)} %`;
/** "3 of 3 queries": the share a tool's score is, under the scenario's ranking. */
function scenarioScore(report: FindabilityReport, t: ToolFindability): string {
  const r = t.rankings[Math.max(0, report.rankings.findIndex((x) => x.active))];
  return r ? `${r.found} of ${r.queries} ${r.queries === 1 ? 'query' : 'queries'}` : '';
}
const rank = (r: number | null | undefined) => (r === null || r === undefined ? 'none' : `#${r}`);

export function RankingsTable({ report }: { readonly report: FindabilityReport }) {
  const ks = report.rankings[0]?.atK.map((x) => x.k) ?? [];
  return (
    <table className="fnd-rankings" data-testid="fnd-rankings">
      <caption>The same catalogue under each ranking: tools whose best rank is within k (of {report.tools.length})</caption>
      <thead>
        <tr>
          <th scope="col">ranking</th>
          {ks.map((k) => <th key={k} scope="col">top {k}</th>)}
          <th scope="col" title="the share of a tool's queries that return it within the limit, averaged">score</th>
          <th scope="col">unreachable</th>
        </tr>
      </thead>
      <tbody>
        {report.rankings.map((r, i) => (
          <tr key={r.id} data-ranking={r.id} className={r.active ? 'active' : ''}>
            <th scope="row">
              {r.label}
              {r.active && <span className="word fnd-active"> the scenario&apos;s</span>}
            </th>
            {r.atK.map((x) => <td key={x.k} className="num">{x.tools}</td>)}
            <td className="num">{pct(r.score)}</td>
            <td className="num">{report.tools.filter((t) => (t.rankings[i]?.found ?? 0) === 0).length}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface ToolActions {
  /** Show the tool's declaration in its layer, when it has one. */
  readonly reveal?: (tool: string) => void;
  /** Apply the tool's quick fix, when it has one and a layer declares it. */
  readonly fix?: (tool: ToolFindability) => void;
  readonly declared: (tool: string) => boolean;
}

export function HardTools({ report, actions }: { readonly report: FindabilityReport; readonly actions: ToolActions }) {
  const byName = new Map(report.tools.map((t) => [t.name, t]));
  const tools = report.hardest.map((n) => byName.get(n)).filter((t): t is ToolFindability => t !== undefined);
  if (tools.length === 0) return <p className="muted" data-testid="fnd-none">Every discoverable tool is findable: each is returned within the top {report.limit} by its own words{report.tasks > 0 ? ' and by its tasks' : ''}.</p>;
  return (
    <table className="fnd-hard" data-testid="fnd-hard">
      {/* The CLI's heading: a thinly described tool is at risk, not hard to find (issue 24.8). */}
      <caption>At risk ({tools.length}): hard to find, thinly described or unreachable; hardest first, under the scenario&apos;s ranking</caption>
      <thead>
        <tr>
          <th scope="col">tool</th>
          <th scope="col">findability</th>
          <th scope="col">score</th>
          <th scope="col">why</th>
          <th scope="col">beaten by</th>
          <th scope="col">actions</th>
        </tr>
      </thead>
      <tbody>
        {tools.map((t) => (
          <tr key={t.name} data-tool={t.name}>
            <td>
              <ToolName name={t.name} />
              {t.server !== undefined && <div className="muted fnd-server">server {t.server}</div>}
            </td>
            <td><FindabilityBadge status={t.status} word={t.word} /></td>
            <td className="num" title={`${t.rankings.map((r, i) => `${report.rankings[i]?.id}: ${r.found} of ${r.queries}`).join('; ')}`}>
              {/* A ratio names what it divides (issue 24.7): the tool's queries under the scenario's ranking. */}
              {pct(t.score)} <span className="muted" data-testid="fnd-score-of">({scenarioScore(report, t)})</span> <span className="muted">best {rank(t.best)}</span>
            </td>
            <td>
              <ul className="fnd-reasons">{t.reasons.map((r) => <li key={r.code}>{r.text}</li>)}</ul>
            </td>
            <td className="fnd-beaten">{t.beatenBy.join(', ') || '—'}</td>
            <td className="fnd-actions">
              {actions.declared(t.name) && actions.reveal && (
                <button type="button" onClick={() => actions.reveal?.(t.name)} aria-label={`Go to the declaration of ${t.name}`}>Go to</button>
              )}
              {t.fix && actions.declared(t.name) && actions.fix && (
                <button type="button" onClick={() => actions.fix?.(t)} title={`${t.fix.title}: summary = "${t.fix.summary}"`} aria-label={`${t.fix.title} (${t.name})`} data-testid="fnd-fix">Fix</button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function AllTools({ report }: { readonly report: FindabilityReport }) {
  return (
    <details className="fnd-all">
      <summary>Every discoverable tool ({report.tools.length}): best rank and queries found under each ranking</summary>
      <table data-testid="fnd-all">
        <thead>
          <tr>
            <th scope="col">tool</th>
            <th scope="col">findability</th>
            {report.rankings.map((r) => <th key={r.id} scope="col">{r.id}</th>)}
          </tr>
        </thead>
        <tbody>
          {report.tools.map((t) => (
            <tr key={t.name} data-tool={t.name}>
              <td><ToolName name={t.name} /></td>
              <td><FindabilityBadge status={t.status} word={t.word} /></td>
              {t.rankings.map((r, i) => (
                <td key={report.rankings[i]?.id ?? i} className="num">{rank(r.best)} <span className="muted">{r.found}/{r.queries}</span></td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
