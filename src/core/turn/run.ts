// The simulation: a scenario's layers and servers are loaded, then each step is played against the
// stream, and the result is a timeline. It knows nothing of expectations; scenario/expectations.ts
// checks them against the timeline afterwards.
//
//   runScenario = start (load) → applyStep for each step → the timeline
//   applyStep   = a `jp q` turn (turn.ts) | `jp config set --id` | `jp config set` on a layer (config-set.ts)
import type { Layer, LoadedLayer } from '../config/layer';
import { loadLayer, positioned } from '../config/layer';
import { LineIndex } from '../config/toml-ast';
import type { Diagnostic } from '../config/types';
import type { SimServer } from '../catalogue/resolve';
import type { McpToolEntry } from '../catalogue/tools-list';
import { parseCommand } from '../cli/parse';
import type { Scenario, ScenarioStep } from '../scenario/types';
import { bm25 } from '../search/bm25';
import { substring } from '../search/substring';
import type { Ranker } from '../search/types';
import { StreamEngine } from '../stream/engine';
import type { ToolState } from '../stream/engine';
import type { Sets } from '../stream/sets';
import { IndexCache } from './caches';
import type { LayerCache } from './caches';
import { editLayerFile, setConversationConfig } from './config-set';
import { warnUnresolvable } from './conversation';
import type { Conversation } from './conversation';
import type { DefinitionCache } from './definitions';
import { RunCatalogue } from './lookups';
import type { StepRecord, Timeline } from './timeline';
import { runTurn } from './turn';
import { UnresolvableWarnings } from './warnings';
import { providerNameDiagnostics } from './provider-names';

export { IndexCache, LayerCache } from './caches';
export { NOT_AVAILABLE } from './call';
export { SYSTEM_PROMPT } from './request';

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

export const DEFAULT_RANKERS: ReadonlyMap<string, Ranker> = new Map([
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

/** JP requires `source`; the workbench reads a tool without one as local and says so where it was declared. */
export function missingSources(states: Iterable<ToolState>, layers: readonly Layer[], indexes = new Map<string, LineIndex>()): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const st of states) {
    if (st.config.source) continue;
    const d = st.config.declared;
    const text = d.kind === 'layer' ? layers.find((l) => l.name === d.layer)?.text : undefined;
    const message = `conversation.tools.${st.name} has no \`source\` in any layer; JP requires one (local, builtin or mcp.SERVER[.TOOL]); read as local`;
    if (d.kind === 'layer' && text !== undefined) {
      let index = indexes.get(d.layer);
      if (!index) indexes.set(d.layer, (index = new LineIndex(text)));
      out.push(positioned(d.layer, index, 'warning', message, d.span, 'missing-source'));
    } else out.push({ severity: 'warning', message, code: 'missing-source' });
  }
  return out;
}

/** What loading says: the workspace's, each layer's, then those of the tools as loaded (position 0). */
export function loadDiagnostics(input: Pick<RunInput, 'workspaceDiagnostics' | 'scenario'>, loaded: readonly LoadedLayer[], states0: Iterable<ToolState>, layers: readonly Layer[]): Diagnostic[] {
  const states = [...states0];
  return [...(input.workspaceDiagnostics ?? []), ...loaded.flatMap((l) => l.diagnostics), ...missingSources(states, layers), ...providerNameDiagnostics(states, layers, input.scenario.policy.provider)];
}

/** The start of the conversation: the layers loaded, the servers and the stream's base position. */
export function startConversation(input: RunInput): { conv: Conversation; diagnostics: Diagnostic[] } {
  const { scenario } = input;
  input.definitionCache?.startRun();
  const layers: Layer[] = [...(input.workspaceLayers ?? []), ...scenario.layers];
  const loaded = input.layerCache ? input.layerCache.loadAll(layers) : layers.map(loadLayer);
  const mcpNames = new Set<string>();
  for (const l of loaded) for (const name of l.config.mcpServers.keys()) mcpNames.add(name);
  const engine = new StreamEngine(loaded, buildServers(scenario, mcpNames, input.extraServers ?? []));
  const diagnostics = loadDiagnostics(input, loaded, engine.orderedStatesAt(0), layers);
  const conv: Conversation = {
    policy: scenario.policy,
    engine,
    catalogue: new RunCatalogue(engine, input.rankers ?? DEFAULT_RANKERS, input.indexCache ?? new IndexCache(), input.definitionCache),
    warnings: new UnresolvableWarnings(),
    layers,
    loaded,
    entries: [{ kind: 'base', position: 0 }],
    requests: [],
    calls: [],
    steps: [],
    messages: [],
    announced: undefined,
    derived: { key: '', value: undefined },
  };
  warnUnresolvable(conv);
  return { conv, diagnostics };
}

