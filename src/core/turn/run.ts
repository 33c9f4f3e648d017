// Running a scenario: the layers and servers are loaded, then each step is
// played against the stream. A `jp q` step appends its invocation delta and
// runs its turn cycle by cycle; each cycle's calls see the cycle-start config,
// and the commit buffer is folded into one delta at cycle end, so the next
// request of the same turn carries the promoted tools.
import { assignmentToDelta, parseAssignment } from '../config/assign';
import { editLayer } from '../config/edit';
import type { Layer, LoadedLayer } from '../config/layer';
import { loadLayer, positioned } from '../config/layer';
import { LineIndex } from '../config/toml-ast';
import { mergeConfigs } from '../config/merge';
import { EMPTY_CONFIG } from '../config/read';
import type { Diagnostic, Origin, PartialConfig } from '../config/types';
import { describeToolsDefinition, DESCRIBE_TOOLS, SEARCH_TOOLS, searchToolsDefinition } from '../catalogue/builtins';
import { resolvedSearchDocument } from '../catalogue/resolve';
import type { SimServer } from '../catalogue/resolve';
import { searchDocument } from '../catalogue/search-document';
import type { McpToolEntry } from '../catalogue/tools-list';
import type { ToolDefinition } from '../catalogue/types';
import { parseCommand } from '../cli/parse';
import type { QueryCommand } from '../cli/parse';
import { compareCache } from '../providers/cache';
import { definitionCost } from '../providers/cost';
import { renderRequest } from '../providers/render';
import type { RenderedRequest } from '../providers/render';
import type { ConversationMessage, ToolChoice } from '../providers/types';
import { bm25 } from '../search/bm25';
import { searchTools } from '../search/contract';
import { substring } from '../search/substring';
import type { Ranker, RankerIndex, SearchDocument } from '../search/types';
import { catalogueFingerprint } from '../search/fingerprint';
import type { Expectations, Scenario, ScenarioCall, ScenarioCycle, ScenarioStep } from '../scenario/types';
import {
  availabilityMatches,
  containsAll,
  excludesAll,
  includesAll,
  listEquals,
  recordEquals,
  scalarEquals,
  setEquals,
} from '../scenario/check';
import type { Comparison } from '../scenario/check';
import { StreamEngine } from '../stream/engine';
import type { ToolState } from '../stream/engine';
import { computeSets, isOffered, isPermitted, isSearchable } from '../stream/sets';
import type { Sets } from '../stream/sets';
import { describeTools } from './describe';
import type { DefinitionCache } from './definitions';
import { fold } from './fold';
import type { BufferEntry, PromotionStatus } from './fold';
import { prepareInvocation } from './invocation';
import type { CacheResult, CallRecord, ExpectationResult, RequestRecord, SearchOutcome, Timeline, TimelineEntry } from './timeline';

export const SYSTEM_PROMPT =
  'You are JP, a command-line assistant. Use the tools offered to you. When none fits, call search_tools with keywords to find one.';

export const NOT_AVAILABLE = (name: string): string =>
  `Tool '${name}' is not available. It may have been available earlier in this conversation but is no longer enabled.`;

export interface RunInput {
  readonly scenario: Scenario;
  /** Layers below the scenario's own (from a `[workspace]`), lowest first. */
  readonly workspaceLayers?: readonly Layer[];
  /** Diagnostics of loading the workspace (missing files, cycles...). */
  readonly workspaceDiagnostics?: readonly Diagnostic[];
  /** Extra servers (e.g. live MCP connections), by name; they override the scenario's. */
  readonly extraServers?: readonly SimServer[];
  /** Rankers by id; defaults to substring and bm25. */
  readonly rankers?: ReadonlyMap<string, Ranker>;
  /** Reuse search indexes across runs of an unchanged catalogue. */
  readonly indexCache?: IndexCache;
  /** Reuse loaded layers whose text is unchanged since the previous run (editing one layer re-reads only it). */
  readonly layerCache?: LayerCache;
  /** Reuse the previous run's definitions of tools whose config is unchanged (see definitions.ts). */
  readonly definitionCache?: DefinitionCache;
}

/** Loaded layers by name and text, kept from one run to the next. Loading is pure, so a layer with the same text loads the same. */
export class LayerCache {
  private entries = new Map<string, { readonly text: string; readonly loaded: LoadedLayer }>();
  /** The layers loaded, reusing the previous run's where the text is the same; keeps only these. */
  loadAll(layers: readonly Layer[]): LoadedLayer[] {
    const next = new Map<string, { readonly text: string; readonly loaded: LoadedLayer }>();
    const loaded = layers.map((layer) => {
      const hit = this.entries.get(layer.name) ?? next.get(layer.name);
      const entry = hit && hit.text === layer.text ? hit : { text: layer.text, loaded: loadLayer(layer) };
      next.set(layer.name, entry);
      return entry.loaded;
    });
    this.entries = next;
    return loaded;
  }
}

