// The turn the simulator follows, as derived: its requests (with what joined the offered set), calls
// with their search results, deltas and the reply.
import type { EntryView, RequestView, TimelineRow } from '../../derive/protocol';
import { LiveNowOfTools } from '../../live/LiveNow';
import { CacheStatusWord, countOf, formatBytes, JoinedChip, SearchStatus } from '../../components/Measures';
import type { CacheStatus } from '../../core';
import { useCacheStatuses } from '../../derive/costHooks';

function RequestRow({ r, promotedBefore, said }: { readonly r: RequestView | undefined; readonly promotedBefore: boolean; readonly said?: CacheStatus | undefined }) {
  if (!r) return null;
  return (
    <div className="sim-row sim-request" data-request={r.id} data-cycle={r.cycle}>
      <span className="sim-kind">request</span>
      <span>
        cycle {r.cycle}: {countOf(r.offeredCount, 'tool')} offered · {formatBytes(r.cost.offered)} of definitions · <CacheStatusWord cmp={r.cache} said={said} />
      </span>
      {r.addedCount > 0 && (
        <div className="sim-joined" data-testid="sim-joined">
          <span className="muted">joined the offered set{promotedBefore ? ' (promoted by the search above)' : ''}:</span>{' '}
          {r.added.map((n) => (
            <JoinedChip key={n} name={n} why={promotedBefore ? 'promotion' : 'delta'} />
          ))}
          {r.addedCount > r.added.length && <span className="muted"> and {r.addedCount - r.added.length} more</span>}
        </div>
      )}
    </div>
  );
}

function CallRow({ e }: { readonly e: EntryView }) {
  const s = e.search;
  return (
    <div className={`sim-row sim-call ${e.callStatus === 'error' ? 'is-error' : ''}`} data-call-status={e.callStatus} data-tool={e.tool}>
      <span className="sim-kind">call</span>
      <code className="sim-call-label">{e.label}</code>
      <LiveNowOfTools tools={s ? s.returned.map((h) => h.name) : e.tool !== undefined ? [e.tool] : []} />
      {e.callStatus === 'error' ? <span className="sim-error">error: {e.error}</span> : !s && <span className="sim-result">{e.detail}</span>}
      {s && (
        <div className="sim-search" data-testid="sim-search-result">
          <table>
            <caption>
              {s.returned.length} returned{s.total !== undefined ? ` of ${s.total} matches` : ' (no total: report_match_count is off)'} · limit {s.limit}
            </caption>
            <thead>
              <tr><th scope="col">tool</th><th scope="col">status</th><th scope="col">score</th><th scope="col">matched</th></tr>
            </thead>
            <tbody>
              {s.returned.map((h) => (
                <tr key={h.name} data-tool={h.name}>
                  <td><code>{h.name}</code></td>
                  <td><SearchStatus status={h.status} /></td>
                  <td className="num">{h.score.toFixed(2)}</td>
                  <td>{h.fields.join(', ').replaceAll('_', ' ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** `rows`: the followed step's rows, with their requests' facts. */
export function TurnLog({ rows, open }: { readonly rows: readonly TimelineRow[]; readonly open: boolean }) {
  const lastReply = open ? rows.filter((r) => r.entry.kind === 'reply').at(-1)?.entry.index : undefined;
  let sawPromotion = false;
  const ids = rows.flatMap((r) => (r.request ? [r.request.id] : []));
  const statuses = useCacheStatuses(ids.length > 0 ? Math.min(...ids) : 0, ids.length > 0 ? Math.max(...ids) + 1 : 0);
  return (
    <div className="sim-log" data-testid="sim-log">
      {rows.map(({ entry: e, request }) => {
        if (e.kind === 'step') return <div key={e.index} className={`sim-row sim-step ${e.error ? 'is-error' : ''}`}><code>{e.label}</code>{e.error && <span className="sim-error"> {e.error}</span>}</div>;
        if (e.kind === 'request') {
          const row = <RequestRow key={e.index} r={request} promotedBefore={sawPromotion} said={e.request !== undefined ? statuses?.[e.request] : undefined} />;
          sawPromotion = false;
          return row;
        }
        if (e.kind === 'call') return <CallRow key={e.index} e={e} />;
        if (e.kind === 'delta') {
          if (e.sources?.includes('promotion')) sawPromotion = true;
          return <div key={e.index} className="sim-row sim-delta"><span className="sim-kind">delta</span><span>{e.label}</span></div>;
        }
        if (e.kind === 'reply' && e.index === lastReply) return <div key={e.index} className="sim-row sim-awaiting"><span className="sim-kind">model</span><span>awaiting the model&apos;s response (run as a file, this cycle ends the turn with an empty reply)</span></div>;
        if (e.kind === 'reply') return <div key={e.index} className="sim-row sim-reply" data-testid="sim-reply-row"><span className="sim-kind">reply</span><span>{e.label.replace(/^reply: /u, '')}</span></div>;
        if (e.kind === 'warning') return <div key={e.index} className="sim-row sim-warning">{e.label}</div>;
        return null;
      })}
    </div>
  );
}
