// The categories section: RFD 108's answer if the model rarely searches ("a system-prompt section
// naming the searchable categories"). Generated from the catalogue: one line per searchable group, a
// `groups` entry of the tool's config where it has one, else a tool-name prefix that two or more
// searchable tools share ("github_…", "Research…"), else the tool's MCP server, else "other"; each line
// a short summary of what its tools do (their most frequent keywords). Pure; its token cost is
// counted by the caller's counter, since it rides on every request.
import type { ToolDefinition } from '../catalogue/types';
import { keywords, stemOf, wordsOf } from '../model/words';
import type { Timeline } from '../turn/timeline';

export type CategoryKind = 'group' | 'prefix' | 'server' | 'other';

export interface Category {
  readonly key: string;
  readonly kind: CategoryKind;
  readonly tools: readonly string[];
  /** The most frequent keywords of its tools' names and summaries, most frequent first. */
  readonly words: readonly string[];
  readonly line: string;
}

export interface CategoriesSection {
  readonly categories: readonly Category[];
  /** The text added to the system prompt; '' when nothing is searchable. */
  readonly text: string;
}

export interface CategoryTool {
  readonly name: string;
  readonly definition: ToolDefinition;
  /** The `groups` value of the tool's config, when it has one. */
  readonly groups?: unknown;
}

export const CATEGORIES_HEADING = 'Searchable tool categories (call search_tools with keywords to load a tool from one):';
const SUMMARY_WORDS = 6;

/** The first word of a tool name: up to `_`, `-`, `.` or a lower-to-upper case change. */
export function namePrefix(name: string): string {
  const first = name.split(/[_\-.]/u)[0] ?? name;
  const camel = /^[A-Z]?[a-z0-9]+(?=[A-Z])/u.exec(first);
  return (camel ? camel[0] : first).toLowerCase();
}

function firstGroup(groups: unknown): string | undefined {
  if (typeof groups === 'string' && groups.trim() !== '') return groups.trim();
  if (Array.isArray(groups)) return groups.find((g): g is string => typeof g === 'string' && g.trim() !== '')?.trim();
  return undefined;
}

function summaryOf(def: ToolDefinition): string {
  return def.docs.summary ?? def.schemaDescription ?? def.docs.description ?? '';
}

/** The most frequent keywords (by stem) of the tools' names and summaries; the first spelling kept. */
function summaryWords(tools: readonly CategoryTool[], key: string): string[] {
  const own = new Set(wordsOf(key).map(stemOf));
  const counts = new Map<string, { word: string; n: number; first: number }>();
  let at = 0;
  for (const t of tools) {
    const seen = new Set<string>();
    for (const w of keywords(`${wordsOf(t.name.replace(/([a-z])([A-Z])/gu, '$1 $2')).join(' ')} ${summaryOf(t.definition)}`)) {
      const s = stemOf(w);
      if (own.has(s) || seen.has(s) || /^\d+$/u.test(w)) continue;
      seen.add(s);
      const c = counts.get(s);
      if (c) c.n += 1;
      else counts.set(s, { word: w, n: 1, first: at++ });
    }
  }
  return [...counts.values()].sort((a, b) => b.n - a.n || a.first - b.first).slice(0, SUMMARY_WORDS).map((c) => c.word);
}

/** The last section built and what it was built from: a task run renders the same design thousands of times. */
let last: { key: string; section: CategoriesSection } | undefined;

function keyOf(tools: readonly CategoryTool[]): string {
  return tools.map((t) => `${t.name}\u0001${summaryOf(t.definition)}\u0001${t.definition.server ?? ''}\u0001${firstGroup(t.groups) ?? ''}`).join('\u0000');
}

/** The categories of the searchable tools, in the order of their first tool. */
export function categoriesOf(tools: readonly CategoryTool[]): CategoriesSection {
  const key = keyOf(tools);
  if (last?.key === key) return last.section;
  const section = buildCategories(tools);
  last = { key, section };
  return section;
}

function buildCategories(tools: readonly CategoryTool[]): CategoriesSection {
  const prefixCount = new Map<string, number>();
  for (const t of tools) if (firstGroup(t.groups) === undefined) prefixCount.set(namePrefix(t.name), (prefixCount.get(namePrefix(t.name)) ?? 0) + 1);
  const groups = new Map<string, { kind: CategoryKind; tools: CategoryTool[] }>();
  for (const t of tools) {
    const group = firstGroup(t.groups);
    const prefix = namePrefix(t.name);
    const [kind, key]: [CategoryKind, string] =
      group !== undefined ? ['group', group]
      : (prefixCount.get(prefix) ?? 0) >= 2 && prefix.length >= 2 ? ['prefix', prefix]
      : t.definition.server !== undefined ? ['server', t.definition.server]
      : ['other', 'other'];
    const id = `${kind}\u0000${key}`;
    const g = groups.get(id) ?? { kind, tools: [] };
    g.tools.push(t);
    groups.set(id, g);
  }
  const categories: Category[] = [];
  for (const [id, g] of groups) {
    const key = id.split('\u0000')[1] ?? '';
    const words = summaryWords(g.tools, key);
    const n = g.tools.length;
    const line = `- ${key} (${n} tool${n === 1 ? '' : 's'}): ${words.join(', ') || 'no summary'}`;
    categories.push({ key, kind: g.kind, tools: g.tools.map((t) => t.name), words, line });
  }
  const text = categories.length === 0 ? '' : [CATEGORIES_HEADING, ...categories.map((c) => c.line)].join('\n');
  return { categories, text };
}

/** The searchable tools of a timeline at a position (default: the end of the run), as the section reads them. */
export function categoryToolsAt(timeline: Timeline, position = timeline.positions.length - 1): CategoryTool[] {
  const p = Math.max(0, Math.min(position, timeline.positions.length - 1));
  const states = timeline.statesAt(p);
  const out: CategoryTool[] = [];
  for (const name of timeline.setsAt(p).searchable) {
    const s = states.get(name);
    if (!s?.resolution.ok) continue;
    out.push({ name, definition: s.resolution.definition, ...(s.config.groups !== undefined ? { groups: s.config.groups.value } : {}) });
  }
  return out;
}

/** Whether a request names a category: one of its keywords is (by stem) a word of the category's key or summary. */
export function matchingCategory(section: CategoriesSection, request: string): Category | undefined {
  const wanted = new Set(keywords(request).map(stemOf));
  if (wanted.size === 0) return undefined;
  return section.categories.find((c) => [...wordsOf(c.key), ...c.words].some((w) => wanted.has(stemOf(w))));
}
