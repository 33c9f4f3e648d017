// What each tool holds, in words, worked out once per report; and a ranking's answer to one query.
import type { SearchDocument } from '../search/types';
import { contentWords } from '../search/words';

export const MIN_DESCRIPTION_WORDS = 5;

/** A ranking's answer to one query of one tool. */
export interface Asked {
  readonly rank: number | null;
  /** The tools above it (at most `limit`), or the first `limit` when it is not within them. */
  readonly above: readonly string[];
  /** Tools below it within the limit whose score is within NEAR_TIE of its own. */
  readonly tied: readonly string[];
}

/** What each tool holds, worked out once. */
export interface ToolWords {
  readonly doc: SearchDocument;
  /** Content words of its name, summary and description. */
  readonly own: readonly string[];
  readonly ownSet: ReadonlySet<string>;
  /** Content words of its parameter names and descriptions. */
  readonly parameters: readonly string[];
  /** Words in its summary and description together. */
  readonly describedBy: number;
}

export function toolWords(doc: SearchDocument): ToolWords {
  const own = contentWords(`${doc.name} ${doc.summary} ${doc.description}`);
  const parameters = contentWords(`${doc.parameterNames.join(' ')} ${doc.parameterDescriptions.join(' ')}`);
  const described = `${doc.summary} ${doc.description === doc.summary ? '' : doc.description}`.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  return { doc, own, ownSet: new Set(own), parameters, describedBy: described };
}

