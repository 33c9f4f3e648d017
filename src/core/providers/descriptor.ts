// A provider is one module: one descriptor holds everything the workbench knows about it (how JP
// renders its request, what it refuses, how it caches, whose prices apply, which SDK type its body
// must satisfy). registry.ts lists the descriptors; every list of provider ids and the `ProviderId`
// type are derived from that list. README.md says how to add one.
//
// This module and wire.ts import nothing from the registry, so provider modules may use their values
// without an import cycle; rules.ts, cache-rules.ts, request-rules.ts and render.ts read the registry.
import type { CacheRules } from './cache-rules';
import type { KeywordRule, NameRule, ProviderDiagnostic, RuleSource } from './rules';
import type { ReplyWire } from './reply';
import type { RenderParts, Sections } from './wire';
import type { ConversationMessage, ToolChoice } from './types';
import type { ToolDefinition } from '../catalogue/types';

/** A finding a descriptor's own check returns; the caller adds the provider. */
export type ProviderFinding = Omit<ProviderDiagnostic, 'provider'>;

/** A provider that publishes no rule for something: where that was looked for. */
export interface Unpublished {
  readonly unpublished: RuleSource;
}

/** What a per-request check of one provider reads: JP's inputs to the request. */
export interface RequestFacts {
  /** JP's tools array, in order, before any provider filters it (llama.cpp's forced filter). */
  readonly tools: readonly ToolDefinition[];
  readonly toolChoice: ToolChoice;
  readonly messages: readonly ConversationMessage[];
}

/**
 * The request type of the provider's official SDK that every rendered body is type-checked against
 * (src/cli/sdk-bodies.ts). A body is checked element by element: each list-valued key named in
 * `elements` is declared item by item with `satisfies` its element type.
 */
export interface SdkType {
  /** The module that declares the request type. */
  readonly module: string;
  /** The request type's name in that module (imported as `P`). */
  readonly type: string;
  /** Further type names of the module the element types use. */
  readonly alsoTypes?: readonly string[];
  /** Values of the module a `literal` uses (an enum). */
  readonly values?: readonly string[];
  /** Element type of each list-valued body key, in terms of `P`. */
  readonly elements: Readonly<Record<string, string>>;
  /** The TypeScript expression of the whole request from the body's parts (each part TypeScript text). */
  readonly wrap: (parts: Readonly<Record<string, string>>) => string;
  /** TypeScript for a body value that is not declared element by element (default: its JSON). */
  readonly literal?: (key: string, json: string) => string;
}

export interface ProviderDescriptor<Id extends string = string, Prices extends string = string> {
  /** The id a scenario's `policy.provider` names. */
  readonly id: Id;
  /** The provider's name in a finding ("Anthropic refuses ..."). */
  readonly words: string;

  // ── The request as JP sends it ──
  /** The request's sections and body, from JP's inputs (wire.ts has the shared message loop). */
  readonly render: (input: RenderParts) => Sections;
  /** The other direction (issue 26): the envelope a rendered body is sent in, and the reply read back (reply.ts). */
  readonly reply: ReplyWire;

  // ── What the provider refuses or loses (rules.ts, request-rules.ts) ──
  /** Tool names: the characters and length the provider takes, or where it publishes none. */
  readonly names: NameRule | Unpublished;
  /** Schema keywords the provider refuses in a tool's parameters; undefined: none known. */
  readonly schemaKeywords: KeywordRule | undefined;
  /** A forced tool (`tool_choice` naming one). */
  readonly forced: {
    /** Where the provider says the named tool must be one of the request's. */
    readonly source: RuleSource;
    /**
     * What JP's request does when the forced tool is not in the array, when the provider does not
     * simply refuse it: a warning (message, and its own source when it differs). Undefined: refused.
     */
    readonly absent?: (forced: string, names: readonly string[]) => { readonly message: string; readonly source?: RuleSource } | undefined;
  };
  /** Empty message content the provider refuses: where the body keeps messages and their content. */
  readonly emptyContent: { readonly source: RuleSource; readonly list: string; readonly content: string } | undefined;
  /** Checks of this provider only (Ollama's parameters). */
  readonly checks: readonly ((request: RequestFacts) => readonly ProviderFinding[])[];

  // ── Cost ──
  /** The prompt-cache rules (cache-rules.ts has the shape, cache-model.ts applies them). */
  readonly cache: Omit<CacheRules, 'provider'>;
  /** Whose rows of the price table price this provider's requests (prices.ts). */
  readonly prices: Prices;
  /** Why token figures are counted the way they are (tool-tokens.ts). */
  readonly tokenizer: string;

  // ── Tests ──
  readonly sdk: SdkType;
}

/** A descriptor with its id and prices key kept as literal types, so the registry can derive `ProviderId`. */
export function defineProvider<const Id extends string, const Prices extends string>(d: ProviderDescriptor<Id, Prices>): ProviderDescriptor<Id, Prices> {
  return d;
}

/** The parts every descriptor must have, each with the check a value must pass. */
const PARTS: Readonly<Record<keyof ProviderDescriptor, (v: unknown) => boolean>> = {
  id: (v) => typeof v === 'string' && v !== '',
  words: (v) => typeof v === 'string' && v !== '',
  render: (v) => typeof v === 'function',
  reply: (v) => typeof v === 'object' && v !== null && typeof (v as ReplyWire).parse === 'function' && typeof (v as ReplyWire).request === 'function',
  names: (v) => typeof v === 'object' && v !== null && ('allowed' in v || 'unpublished' in v),
  schemaKeywords: (v) => v === undefined || (typeof v === 'object' && v !== null && 'keywords' in v),
  forced: (v) => typeof v === 'object' && v !== null && 'source' in v,
  emptyContent: (v) => v === undefined || (typeof v === 'object' && v !== null && 'source' in v),
  checks: (v) => Array.isArray(v),
  cache: (v) => typeof v === 'object' && v !== null && 'kind' in v && 'citations' in v,
  prices: (v) => typeof v === 'string' && v !== '',
  tokenizer: (v) => typeof v === 'string' && v !== '',
  sdk: (v) => typeof v === 'object' && v !== null && typeof (v as SdkType).module === 'string' && typeof (v as SdkType).type === 'string',
};

/** What a descriptor lacks, one line a part (empty when it is whole). */
export function descriptorProblems(d: object): string[] {
  const name = 'id' in d && typeof d.id === 'string' ? d.id : 'a provider';
  return Object.entries(PARTS)
    .filter(([part, ok]) => !(part in d) || !ok((d as Record<string, unknown>)[part]))
    .map(([part]) => `${name}: the descriptor has no ${part}`);
}

/**
 * The providers that take a forced tool only from the request's tools (OpenRouter, Cerebras, Gemini,
 * Anthropic): with no tools at all, JP sends no tool choice either, so nothing is forced (a warning);
 * with tools that do not include it, the provider refuses the request.
 */
export function noChoiceWithoutTools(extra = ''): NonNullable<ProviderDescriptor['forced']['absent']> {
  return (forced, names) =>
    names.length === 0 ? { message: `\`${forced}\` is forced but no tool is offered; JP then sends no tool_choice${extra}, so nothing is forced` } : undefined;
}

/** `"key": value` of each present part, in the order given: the fields of an SdkType's `wrap`. */
export const sdkFields = (parts: Readonly<Record<string, string>>, keys: readonly string[]): string =>
  keys
    .filter((k) => parts[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}: ${parts[k]}`)
    .join(', ');

/** The date the cache and rule documents were read through stored copies. */
export const READ_ON = '2026-12-01';
