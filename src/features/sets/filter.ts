// Narrowing the rows the core computed: by availability, set membership,
// kind and a name/summary substring. It only hides rows; it never decides
// membership (that is the core's, carried on each SetsRow). The worker's
// setsWindow does the narrowing now (the page holds a window of rows, not all);
// filterRows is the table it must answer as (src/derive/views.test.ts).
import type { SetsRow } from '../../derive/protocol';

export const AVAILABILITIES = ['on', 'discoverable', 'off'] as const;
export const MEMBERSHIPS = ['permitted', 'offered', 'searchable'] as const;
export const KINDS = ['local', 'mcp', 'builtin'] as const;

export type Availability = (typeof AVAILABILITIES)[number];
export type Membership = (typeof MEMBERSHIPS)[number];
export type Kind = (typeof KINDS)[number];

export interface SetsFilter {
  readonly availability: ReadonlySet<Availability>;
  readonly membership: ReadonlySet<Membership>;
  readonly kind: ReadonlySet<Kind>;
  readonly query: string;
}

export const NO_FILTER: SetsFilter = { availability: new Set(), membership: new Set(), kind: new Set(), query: '' };

export function isFiltered(f: SetsFilter): boolean {
  return f.availability.size > 0 || f.membership.size > 0 || f.kind.size > 0 || f.query.trim() !== '';
}

/** Within a group any checked value matches (none checked: all); the groups and the search must all match. */
export function filterRows(rows: readonly SetsRow[], f: SetsFilter): readonly SetsRow[] {
  if (!isFiltered(f)) return rows;
  const q = f.query.trim().toLowerCase();
  return rows.filter((r) => {
    if (f.availability.size > 0 && !f.availability.has(r.availability)) return false;
    if (f.kind.size > 0 && !f.kind.has(r.kind)) return false;
    if (f.membership.size > 0 && ![...f.membership].some((m) => r[m])) return false;
    if (q !== '' && !r.name.toLowerCase().includes(q) && !r.summary.toLowerCase().includes(q)) return false;
    return true;
  });
}

export function toggle<T>(set: ReadonlySet<T>, value: T): ReadonlySet<T> {
  const next = new Set(set);
  if (next.has(value)) next.delete(value);
  else next.add(value);
  return next;
}

/** The words for a server's status, as the row shows them. */
export function serverStatusWord(row: SetsRow): string {
  if (row.kind === 'builtin') return 'builtin';
  if (row.kind === 'local' || row.server === undefined) return 'local';
  return row.serverStatus ?? 'running';
}
