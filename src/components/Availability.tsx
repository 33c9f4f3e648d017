// The three availability badges: a word and a colour, never colour alone.
export function AvailabilityBadge({ value }: { readonly value: string }) {
  return <span className={`badge ${value}`}>{value}</span>;
}

const CHIP_NAMES = { P: 'permitted', O: 'offered', S: 'searchable' } as const;

export function MembershipChips({ permitted, offered, searchable }: { readonly permitted: boolean; readonly offered: boolean; readonly searchable: boolean }) {
  const has = { P: permitted, O: offered, S: searchable };
  const words = (Object.keys(CHIP_NAMES) as (keyof typeof CHIP_NAMES)[]).filter((k) => has[k]).map((k) => CHIP_NAMES[k]);
  return (
    <span aria-label={words.length > 0 ? words.join(', ') : 'in no set'} role="img">
      {(Object.keys(CHIP_NAMES) as (keyof typeof CHIP_NAMES)[]).map((k) => (
        <span key={k} className={`chip ${has[k] ? 'in' : ''}`} title={`${CHIP_NAMES[k]}: ${has[k] ? 'yes' : 'no'}`} aria-hidden="true">
          {k}
        </span>
      ))}
    </span>
  );
}
