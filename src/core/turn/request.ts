// A cycle's request (RFD 108 "the request"): what the model is offered at the cycle's start position.
// What a request derives from its position (its sets, the tools array, the definitions and their cost)
// is needed only where something reads it (an expectation, the directive blocks, rendering, the UI),
// so each request derives it on first read, from the states of its own position. At 10,000 tools this
// is most of a request's cost.
import { DESCRIBE_TOOLS, SEARCH_TOOLS, describeToolsDefinition, searchToolsDefinition } from '../catalogue/builtins';
import type { Resolution } from '../catalogue/resolve';
import type { ToolDefinition } from '../catalogue/types';
import { compareCache } from '../providers/cache';
import { definitionCost } from '../providers/cost';
import { renderRequest } from '../providers/render';
import { checkRequest } from '../providers/request-rules';
import type { ProviderDiagnostic } from '../providers/rules';
import type { RenderedRequest } from '../providers/render';
import type { ToolChoice } from '../providers/types';
import type { StreamEngine, ToolChange, ToolState } from '../stream/engine';
import { builtinNames, isOffered, isPermitted } from '../stream/sets';
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
  /** The definitions of the array, in its order (rendering and the findings read them). */
  readonly arrayDefinitions: readonly ToolDefinition[];
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
  const definitionsAt = (): ((name: string) => ToolDefinition | undefined) => definitionsOfVersion(engine, catalogue, position);
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
  let arrayDefinitions: ToolDefinition[] | undefined;
  return {
    sets,
    array,
    get arrayDefinitions(): readonly ToolDefinition[] {
      if (!arrayDefinitions) {
        const at = definitionsAt();
        arrayDefinitions = array.map((n) => at(n)).filter((d): d is ToolDefinition => d !== undefined);
      }
      return arrayDefinitions;
    },
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
      if (cost) return cost;
      // A forced tool moves one tool across the sets (rare): summed over its own sets.
      if (forced !== undefined) return (cost = lazyCost(() => costOf(catalogue, position, sets.offered), () => costOf(catalogue, position, sets.permitted)));
      const at = setCostsOf(engine, catalogue).at(position);
      return (cost = { offered: at.offered, permitted: at.permitted });
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

/** The builtins' definitions, as `RunCatalogue.definitionsAt` answers their names. */
const BUILTIN_DEFINITIONS: ReadonlyMap<string, ToolDefinition> = new Map([
  [DESCRIBE_TOOLS, describeToolsDefinition],
  [SEARCH_TOOLS, searchToolsDefinition],
]);

/**
 * A resolvable tool's definition cost, per resolution object: a state keeps its resolution through
 * every availability change, and a derivation's fork keeps the unchanged tools' states, so at 100,000
 * tools a position is priced from memoized figures. The figure is a function of the definition's text,
 * so any catalogue's definition of the resolution gives it.
 */
const resolutionCost = new WeakMap<Resolution, number>();

function stateCost(catalogue: RunCatalogue, s: ToolState): number {
  // definitionsAt answers a builtin's name with the builtin, whatever a configured tool of that name holds.
  const builtin = BUILTIN_DEFINITIONS.get(s.name);
  if (builtin) return s.resolution.ok ? definitionCost(builtin) : 0;
  let cost = resolutionCost.get(s.resolution);
  if (cost === undefined) {
    cost = catalogue.costOfState(s);
    resolutionCost.set(s.resolution, cost);
  }
  return cost;
}

/** The configured tools' share of a position's permitted and offered cost (builtins added when asked). */
interface ConfiguredCost {
  readonly permitted: number;
  readonly offered: number;
}

/**
 * The permitted and offered cost of a plain invocation at each position of one stream. A timeline
 * window asks for dozens of requests, and the permitted set of a large catalogue is every tool: summed
 * tool by tool that was 100,000 definitions per row. Here a position's figures are the previous
 * position's with its changed tools moved (a promotion moves one); a layer edit (which may remove or
 * reorder tools, so its changes do not replay) and position 0 are summed over their states. Sums are
 * order-free, so an appended promotion needs nothing. Each entry is checked against its position
 * object, so a stream whose positions were replaced is priced afresh.
 */
class SetCosts {
  private readonly byPosition = new Map<number, { readonly position: object; readonly cost: ConfiguredCost }>();

  constructor(
    private readonly engine: StreamEngine,
    private readonly catalogue: RunCatalogue,
  ) {}

  at(index: number): ConfiguredCost {
    const positions = this.engine.positions;
    const p = positions[index];
    if (!p) throw new Error(`no config position ${index}`);
    const own = this.configured(index);
    let permitted = own.permitted;
    let offered = own.offered;
    for (const name of builtinNames(p.registered)) {
      const d = BUILTIN_DEFINITIONS.get(name);
      const c = d ? definitionCost(d) : 0;
      permitted += c;
      offered += c;
    }
    return { permitted, offered };
  }

  private kept(index: number): ConfiguredCost | undefined {
    const hit = this.byPosition.get(index);
    return hit && hit.position === this.engine.positions[index] ? hit.cost : undefined;
  }

  private configured(index: number): ConfiguredCost {
    const hit = this.kept(index);
    if (hit) return hit;
    const positions = this.engine.positions;
    // The nearest kept position at or after the last barrier (position 0 or a layer edit) before `index`.
    let from = index;
    let base: ConfiguredCost | undefined;
    while (from > 0 && positions[from]?.event.kind !== 'layer-edit') {
      from--;
      base = this.kept(from);
      if (base) break;
    }
    let cost: ConfiguredCost;
    if (base) {
      let { permitted, offered } = base;
      for (let i = from + 1; i <= index; i++) {
        for (const c of positions[i]?.changes ?? []) {
          if (c.before) {
            const was = this.share(c.before);
            permitted -= was.permitted;
            offered -= was.offered;
          }
          const is = this.share(c.after);
          permitted += is.permitted;
          offered += is.offered;
        }
        this.remember(i, { permitted, offered });
      }
      cost = { permitted, offered };
    } else {
      // `from` is a barrier: sum its states, then move forward from it.
      let permitted = 0;
      let offered = 0;
      if (from === 0 && this.engine.statesAt(0).size === this.engine.positions[0]?.changes.length) ({ permitted, offered } = this.base());
      else {
        for (const s of this.engine.statesAt(from).values()) {
          const is = this.share(s);
          permitted += is.permitted;
          offered += is.offered;
        }
      }
      this.remember(from, { permitted, offered });
      cost = from === index ? { permitted, offered } : this.configured(index);
    }
    return cost;
  }

  /**
   * Position 0, whose changes are every tool's state: the previous stream's figures where a tool's state
   * is the same object (a derivation's fork keeps every state it did not patch), so a keystroke at
   * 100,000 tools prices the tools it changed, not the catalogue.
   */
  private base(): ConfiguredCost {
    const changes = this.engine.positions[0]?.changes ?? [];
    const n = changes.length;
    const prev = lastBase?.changes.length === n ? lastBase : undefined;
    const shares = { changes, permitted: new Float64Array(n), offered: new Float64Array(n) };
    let permitted = 0;
    let offered = 0;
    for (let i = 0; i < n; i++) {
      const after = (changes[i] as ToolChange).after;
      let p: number;
      let o: number;
      if (prev && prev.changes[i]?.after === after) {
        p = prev.permitted[i] ?? 0;
        o = prev.offered[i] ?? 0;
      } else {
        const is = this.share(after);
        p = is.permitted;
        o = is.offered;
      }
      shares.permitted[i] = p;
      shares.offered[i] = o;
      permitted += p;
      offered += o;
    }
    lastBase = shares;
    return { permitted, offered };
  }

  private share(s: ToolState): ConfiguredCost {
    if (!isPermitted(s, undefined)) return NOTHING;
    const c = stateCost(this.catalogue, s);
    return { permitted: c, offered: isOffered(s, undefined) ? c : 0 };
  }

  private remember(index: number, cost: ConfiguredCost): void {
    const position = this.engine.positions[index];
    if (position) this.byPosition.set(index, { position, cost });
  }
}

const NOTHING: ConfiguredCost = { permitted: 0, offered: 0 };

/** The newest stream's position-0 figures, tool by tool (SetCosts.base). */
let lastBase: { readonly changes: readonly ToolChange[]; readonly permitted: Float64Array; readonly offered: Float64Array } | undefined;

/** One SetCosts per stream engine (a derivation's fork is an engine of its own). */
const setCosts = new WeakMap<StreamEngine, SetCosts>();

function setCostsOf(engine: StreamEngine, catalogue: RunCatalogue): SetCosts {
  let c = setCosts.get(engine);
  if (!c) setCosts.set(engine, (c = new SetCosts(engine, catalogue)));
  return c;
}

/** Per stream, the definitions looked up by name at each catalogue version (the newest few versions kept). */
const definitionsByVersion = new WeakMap<StreamEngine, Map<number, Map<string, ToolDefinition | undefined>>>();
const VERSIONS_KEPT = 8;

/**
 * `catalogue.definitionsAt(position)`, memoized by name for every position of one catalogue version:
 * no definition changes between two positions of a version (engine.ts bumps it whenever one can), and
 * consecutive requests offer nearly the same tools (a promotion adds one), so a conversation's
 * requests look each offered tool up once rather than once per request.
 */
function definitionsOfVersion(engine: StreamEngine, catalogue: RunCatalogue, position: number): (name: string) => ToolDefinition | undefined {
  const version = engine.positions[position]?.catalogueVersion;
  if (version === undefined) return catalogue.definitionsAt(position);
  let versions = definitionsByVersion.get(engine);
  if (!versions) definitionsByVersion.set(engine, (versions = new Map()));
  let byName = versions.get(version);
  if (!byName) {
    if (versions.size >= VERSIONS_KEPT) versions.delete(versions.keys().next().value as number);
    versions.set(version, (byName = new Map()));
  }
  const names = byName;
  let at: ((name: string) => ToolDefinition | undefined) | undefined;
  return (name) => {
    if (names.has(name)) return names.get(name);
    const d = (at ??= catalogue.definitionsAt(position))(name);
    names.set(name, d);
    return d;
  };
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
  const arrayDefinitions = (): readonly ToolDefinition[] => get().arrayDefinitions;
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
