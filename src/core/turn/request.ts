// A cycle's request (RFD 108 "the request"): what the model is offered at the cycle's start position.
// What a request derives from its position (its sets, the tools array, the definitions and their cost)
// is needed only where something reads it (an expectation, the directive blocks, rendering, the UI),
// so each request derives it on first read, from the states of its own position. At 10,000 tools this
// is most of a request's cost.
import { DESCRIBE_TOOLS, SEARCH_TOOLS } from '../catalogue/builtins';
import type { ToolDefinition } from '../catalogue/types';
import { compareCache } from '../providers/cache';
import { definitionCost } from '../providers/cost';
import { renderRequest } from '../providers/render';
import { checkRequest } from '../providers/request-rules';
import type { ProviderDiagnostic } from '../providers/rules';
import type { RenderedRequest } from '../providers/render';
import type { ToolChoice } from '../providers/types';
import type { Sets } from '../stream/sets';
import { categoriesOf } from '../tasks/categories';
import type { CategoryTool } from '../tasks/categories';
import type { Conversation } from './conversation';
import type { RunCatalogue } from './lookups';
import type { CacheResult, RequestRecord } from './timeline';

export const SYSTEM_PROMPT =
  'You are JP, a command-line assistant. Use the tools offered to you. When none fits, call search_tools with keywords to find one.';

/**
 * The system prompt of the conversation's requests: with `categories_prompt`, the categories section
 * of the searchable tools of the design as written (the base position), so it stays one text for the
 * whole conversation and a promotion never changes the prompt (nor breaks its cache).
 */
export function systemPromptOf(conv: Pick<Conversation, 'engine' | 'policy'>): string {
  if (!conv.policy.categories_prompt) return SYSTEM_PROMPT;
  const { engine } = conv;
  const states = engine.orderedStatesAt(0);
  const searchable = new Set(engine.setsAt(0).searchable);
  const tools: CategoryTool[] = [];
  for (const s of states) {
    if (!searchable.has(s.name) || !s.resolution.ok) continue;
    tools.push({ name: s.name, definition: s.resolution.definition, ...(s.config.groups !== undefined ? { groups: s.config.groups.value } : {}) });
  }
  const section = categoriesOf(tools).text;
  return section === '' ? SYSTEM_PROMPT : `${SYSTEM_PROMPT}\n\n${section}`;
}

interface Derived {
  readonly sets: Sets;
  readonly array: readonly string[];
  /** The definitions of the permitted set and of the array. */
  readonly definitions: ReadonlyMap<string, ToolDefinition>;
  readonly cost: { readonly offered: number; readonly permitted: number };
  /** A lookup of definitions (builtins' and configured tools') in the states of this position. */
  readonly definitionsAt: () => (name: string) => ToolDefinition | undefined;
}

/** One derivation, kept while the next request asks for the same one. */
export interface DerivedCache {
  key: string;
  value: Derived | undefined;
}

function derive(conv: Pick<Conversation, 'engine' | 'policy' | 'catalogue'>, position: number, forced: string | undefined): Derived {
  const { engine, catalogue } = conv;
  // The position's own sets (its registration and appended promotions are part of it).
  const sets = engine.setsAt(position, forced);
  const definitionsAt = (): ((name: string) => ToolDefinition | undefined) => catalogue.definitionsAt(position);
  let array: readonly string[] = sets.offered;
  if (conv.policy.provider === 'anthropic-directives') {
    // RFD 105's fixed array: every resolvable configured tool, then both builtins.
    const fixed: string[] = [];
    for (const st of engine.orderedStatesAt(position)) if (st.resolution.ok) fixed.push(st.name);
    fixed.push(DESCRIBE_TOOLS, SEARCH_TOOLS);
    array = fixed;
  }
  let definitions: Map<string, ToolDefinition> | undefined;
  let cost: { readonly offered: number; readonly permitted: number } | undefined;
  return {
    sets,
    array,
    get definitions(): ReadonlyMap<string, ToolDefinition> {
      if (!definitions) {
        definitions = new Map();
        const at = definitionsAt();
        for (const name of [...sets.permitted, ...array]) {
          const d = at(name);
          if (d) definitions.set(name, d);
        }
      }
      return definitions;
    },
    get cost(): { readonly offered: number; readonly permitted: number } {
      return (cost ??= lazyCost(() => costOf(catalogue, position, sets.offered), () => costOf(catalogue, position, sets.permitted)));
    },
    definitionsAt,
  };
}

/**
 * The two figures, each summed when first read: a timeline row reads only the offered cost, and the
 * permitted set of a large catalogue is every tool (thousands of definitions summed per request).
 */
