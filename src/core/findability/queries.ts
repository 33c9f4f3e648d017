// The queries a tool is asked by: its own words (issue 17), as a model that knows what it wants
// but not the tool's name would type them, and the tasks that need it.
import { splitDescription } from '../catalogue/split-description';
import { MAX_QUERY_LENGTH } from '../search/contract';
import type { EvalQuery } from '../search/metrics';
import type { SearchDocument } from '../search/types';
import { wordsOf } from '../search/words';
import type { QueryKind } from './types';

export interface OwnQuery {
  readonly kind: QueryKind;
  readonly text: string;
}

/** `text` with every case-insensitive occurrence of `name` replaced by a space. */
function without(text: string, name: string): string {
  if (name === '') return text;
  const lower = text.toLowerCase();
  const needle = name.toLowerCase();
  // Lower-casing can change a text's length (rare letters); then keep it whole rather than cut wrong.
  if (lower.length !== text.length) return text;
  let out = '';
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, from)) {
    out += `${text.slice(from, at)} `;
    from = at + needle.length;
  }
  return out + text.slice(from);
}

/**
 * A text as a query: the tool's own name left out wherever it appears (a model searching for the
 * tool does not know it), then its words joined by spaces, so punctuation ("repository.") never
 * decides a substring match. Cut at MAX_QUERY_LENGTH, at a word.
 */
export function queryFrom(text: string, name: string): string {
  let out = '';
  for (const w of wordsOf(without(text, name))) {
    const next = out === '' ? w : `${out} ${w}`;
    if (next.length > MAX_QUERY_LENGTH) break;
    out = next;
  }
  return out;
}

/** Name words, summary, first sentence of the description: each once, none empty. */
export function ownQueries(doc: SearchDocument): OwnQuery[] {
  const out: OwnQuery[] = [];
  const seen = new Set<string>();
  const add = (kind: QueryKind, text: string) => {
    if (text === '' || seen.has(text)) return;
    seen.add(text);
    out.push({ kind, text });
  };
  add('name', wordsOf(doc.name).join(' '));
  add('summary', queryFrom(doc.summary, doc.name));
  add('description', queryFrom(splitDescription(doc.description), doc.name));
  return out;
}

/** The tasks that need each tool, by tool name (a Map: a tool may be called `__proto__`). */
export function tasksByTool(tasks: readonly EvalQuery[]): Map<string, EvalQuery[]> {
  const out = new Map<string, EvalQuery[]>();
  for (const task of tasks) {
    for (const name of new Set(task.relevant)) {
      const list = out.get(name);
      if (list) list.push(task);
      else out.set(name, [task]);
    }
  }
  return out;
}
