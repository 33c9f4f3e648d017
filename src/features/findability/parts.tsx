// The findability panel's look-alike groups and before/after comparison.
import type { FindabilityComparison, LookAlikeGroup } from '../../core';
import { FindabilityBadge } from '../../components/Findability';

export function LookAlikes({ groups }: { readonly groups: readonly LookAlikeGroup[] }) {
  return (
    <section className="fnd-lookalikes" aria-label="Look-alike groups" data-testid="fnd-lookalikes" data-groups={groups.length}>
      <h3>Look-alikes ({groups.length})</h3>
      {groups.length === 0 ? (
        <p className="muted">No tools outrank each other for each other&apos;s words.</p>
      ) : (
        <ul>
          {groups.slice(0, 200).map((g) => (
            <li key={g.tools.join('\u0000')} data-testid="fnd-group">
              {g.tools.map((t, i) => (
                <span key={t}>
                  {i > 0 && ', '}
                  <code>{t}</code>
                </span>
              ))}
              {g.shared.length > 0 && <span className="muted"> — share: {g.shared.join(', ')}</span>}
            </li>
          ))}
          {groups.length > 200 && <li className="muted">… and {groups.length - 200} more</li>}
        </ul>
      )}
    </section>
  );
}

const score = (s: { score: number; best: number | null } | undefined) => (s ? `${Math.round(s.score * 100)} %, best ${s.best === null ? 'none' : `#${s.best}`}` : 'absent');

export function Comparison({ label, comparison }: { readonly label: string; readonly comparison: FindabilityComparison }) {
  const { before, after, changes } = comparison;
  return (
    <section className="fnd-compare" aria-label="Before and after" data-testid="fnd-compare" data-changes={changes.length}>
      <h3>Against the &quot;before&quot; pinned at {label}</h3>
      <p>
        findable within the limit: {before.findable} of {before.tools} before → <strong>{after.findable} of {after.tools}</strong> now; {changes.length} tool{changes.length === 1 ? '' : 's'} changed
      </p>
      {changes.length > 0 && (
        <table>
          <thead>
            <tr><th scope="col">tool</th><th scope="col">change</th><th scope="col">before</th><th scope="col">now</th></tr>
          </thead>
          <tbody>
            {changes.slice(0, 200).map((c) => (
              <tr key={c.name} data-tool={c.name} data-direction={c.direction}>
                <td><code>{c.name}</code></td>
                <td className={`word fnd-${c.direction}`}>{c.direction}</td>
                <td>{c.before ? <><FindabilityBadge status={c.before.status} word={c.before.word} /> {score(c.before)}</> : 'absent'}</td>
                <td>{c.after ? <><FindabilityBadge status={c.after.status} word={c.after.word} /> {score(c.after)}</> : 'absent'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
