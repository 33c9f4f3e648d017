// The auto model's reading of words: a request's keywords and intent, and what a tool does. Pure.
//
// The model is a stand-in for a language model in demos and headless task runs, so its rules are
// few and explainable rather than clever: a request is a question (read something) or an order
// (change something, by one verb); a tool reads or changes, by its annotations or the verb its
// summary starts with; words meet by Porter stem, the same stemmer the bm25 ranking uses.
import { porterStem } from '../search/stemmer';

/** Words that carry no topic: function words, question words and the filler of a request. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  ('a about after again all also an and any are as at be been before being but by can could did do does doing done for from ' +
    'had has have having he her here how i if in into is it its just last me more most my no not now of on once only or other ' +
    'our out over please same she should so some such than that the their them then there these they this those through to ' +
    'too under until up very was we were what when where which while who why will with would you your show tell give get find ' +
    'let lets make need want know see look use using one two new latest recent')
    .split(' '),
);

/** Words that open a question: a question asks to read, never to change. */
const QUESTION_WORDS: ReadonlySet<string> = new Set('why what when where which who whom whose how did does do is are was were can could should would has have had will'.split(' '));

/**
 * Verbs that change something outside the conversation, each mapped to the verb it means. "open" an
 * issue is "create" one; a tool that creates is what an order to open one asks for.
 */
const CHANGE_VERBS: ReadonlyMap<string, string> = new Map([
  ['create', 'create'], ['open', 'create'], ['new', 'create'], ['file', 'create'], ['add', 'create'], ['make', 'create'],
  ['write', 'write'], ['edit', 'update'], ['update', 'update'], ['set', 'update'], ['change', 'update'], ['move', 'update'],
  ['rename', 'update'], ['assign', 'assign'], ['delete', 'delete'], ['remove', 'delete'], ['close', 'close'],
  ['resolve', 'resolve'], ['merge', 'merge'], ['cancel', 'cancel'], ['stop', 'cancel'], ['abort', 'cancel'],
  ['rerun', 'rerun'], ['retry', 'rerun'], ['restart', 'rerun'], ['deploy', 'deploy'], ['ship', 'deploy'],
  ['release', 'release'], ['publish', 'release'], ['commit', 'commit'], ['push', 'push'], ['comment', 'comment'],
  ['post', 'send'], ['send', 'send'], ['approve', 'approve'], ['reject', 'reject'], ['archive', 'archive'],
  ['upload', 'upload'], ['trigger', 'run'], ['roll', 'rollback'], ['rollback', 'rollback'], ['revert', 'rollback'],
  ['install', 'install'], ['fix', 'update'],
]);

/** Verbs that only read (or run something that changes nothing outside, such as a type check). */
const READ_VERBS: ReadonlySet<string> = new Set(
  ('get list search read show view fetch download find query grep describe check status inspect lookup count diff ' +
    'summarize explain browse print watch test run compare analyze analyse verify validate preview').split(' '),
);

/** Lowercase words of a text: letters and digits, everything else separates. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** A word's stem, as the bm25 ranking stems it. */
export const stemOf = (word: string): string => porterStem(word.toLowerCase());

/** The request's keywords in order: no stop words, no words under three letters, no repeats. */
export function keywords(text: string): string[] {
  const out: string[] = [];
  for (const w of wordsOf(text)) {
    if (w.length < 3 || STOP_WORDS.has(w) || out.includes(w)) continue;
    out.push(w);
  }
  return out;
}

/** What a request asks for: to read (a question, or an order to look), or to change, by one verb. */
export type Intent = { readonly kind: 'read' } | { readonly kind: 'change'; readonly verb: string; readonly word: string };

/**
 * A question (first word a question word, or a trailing "?") reads. Otherwise the first verb of the
 * request decides: a change verb orders that change; a read verb, or none, reads.
 */
export function intentOf(request: string): Intent {
  const words = wordsOf(request);
  const first = words.find((w) => w !== 'please');
  if (request.trim().endsWith('?') || (first !== undefined && QUESTION_WORDS.has(first))) return { kind: 'read' };
  for (const w of words) {
    if (READ_VERBS.has(w)) return { kind: 'read' };
    const verb = CHANGE_VERBS.get(w);
    if (verb !== undefined) return { kind: 'change', verb, word: w };
  }
  return { kind: 'read' };
}

/** What a tool does: reads, or changes by a verb. */
export type ToolAction = { readonly kind: 'read' } | { readonly kind: 'change'; readonly verb: string };

function verbOf(word: string): ToolAction | undefined {
  const w = word.toLowerCase().replace(/[^\p{L}]/gu, '');
  if (READ_VERBS.has(w)) return { kind: 'read' };
  const verb = CHANGE_VERBS.get(w);
  return verb !== undefined ? { kind: 'change', verb } : undefined;
}

/**
 * A tool's action, from the most reliable sign it has: MCP annotations (the schema's ToolAnnotations:
 * readOnlyHint "does not modify its environment", destructiveHint; as quoted in
 * https://github.com/tidyverse/ellmer/issues/402 and https://docs.praison.ai/docs/mcp/mcp-tool-annotations,
 * read 2026-12-01; hints, which is all a stand-in model needs), then the
 * first word of its summary ("Fetch the logs of...": summaries start with their verb), then the first
 * verb among the words of its name ("github_rerun_workflow_run"). A tool with no known verb reads.
 */
export function actionOf(tool: { readonly name: string; readonly backendName?: string; readonly summary: string; readonly annotations?: Readonly<Record<string, unknown>> }): ToolAction {
  if (tool.annotations?.readOnlyHint === true) return { kind: 'read' };
  const firstWord = tool.summary.trim().split(/\s+/u)[0] ?? '';
  const fromSummary = verbOf(firstWord);
  if (fromSummary) return fromSummary;
  for (const w of wordsOf(tool.backendName ?? tool.name)) {
    const v = verbOf(w);
    if (v) return v;
  }
  if (tool.annotations?.destructiveHint === true) return { kind: 'change', verb: 'delete' };
  return { kind: 'read' };
}

/** The change verb a word stands for, if it is one. */
export const changeVerbOf = (word: string): string | undefined => CHANGE_VERBS.get(word.toLowerCase());