/**
 * Search indexes keyed by ranker and catalogue, so a re-run with new availability never rebuilds.
 * Within a run the same documents array hits by identity; across runs the catalogues are compared
 * by content, so a changed tool text always rebuilds.
 */
export class IndexCache {
  private readonly entries = new Map<string, { docs: readonly SearchDocument[]; fingerprint?: string; index: RankerIndex }>();
  get(ranker: Ranker, docs: readonly SearchDocument[], build: () => RankerIndex): RankerIndex {
    const hit = this.entries.get(ranker.id);
    if (hit) {
      if (hit.docs === docs) return hit.index;
      hit.fingerprint ??= catalogueFingerprint(hit.docs);
      const fingerprint = catalogueFingerprint(docs);
      if (hit.fingerprint === fingerprint) {
        this.entries.set(ranker.id, { docs, fingerprint, index: hit.index });
        return hit.index;
      }
      const index = build();
      this.entries.set(ranker.id, { docs, fingerprint, index });
      return index;
    }
    const index = build();
    this.entries.set(ranker.id, { docs, index });
    return index;
  }
}

const DEFAULT_RANKERS: ReadonlyMap<string, Ranker> = new Map([
  [substring.id, substring],
  [bm25.id, bm25],
]);

function buildServers(scenario: Scenario, mcpNames: Iterable<string>, extra: readonly SimServer[]): Map<string, SimServer> {
  const servers = new Map<string, SimServer>();
  for (const s of scenario.servers) {
    const tools = new Map<string, McpToolEntry>();
    for (const t of s.tools) if (!tools.has(t.name)) tools.set(t.name, t);
    servers.set(s.name, { name: s.name, status: s.status, tools, ...(s.status === 'offline' ? { reason: 'status = "offline"' } : {}) });
  }
  for (const name of mcpNames) {
    if (!servers.has(name)) servers.set(name, { name, status: 'offline', tools: new Map(), reason: 'the scenario gives no [servers.' + name + ']' });
  }
  for (const s of extra) servers.set(s.name, s);
  return servers;
}

type Label = { step?: number; cycle?: number; call?: number; load?: true };

function labelText(w: Label): string {
  if (w.load) return 'load';
  const parts: string[] = [];
  if (w.step !== undefined) parts.push(`step ${w.step}`);
  if (w.cycle !== undefined) parts.push(`cycle ${w.cycle}`);
  if (w.call !== undefined) parts.push(`call ${w.call}`);
  return parts.join(' ');
}

