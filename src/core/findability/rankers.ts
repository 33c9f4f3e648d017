// The rankings a findability report puts side by side: the RFD's substring, bm25, and the regex
// ranker shaped like Anthropic's.
import { bm25 } from '../search/bm25';
import { regex } from '../search/regex';
import { substring } from '../search/substring';
import type { Ranker } from '../search/types';

export const FINDABILITY_RANKERS: readonly Ranker[] = [substring, bm25, regex];
