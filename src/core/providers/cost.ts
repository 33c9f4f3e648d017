// Definition cost as JP estimates it (`estimate_fixed_overhead_chars`, inquiry.rs):
//   len(name) + len(schema_description() or "") + len(compact_json(to_parameters_schema()))
// where `len` is UTF-8 bytes (Rust `str::len`) and the JSON is serde_json's (a whole float keeps `.0`).
import { parametersSchemaJson, parametersSchemaPieces } from '../catalogue/schema';
import type { ToolDefinition } from '../catalogue/types';

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
