// A ranker shaped like Anthropic's regex tool search (`tool_search_tool_regex_20251119`): the model
// writes a pattern, not words. What Anthropic documents, and what this ranker does with it
// (Anthropic, "Tool search tool", https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool,
// and its Go/TypeScript SDK field docs; read 2026-12-01):
//
// - the pattern is Python `re.search()` syntax, at most 200 characters: a longer pattern is refused
//   here (no hits; `regexPatternError` says why), and the match is a search anywhere in a field;
// - it searches "tool names, descriptions, argument names, and argument descriptions": here the
//   name, the parameter names, the summary and the description (JP's docs for the description),
//   and the parameter descriptions;
// - Anthropic shows `(?i)slack` for a case-insensitive search; the workbench matches
//   case-insensitively always (issue 17 asks for it, and a model's lower-case pattern should find
//   `Slack`), so a leading `(?i)` is accepted and changes nothing;
// - the search returns 3-5 tool references per call; the workbench keeps search_tools' own
//   `limit` (default 10), so rankers compare at the same cut;
// - the order of the results is not documented. Here a pattern's top-level alternatives
//   (`list|issue`) count like query terms: a tool matching more of them ranks higher, then by the
//   best field matched (name first, as substring ranking does), then in config order.
//
// Python's `re` backtracks; a model-written pattern must never hang the workbench, so patterns run
// on RE2JS (a linear-time port of RE2, whose syntax covers what the docs' examples use: classes,
// `.*`, alternation, `(?i)`, `(?P<name>...)`). Lookarounds and backreferences, which RE2 lacks, are
// refused with RE2's own message.
import { RE2JS } from 're2js';
import type { Ranker, RankerIndex, SearchDocument, SearchHit, SearchOptions } from './types';
import { SEARCH_FIELDS } from './types';
import { contentWords } from './words';

export const REGEX_MAX_PATTERN = 200;
const FIELD_COUNT = SEARCH_FIELDS.length;

/** The pattern's top-level alternatives (split on `|` outside groups and classes), or the whole when there is one. */
export function topLevelAlternatives(pattern: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === '|' && depth === 0) {
      out.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  out.push(pattern.slice(start));
  return out.filter((a) => a !== '');
}

/** The leading `(?i)` the docs show is the default here. */
function withoutCaseFlag(pattern: string): string {
  return pattern.startsWith('(?i)') ? pattern.slice(4) : pattern;
}

/** One alternative: a literal (found with a substring test) or an RE2 pattern. */
type Alternative = { readonly literal: string } | { readonly re: RE2JS };

/** Letters, digits, `_`, `-` and spaces only: a substring test finds what RE2 would, without RE2. */
const LITERAL = /^[\p{L}\p{N}_ -]+$/u;

function alternative(source: string): Alternative {
  return LITERAL.test(source) ? { literal: source.toLowerCase() } : { re: RE2JS.compile(source, RE2JS.CASE_INSENSITIVE) };
}

type Compiled = { ok: true; alternatives: Alternative[]; anchored: boolean } | { ok: false; error: string };

/** Alternatives of letters, digits, `_`, `-` and spaces: always valid, no RE2 needed to say so. */
const LITERAL_ALTERNATIVES = /^[\p{L}\p{N}_ |-]+$/u;