/** Plays one step's command; returns why it failed, if it did. */
function playCommand(conv: Conversation, stepNo: number, step: ScenarioStep): string | undefined {
  const parsed = parseCommand(step.command);
  if (!parsed.ok) return `${parsed.error.message} (column ${parsed.error.column})`;
  const cmd = parsed.command;
  if (cmd.kind === 'query') return runTurn(conv, stepNo, step, cmd);
  if (cmd.target.kind === 'conversation') return setConversationConfig(conv, stepNo, step.command, cmd.assignments);
  return editLayerFile(conv, stepNo, step.command, cmd.target.layer, cmd.assignments);
}

/** One step: its row, its command, and the record of where it left the conversation. */
function applyStep(conv: Conversation, stepNo: number, step: ScenarioStep, time: number): void {
  const { engine, entries } = conv;
  const entry = entries.length;
  entries.push({ kind: 'step', step: stepNo, command: step.command, position: engine.current.index, commandSpan: step.commandSpan });
  let error: string | undefined;
  try {
    error = playCommand(conv, stepNo, step);
  } catch (e) {
    error = `internal error: ${e instanceof Error ? e.message : String(e)}`;
  }
  const position = engine.current.index;
  if (error !== undefined) entries[entry] = { kind: 'step', step: stepNo, command: step.command, position, error, commandSpan: step.commandSpan };
  conv.steps.push(stepRecord(engine, { step: stepNo, entry, lastEntry: entries.length - 1, position, time, registered: engine.isRegistered, ...(error !== undefined ? { error } : {}), layers: conv.layers }));
}

/** A step's record over an engine: its sets are derived on first read from the engine's position. */
export function stepRecord(engine: StreamEngine, fields: Omit<StepRecord, 'sets'>): StepRecord {
  const { position } = fields;
  return {
    ...fields,
    get sets(): Sets {
      return engine.setsAt(position);
    },
  };
}

export function runScenario(input: RunInput): Timeline {
  const { conv, diagnostics } = startConversation(input);
  const loadEntry = conv.entries.length - 1;
  playSteps(conv, input.scenario.steps, 0, input.scenario.steps.length);
  return timelineOf(conv, input.scenario.name, diagnostics, loadEntry);
}

/**
 * Plays steps `from` (0-based) up to `to` (exclusive) of a conversation that has played the steps
 * before `from`; `after` is called after each step (the incremental derivation keeps checkpoints).
 */
export function playSteps(conv: Conversation, steps: readonly ScenarioStep[], from: number, to: number, after?: (stepsPlayed: number, time: number) => void): void {
  let time = conv.steps.at(-1)?.time ?? 0;
  for (let i = from; i < to; i++) {
    const step = steps[i];
    if (!step) break;
    time += step.elapsed ?? 0;
    applyStep(conv, i + 1, step, time);
    after?.(i + 1, time);
  }
}

/** The timeline of a conversation as played so far. */
export function timelineOf(conv: Conversation, name: string, diagnostics: readonly Diagnostic[], loadEntry: number): Timeline {
  const { engine } = conv;
  return {
    name,
    policy: conv.policy,
    diagnostics,
    finalLayers: conv.layers,
    entries: conv.entries,
    positions: engine.positions,
    requests: conv.requests,
    calls: conv.calls,
    steps: conv.steps,
    loadEntry,
    engine,
    statesAt: (p) => engine.statesAt(p),
    setsAt: (p) => engine.setsAt(p),
  };
}

export type { ToolState };
