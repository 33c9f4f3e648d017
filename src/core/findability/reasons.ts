// Why a tool is hard to find, in words a catalogue designer can act on, and the edit that
// obviously helps where there is one (issue 17: add a summary; add the missing words the tasks use).
import { splitDescription } from '../catalogue/split-description';
import { contentWords, wordsOf } from '../search/words';
import { MIN_DESCRIPTION_WORDS } from './tool-words';
import type { ToolWords } from './tool-words';
import type { FindabilityFix, QueryResult, Reason } from './types';

/** A parameter word held by at most this many tools is distinctive enough to be searched for. */
const RARE_HOLDERS = 2;
const SHOWN_WORDS = 6;
/** A word in more than this share of all tasks (and in more than 10) is request filler, not what a task wants. */
const GENERIC_TASK_SHARE = 0.02;
const GENERIC_TASK_MIN = 10;

export interface ExplainInput {
  readonly words: ToolWords;
  /** How many tools hold each word (own words or parameters). */
  readonly holders: ReadonlyMap<string, number>;
  readonly queries: readonly QueryResult[];
  /** Its queries that do not return it within the limit, under the scenario's ranking. */
  readonly missed: readonly QueryResult[];
  readonly beatenBy: readonly string[];
  readonly all: ReadonlyMap<string, ToolWords>;
  /** How many tasks use each word, and how many tasks there are. */
  readonly taskWords: { readonly counts: ReadonlyMap<string, number>; readonly tasks: number };
}

const list = (xs: readonly string[], n = SHOWN_WORDS) => xs.slice(0, n).join(', ') + (xs.length > n ? ', …' : '');

function sentence(words: readonly string[]): string {
  const text = words.join(' ');
  return text === '' ? '' : `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** The tools that outrank it on the queries it misses. */
function outrankers(missed: readonly QueryResult[]): string[] {
  const out = new Set<string>();
  for (const q of missed) for (const n of q.beatenBy) out.add(n);
  return [...out];
}

function sharedWords(input: ExplainInput): Reason | undefined {
  const own = input.words.own;
  const rivals = outrankers(input.missed.filter((q) => q.kind !== 'task'));
  if (own.length === 0 || rivals.length === 0) return undefined;
  const holding = new Set<string>();
  for (const word of own) {
    const by = rivals.find((r) => input.all.get(r)?.ownSet.has(word));
    if (by === undefined) return undefined;
    holding.add(by);
  }
  const tools = [...holding];
  return { code: 'shared-words', text: `every word it has (${list(own)}) is shared with tools that outrank it: ${list(tools, 5)}`, words: own, tools };
}

function parameterWords(input: ExplainInput): Reason | undefined {
  const words = input.words.parameters.filter((w) => !input.words.ownSet.has(w) && (input.holders.get(w) ?? 0) <= RARE_HOLDERS);
  if (words.length === 0) return undefined;
  return { code: 'parameter-words', text: `its distinctive words are only in its parameters (${list(words)}): a search for them would find it, but its summary and description do not say them`, words };
}

/**
 * Words the missed tasks use that the tool lacks: the words more of them use first, and only words
 * that say what these tasks want (not request filler every task has, like "provide" or "find").
 */
function taskWords(input: ExplainInput): string[] {
  const known = new Set([...input.words.own, ...input.words.parameters]);
  const missedTasks = input.missed.filter((q) => q.kind === 'task');
  const counts = new Map<string, number>();
  const generic = Math.max(GENERIC_TASK_MIN, GENERIC_TASK_SHARE * input.taskWords.tasks);
  for (const q of missedTasks) {
    for (const w of contentWords(q.text)) {
      if (known.has(w) || w.length <= 2 || (input.taskWords.counts.get(w) ?? 0) > generic) continue;
      counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  // With several missed tasks, a word only one of them uses says little about the tool.
  const floor = missedTasks.length >= 3 ? 2 : 1;
  return [...counts.entries()].filter(([, n]) => n >= floor).sort((a, b) => b[1] - a[1]).map(([w]) => w);
}

export function explain(input: ExplainInput): { reasons: Reason[]; fix?: FindabilityFix } {
  const { doc } = input.words;
  const reasons: Reason[] = [];
  const empty = doc.summary.trim() === '' && doc.description.trim() === '';
  if (empty) reasons.push({ code: 'no-description', text: 'it has no summary or description: search_tools can match only its name and parameters' });
  else if (input.words.describedBy < MIN_DESCRIPTION_WORDS) {
    reasons.push({ code: 'short-description', text: `its summary and description hold only ${input.words.describedBy} words (fewer than ${MIN_DESCRIPTION_WORDS})` });
  }
  const shared = sharedWords(input);
  if (shared) reasons.push(shared);
  const params = parameterWords(input);
  if (params) reasons.push(params);
  const missing = taskWords(input);
  if (missing.length > 0) reasons.push({ code: 'task-words', text: `tasks that need it use words it lacks: ${list(missing)}`, words: missing });
  if (reasons.length === 0) {
    const tools = input.beatenBy;
    reasons.push({
      code: 'outranked',
      text: tools.length > 0 ? `outranked on ${input.missed.length} of ${input.queries.length} of its queries by ${list(tools, 5)}` : `${input.missed.length} of its ${input.queries.length} queries do not return it`,
      tools,
    });
  }
  const base = doc.summary.trim() || splitDescription(doc.description) || sentence(wordsOf(doc.name));
  if (missing.length > 0) {
    const words = missing.slice(0, 8);
    return { reasons, fix: { kind: 'add-words', title: `Add the words its tasks use to the summary: ${words.join(', ')}`, summary: `${base.replace(/[.\s]+$/u, '')} (${words.join(', ')}).` } };
  }
  if (empty) return { reasons, fix: { kind: 'add-summary', title: 'Add a summary (then say what it does, in the words a task would use)', summary: sentence(wordsOf(doc.name)) } };
  return { reasons };
}