function compile(pattern: string): Compiled {
  if (pattern.trim() === '') return { ok: false, error: 'pattern must not be empty' };
  if (pattern.length > REGEX_MAX_PATTERN) {
    return { ok: false, error: `pattern is too long: ${pattern.length} characters (at most ${REGEX_MAX_PATTERN})` };
  }
  const body = withoutCaseFlag(pattern);
  try {
    // The whole first, so a syntax error is reported against what the model wrote.
    if (!LITERAL_ALTERNATIVES.test(body)) RE2JS.compile(body, RE2JS.CASE_INSENSITIVE);
    const parts = topLevelAlternatives(body);
    const alternatives = (parts.length > 0 ? parts : [body]).map(alternative);
    return { ok: true, alternatives, anchored: /[$^]|\\[AbBzZ]/u.test(body) };
  } catch (e) {
    return { ok: false, error: `invalid pattern: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** Why a pattern would be refused (too long, empty, not RE2 syntax), or undefined when it is fine. */
export function regexPatternError(pattern: string): string | undefined {
  const c = compile(pattern);
  return c.ok ? undefined : c.error;
}


/**
 * The pattern a model would write for a plain-words query: its words of three letters or more,
 * stop words left out, escaped and joined as alternatives, cut at whole words within the 200
 * characters. Used to put natural-language queries (a tool's own words, tasks) to this ranker.
 */
export function patternFromWords(text: string): string {
  let pattern = '';
  for (const w of contentWords(text)) {
    if (w.length < 3) continue;
    const next = pattern === '' ? w : `${pattern}|${w}`;
    if (next.length > REGEX_MAX_PATTERN) break;
    pattern = next;
  }
  return pattern;
}

interface Prepared {
  readonly name: string;
  readonly order: number;
  readonly index: number;
  /** Per field (SEARCH_FIELDS order): its texts joined by newlines (`.` never crosses one). */
  readonly fields: readonly string[];
  readonly lowerFields: readonly string[];
  /** Every field joined, for the one test that rules most tools out. */
  readonly all: string;
  readonly lowerAll: string;
}

function prepare(doc: SearchDocument, index: number): Prepared {
  const fields = [[doc.name], doc.parameterNames, [doc.summary], [doc.description], doc.parameterDescriptions].map((texts) => texts.filter((t) => t !== '').join('\n'));
  const all = fields.join('\n');
  return { name: doc.name, order: doc.order, index, fields, lowerFields: fields.map((f) => f.toLowerCase()), all, lowerAll: all.toLowerCase() };
}

/** How many literal alternatives an index remembers the matches of (the words of recent patterns). */
const LITERAL_CACHE = 4096;

class RegexIndex implements RankerIndex {
  readonly #docs: readonly Prepared[];
  /** A literal's field mask per doc (0: no match), over every doc; the same words recur across patterns. */
  readonly #literals = new Map<string, Uint8Array>();

  constructor(docs: readonly SearchDocument[]) {
    this.#docs = docs.map(prepare);
  }

  #literalMasks(needle: string): Uint8Array {
    let masks = this.#literals.get(needle);
    if (masks) return masks;
    masks = new Uint8Array(this.#docs.length);
    this.#docs.forEach((doc, d) => {
      if (!doc.lowerAll.includes(needle)) return;
      let mask = 0;
      for (let f = 0; f < FIELD_COUNT; f++) if ((doc.lowerFields[f] ?? '').includes(needle)) mask |= 1 << f;
      (masks as Uint8Array)[d] = mask;
    });
    if (this.#literals.size >= LITERAL_CACHE) this.#literals.clear();
    this.#literals.set(needle, masks);
    return masks;
  }

  /** The fields of `doc` (number `d`) the alternative matches, as a mask. */
  #mask(alt: Alternative, doc: Prepared, d: number, anchored: boolean): number {
    if ('literal' in alt) return this.#literalMasks(alt.literal)[d] ?? 0;
    // An anchor means "start (or end) of a field", so anchored patterns are tried field by field.
    if (!anchored && !alt.re.test(doc.all)) return 0;
    let mask = 0;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const text = doc.fields[f] ?? '';
      if (text !== '' && alt.re.test(text)) mask |= 1 << f;
    }
    return mask;
  }

  search(query: string, options: SearchOptions): SearchHit[] {
    const compiled = compile(query);
    if (!compiled.ok) return [];
    const found: { doc: Prepared; matched: number; mask: number }[] = [];
    this.#docs.forEach((doc, d) => {
      if (!options.filter(doc.name)) return;
      let matched = 0;
      let mask = 0;
      for (const alt of compiled.alternatives) {
        const m = this.#mask(alt, doc, d, compiled.anchored);
        if (m !== 0) matched++;
        mask |= m;
      }
      if (matched > 0) found.push({ doc, matched, mask });
    });
    const best = (mask: number) => 31 - Math.clz32(mask & -mask);
    found.sort((a, b) => b.matched - a.matched || best(a.mask) - best(b.mask) || a.doc.order - b.doc.order || a.doc.index - b.doc.index);
    return found.map(({ doc, matched, mask }) => ({
      name: doc.name,
      // Alternatives matched first; the best field breaks ties (a fifth per field rank).
      score: matched + (FIELD_COUNT - best(mask)) / (FIELD_COUNT + 1),
      fields: SEARCH_FIELDS.filter((_, f) => (mask & (1 << f)) !== 0),
    }));
  }
}

export const regex: Ranker = {
  id: 'regex',
  label: 'Regex (Anthropic-shaped)',
  build: (docs) => new RegexIndex(docs),
};
