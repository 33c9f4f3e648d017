// The auto model's arguments: taken from the request where a parameter's name or description says
// what the request holds, a placeholder of the parameter's type otherwise. Pure.
import type { Plain } from '../scenario/doc';
import { stemOf, wordsOf } from './words';

/** One parameter as the model reads it from a tool definition. */
export interface ParamInfo {
  readonly name: string;
  /** The JSON Schema type ("string", "integer", "string | null"...), or "any". */
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
  /** The schema's enum, when it has one. */
  readonly enum?: readonly Plain[];
}

/** One argument and where it came from, for the decision's reason. */
export interface ArgSource {
  readonly name: string;
  readonly from: 'request' | 'placeholder';
}

/** Values a request spells out: quoted text, paths, issue keys, numbers. */
interface RequestValues {
  readonly quoted: readonly string[];
  readonly paths: readonly string[];
  readonly keys: readonly string[];
  readonly numbers: readonly number[];
}

function valuesOf(request: string): RequestValues {
  const quoted = [...request.matchAll(/'([^']+)'|"([^"]+)"|`([^`]+)`/gu)].map((m) => m[1] ?? m[2] ?? m[3] ?? '').filter((s) => s.trim() !== '');
  const tokens = request.split(/\s+/u).map((t) => t.replace(/^[("'`]+|[)"'`,;:!?]+$/gu, '').replace(/\.$/u, ''));
  const paths = tokens.filter((t) => /^[\w.-]*\/[\w./-]+$|^[\w-]+\.[A-Za-z]{1,6}$/u.test(t) && !/^\d+(\.\d+)*$/u.test(t));
  const keys = tokens.filter((t) => /^[A-Z][A-Z0-9]+-\d+$/u.test(t));
  const numbers = tokens.filter((t) => /^#?\d+$/u.test(t)).map((t) => Number(t.replace('#', '')));
  return { quoted, paths, keys, numbers };
}

const has = (words: readonly string[], ...wanted: string[]): boolean => wanted.some((w) => words.includes(w));

type ParamClass = 'path' | 'key' | 'number' | 'query' | 'title' | 'other';

/** What a parameter holds, from its name first and its description second. */
function classOf(p: ParamInfo): ParamClass {
  const name = wordsOf(p.name);
  const desc = wordsOf(p.description);
  if (has(name, 'path', 'file', 'filename', 'dir', 'directory', 'folder') || has(desc.slice(0, 3), 'path')) return 'path';
  if (has(name, 'query', 'search', 'keywords', 'pattern', 'filter', 'term', 'terms', 'q')) return 'query';
  if (has(name, 'title', 'subject', 'headline', 'summary', 'message')) return 'title';
  if (p.type.includes('integer') || p.type.includes('number') || has(name, 'number', 'count')) return 'number';
  if (has(name, 'id', 'key', 'identifier') && has(desc, 'issue', 'ticket', 'identifier')) return 'key';
  return 'other';
}

/** A value the description or the enum lists ("open, closed or all") that the request names. */
function listedValue(p: ParamInfo, requestWords: readonly string[]): Plain | undefined {
  if (p.enum) return p.enum.find((v) => typeof v === 'string' && requestWords.includes(v.toLowerCase()));
  const listed = /^\s*(?:[\w-]+\s*(?:,|\bor\b)\s*)+[\w-]+\s*\.?\s*$/u.test(p.description) ? wordsOf(p.description).filter((w) => w !== 'or') : [];
  return listed.find((w) => requestWords.includes(w));
}

/** The words after "for", "about", "titled", "called" or "named", without a leading article. */
function phraseAfterPreposition(request: string): string | undefined {
  const m = /\b(?:for|about|titled|called|named|saying)\s+(.+?)\s*[.?!]*$/iu.exec(request);
  if (!m?.[1]) return undefined;
  const phrase = m[1].replace(/^(?:the|a|an|our|my|this|that)\s+/iu, '').trim();
  return phrase === '' ? undefined : phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

/** "the main branch", "branch main": the word beside the parameter's own name, when there is one. */
function besideName(p: ParamInfo, request: string, skip: ReadonlySet<string>): string | undefined {
  if (!p.type.includes('string') && p.type !== 'any') return undefined;
  const words = wordsOf(request);
  const stem = stemOf(p.name);
  const at = words.findIndex((w) => stemOf(w) === stem);
  if (at < 0) return undefined;
  const ok = (w: string | undefined): w is string => w !== undefined && w.length > 1 && !skip.has(w) && stemOf(w) !== stem;
  const after = words[at + 1];
  const before = words[at - 1];
  return ok(after) ? after : ok(before) ? before : undefined;
}

function placeholder(p: ParamInfo): Plain {
  if (p.enum && p.enum.length > 0) return p.enum[0] ?? null;
  if (p.type.startsWith('integer') || p.type.startsWith('number')) return 1;
  if (p.type.startsWith('boolean')) return true;
  if (p.type.startsWith('array')) return [];
  if (p.type.startsWith('object')) return {};
  return `<${p.name}>`;
}

/** Words that never stand beside a parameter name as its value. */
const FILLER: ReadonlySet<string> = new Set('a an the to of in on for from with and or is are was be my our your this that it its into at by'.split(' '));

/**
 * The arguments of a call: each parameter the request speaks to gets the request's value, each other
 * required one a placeholder; optional parameters the request does not speak to are left out.
 * `topics` are the request's keywords; a query parameter gets those the tool's own name lacks.
 */
export function fillArguments(request: string, toolName: string, params: readonly ParamInfo[], topics: readonly string[]): { args: { [key: string]: Plain }; sources: ArgSource[] } {
  const values = valuesOf(request);
  const requestWords = wordsOf(request);
  const nameStems = new Set(wordsOf(toolName).map(stemOf));
  const used = new Set<string>();
  const take = <T>(list: readonly T[]): T | undefined => list.find((v) => !used.has(String(v)));
  const args: { [key: string]: Plain } = {};
  const sources: ArgSource[] = [];
  for (const p of params) {
    let value: Plain | undefined = listedValue(p, requestWords);
    const cls = classOf(p);
    if (value === undefined && cls === 'path') value = take(values.paths);
    if (value === undefined && cls === 'key') value = take(values.keys);
    if (value === undefined && cls === 'number') value = take(values.numbers);
    if (value === undefined && (cls === 'title' || cls === 'query')) value = take(values.quoted);
    if (value === undefined && cls === 'query') {
      const words = topics.filter((t) => !nameStems.has(stemOf(t)));
      if (words.length > 0) value = words.join(' ');
    }
    if (value === undefined && cls === 'title') value = phraseAfterPreposition(request);
    if (value === undefined && cls === 'other') value = besideName(p, request, FILLER);
    if (value !== undefined) {
      used.add(String(value));
      args[p.name] = value;
      sources.push({ name: p.name, from: 'request' });
    } else if (p.required) {
      args[p.name] = placeholder(p);
      sources.push({ name: p.name, from: 'placeholder' });
    }
  }
  return { args, sources };
}

/** "title from the request, team a placeholder". */
export function describeSources(sources: readonly ArgSource[]): string {
  if (sources.length === 0) return 'no arguments';
  const fromRequest = sources.filter((s) => s.from === 'request').map((s) => s.name);
  const placeholders = sources.filter((s) => s.from === 'placeholder').map((s) => s.name);
  const parts: string[] = [];
  if (fromRequest.length > 0) parts.push(`${fromRequest.join(', ')} from the request`);
  if (placeholders.length > 0) parts.push(`${placeholders.join(', ')} ${placeholders.length === 1 ? 'a placeholder' : 'placeholders'}`);
  return parts.join('; ');
}
