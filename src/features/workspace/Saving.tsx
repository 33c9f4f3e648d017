// The generated layer's saving per request, and over the conversation.
import { formatCount, formatPercent } from '../../components/Measures';
import type { DiscoverableView } from '../../derive/workspaceProtocol';

const bytes = (n: number): string => `${formatCount(n)} B`;

export function Saving({ plan }: { readonly plan: DiscoverableView }) {
  if (plan.discoverable === 0) return <p className="muted">Nothing to make discoverable: every tool at on is kept. Keep fewer to see a saving.</p>;
  if (plan.requests.length === 0) return <p className="muted">The scenario has no turn: add a <code>jp q</code> step to see the saving per request.</p>;
  const total = plan.requests.reduce(
    (a, r) => ({ before: a.before + r.before.bytes, after: a.after + r.after.bytes, tb: a.tb + r.before.tokens, ta: a.ta + r.after.tokens }),
    { before: 0, after: 0, tb: 0, ta: 0 },
  );
  return (
    <table className="ws-saving" data-testid="discoverable-saving">
      <caption>
        Definition cost offered on every request, without → with the generated layer {plan.applied ? '(applied)' : '(preview)'}; tokens: {plan.tokenCounter}
      </caption>
      <thead>
        <tr>
          <th scope="col">Request</th>
          <th scope="col">Tools offered</th>
          <th scope="col">Bytes</th>
          <th scope="col">Tokens</th>
          <th scope="col">Saving</th>
        </tr>
      </thead>
      <tbody>
        {plan.requests.map((r) => (
          <tr key={r.id} data-request={r.id} data-before-bytes={r.before.bytes} data-after-bytes={r.after.bytes}>
            <th scope="row">turn {r.step} · cycle {r.cycle}</th>
            <td>{r.before.tools} → {r.after.tools}</td>
            <td>{bytes(r.before.bytes)} → {bytes(r.after.bytes)}</td>
            <td>{formatCount(r.before.tokens)} → {formatCount(r.after.tokens)}</td>
            <td className={`ws-save ${r.after.bytes < r.before.bytes ? 'pass' : ''}`}>
              <span>−{bytes(r.before.bytes - r.after.bytes)} ({formatPercent(r.before.bytes - r.after.bytes, r.before.bytes)})</span>{' '}
              <span>−{formatCount(r.before.tokens - r.after.tokens)} tokens</span>
            </td>
          </tr>
        ))}
      </tbody>
      {(plan.requests.length > 1 || plan.note) && (
        // One footer: a table has at most one tfoot (HTML's content model), so the total and the note share it.
        <tfoot>
          {plan.requests.length > 1 && (
            <tr>
              <th scope="row">all {plan.requests.length} requests</th>
              <td />
              <td>{bytes(total.before)} → {bytes(total.after)}</td>
              <td>{formatCount(total.tb)} → {formatCount(total.ta)}</td>
              <td className="ws-save pass">
                <span>−{bytes(total.before - total.after)} ({formatPercent(total.before - total.after, total.before)})</span>{' '}
                <span>−{formatCount(total.tb - total.ta)} tokens</span>
              </td>
            </tr>
          )}
          {plan.note && (
            <tr>
              <td colSpan={5} className="muted">{plan.note}</td>
            </tr>
          )}
        </tfoot>
      )}
    </table>
  );
}
