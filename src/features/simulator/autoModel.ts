// The "auto model": a deterministic stand-in for the model, to demo a catalogue
// quickly. It is a pure function of what the derivation shows (the user's
// query, the open request's tools, this turn's calls so far) and is never used
// by the conformance tests.
//
// Policy, one action per cycle:
// 1. After a tool other than the builtins has been called this turn, reply.
// 2. After a search this turn, call the best usable tool it returned that is
//    offered now (the promotion landed), else reply that no tool fits.
// 3. If an offered tool fits the query (shares a keyword with its name or
//    summary), call the best one (ties: array order).
// 4. Else, if search_tools is offered, search with the query's keywords.
// 5. Else reply that no tool fits.
// Arguments are built from the required parameter names with placeholder values.
import type { Plain } from '../../core';
import type { RequestToolView } from '../../derive/labProtocol';

export type AutoAction =
  | { readonly kind: 'search'; readonly query: string; readonly limit: number; readonly why: string }
  | { readonly kind: 'call'; readonly tool: string; readonly args: { [key: string]: Plain }; readonly why: string }
  | { readonly kind: 'reply'; readonly text: string; readonly why: string };

export interface TurnCall {
  readonly tool: string;
  readonly status: 'ok' | 'error';
  /** For search_tools: the tools returned, best first, with their status. */
  readonly returned?: readonly { readonly name: string; readonly status: 'usable' | 'unavailable' }[];
}

export interface AutoInput {
  /** The user's query of the turn. */
  readonly query: string;
  /** The open request's permitted tools (offered ones flagged), in array order. */
  readonly tools: readonly RequestToolView[];
  /** The calls made so far in this turn, in order. */
  readonly calls: readonly TurnCall[];
  /** Cycles already answered in this turn. */
  readonly cycles: number;
}

export const SEARCH_LIMIT = 5;
export const MAX_CYCLES = 6;
const BUILTINS = new Set(['search_tools', 'describe_tools']);

const STOP_WORDS = new Set(
  ('a about after again all also an and any are as at be been before being but by can could did do does doing done for from ' +
    'had has have having he her here how i if in into is it its just last me more most my no not now of on once only or other ' +
    'our out over please same she should so some such than that the their them then there these they this those through to ' +
    'too under until up very was we were what when where which while who why will with would you your show tell give get find ' +
    'let lets make need want know see look use using')
    .split(' '),
);

/** A word's crude stem: lowercased, a plural or -ing/-ed ending removed. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 4 && w.endsWith('es') && !w.endsWith('ses')) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** The query's keywords, in order, without stop words, short words or repeats. */
export function keywords(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[^\p{L}\p{N}]+/u)) {
    const w = raw.toLowerCase();
    if (w.length < 3 || STOP_WORDS.has(w) || out.includes(w)) continue;
    out.push(w);
  }
  return out;
}

function words(tool: RequestToolView): Set<string> {
  return new Set([...tool.name.split(/[^\p{L}\p{N}]+/u), ...tool.summary.split(/[^\p{L}\p{N}]+/u)].filter((w) => w.length >= 3).map(stem));
}

/** How many of the keywords a tool's name and summary hold (by stem, or a shared 5-letter prefix). */
export function fitScore(tool: RequestToolView, keys: readonly string[]): number {
  const own = words(tool);
  let score = 0;
  for (const k of keys) {
    const s = stem(k);
    if (own.has(s)) score++;
    else if (s.length >= 5 && [...own].some((w) => w.length >= 5 && w.slice(0, 5) === s.slice(0, 5))) score++;
  }
  return score;
}

function placeholder(p: RequestToolView['params'][number]): Plain {
  switch (p.type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return `<${p.name}>`;
  }
}

/** Arguments with every required parameter given a placeholder value. */
export function placeholderArgs(tool: RequestToolView): { [key: string]: Plain } {
  const args: { [key: string]: Plain } = {};
  for (const p of tool.params) if (p.required) args[p.name] = placeholder(p);
  return args;
}

function bestFit(tools: readonly RequestToolView[], keys: readonly string[]): RequestToolView | undefined {
  let best: RequestToolView | undefined;
  let bestScore = 0;
  for (const t of tools) {
    if (!t.offered || BUILTINS.has(t.name)) continue;
    const s = fitScore(t, keys);
    if (s > bestScore) {
      best = t;
      bestScore = s;
    }
  }
  return best;
}

export function nextAutoAction(input: AutoInput): AutoAction {
  const called = input.calls.find((c) => !BUILTINS.has(c.tool));
  if (called) return { kind: 'reply', text: `Done: ${called.tool} ${called.status === 'ok' ? 'ran' : 'failed'}.`, why: `${called.tool} was called this turn` };
  if (input.cycles >= MAX_CYCLES) return { kind: 'reply', text: 'I could not finish this in time.', why: `${MAX_CYCLES} cycles reached` };
  const searched = input.calls.some((c) => c.tool === 'search_tools');
  if (searched) {
    const offered = new Map(input.tools.filter((t) => t.offered).map((t) => [t.name, t]));
    for (const c of input.calls) {
      for (const r of c.returned ?? []) {
        const t = offered.get(r.name);
        if (r.status === 'usable' && t) return { kind: 'call', tool: t.name, args: placeholderArgs(t), why: `search_tools returned ${t.name}, usable` };
      }
    }
    return { kind: 'reply', text: 'None of my tools fits this request.', why: 'the search found no usable tool' };
  }
  const keys = keywords(input.query);
  const fit = bestFit(input.tools, keys);
  if (fit) return { kind: 'call', tool: fit.name, args: placeholderArgs(fit), why: `offered ${fit.name} fits the query` };
  const canSearch = input.tools.some((t) => t.name === 'search_tools' && t.offered);
  if (canSearch && keys.length > 0) return { kind: 'search', query: keys.join(' '), limit: SEARCH_LIMIT, why: 'no offered tool fits the query' };
  return { kind: 'reply', text: 'None of my tools fits this request.', why: 'no offered tool fits and search_tools is not offered' };
}