export function runScenario(input: RunInput): Timeline {
  const { scenario } = input;
  const policy = scenario.policy;
  const rankers = input.rankers ?? DEFAULT_RANKERS;
  const indexCache = input.indexCache ?? new IndexCache();

  const definitionCache = input.definitionCache;
  definitionCache?.startRun();
  /** A resolved tool's definition, the previous run's when its config is unchanged. */
  const definitionOfState = (s: ToolState | undefined): ToolDefinition | undefined =>
    s === undefined || !s.resolution.ok ? undefined : definitionCache ? definitionCache.definition(s) : s.resolution.definition;

  let layers: Layer[] = [...(input.workspaceLayers ?? []), ...scenario.layers];
  let loaded: LoadedLayer[] = input.layerCache ? input.layerCache.loadAll(layers) : layers.map(loadLayer);
  const diagnostics: Diagnostic[] = [...(input.workspaceDiagnostics ?? []), ...loaded.flatMap((l) => l.diagnostics)];

  const mcpNames = new Set<string>();
  for (const l of loaded) for (const name of l.config.mcpServers.keys()) mcpNames.add(name);
  const servers = buildServers(scenario, mcpNames, input.extraServers ?? []);
  const engine = new StreamEngine(loaded, servers);
  // JP requires `source`; the workbench reads a tool without one as local and says so where it was declared.
  for (const st of engine.currentStates()) {
    if (st.config.source) continue;
    const d = st.config.declared;
    const layer = d.kind === 'layer' ? loaded.find((l) => l.name === d.layer) : undefined;
    const text = layer ? layers.find((l) => l.name === layer.name)?.text : undefined;
    const message = `conversation.tools.${st.name} has no \`source\` in any layer; JP requires one (local, builtin or mcp.SERVER[.TOOL]); read as local`;
    diagnostics.push(d.kind === 'layer' && text !== undefined ? positioned(d.layer, new LineIndex(text), 'warning', message, d.span, 'missing-source') : { severity: 'warning', message, code: 'missing-source' });
  }

  const entries: TimelineEntry[] = [{ kind: 'base', position: 0 }];
  const requests: RequestRecord[] = [];
  const calls: CallRecord[] = [];
  const expectations: ExpectationResult[] = [];
  const messages: ConversationMessage[] = [];
  const appended: string[] = [];
  let announced: Set<string> | undefined;

  // Each unresolvable tool is warned about once, when it first matters: at load, or at the first
  // invocation that would permit it (a later -t, a delta, or forcing it with -u).
  const warned = new Set<string>();
  // One warning per server and reason (not per tool), naming the tools it takes out of the permitted set.
  // A resolution changes only with the catalogue version, so the unresolvable tools (in config order)
  // are listed once per version, not looked for among every tool at every step.
  let unresolvableVersion = -1;
  let unresolvable: string[] = [];
  const warnUnresolvable = (step?: number, forced?: string): void => {
    const version = engine.current.catalogueVersion;
    if (version !== unresolvableVersion) {
      unresolvable = [];
      for (const s of engine.currentStates()) if (!s.resolution.ok) unresolvable.push(s.name);
      unresolvableVersion = version;
    }
    const groups = new Map<string, { head: string; tools: string[] }>();
    for (const name of unresolvable) {
      const s = engine.state(name);
      if (!s || s.resolution.ok || (s.enable.availability.value === 'off' && s.name !== forced)) continue;
      const r = s.resolution;
      const key = r.reason === 'tool-missing' ? r.message : `${r.reason}:${r.server}`;
      const head =
        r.reason === 'server-offline' ? `MCP server \`${r.server}\` is not running` : r.reason === 'server-unknown' ? `MCP server \`${r.server}\` is not defined` : r.message;
      const g = groups.get(key) ?? { head, tools: [] };
      g.tools.push(s.name);
      groups.set(key, g);
    }
    for (const [key, g] of groups) {
      const shown = g.tools.slice(0, 8).map((t) => `\`${t}\``).join(', ') + (g.tools.length > 8 ? ` and ${g.tools.length - 8} more` : '');
      const msg = g.head.includes('does not list') ? g.head : `${g.head}, so ${g.tools.length === 1 ? 'this tool is' : `these ${g.tools.length} tools are`} not available: ${shown}`;
      if (warned.has(key + msg)) continue;
      warned.add(key + msg);
      entries.push({ kind: 'warning', message: msg, position: engine.current.index, ...(step !== undefined ? { step } : {}) });
    }
  };
  warnUnresolvable();

  // ---- expectations ----
  const record = (where: Label, key: string, expected: unknown, cmp: Comparison, span: { start: number; end: number }): void => {
    expectations.push({ where, label: labelText(where), key, expected, actual: cmp.actual, pass: cmp.pass, span, entry: entries.length - 1 });
  };

  const availabilityOf = (name: string, registered: boolean): string => {
    if (name === DESCRIBE_TOOLS) return 'on';
    if (name === SEARCH_TOOLS) return registered ? 'on' : 'not configured';
    return engine.state(name)?.enable.availability.value ?? 'not configured';
  };

  const checkSets = (exp: Expectations, where: Label, sets: Sets, registered: boolean, availability: (name: string) => string): void => {
    for (const [key, { value, span }] of exp) {
      let cmp: Comparison | undefined;
      switch (key) {
        case 'offered': cmp = setEquals(value, sets.offered); break;
        case 'permitted': cmp = setEquals(value, sets.permitted); break;
        case 'searchable': cmp = setEquals(value, sets.searchable); break;
        case 'servers': cmp = setEquals(value, sets.servers); break;
        case 'offered_includes': cmp = includesAll(value, sets.offered); break;
        case 'offered_excludes': cmp = excludesAll(value, sets.offered); break;
        case 'permitted_includes': cmp = includesAll(value, sets.permitted); break;
        case 'permitted_excludes': cmp = excludesAll(value, sets.permitted); break;
        case 'availability': cmp = availabilityMatches(value, availability); break;
        case 'search_tools': cmp = scalarEquals(value, registered); break;
        default: break;
      }
      if (cmp) record(where, key, value, cmp, span);
    }
  };

  // ---- search ----
  let docsKey = '';
  let docs: ReturnType<typeof searchDocument>[] = [];
  const searchIndex = (rankerId: string): RankerIndex => {
    const ranker = rankers.get(rankerId) ?? bm25;
    const version = String(engine.current.catalogueVersion);
    if (docsKey !== version) {
      docs = [];
      for (const s of engine.currentStates()) {
        if (!s.resolution.ok) continue;
        if (!definitionCache) docs.push(resolvedSearchDocument(s.resolution, s.order));
        else {
          const d = definitionCache.definition(s);
          if (d) docs.push(searchDocument(d, s.order));
        }
      }
      docsKey = version;
    }
    const current = docs;
    return indexCache.get(ranker, current, () => ranker.build(current));
  };

  // ---- requests ----
  const definitionOf = (name: string): ToolDefinition | undefined => {
    if (name === DESCRIBE_TOOLS) return describeToolsDefinition;
    if (name === SEARCH_TOOLS) return searchToolsDefinition;
    return definitionOfState(engine.state(name));
  };

  // What a request derives from its config position: its sets, the array, the definitions and their
  // cost. A run needs them only where something reads them (an expectation, the directive blocks,
  // rendering, the UI), so each request derives them on first read, from the states of its own
  // position. At 10,000 tools this is most of a request's cost. Requests at one position with one
  // forced tool share the result.
  interface Derived {
    readonly sets: Sets;
    readonly array: readonly string[];
    /** The definitions of the permitted set and of the array. */
    readonly definitions: ReadonlyMap<string, ToolDefinition>;
    readonly cost: { readonly offered: number; readonly permitted: number };
    /** A lookup of definitions (builtins' and configured tools') in the states of this position. */
    readonly definitionsAt: () => (name: string) => ToolDefinition | undefined;
  }
  let derivedKey = '';
  let derived: Derived | undefined;
  const deriveAt = (position: number, forced: string | undefined, registered: boolean, appendedThen: readonly string[]): Derived => {
    const key = `${position}\u0000${forced ?? ''}\u0000${registered}\u0000${appendedThen.join(',')}`;
    if (derived && derivedKey === key) return derived;
    // The newest position reads the engine's states in config order; an older one replays them.
    // Definitions are looked up in the states of the position whenever they are read.
    const inOrder = (): Iterable<ToolState> =>
      position === engine.current.index ? engine.currentStates() : [...engine.statesAt(position).values()].sort((a, b) => a.order - b.order);
    const sets = computeSets(inOrder(), { registered, ...(forced !== undefined ? { forced } : {}), appended: appendedThen });
    const definitionsAt = (): ((name: string) => ToolDefinition | undefined) => {
      const states = engine.statesAt(position);
      return (name) => {
        if (name === DESCRIBE_TOOLS) return describeToolsDefinition;
        if (name === SEARCH_TOOLS) return searchToolsDefinition;
        return definitionOfState(states.get(name));
      };
    };
    let array: readonly string[] = sets.offered;
    if (policy.provider === 'anthropic-directives') {
      // RFD 105's fixed array: every resolvable configured tool, then both builtins.
      const fixed: string[] = [];
      for (const st of inOrder()) if (st.resolution.ok) fixed.push(st.name);
      fixed.push(DESCRIBE_TOOLS, SEARCH_TOOLS);
      array = fixed;
    }
    let definitions: Map<string, ToolDefinition> | undefined;
    let cost: { readonly offered: number; readonly permitted: number } | undefined;
    const costOf = (names: readonly string[]): number => {
      const at = definitionsAt();
      let total = 0;
      for (const name of names) {
        const d = at(name);
        if (d) total += definitionCost(d);
      }
      return total;
    };
    derived = {
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
        return (cost ??= { offered: costOf(sets.offered), permitted: costOf(sets.permitted) });
      },
      definitionsAt,
    };
    derivedKey = key;
    return derived;
  };

  // Membership in a request's sets, answered from the states of its position (the engine's newest
  // while its cycle runs) by the same predicates computeSets uses, instead of building sets of
  // every tool name per cycle.
  const membership = (req: RequestRecord): { permitted: (name: string) => boolean; searchable: (name: string) => boolean } => {
    const forced = req.forced;
    return {
      permitted: (name) => {
        if (name === DESCRIBE_TOOLS || (name === SEARCH_TOOLS && req.registered)) return true;
        const s = engine.state(name);
        return s !== undefined && isPermitted(s, forced);
      },
      // Searchable tools are permitted, discoverable and not offered (so never in this cycle's request).
      // The same as isSearchable(engine.state(name), forced), asked of the engine's set of candidates.
      searchable: (name) => name !== forced && engine.searchableNow(name),
    };
  };

  const makeRequest = (step: number, cycle: number, toolChoice: ToolChoice, forced: string | undefined): RequestRecord => {
    const registered = engine.isRegistered;
    const position = engine.current.index;
    const appendedThen = appended.slice();
    let own: Derived | undefined;
    const get = (): Derived => (own ??= deriveAt(position, forced, registered, appendedThen));
    if (policy.provider === 'anthropic-directives') {
      // The availability the model sees travels in directive blocks, decided now.
      const offered = get().sets.offered;
      const offeredNow = new Set(offered);
      if (!announced) messages.push({ kind: 'tool-availability', blocks: [{ type: 'tool_availability', tools: [...offered] }] });
      else {
        const added = offered.filter((n) => !announced?.has(n));
        const removed = [...announced].filter((n) => !offeredNow.has(n));
        const blocks = [
          ...(added.length > 0 ? [{ type: 'tool_addition' as const, tools: added }] : []),
          ...(removed.length > 0 ? [{ type: 'tool_removal' as const, tools: removed }] : []),
        ];
        if (blocks.length > 0) messages.push({ kind: 'tool-availability', blocks });
      }
      announced = offeredNow;
    }
    const id = requests.length;
    const snapshot = messages.slice();
    let rendered: RenderedRequest | undefined;
    let cache: CacheResult | undefined;
    const req: RequestRecord = {
      id,
      step,
      cycle,
      position,
      ...(forced !== undefined ? { forced } : {}),
      toolChoice,
      registered,
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
          const { array, definitionsAt } = get();
          const at = definitionsAt();
          rendered = renderRequest({
            provider: policy.provider,
            tools: array.map((n) => at(n)).filter((d): d is ToolDefinition => d !== undefined),
            toolChoice,
            system: SYSTEM_PROMPT,
            messages: snapshot,
          });
        }
        return rendered;
      },
      cache() {
        cache ??= compareCache(id > 0 ? requests[id - 1]?.rendered() : undefined, req.rendered());
        return cache;
      },
    };
    requests.push(req);
    return req;
  };

  const checkRequest = (exp: Expectations, where: Label, req: RequestRecord): void => {
    checkSets(exp, where, req.sets, req.registered, (n) => availabilityOf(n, req.registered));
    for (const [key, { value, span }] of exp) {
      let cmp: Comparison | undefined;
      switch (key) {
        case 'offered_order': cmp = listEquals(value, req.array); break;
        case 'tool_choice': {
          const c = req.toolChoice;
          cmp = scalarEquals(value, c.kind === 'function' ? c.name : c.kind);
          break;
        }
        case 'cache': cmp = scalarEquals(value, req.cache().status); break;
        case 'overhead_chars': cmp = recordEquals(value, { offered: req.cost.offered, permitted: req.cost.permitted }); break;
        default: break;
      }
      if (cmp) record(where, key, value, cmp, span);
    }
  };

  const checkCall = (exp: Expectations, where: Label, call: CallRecord): void => {
    const returned = call.search?.returned.map((r) => r.name) ?? [];
    const byStatus = (st: PromotionStatus): string[] => call.search?.returned.filter((r) => r.status === st).map((r) => r.name) ?? [];
    for (const [key, { value, span }] of exp) {
      let cmp: Comparison;
      switch (key) {
        case 'returned': cmp = listEquals(value, returned); break;
        case 'returned_includes': cmp = includesAll(value, returned); break;
        case 'usable': cmp = setEquals(value, byStatus('usable')); break;
        case 'unavailable': cmp = setEquals(value, byStatus('unavailable')); break;
        case 'total': cmp = scalarEquals(value, call.search?.total); break;
        case 'status': cmp = scalarEquals(value, call.status); break;
        case 'result_contains': cmp = { pass: containsAll(value, call.result), actual: call.result }; break;
        case 'error': cmp = { pass: containsAll(value, call.error), actual: call.error ?? null }; break;
        default: continue;
      }
      record(where, key, value, cmp, span);
    }
  };

  // ---- load expectations ----
  if (scenario.load) {
    for (const [key, { value, span }] of scenario.load) {
      if (key !== 'error') continue;
      const errors = diagnostics.filter((d) => d.severity === 'error');
      const hit = errors.find((d) => containsAll(value, d.message));
      record({ load: true }, key, value, { pass: hit !== undefined, actual: errors.map((d) => d.message) }, span);
    }
  }

  // ---- the calls of one cycle ----
  const executeCycle = (
    stepNo: number,
    cycleNo: number,
    cycle: ScenarioCycle,
    req: RequestRecord,
    replayed: boolean,
  ): { buffer: BufferEntry[]; records: (CallRecord & { pendingSearch?: Omit<SearchOutcome, 'returned'> & { hits: { name: string; score: number; fields: SearchOutcome['returned'][number]['fields'] }[] } })[] } => {
    const buffer: BufferEntry[] = [];
    const records: ReturnType<typeof executeCycle>['records'] = [];
    const { permitted: isExecutable, searchable: isSearchableNow } = membership(req);
    cycle.calls.forEach((call: ScenarioCall, index) => {
      const base = { step: stepNo, cycle: cycleNo, index, tool: call.tool, args: call.args, replayed };
      if (!isExecutable(call.tool)) {
        const error = NOT_AVAILABLE(call.tool);
        records.push({ ...base, status: 'error', result: error, error });
        return;
      }
      if (call.tool === SEARCH_TOOLS) {
        const index2 = searchIndex(policy.ranking);
        const hideAsk = policy.hide_unapproved;
        const r = searchTools(index2, call.args, {
          filter: isSearchableNow,
          substringMatch: policy.substring_match,
          reportMatchCount: policy.report_match_count,
          ...(hideAsk ? { exclude: (name: string) => engine.state(name)?.run === 'ask' } : {}),
        });
        if (!r.ok) {
          records.push({ ...base, status: 'error', result: r.error, error: r.error });
          return;
        }
        const query = String((call.args as { query?: unknown }).query ?? '');
        const limitArg = (call.args as { limit?: unknown }).limit;
        buffer.push({ kind: 'promotion', index, names: r.hits.map((h) => h.name), query });
        records.push({
          ...base,
          status: 'ok',
          result: '',
          pendingSearch: {
            query,
            limit: typeof limitArg === 'number' ? Math.min(50, Math.max(1, limitArg)) : 10,
            hits: r.hits.map((h) => ({ name: h.name, score: h.score, fields: h.fields })),
            ...(r.total !== undefined ? { total: r.total } : {}),
          },
        });
        return;
      }
      if (call.tool === DESCRIBE_TOOLS) {
        const d = describeTools(call.args, (name) => (isExecutable(name) ? definitionOf(name) : undefined));
        if (d.ok) records.push({ ...base, status: 'ok', result: d.text });
        else records.push({ ...base, status: 'error', result: d.error, error: d.error });
        return;
      }
      if (call.fail !== undefined) {
        records.push({ ...base, status: 'error', result: call.fail, error: call.fail, ...(call.writes ? { write: { proposed: call.writes, applied: false, reason: 'the call failed' } } : {}) });
        return;
      }
      let result = call.result ?? `${call.tool} ran with ${JSON.stringify(call.args)}.`;
      let write: CallRecord['write'];
      if (call.writes && call.writes.length > 0) {
        if (call.approved !== true) {
          write = { proposed: call.writes, applied: false, reason: 'rejected by the user' };
          result += `\nThe config write was rejected: ${call.writes.join(', ')}.`;
        } else {
          // The write commits in this cycle's fold, as the next delta on the stream.
          const origin: Origin = { kind: 'delta', delta: engine.positions.filter((p) => p.event.kind === 'delta').length + 1, source: 'tool-write', detail: `${call.tool}: ${call.writes.join(', ')}` };
          let delta: PartialConfig = EMPTY_CONFIG;
          let problem: string | undefined;
          for (const w of call.writes) {
            const a = parseAssignment(w);
            const r = a ? assignmentToDelta(a, origin) : { ok: false as const, error: `invalid write \`${w}\`, expected KEY=VALUE` };
            if (!r.ok) {
              problem = r.error;
              break;
            }
            delta = mergeConfigs(delta, r.delta);
          }
          if (problem) {
            write = { proposed: call.writes, applied: false, reason: problem };
            result += `\nThe config write was rejected: ${problem}.`;
          } else {
            buffer.push({ kind: 'write', index, delta });
            write = { proposed: call.writes, applied: true };
          }
        }
      }
      records.push({ ...base, status: 'ok', result, ...(write ? { write } : {}) });
    });
    return { buffer, records };
  };

  const searchResultText = (s: SearchOutcome): string =>
    JSON.stringify({
      tools: s.returned.map((r) => ({ name: r.name, summary: r.summary, status: r.status === 'usable' ? 'usable' : 'found, unavailable' })),
      ...(s.total !== undefined ? { total: s.total } : {}),
    });

  // ---- steps ----
  const runQuery = (stepNo: number, step: ScenarioStep, cmd: QueryCommand): string | undefined => {
    const prepared = prepareInvocation(engine, cmd, policy, step.command);
    if (!prepared.ok) return prepared.error;
    const pos = engine.applyDelta(prepared.delta, { sources: prepared.sources, detail: step.command, step: stepNo });
    if (pos) entries.push({ kind: 'delta', step: stepNo, position: pos.index });
    warnUnresolvable(stepNo, prepared.forced);
    entries.push({ kind: 'turn', step: stepNo, query: cmd.query, position: engine.current.index });
    messages.push({ kind: 'user', text: cmd.query });
    const cycles: readonly ScenarioCycle[] = step.cycles.length > 0 ? step.cycles : [{ calls: [], reply: '', restart: false, span: step.span }];
    let toolChoice = prepared.toolChoice;
    for (let c = 0; c < cycles.length; c++) {
      const cycle = cycles[c] as ScenarioCycle;
      const cycleNo = c + 1;
      const req = makeRequest(stepNo, cycleNo, toolChoice, prepared.forced);
      entries.push({ kind: 'request', step: stepNo, cycle: cycleNo, request: req.id, position: req.position });
      if (cycle.expect) checkRequest(cycle.expect, { step: stepNo, cycle: cycleNo }, req);
      if (toolChoice.kind === 'function' || toolChoice.kind === 'required') toolChoice = { kind: 'auto' };
      if (cycle.calls.length === 0) {
        const text = cycle.reply ?? '';
        messages.push({ kind: 'assistant', text });
        entries.push({ kind: 'reply', step: stepNo, cycle: cycleNo, text, position: engine.current.index });
        break;
      }
      let run = executeCycle(stepNo, cycleNo, cycle, req, false);
      if (cycle.restart) {
        // Restart discards this cycle's buffer and executes its calls once more; no new request is sent.
        entries.push({ kind: 'restart', step: stepNo, cycle: cycleNo, position: engine.current.index });
        run = executeCycle(stepNo, cycleNo, cycle, req, true);
      }
      const deltaNumber = engine.positions.filter((p) => p.event.kind === 'delta').length + 1;
      const folded = fold(engine, run.buffer, policy, deltaNumber);
      const finished: CallRecord[] = run.records.map((r) => {
        const { pendingSearch, ...rest } = r;
        if (!pendingSearch) return rest;
        const statuses = folded.statuses.get(r.index) ?? new Map<string, PromotionStatus>();
        const search: SearchOutcome = {
          query: pendingSearch.query,
          limit: pendingSearch.limit,
          returned: pendingSearch.hits.map((h) => ({ ...h, status: statuses.get(h.name) ?? 'unavailable', summary: definitionOf(h.name)?.docs.summary ?? '' })),
          ...(pendingSearch.total !== undefined ? { total: pendingSearch.total } : {}),
        };
        return { ...rest, search, result: searchResultText(search) };
      });
      messages.push({
        kind: 'assistant',
        ...(cycle.reply !== undefined ? { text: cycle.reply } : {}),
        toolCalls: finished.map((r) => ({ id: `call_${stepNo}_${cycleNo}_${r.index}`, name: r.tool, arguments: (r.args ?? {}) as Record<string, unknown> })),
      });
      for (const r of finished) {
        calls.push(r);
        messages.push({ kind: 'tool-result', callId: `call_${stepNo}_${cycleNo}_${r.index}`, name: r.tool, content: r.result, isError: r.status === 'error' });
        entries.push({ kind: 'call', step: stepNo, cycle: cycleNo, call: r, position: engine.current.index });
        const sc = cycle.calls[r.index];
        if (sc?.expect) checkCall(sc.expect, { step: stepNo, cycle: cycleNo, call: r.index + 1 }, r);
      }
      const committed = engine.applyDelta(folded.delta, { sources: folded.sources, detail: folded.sources.includes('promotion') ? `promotion: ${folded.promoted.join(', ')}` : 'tool write', step: stepNo, cycle: cycleNo });
      if (committed) {
        entries.push({ kind: 'delta', step: stepNo, cycle: cycleNo, position: committed.index });
        if (policy.promoted_position === 'append') for (const n of folded.promoted) if (!appended.includes(n)) appended.push(n);
      }
    }
    return undefined;
  };

  const runStep = (stepNo: number, step: ScenarioStep): string | undefined => {
    const parsed = parseCommand(step.command);
    if (!parsed.ok) return `${parsed.error.message} (column ${parsed.error.column})`;
    const cmd = parsed.command;
    if (cmd.kind === 'query') return runQuery(stepNo, step, cmd);
    if (cmd.target.kind === 'conversation') {
      const deltaNumber = engine.positions.filter((p) => p.event.kind === 'delta').length + 1;
      let delta: PartialConfig = EMPTY_CONFIG;
      for (const a of cmd.assignments) {
        const origin: Origin = { kind: 'delta', delta: deltaNumber, source: 'config-set', detail: `jp config set --id ${a.key}${a.json ? ':=' : '='}${a.value}` };
        const r = assignmentToDelta(a, origin);
        if (!r.ok) return r.error;
        delta = mergeConfigs(delta, r.delta);
      }
      const pos = engine.applyDelta(delta, { sources: ['config-set'], detail: step.command, step: stepNo });
      if (pos) entries.push({ kind: 'delta', step: stepNo, position: pos.index });
      return undefined;
    }
    const layerName = cmd.target.layer;
    const at = layers.findIndex((l) => l.name === layerName);
    if (at < 0) return `no layer named \`${layerName}\` (layers: ${layers.map((l) => l.name).join(', ') || 'none'})`;
    const current = layers[at] as Layer;
    const edited = editLayer(current.text, cmd.assignments);
    if (!edited.ok) return edited.error;
    layers = layers.map((l, i) => (i === at ? { name: l.name, text: edited.text } : l));
    loaded = layers.map((l, i) => (i === at ? loadLayer(layers[i] as Layer) : (loaded[i] as LoadedLayer)));
    const newDiags = loaded[at]?.diagnostics.filter((d) => d.severity === 'error') ?? [];
    if (newDiags.length > 0) return `the edit leaves layer \`${layerName}\` invalid: ${newDiags[0]?.message ?? ''}`;
    const pos = engine.replaceLayers(loaded, { kind: 'layer-edit', layer: layerName, detail: step.command, step: stepNo });
    entries.push({ kind: 'layer-edit', step: stepNo, layer: layerName, position: pos.index });
    return undefined;
  };

  scenario.steps.forEach((step, i) => {
    const stepNo = i + 1;
    const stepEntry = entries.length;
    entries.push({ kind: 'step', step: stepNo, command: step.command, position: engine.current.index, commandSpan: step.commandSpan });
    let error: string | undefined;
    try {
      error = runStep(stepNo, step);
    } catch (e) {
      error = `internal error: ${e instanceof Error ? e.message : String(e)}`;
    }
    if (error !== undefined) entries[stepEntry] = { kind: 'step', step: stepNo, command: step.command, position: engine.current.index, error, commandSpan: step.commandSpan };
    const exp = step.expect;
    const expectsError = exp?.get('error');
    if (error !== undefined && !expectsError) {
      record({ step: stepNo }, 'error', null, { pass: false, actual: error }, step.commandSpan);
    }
    if (!exp) return;
    if (expectsError) record({ step: stepNo }, 'error', expectsError.value, { pass: containsAll(expectsError.value, error), actual: error ?? null }, expectsError.span);
    const registered = engine.isRegistered;
    const sets = computeSets(engine.currentStates(), { registered, appended });
    checkSets(exp, { step: stepNo }, sets, registered, (n) => availabilityOf(n, registered));
    for (const [key, { value, span }] of exp) {
      if (key !== 'layer_text' && key !== 'layer_contains' && key !== 'layer_excludes') continue;
      const wanted = (value ?? {}) as Record<string, unknown>;
      for (const layerName of Object.keys(wanted)) {
        const text = layers.find((l) => l.name === layerName)?.text;
        const v = wanted[layerName];
        let cmp: Comparison;
        if (key === 'layer_text') cmp = { pass: text === v, actual: text ?? null };
        else if (key === 'layer_contains') cmp = { pass: containsAll(v, text), actual: text ?? null };
        else cmp = { pass: text !== undefined && (Array.isArray(v) ? v : [v]).every((s) => !text.includes(String(s))), actual: text ?? null };
        record({ step: stepNo }, `${key}.${layerName}`, v, cmp, span);
      }
    }
  });

  return {
    name: scenario.name,
    policy,
    diagnostics,
    finalLayers: layers,
    entries,
    positions: engine.positions,
    requests,
    calls,
    expectations,
    engine,
    statesAt: (p) => engine.statesAt(p),
    setsAt: (p) => computeSets(engine.statesAt(p).values(), { registered: engine.positions[p]?.registered ?? false, appended }),
  };
}

export { isOffered, isPermitted, isSearchable };
export type { ToolState };
