// A tool's findability as a badge: a word and a colour, never colour alone (findable, hard to find,
// thinly described, unreachable). The word is the core's (ToolFindability.word), so it agrees with the
// score and rank shown beside it. Shared by the findability panel and the servers panel's notes.
import type { FindabilityStatus, FindabilityWord } from '../core';
import './findability.css';

const TITLES: Partial<Record<FindabilityWord, string>> = {
  unreachable: 'no query of its own words returns it within the limit',
  'thinly described': 'its own words find it, but its summary and description are too short for a task worded differently',
};

export function FindabilityBadge({ status, word }: { readonly status: FindabilityStatus; readonly word: FindabilityWord }) {
  return (
    <span className={`badge findability-${status}`} title={TITLES[word]} data-word={word}>
      {word}
    </span>
  );
}
