// Definition cost as JP estimates it (`estimate_fixed_overhead_chars`, inquiry.rs):
//   len(name) + len(schema_description() or "") + len(compact_json(to_parameters_schema()))
// where `len` is UTF-8 bytes (Rust `str::len`) and the JSON is serde_json's (a whole float keeps `.0`).
import { parametersSchemaJson, parametersSchemaPieces } from '../catalogue/schema';
import type { ToolDefinition } from '../catalogue/types';
import type { ParameterConfig, ToolConfig } from '../config/types';
import { toJson } from '../json/serde';

/** Counts tokens of a text. Implementations: o200k_base (tokens.ts) or the bytes/4 fallback. */
export interface TokenCounter {
  readonly id: string;
  count(text: string): number;
}

// eslint-disable-next-line no-control-regex -- the ASCII range starts at U+0000
const NON_ASCII = /[^\u0000-\u007f]/u;

/** UTF-8 byte length of a string (lone surrogates count as U+FFFD, 3 bytes, as TextEncoder does). */
export function utf8ByteLength(text: string): number {
  // Request prefixes are hundreds of kilobytes, mostly ASCII, and measured on every cache comparison: the
  // engine's own scan finds the first non-ASCII unit, and only the rest is walked here.
  const first = text.search(NON_ASCII);
  if (first < 0) return text.length;
  let bytes = first;
  for (let i = first; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** The three texts JP measures for one tool, in order. */
export interface DefinitionParts {
  readonly name: string;
  readonly description: string;
  readonly schemaJson: string;
}

const costCache = new WeakMap<ToolDefinition, number>();

/**
 * Written each time it is asked, never kept: what is kept is the figures measured from it (cost and
 * tokens, memoized per definition). Kept, the schema texts were ~500 bytes a tool for the page's life
 * (50 MB in the worker at 100,000 tools), each read once or twice.
 */
export function definitionParts(def: ToolDefinition): DefinitionParts {
  return {
    name: def.name,
    description: def.schemaDescription ?? '',
    schemaJson: parametersSchemaJson(def),
  };
}

/** The text JP counts for one tool: name + description + compact parameters schema. */
export function definitionText(def: ToolDefinition): string {
  const p = definitionParts(def);
  return p.name + p.description + p.schemaJson;
}

/** JP's per-tool cost in UTF-8 bytes. Memoized per definition object. */
export function definitionCost(def: ToolDefinition): number {
  let cost = costCache.get(def);
  if (cost === undefined) {
    cost = utf8ByteLength(def.name) + utf8ByteLength(def.schemaDescription ?? '') + schemaBytes(def);
    costCache.set(def, cost);
  }
  return cost;
}

/**
 * definitionCost of a local (or configured builtin) tool's definition, counted from its config: no
 * definition, schema object or JSON text is made. Pricing every permitted tool of a 100,000-tool
 * catalogue (a timeline row's permitted cost) built and measured 100,000 definitions: ~0.65 s of the
 * worker's right after an open, which the first keystrokes waited for. A property test holds it equal
 * to definitionCost(the built definition) (cost.test.ts).
 */
export function localDefinitionCost(tool: ToolConfig): number {
  const schemaDescription = tool.summary?.value ?? tool.description?.value;
  let bytes = utf8ByteLength(tool.name) + (schemaDescription === undefined ? 0 : utf8ByteLength(schemaDescription));
  // parametersSchemaPieces: the head, `"name":schema` per parameter (comma-separated), the tail, the
  // required names. The keys' order (which integer-like names change) never changes the length.
  bytes += SCHEMA_HEAD + SCHEMA_TAIL;
  const required: string[] = [];
  let n = 0;
  for (const [name, p] of tool.parameters) {
    bytes += (n++ > 0 ? 1 : 0) + stringifiedBytes(name) + 1 + parameterSchemaBytes(p);
    if (p.required?.value) required.push(name);
  }
  return bytes + utf8ByteLength(JSON.stringify(required));
}

const SCHEMA_HEAD = '{"type":"object","properties":{'.length;
const SCHEMA_TAIL = '},"additionalProperties":false,"required":}'.length;
// A string JSON writes as itself between quotes: printable ASCII but `"` and `\`.
const PLAIN_JSON = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/u;

/** UTF-8 bytes of JSON.stringify(s) (the pieces' names). */
function stringifiedBytes(s: string): number {
  return PLAIN_JSON.test(s) ? s.length + 2 : utf8ByteLength(JSON.stringify(s));
}

/** UTF-8 bytes of toJson(s) (inside a parameter's schema). */
function jsonStringBytes(s: string): number {
  return PLAIN_JSON.test(s) ? s.length + 2 : utf8ByteLength(toJson(s));
}

function jsonBytes(v: unknown): number {
  return typeof v === 'string' ? jsonStringBytes(v) : utf8ByteLength(toJson(v));
}

// `"key":` of each key parameterSchema writes.
const TYPE_KEY = '"type":'.length;
const DESCRIPTION_KEY = '"description":'.length;
const DEFAULT_KEY = '"default":'.length;
const ENUM_KEY = '"enum":'.length;
const ITEMS_KEY = '"items":'.length;
const PROPERTIES_KEY = '"properties":'.length;
const REQUIRED_KEY = '"required":'.length;

/** UTF-8 bytes of toJson(parameterSchema(p)) (catalogue/resolve.ts): `{}`, each key and value, a comma between two. */
function parameterSchemaBytes(p: ParameterConfig): number {
  let bytes = 2;
  let keys = 0;
  if (p.type) {
    bytes += TYPE_KEY + jsonBytes(p.type.value);
    keys++;
  }
  const description = p.summary?.value ?? p.description?.value;
  if (description !== undefined) {
    bytes += DESCRIPTION_KEY + jsonStringBytes(description);
    keys++;
  }
  if (p.default && p.default.value !== undefined) {
    bytes += DEFAULT_KEY + jsonBytes(p.default.value);
    keys++;
  }
  if (p.enum) {
    bytes += ENUM_KEY + jsonBytes(p.enum.value);
    keys++;
  }
  if (p.items) {
    bytes += ITEMS_KEY + parameterSchemaBytes(p.items);
    keys++;
  }
  if (p.properties && p.properties.size > 0) {
    let props = 2;
    let n = 0;
    const required: string[] = [];
    for (const [name, child] of p.properties) {
      props += (n++ > 0 ? 1 : 0) + jsonStringBytes(name) + 1 + parameterSchemaBytes(child);
      if (child.required?.value) required.push(name);
    }
    bytes += PROPERTIES_KEY + props + REQUIRED_KEY + jsonBytes(required);
    keys += 2;
  }
  return keys > 1 ? bytes + keys - 1 : bytes;
}

/** UTF-8 bytes of the definition's parameters schema JSON, measured piece by piece (never joined). */
function schemaBytes(def: ToolDefinition): number {
  const pieces = parametersSchemaPieces(def);
  if (!pieces) return utf8ByteLength(parametersSchemaJson(def));
  let bytes = 0;
  for (const piece of pieces) bytes += utf8ByteLength(piece);
  return bytes;
}

/** Sum of `definitionCost` over a set of definitions, in bytes. */
export function setCost(defs: Iterable<ToolDefinition>): number {
  let total = 0;
  for (const def of defs) total += definitionCost(def);
  return total;
}

const tokenCache = new WeakMap<ToolDefinition, Map<string, number>>();

/**
 * Tokens of the same text JP measures, counted part by part (name, description, schema JSON) so
 * no token straddles two parts. Memoized per definition object and counter id.
 */
export function definitionTokens(def: ToolDefinition, counter: TokenCounter): number {
  let byCounter = tokenCache.get(def);
  if (byCounter === undefined) {
    byCounter = new Map();
    tokenCache.set(def, byCounter);
  }
  let tokens = byCounter.get(counter.id);
  if (tokens === undefined) {
    const p = definitionParts(def);
    tokens = counter.count(p.name) + counter.count(p.description) + counter.count(p.schemaJson);
    byCounter.set(counter.id, tokens);
  }
  return tokens;
}

export function setTokens(defs: Iterable<ToolDefinition>, counter: TokenCounter): number {
  let total = 0;
  for (const def of defs) total += definitionTokens(def, counter);
  return total;
}

/** The labelled fallback when no tokenizer is loaded: ceil(bytes / 4). */
export function approximateTokens(bytes: number): number {
  return Math.ceil(bytes / 4);
}

/** A TokenCounter that uses the bytes/4 approximation. Its id says so. */
export const approximateTokenCounter: TokenCounter = {
  id: 'approx:bytes/4',
  count: (text) => approximateTokens(utf8ByteLength(text)),
};
