// The policy switches of semantics.md: the RFD's open questions, each a value
// a reviewer can flip. Defaults come first in each list.
import { PROVIDER_IDS } from '../providers/registry';

export const POLICY_CHOICES = {
  ranking: ['bm25', 'substring'],
  substring_match: ['all_terms', 'whole_query'],
  report_match_count: [true, false],
  forced_off_tool: ['allow', 'reject'],
  promoted_position: ['config_order', 'append'],
  never_blocks_promotion: [false, true],
  hide_unapproved: [false, true],
  categories_prompt: [false, true],
  // The registry of provider modules, in its order (anthropic first).
  provider: PROVIDER_IDS,
} as const;

export type PolicyKey = keyof typeof POLICY_CHOICES;
export type Policy = { readonly [K in PolicyKey]: (typeof POLICY_CHOICES)[K][number] };
export type { ProviderId } from '../providers/registry';

export const DEFAULT_POLICY: Policy = {
  ranking: 'bm25',
  substring_match: 'all_terms',
  report_match_count: true,
  forced_off_tool: 'allow',
  promoted_position: 'config_order',
  never_blocks_promotion: false,
  hide_unapproved: false,
  categories_prompt: false,
  provider: 'anthropic',
};

export const POLICY_KEYS = Object.keys(POLICY_CHOICES) as PolicyKey[];

/** The RFD question each switch answers (shown beside it in the open-questions panel). */
export const POLICY_QUESTIONS: Readonly<Record<PolicyKey, string>> = {
  ranking: 'Search quality is now JP\'s problem: does BM25 find what substring matching misses?',
  substring_match: 'How should a multi-word query match under substring ranking: every term, or the whole query?',
  report_match_count: 'Is the limit clamp the right shape? Returning the total match count signals a truncated view.',
  forced_off_tool: 'May `jp q -u NAME` force an off (not locked) tool, as RFD 108 says, or reject it, as JP does today?',
  promoted_position: 'Where does a promoted tool land in the tools array: its config position (JP today) or the end (kinder to the prefix cache)?',
  never_blocks_promotion: 'Does allow_toggle = "never" also block the model\'s promotion of a locked-discoverable tool?',
  hide_unapproved: 'Search results and unapproved grants: should tools that need approval (run = "ask") be hidden from search?',
  categories_prompt: 'If the model rarely searches: should the system prompt name the searchable categories (one line per server, name prefix or group, with its cost on every request)?',
  provider: 'Which provider shape is the request in, and does it keep the prefix cache across a discovery?',
};

export function isPolicyValue<K extends PolicyKey>(key: K, value: unknown): value is Policy[K] {
  return (POLICY_CHOICES[key] as readonly unknown[]).includes(value);
}
