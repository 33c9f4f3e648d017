// The sets at the selected position: every tool's availability, membership and why.
import { AvailabilityBadge, MembershipChips } from '../../components/Availability';
import { useSets } from '../../derive/hooks';

export function SetsPanel() {
  const { data } = useSets();
  return (
    <section className="panel" aria-label="Sets">
      <div className="panel-head">
        <h2>Sets</h2>
        {data && (
          <span data-testid="set-counts">
            permitted {data.counts.permitted} · offered {data.counts.offered} · searchable {data.counts.searchable}
          </span>
        )}
      </div>
      <div className="panel-body">
        {data?.rows.map((r) => (
          <div key={r.name} data-tool={r.name}>
            <code>{r.name}</code> <AvailabilityBadge value={r.availability} /> <MembershipChips permitted={r.permitted} offered={r.offered} searchable={r.searchable} /> {r.why}
          </div>
        ))}
      </div>
    </section>
  );
}