function lazyCost(offered: () => number, permitted: () => number): { readonly offered: number; readonly permitted: number } {
  let o: number | undefined;
  let p: number | undefined;
  return {
    get offered(): number {
      return (o ??= offered());
    },
    get permitted(): number {
      return (p ??= permitted());
    },
  };
}

function costOf(catalogue: RunCatalogue, position: number, names: readonly string[]): number {
  const at = catalogue.definitionsAt(position);
  let total = 0;
  for (const name of names) {
    const d = at(name);
    if (d) total += definitionCost(d);
  }
  return total;
}

/** The derivation of a request; requests at one position with one forced tool share it. */
function derivedFor(conv: Conversation, position: number, forced: string | undefined): Derived {
  const key = `${position}\u0000${forced ?? ''}`;
  const cache = conv.derived;
  if (cache.value && cache.key === key) return cache.value;
  cache.value = derive(conv, position, forced);
  cache.key = key;
  return cache.value;
}

/** Under Anthropic directives, the availability the model sees travels in directive blocks, decided when the request is sent. */
function announceAvailability(conv: Conversation, offered: readonly string[]): void {
  const offeredNow = new Set(offered);
  const announced = conv.announced;
  if (!announced) conv.messages.push({ kind: 'tool-availability', blocks: [{ type: 'tool_availability', tools: [...offered] }] });
  else {
    const added = offered.filter((n) => !announced.has(n));
    const removed = [...announced].filter((n) => !offeredNow.has(n));
    const blocks = [
      ...(added.length > 0 ? [{ type: 'tool_addition' as const, tools: added }] : []),
      ...(removed.length > 0 ? [{ type: 'tool_removal' as const, tools: removed }] : []),
    ];
    if (blocks.length > 0) conv.messages.push({ kind: 'tool-availability', blocks });
  }
  conv.announced = offeredNow;
}

/** A cycle's request, resolved at the newest position; adds it to the timeline. */
export function sendRequest(conv: Conversation, step: number, cycle: number, toolChoice: ToolChoice, forced: string | undefined): RequestRecord {
  const { engine, policy, requests } = conv;
  const position = engine.current.index;
  if (policy.provider === 'anthropic-directives') announceAvailability(conv, derivedFor(conv, position, forced).sets.offered);
  const req = requestRecord(conv, { id: requests.length, step, cycle, position, ...(forced !== undefined ? { forced } : {}), toolChoice, registered: engine.isRegistered, messages: conv.messages.slice() });
  requests.push(req);
  conv.entries.push({ kind: 'request', step, cycle, request: req.id, position });
  return req;
}

/** What a request record is made of; the rest (sets, definitions, cost, body, cache, findings) is derived when read. */
export type RequestFields = Pick<RequestRecord, 'id' | 'step' | 'cycle' | 'position' | 'forced' | 'toolChoice' | 'registered' | 'messages'>;

/**
 * A request record over a conversation: everything it derives is read from the conversation's engine
 * and catalogue on first read, so a record re-made over a patched engine (turn/derivation.ts) derives
 * what a fresh run would.
 */
export function requestRecord(conv: Conversation, fields: RequestFields): RequestRecord {
  const { policy, requests } = conv;
  const { id, position, forced, toolChoice, messages: snapshot } = fields;
  let own: Derived | undefined;
  const get = (): Derived => (own ??= derivedFor(conv, position, forced));
  let rendered: RenderedRequest | undefined;
  let cache: CacheResult | undefined;
  let findings: readonly ProviderDiagnostic[] | undefined;
  const arrayDefinitions = (): ToolDefinition[] => {
    const { array, definitionsAt } = get();
    const at = definitionsAt();
    return array.map((n) => at(n)).filter((d): d is ToolDefinition => d !== undefined);
  };
  const req: RequestRecord = {
    ...fields,
    get sets(): Sets {
      return get().sets;
    },
    get array(): readonly string[] {
      return get().array;
    },
    get definitions(): ReadonlyMap<string, ToolDefinition> {
      return get().definitions;
    },
    get cost(): { readonly offered: number; readonly permitted: number } {
      return get().cost;
    },
    messages: snapshot,
    rendered() {
      if (!rendered) {
        rendered = renderRequest({
          provider: policy.provider,
          tools: arrayDefinitions(),
          toolChoice,
          // One text per conversation: computed by the first request rendered, kept by the rest.
          system: (conv.system ??= systemPromptOf(conv)),
          messages: snapshot,
        });
      }
      return rendered;
    },
    cache() {
      cache ??= compareCache(id > 0 ? requests[id - 1]?.rendered() : undefined, req.rendered());
      return cache;
    },
    findings() {
      // From JP's inputs to the request, not its rendered body: no tools array is built for it.
      findings ??= checkRequest({ provider: policy.provider, tools: arrayDefinitions(), toolChoice, messages: snapshot });
      return findings;
    },
  };
  return req;
}
