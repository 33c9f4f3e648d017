// The model policies a task set is played with. None claims to be a real model: each is a small,
// explainable stand-in, and every figure a run reports names the policy that produced it.
//
//   never       never searches: the floor, and exactly RFD 108's silent failure.
//   request     searches once, with the request's own words at the run's limit, whenever no offered
//               tool covers the request: the ranking's ceiling for this catalogue.
//   auto        the simulator's auto model (model/auto.ts): keyword queries, up to two searches, then
//               calls what it found.
//   categories  the auto model, but it searches only when the request names a category of the
//               system prompt's categories section: a cautious model that reads its prompt.
//
// All but `auto` are the auto model with one decision changed, so they choose and call tools alike
// and differ only in whether and how they search.
import { SEARCH_TOOLS } from '../catalogue/builtins';
import { nextAutoAction } from '../model/auto';
import type { AutoAction, AutoInput } from '../model/auto';
import { matchingCategory } from './categories';
import type { CategoriesSection } from './categories';
import type { PolicyName } from './types';

export interface PolicyContext {
  /** search_tools' limit for every search the policy makes. */
  readonly limit: number;
  /** The categories section in the system prompt, when the run adds it. */
  readonly categories?: CategoriesSection;
}

export type TaskPolicy = (input: AutoInput, context: PolicyContext) => AutoAction;

const withLimit = (a: AutoAction, limit: number): AutoAction => (a.kind === 'search' ? { ...a, limit } : a);
const canSearch = (input: AutoInput): boolean => input.tools.some((t) => t.name === SEARCH_TOOLS && t.offered);
const searchedBefore = (input: AutoInput): boolean => input.calls.some((c) => c.tool === SEARCH_TOOLS);

const NO_TOOL = 'I answered without a tool.';

export const never: TaskPolicy = (input) => {
  const a = nextAutoAction(input);
  if (a.kind !== 'search') return a;
  return { kind: 'reply', text: NO_TOOL, why: `never searches (${a.why}), so it answers without a tool` };
};

export const request: TaskPolicy = (input, { limit }) => {
  const a = nextAutoAction(input);
  if (searchedBefore(input)) return a.kind === 'search' ? { kind: 'reply', text: NO_TOOL, why: `searches once only (${a.why})` } : a;
  // Before a search, anything but a covering offered tool sends the request itself to search_tools,
  // even a request without keywords: the ceiling asks every question the ranking could answer.
  if (a.kind === 'call' || input.calls.length > 0 || !canSearch(input)) return a;
  return { kind: 'search', query: input.query, limit, why: `no offered tool covers the request; searching with its own words (${a.why})` };
};

export const auto: TaskPolicy = (input, { limit }) => withLimit(nextAutoAction(input), limit);

export const categories: TaskPolicy = (input, { limit, categories: section }) => {
  const a = nextAutoAction(input);
  if (a.kind !== 'search' || searchedBefore(input)) return withLimit(a, limit);
  const hit = section ? matchingCategory(section, input.query) : undefined;
  if (!hit) {
    const why = section && section.categories.length > 0 ? 'the request names no category of the system prompt' : 'the system prompt names no categories';
    return { kind: 'reply', text: NO_TOOL, why: `${why}, so it does not search (${a.why})` };
  }
  return { kind: 'search', query: a.query, limit, why: `the request names the category "${hit.key}" of the system prompt; ${a.why}` };
};

export const POLICIES: ReadonlyMap<PolicyName, TaskPolicy> = new Map<PolicyName, TaskPolicy>([
  ['never', never],
  ['request', request],
  ['auto', auto],
  ['categories', categories],
]);
