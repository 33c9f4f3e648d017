// A tool's findability as a badge: a word and a colour, never colour alone (findable, hard to find,
// unreachable). Shared by the findability panel and the servers panel's notes.
import './findability.css';

const WORDS = { findable: 'findable', hard: 'hard to find', unreachable: 'unreachable' } as const;

export function FindabilityBadge({ status }: { readonly status: keyof typeof WORDS }) {
  return (
    <span className={`badge findability-${status}`} title={status === 'unreachable' ? 'no query of its own words returns it within the limit' : undefined}>
      {WORDS[status]}
    </span>
  );
}
