// Request rendering per provider, after JP's provider modules (jp-today §8): each provider's module
// (registry.ts lists them) renders its own body; wire.ts holds what they share. The caller passes the
// tools array already ordered (the offered set in config order, or with promotions appended; in
// Anthropic directives mode the fixed catalogue array). The result carries the provider-shaped body
// and the three sections the prefix cache compares, in the order a provider places them:
// tools, then system prompt, then messages.
//
// Serialization of the sections:
// - `toolsJson`: compact JSON of the tools array as the body carries it (`""` when omitted), kept as
//   its elements (`prefix.tools`) and joined only when read;
// - `systemJson`: compact JSON of the system prompt in the provider's shape (`""` when empty);
// - `messagesJson`: one compact JSON line per rendered message, each ending in "\n", so appending
//   messages extends the previous request's bytes, as appending turns extends a tokenized prefix.
import { toJson } from '../json/serde';
import { utf8ByteLength } from './cost';
import { providerOf } from './registry';
import type { ProviderId } from './types';
import type { RenderParts } from './wire';

export { ollamaToolChoiceNudge } from './ollama';

export interface RenderInput extends RenderParts {
  readonly provider: ProviderId;
}

/**
 * One piece of a request's prefix: a text and, once asked (pieceBytes), its UTF-8 length. A tool
 * element is one piece per tool object, and providers share a tool object across requests, so two
 * requests offering the same tool hold the same piece: the cache comparison and the cost model's
 * segments go piece by piece, by identity first, and never join or split a tools array of hundreds
 * of kilobytes.
 */
export interface Piece {
  readonly text: string;
  /** Memoized by pieceBytes. */
  bytes?: number;
}

/** The UTF-8 length of a piece, measured once. */
export function pieceBytes(p: Piece): number {
  return (p.bytes ??= utf8ByteLength(p.text));
}

/** A tools array element: its compact JSON, and its cost-model segment texts by place (see cost/segments.ts). */
export interface ToolElement extends Piece {
  /** Per place in the array (first, middle, last, only): the segment's text and comparison key. */
  segments?: ({ readonly text: string; readonly key: string } | undefined)[];
}

/** The prefix the cache compares, in the provider's order: tools, system prompt, messages. */
export interface Prefix {
  /** The tools array's elements; undefined when the request has no tools field. */
  readonly tools: readonly ToolElement[] | undefined;
  /** The system prompt's JSON (`""` when empty). */
  readonly system: string;
  /** One compact JSON line per rendered message, each ending in "\n" (one piece per message object). */
  readonly messages: readonly Piece[];
}

export interface RenderedRequest {
  readonly provider: ProviderId;
  /** The request in the provider's JSON shape (tools, choice, system, messages). */
  readonly body: unknown;
  /** Names in the rendered tools array, in order (llama.cpp may have filtered it). */
  readonly toolNames: readonly string[];
  /** The wire value of the tool choice; undefined when the request carries none. */
  readonly toolChoice: unknown;
  /** The sections as pieces: what the cache comparison and the cost model read. */
  readonly prefix: Prefix;
  /** The texts below are joined when first read (the inspector, tests), never for a comparison. */
  readonly toolsJson: string;
  readonly systemJson: string;
  readonly messagesJson: string;
  /** toolsJson + systemJson + messagesJson: the prefix the cache compares. */
  readonly bytes: string;
}

/** Each tool object's element, kept while the object lives (a provider may share one across requests). */
const elements = new WeakMap<object, ToolElement>();

function elementOf(t: unknown): ToolElement {
  if (t === null || typeof t !== 'object') return { text: toJson(t) };
  let e = elements.get(t);
  if (e === undefined) elements.set(t, (e = { text: toJson(t) }));
  return e;
}

/** Each message object's line, kept while the object lives (wire.ts hands the same objects to the next request). */
const lines = new WeakMap<object, Piece>();

function lineOf(m: unknown): Piece {
  if (m === null || typeof m !== 'object') return { text: `${toJson(m)}\n` };
  let line = lines.get(m);
  if (line === undefined) lines.set(m, (line = { text: `${toJson(m)}\n` }));
  return line;
}

const joined = (pieces: readonly Piece[]): string => pieces.map((p) => p.text).join('');

/** toJson of a tools array, from its elements: the same text as a whole toJson (compact JSON joins elements with ','). */
export function toolsArrayText(tools: readonly Piece[] | undefined): string {
  return tools === undefined ? '' : `[${tools.map((t) => t.text).join(',')}]`;
}

export function renderRequest(input: RenderInput): RenderedRequest {
  const sections = providerOf(input.provider).render(input);
  // serde_json's output, so a whole float keeps its `.0` (../json/serde.ts).
  const prefix: Prefix = {
    tools: sections.tools === undefined ? undefined : sections.tools.map(elementOf),
    system: sections.system === undefined ? '' : toJson(sections.system),
    messages: sections.messages.map(lineOf),
  };
  let toolsJson: string | undefined;
  let messagesJson: string | undefined;
  let bytes: string | undefined;
  return {
    provider: input.provider,
    body: sections.body,
    toolNames: sections.toolNames,
    toolChoice: sections.toolChoice,
    prefix,
    get toolsJson(): string {
      return (toolsJson ??= toolsArrayText(prefix.tools));
    },
    systemJson: prefix.system,
    get messagesJson(): string {
      return (messagesJson ??= joined(prefix.messages));
    },
    get bytes(): string {
      return (bytes ??= (toolsJson ??= toolsArrayText(prefix.tools)) + prefix.system + (messagesJson ??= joined(prefix.messages)));
    },
  };
}
