// The incremental derivation (issue 23.3): one document derived again and again as it is edited, with
// nothing re-done that the edit cannot have changed.
//
//   - a layer is parsed only when its text changes (LayerCache, by name and text);
//   - a tool's definition is built only when its config changes (DefinitionCache), and so its search
//     document; the search index is rebuilt only when the documents change (IndexCache), never for an
//     availability edit;
//   - the run restarts from the first step the edit can affect: the steps before it, their positions,
//     requests, calls and rows, are the previous run's (the engine is forked at the position the last
//     kept step left, StreamEngine.forkAt);
//   - a layer edit is a tool-granular change (issue 32.3): the merged layers are compared with the
//     previous run's tool by tool (by reference, then by value apart from spans), and only the tools
//     whose state differs are re-resolved. Their new state is patched into every kept position
//     (StreamEngine.rebaseAt: counts moved, not recounted), and the conversation is played again only
//     from the first step the change can reach (`reachOf`): a step that names a changed tool, a delta
//     that touched one or '*', a search that could return one (or any search, when a definition and
//     so the index changed), a registration that moves. Requests and step records of the kept steps
//     are made again over the patched engine: everything they derive is derived when read.
//     A change of the tool list or order, of the MCP servers, or of a tool that cannot be resolved
//     (its warnings belong to loading) starts the run over;
//   - nothing O(tools) is re-done per keystroke that a small edit cannot change (issue 32, at 100,000
//     tools): an edit config/incremental.ts read table by table (`layerChange`) merges again only the
//     re-read tools into the previous merge and compares only those (mergedByLayerChange: the tools
//     after the edit are the same objects, their spans moved through anchors);
//     load diagnostics are kept tool by tool and derived again only for the patched tools and those
//     declared in a layer whose text changed (patchedLoadDiagnostics); a fork copies its parent's
//     searchable marks and undoes the changes after it (stream/engine.ts); the replayed searches read
//     the index's kept unfiltered hits, best first (search/bm25.ts), so a replayed search is a walk
//     that admits and counts, not a scoring of the postings nor a copy of the admitted hits. The
//     merged tools, the states at the fork and position 0's snapshot are LayeredMaps (stream/
//     layered-map.ts): shared roots plus what changed, not copies of every tool; a resumed or rebased
//     run takes its parent catalogue's search documents when no definition changed, and a warnings
//     clone its list of unresolvable tools. What is left O(tools) on a small edit: the views' walks
//     of the states (sets, counts). The first edit after a run would build some caches lazily (the
//     load diagnostics tool by tool, each search's ranked hits): `prepare` builds them ahead, in steps,
//     while a host is idle;
//   - a server, the policy, the workspace's diagnostics, the rankers or the live servers affect every
//     position, so the run starts over (with the caches above).
//
// A derivation is a value in and a value out: `run` returns a Timeline equal to runScenario's on the
// same input (the property tests in derivation.test.ts hold it to that), and never changes a timeline
// it returned before. `throughStep` plays only the first steps, so a shell can answer the selected
// position first and the rest after: the next run with the same input resumes where it stopped.
import { DESCRIBE_TOOLS, SEARCH_TOOLS } from '../catalogue/builtins';
import { parseCommand } from '../cli/parse';
import type { Diagnostic, Origin, ParameterConfig, PartialConfig, Sourced, ToolConfig } from '../config/types';
import { LayerSourced } from '../config/anchors';
import type { Layer, LoadedLayer } from '../config/layer';
import { effectiveEnable } from '../config/effective';
import { mergeConfigs, mergeTool } from '../config/merge';
import { layerChange, layerTool, layerToolCount } from '../config/incremental';
import { EMPTY_CONFIG } from '../config/read';
import type { Scenario, ScenarioStep } from '../scenario/types';
import { searchTools } from '../search/contract';
import type { Ranker } from '../search/types';
import type { StreamEngine, ToolState } from '../stream/engine';
import { LayeredMap } from '../stream/layered-map';
import { IndexCache, LayerCache } from './caches';
import type { Conversation } from './conversation';
import { DefinitionCache } from './definitions';
import { RunCatalogue } from './lookups';
import { requestRecord } from './request';
import { DEFAULT_RANKERS, missingSources, playSteps, startConversation, stepRecord, timelineOf } from './run';
import { providerNameDiagnostics } from './provider-names';
import type { LineIndex } from '../config/toml-ast';
import type { ProviderId } from '../providers/types';
import type { RunInput } from './run';
import type { Timeline } from './timeline';
import type { UnresolvableWarnings } from './warnings';

/** What a derivation is given: a run's input, less the caches (the derivation owns them). */
export type DerivationInput = Omit<RunInput, 'indexCache' | 'layerCache' | 'definitionCache'>;

export interface DeriveOptions {
  /** Play only steps 1..throughStep (the rest on a later run with the same input). */
  readonly throughStep?: number;
}

/** What the newest run re-did and what it kept: for tests, benches and a shell's status line. */
export interface DerivationStats {
  /** Steps taken from the previous run unchanged. */
  readonly stepsReused: number;
  /** Steps played by this run. */
  readonly stepsPlayed: number;
  /** Whether the run started over (a server, policy or workspace change, a change of the tool list, or the first run). */
  readonly restarted: boolean;
  /** Tools whose state a layer edit changed in value (re-resolved and patched into the kept positions); 0 without one. */
  readonly toolsReresolved: number;
  /** Tools a layer edit only moved in the text (their origins patched, nothing re-resolved). */
  readonly toolsMoved: number;
  /** The first step played again (1-based; steps + 1 when none was). */
  readonly replayedFromStep: number;
  /** Layers parsed by this run, whole or (an edit inside one tool's tables) only those tables (the others' texts were unchanged). */
  readonly layersParsed: number;
  /** Search indexes built by this run (0: the catalogue's documents were unchanged, or a few changed: see indexesReindexed). */
  readonly indexBuilds: number;
  /** Search indexes derived from the previous one by re-indexing the few documents that changed (IndexCache). */
  readonly indexesReindexed: number;
  /** Definitions built by this run (the others were reused). */
  readonly definitionsBuilt: number;
  /** Steps in the scenario, and whether this timeline covers them all. */
  readonly steps: number;
  readonly complete: boolean;
}

/** Where a conversation stood after a step: what a resumed run starts from. */
interface Checkpoint {
  readonly steps: number;
  readonly position: number;
  readonly entries: number;
  readonly requests: number;
  readonly calls: number;
  readonly messages: number;
  readonly announced: ReadonlySet<string> | undefined;
  readonly layers: readonly Layer[];
  readonly loaded: readonly LoadedLayer[];
  readonly warnings: UnresolvableWarnings;
}

interface Previous {
  readonly input: DerivationInput;
  /** The layers (workspace's first) as loaded at the start: what a layer edit is compared with. */
  readonly loaded: readonly LoadedLayer[];
  readonly conv: Conversation;
  readonly diagnostics: readonly Diagnostic[];
  readonly loadEntry: number;
  /** checkpoints[k]: after k steps (0: after loading). */
  readonly checkpoints: readonly Checkpoint[];
  /** The tools' part of `diagnostics`, tool by tool (worked out at the first layer edit that needs it). */
  toolDiagnostics?: readonly ToolDiagnostics[];
}

/**
 * The load diagnostics of one tool (run.ts's loadDiagnostics: the missing sources of every tool, then
 * the provider's name findings of every tool), kept tool by tool so a layer edit re-derives only the
 * tools it patched and those declared in a layer whose text changed: at 100,000 tools checking every
 * name on each keystroke was a cost of its own. Only tools with a diagnostic are kept.
 */
interface ToolDiagnostics {
  readonly name: string;
  readonly order: number;
  /** The layer the tool was declared in (its diagnostics' positions are in that layer's text). */
  readonly layer: string | undefined;
  readonly missing: readonly Diagnostic[];
  readonly provider: readonly Diagnostic[];
}

function toolDiagnosticsOf(states: Iterable<ToolState>, layers: readonly Layer[], provider: ProviderId, indexes: Map<string, LineIndex>): ToolDiagnostics[] {
  const out: ToolDiagnostics[] = [];
  for (const st of states) {
    const missing = missingSources([st], layers, indexes);
    const found = providerNameDiagnostics([st], layers, provider, indexes);
    if (missing.length === 0 && found.length === 0) continue;
    const d = st.config.declared;
    out.push({ name: st.name, order: st.order, layer: d.kind === 'layer' ? d.layer : undefined, missing, provider: found });
  }
  return out;
}

/** loadDiagnostics of a layer edit: the previous tools' diagnostics, those the edit can change derived again. */
function patchedLoadDiagnostics(
  input: DerivationInput,
  loaded: readonly LoadedLayer[],
  layers: readonly Layer[],
  before: readonly Layer[],
  previous: readonly ToolDiagnostics[],
  states0: ReadonlyMap<string, ToolState>,
  patched: ReadonlyMap<string, ToolState>,
): { diagnostics: Diagnostic[]; tools: ToolDiagnostics[] } {
  const moved = new Set<string>();
  for (let i = 0; i < layers.length; i++) {
    const l = layers[i] as Layer;
    if (l.text !== before[i]?.text) moved.add(l.name);
  }
  const redo = new Set(patched.keys());
  const kept: ToolDiagnostics[] = [];
  for (const t of previous) {
    if (redo.has(t.name)) continue;
    if (t.layer !== undefined && moved.has(t.layer)) redo.add(t.name);
    else kept.push(t);
  }
  const again: ToolState[] = [];
  for (const name of redo) {
    const st = patched.get(name) ?? states0.get(name);
    if (st) again.push(st);
  }
  again.sort((a, b) => a.order - b.order);
  const fresh = toolDiagnosticsOf(again, layers, input.scenario.policy.provider, new Map());
  const tools: ToolDiagnostics[] = [];
  let i = 0;
  let j = 0;
  while (i < kept.length || j < fresh.length) {
    const a = kept[i];
    const b = fresh[j];
    if (a && (!b || a.order < b.order)) {
      tools.push(a);
      i++;
    } else if (b) {
      tools.push(b);
      j++;
    }
  }
  const diagnostics: Diagnostic[] = [...(input.workspaceDiagnostics ?? []), ...loaded.flatMap((l) => l.diagnostics)];
  for (const t of tools) diagnostics.push(...t.missing);
  for (const t of tools) diagnostics.push(...t.provider);
  return { diagnostics, tools };
}

/**
 * Deep equality of plain values (objects, arrays, Maps, Sets, primitives). Used on scenario parts:
 * spans included, so a step whose text moved is not taken as unchanged.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof LayerSourced || b instanceof LayerSourced) {
    const x = pairOf(a);
    const y = pairOf(b);
    return x !== undefined && y !== undefined && sameValue(x.value, y.value) && sameValue(x.origin, y.origin);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !sameValue(v, b.get(k))) return false;
    return true;
  }
  if (a instanceof Set) {
    if (!(b instanceof Set) || a.size !== b.size) return false;
    for (const v of a) if (!b.has(v)) return false;
    return true;
  }
  if (Array.isArray(b) || b instanceof Map || b instanceof Set || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const kx = Object.keys(x).filter((k) => x[k] !== undefined);
  const ky = Object.keys(y).filter((k) => y[k] !== undefined);
  if (kx.length !== ky.length) return false;
  for (const k of kx) if (!sameValue(x[k], y[k])) return false;
  return true;
}

function sameLayers(a: readonly Layer[] | undefined, b: readonly Layer[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((l, i) => l.name === y[i]?.name && l.text === y[i]?.text && sameValue(l, y[i]));
}

function sameMembers<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/**
 * What a part of the input is to a run: `restart`, it reaches every position (the run starts over when
 * it differs); `layers`, compared tool by tool; `steps`, compared step by step; `unread`, no run reads
 * it (the timeline's name is taken from each run's own input).
 */
type Role = 'restart' | 'layers' | 'steps' | 'unread';

interface Comparator {
  readonly role: Role;
  readonly same: (a: DerivationInput, b: DerivationInput) => boolean;
}

/** Every part of a derivation's input (the scenario's parts by their own names). */
export type InputPart = Exclude<keyof DerivationInput, 'scenario'> | keyof Scenario;

const unread: Comparator = { role: 'unread', same: () => true };

/**
 * How each part of the input is compared: keyed by every key of DerivationInput and Scenario, so a
 * part added to either and not placed here fails to compile (it would otherwise go uncompared, and a
 * run would keep a timeline the new part changed).
 */
export const INPUT_PARTS: { readonly [K in InputPart]-?: Comparator } = {
  workspaceLayers: { role: 'layers', same: (a, b) => sameLayers(a.workspaceLayers, b.workspaceLayers) },
  workspaceDiagnostics: { role: 'restart', same: (a, b) => sameValue(a.workspaceDiagnostics ?? [], b.workspaceDiagnostics ?? []) },
  extraServers: { role: 'restart', same: (a, b) => sameMembers(a.extraServers, b.extraServers) },
  rankers: { role: 'restart', same: (a, b) => a.rankers === b.rankers },
  name: unread,
  description: unread,
  // Expectations are checked against the timeline afterwards (scenario/expectations.ts).
  load: unread,
  // The host resolves `[workspace]` into workspaceLayers and workspaceDiagnostics.
  workspace: unread,
  policy: { role: 'restart', same: (a, b) => sameValue(a.scenario.policy, b.scenario.policy) },
  servers: { role: 'restart', same: (a, b) => sameValue(a.scenario.servers, b.scenario.servers) },
  layers: { role: 'layers', same: (a, b) => sameLayers(a.scenario.layers, b.scenario.layers) },
  steps: { role: 'steps', same: () => true },
};

const PARTS = Object.values(INPUT_PARTS);

/** What differs between two inputs, part by part. */
export function compareInputs(prev: DerivationInput, next: DerivationInput): { readonly restart: boolean; readonly layers: boolean; readonly steps: number } {
  let restart = false;
  let layers = false;
  for (const part of PARTS) {
    if (part.role === 'unread' || part.role === 'steps' || part.same(prev, next)) continue;
    if (part.role === 'restart') restart = true;
    else layers = true;
  }
  const a = prev.scenario.steps;
  const b = next.scenario.steps;
  let k = 0;
  while (k < a.length && k < b.length && sameValue(a[k], b[k])) k++;
  return { restart, layers, steps: k };
}

/**
 * How many leading steps of `next` a run may take from a run of `prev` unchanged: -1 when anything the
 * steps play against differs (layers, servers, policy, workspace, rankers, live servers: even loading
 * must be redone), else the number of leading steps equal in value and place (their spans included).
 * (A layer edit is then applied tool by tool by Derivation.run, which may keep more.)
 */
export function unchangedSteps(prev: DerivationInput, next: DerivationInput): number {
  const c = compareInputs(prev, next);
  return c.restart || c.layers ? -1 : c.steps;
}

/** `o` as a `{ value, origin }` pair (plain, or a layer's compact LayerSourced), when it is one. */
function pairOf(o: object): Sourced<unknown> | undefined {
  return o instanceof LayerSourced || ('value' in o && 'origin' in o) ? (o as Sourced<unknown>) : undefined;
}

/** Deep equality apart from where things were written (`span`s and tools' `declared`). */
function sameApartFromSpans(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  // A layer's compact `{ value, origin }` (its own keys are its anchors): compared as the pair it stands for.
  if (a instanceof LayerSourced || b instanceof LayerSourced) {
    const x = pairOf(a);
    const y = pairOf(b);
    return x !== undefined && y !== undefined && sameApartFromSpans(x.value, y.value) && sameApartFromSpans(x.origin, y.origin);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameApartFromSpans(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !sameApartFromSpans(v, b.get(k))) return false;
    return true;
  }
  if (Array.isArray(b) || b instanceof Map || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let n = 0;
  for (const k in x) {
    if (x[k] === undefined || k === 'span' || k === 'declared') continue;
    n++;
    if (!sameApartFromSpans(x[k], y[k])) return false;
  }
  let m = 0;
  for (const k in y) if (y[k] !== undefined && k !== 'span' && k !== 'declared') m++;
  return n === m;
}

/** How two values compare: the same, the same apart from where they were written, or different. */
const SAME = 0;
const MOVED = 1;
const DIFFERENT = 2;
type Likeness = typeof SAME | typeof MOVED | typeof DIFFERENT;

function originLikeness(a: Origin, b: Origin): Likeness {
  if (a === b) return SAME;
  if (a.kind !== b.kind) return DIFFERENT;
  if (a.kind === 'layer' && b.kind === 'layer') {
    if (a.layer !== b.layer) return DIFFERENT;
    return a.span.start === b.span.start && a.span.end === b.span.end ? SAME : MOVED;
  }
  return sameValue(a, b) ? SAME : DIFFERENT;
}

/** A `{ value, origin }` pair (or an effective field, which adds `from`); values other than primitives compared deeply. */
function sourcedLikeness(a: unknown, b: unknown): Likeness {
  if (a === b) return SAME;
  if (a === undefined || b === undefined || a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return DIFFERENT;
  // Not a Sourced value (a field of another shape): compared whole.
  if (!('origin' in a) || !('origin' in b)) return sameValue(a, b) ? SAME : DIFFERENT;
  const x = a as { value: unknown; origin: Origin; from?: unknown };
  const y = b as { value: unknown; origin: Origin; from?: unknown };
  if (x.from !== y.from) return DIFFERENT;
  if (x.value !== y.value && !sameValue(x.value, y.value)) return DIFFERENT;
  return originLikeness(x.origin, y.origin);
}

function worst(a: Likeness, b: Likeness): Likeness {
  return a > b ? a : b;
}

/** Every field of a parameter is a Sourced value except `items` and `properties`. */
function parameterLikeness(a: ParameterConfig, b: ParameterConfig): Likeness {
  let out: Likeness = SAME;
  let n = 0;
  for (const k in a) {
    const x = (a as Record<string, unknown>)[k];
    if (x === undefined) continue;
    n++;
    const y = (b as Record<string, unknown>)[k];
    if (y === undefined) return DIFFERENT;
    const l = k === 'items' ? parameterLikeness(x as ParameterConfig, y as ParameterConfig) : k === 'properties' ? parametersLikeness(x as ReadonlyMap<string, ParameterConfig>, y as ReadonlyMap<string, ParameterConfig>) : sourcedLikeness(x, y);
    if (l === DIFFERENT) return DIFFERENT;
    out = worst(out, l);
  }
  for (const k in b) if ((b as Record<string, unknown>)[k] !== undefined) n--;
  return n === 0 ? out : DIFFERENT;
}

function parametersLikeness(a: ReadonlyMap<string, ParameterConfig>, b: ReadonlyMap<string, ParameterConfig>): Likeness {
  if (a === b) return SAME;
  if (a.size !== b.size) return DIFFERENT;
  let out: Likeness = SAME;
  const ib = b.entries();
  for (const [k, p] of a) {
    const next = ib.next().value;
    if (!next || next[0] !== k) return DIFFERENT;
    const l = parameterLikeness(p, next[1]);
    if (l === DIFFERENT) return DIFFERENT;
    out = worst(out, l);
  }
  return out;
}

/**
 * A tool's config against its config after an edit, in one walk (thousands are compared on a keystroke
 * in a catalogue layer): every field is a Sourced value except `name`, `declared`, `enable` and
 * `parameters`, which are read for what they are.
 */
function configLikeness(a: ToolConfig, b: ToolConfig): Likeness {
  if (a === b) return SAME;
  if (a.name !== b.name) return DIFFERENT;
  let out = originLikeness(a.declared, b.declared);
  if (out === DIFFERENT) return DIFFERENT;
  let n = 0;
  for (const k in a) {
    const x = (a as unknown as Record<string, unknown>)[k];
    if (x === undefined || k === 'name' || k === 'declared') continue;
    n++;
    const y = (b as unknown as Record<string, unknown>)[k];
    if (y === undefined) return DIFFERENT;
    let l: Likeness;
    if (k === 'enable') l = worst(sourcedLikeness(a.enable.availability, b.enable.availability), sourcedLikeness(a.enable.allowToggle, b.enable.allowToggle));
    else if (k === 'parameters') l = parametersLikeness(a.parameters, b.parameters);
    else l = sourcedLikeness(x, y);
    if (l === DIFFERENT) return DIFFERENT;
    out = worst(out, l);
  }
  for (const k in b) if ((b as unknown as Record<string, unknown>)[k] !== undefined && k !== 'name' && k !== 'declared') n--;
  return n === 0 ? out : DIFFERENT;
}

/** A tool's state at load against its state after an edit. */
function stateLikeness(before: ToolState, after: ToolState): Likeness {
  if (before.run !== after.run || before.resolution !== after.resolution || before.order !== after.order) return DIFFERENT;
  const c = configLikeness(before.config, after.config);
  if (c === DIFFERENT) return DIFFERENT;
  return worst(c, worst(sourcedLikeness(before.enable.availability, after.enable.availability), sourcedLikeness(before.enable.allowToggle, after.enable.allowToggle)));
}

/** The inputs of a tool's definition (what resolveTool reads besides run and the servers), apart from spans. */
function sameDefinitionInputs(a: ToolConfig, b: ToolConfig): boolean {
  return (
    sourcedLikeness(a.source, b.source) !== DIFFERENT &&
    sourcedLikeness(a.summary, b.summary) !== DIFFERENT &&
    sourcedLikeness(a.description, b.description) !== DIFFERENT &&
    sourcedLikeness(a.examples, b.examples) !== DIFFERENT &&
    parametersLikeness(a.parameters, b.parameters) !== DIFFERENT
  );
}

/** Same tool names in the same order. */
function sameOrder(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): boolean {
  if (a.size !== b.size) return false;
  const ib = b.keys();
  for (const k of a.keys()) if (ib.next().value !== k) return false;
  return true;
}

/** A layer edit as a change of some tools' states at load. */
interface ToolChangeSet {
  readonly base: PartialConfig;
  /** Every tool whose state at load differs (in value or only in where it was written), in its new state. */
  readonly patched: ReadonlyMap<string, ToolState>;
  /** The tools among them whose state differs in value. */
  readonly changed: ReadonlySet<string>;
  /** Whether a definition changed (so the search index did). */
  readonly definitions: boolean;
  /** With '*' changed: the tools only steps' deltas configure, which inherit it from where they appear. */
  readonly deltaOnly?: ReadonlySet<string>;
}

/**
 * The layer edit from `prev` (the engine's load) to `base`, tool by tool; undefined when it cannot be
 * applied as one (the tool list or order, or the MCP servers changed, or a changed tool cannot be
 * resolved: its warnings belong to loading).
 */
function toolChanges(engine: StreamEngine, base: PartialConfig, only?: ReadonlySet<string>): ToolChangeSet | undefined {
  const old = engine.loadedBase;
  if (!only && (!sameOrder(old.tools, base.tools) || !sameApartFromSpans(old.mcpServers, base.mcpServers))) return undefined;
  // '*' moved or changed: any tool may inherit from it. Else only the tools whose merged table is a new object.
  const all = !only && !sameValue(old.defaults, base.defaults);
  // A tool a step's delta configured (no layer names it) inherits from '*' too, from the position it
  // first appears: the replay must start before that step (rebase), as its states are the deltas'.
  let deltaOnly: Set<string> | undefined;
  if (all) for (const s of engine.currentStates()) if (!base.tools.has(s.name)) (deltaOnly ??= new Set()).add(s.name);
  const candidates: string[] = [];
  const states0 = engine.statesAt(0);
  const patched = new Map<string, ToolState>();
  for (const [name, t] of only ? [...only].map((n): [string, ToolConfig] => [n, base.tools.get(n) as ToolConfig]) : base.tools) {
    if (!all && old.tools.get(name) === t) continue;
    const before = states0.get(name);
    // '*' as it was: a table the same apart from where it was written keeps its run and resolution,
    // and only its own enable fields' origins move. One walk decides; the rest are re-resolved.
    const likeness = all || !before ? DIFFERENT : configLikeness(before.config, t);
    if (likeness === SAME) continue;
    if (likeness === MOVED && before) patched.set(name, { ...before, config: t, enable: effectiveEnable(t, base.defaults) });
    else candidates.push(name);
  }
  const changed = new Set<string>();
  let definitions = false;
  for (const [name, after] of engine.statesUnder(base, candidates, sameDefinitionInputs)) {
    const before = states0.get(name);
    if (!before) return undefined;
    const likeness = stateLikeness(before, after);
    if (likeness === SAME) continue;
    patched.set(name, after);
    if (likeness === MOVED) continue;
    if (!before.resolution.ok || !after.resolution.ok) return undefined;
    changed.add(name);
    if (before.resolution !== after.resolution) definitions = true;
  }
  return { base, patched, changed, definitions, ...(deltaOnly ? { deltaOnly } : {}) };
}

/** The last checkpoint before the first position where one of `names` changed (at its step's start), or `keep` if earlier. */
function beforeFirstChange(prev: Previous, names: ReadonlySet<string>, keep: number): number {
  const positions = prev.conv.engine.positions;
  let first = -1;
  for (let p = 0; p < positions.length && first < 0; p++) if ((positions[p]?.changes ?? []).some((c) => names.has(c.name))) first = p;
  if (first < 0) return keep;
  let k = Math.min(keep, prev.checkpoints.length - 1);
  while (k > 0 && (prev.checkpoints[k]?.position ?? 0) >= first) k--;
  return k;
}

/**
 * The merged layers after an edit that config/incremental.ts read table by table (layerChange): the
 * previous merge with only the re-read or moved tools merged again, and their names; undefined when any
 * layer was parsed whole, '*' or the MCP servers are new objects, or a tool's place in the merge may
 * have changed (a tool added to or dropped from a layer). The merge and the comparison of every tool
 * were O(tools) per keystroke; this is a Map copy and the named tools.
 */
function mergedByLayerChange(before: readonly LoadedLayer[], after: readonly LoadedLayer[], merged: PartialConfig): { base: PartialConfig; names: ReadonlySet<string> } | undefined {
  if (before.length !== after.length) return undefined;
  const names = new Set<string>();
  for (let i = 0; i < after.length; i++) {
    const a = before[i] as LoadedLayer;
    const b = after[i] as LoadedLayer;
    if (a === b) continue;
    const change = layerChange(a, b);
    if (!change || change.changedTools === 'all') return undefined;
    const x = a.config;
    const y = b.config;
    // Read through layerTool: the edited layer's tools Map is made only when something reads it whole (incremental.ts).
    if (x.defaults !== y.defaults || x.mcpServers !== y.mcpServers || layerToolCount(x) !== layerToolCount(y)) return undefined;
    // Only the re-read tools: every other ToolConfig is the same object (layerChange's promise; a span
    // after the edit reads moved through its anchor, config/anchors.ts), so walking the layer's tools to
    // find moved ones found none, at 100,000 tools for ~40 ms a keystroke.
    for (const name of change.changedTools) {
      if (layerTool(x, name) === undefined || layerTool(y, name) === undefined) return undefined;
      names.add(name);
    }
  }
  // An edit high in the catalogue layer moves most tools: merging them one by one costs more than the whole merge.
  if (names.size * 4 > merged.tools.size) return undefined;
  for (const name of names) if (!merged.tools.has(name)) return undefined;
  // Layered over the previous merge (itself layered over the one before): a copy of what edits changed, not of every tool.
  const tools = LayeredMap.over(merged.tools);
  for (const name of names) {
    let t: ToolConfig | undefined;
    for (const l of after) {
      const u = layerTool(l.config, name);
      if (u) t = t ? mergeTool(t, u) : u;
    }
    if (t) tools.set(name, t);
  }
  return { base: { defaults: merged.defaults, tools, mcpServers: merged.mcpServers }, names };
}

/** Tools whose load diagnostics `prepare` derives a step. */
const PREPARE_BATCH = 4096;

/** Up to how many tools `prepare` rehearses a keystroke (two runs of one, at 10,000 tools ~20 ms each). */
const REHEARSAL_TOOLS = 20_000;
/** The largest layer a rehearsal edits (a larger one's edit could be parsed whole). */
const REHEARSAL_LAYER_CHARS = 64 * 1024;
/** How many times `prepare` rehearses it, each run and undone. */
export const REHEARSALS = 3;

/**
 * The previous run's input with its smallest scenario layer turning off the first tool a search found
 * (else one the first request offers): a table appended for a tool that layer does not name. An edit
 * that re-resolves one tool and replays the conversation from that search, as a keystroke in a small
 * layer often does (a search's hits are what a replay follows; a tool only offered changes the
 * requests' sets, which are read from the engine without replaying). Undefined when nothing fits.
 */
function rehearsalOf(prev: Previous): DerivationInput | undefined {
  const layers = prev.input.scenario.layers;
  let smallest = -1;
  for (let i = 0; i < layers.length; i++) {
    const text = (layers[i] as Layer).text;
    if (text.length <= REHEARSAL_LAYER_CHARS && (smallest < 0 || text.length < (layers[smallest] as Layer).text.length)) smallest = i;
  }
  const layer = layers[smallest];
  const first = prev.conv.requests[0]?.sets;
  if (!layer || !first) return undefined;
  const fits = (name: string): boolean => name !== SEARCH_TOOLS && name !== DESCRIBE_TOOLS && !layer.text.includes(name);
  let name: string | undefined;
  for (const call of prev.conv.calls) {
    name = call.search?.returned.find((hit) => fits(hit.name))?.name;
    if (name !== undefined) break;
  }
  name ??= first.offered.find(fits);
  if (name === undefined) return undefined;
  const text = `${layer.text}\n[conversation.tools.${JSON.stringify(name)}]\nenable = "off"\n`;
  const scenario: Scenario = { ...prev.input.scenario, layers: layers.map((l, i) => (i === smallest ? { ...l, text } : l)) };
  return { ...prev.input, scenario };
}

/** A search_tools call's reach: whether any of `names` could be among its hits (or its total). */
type SearchProbe = (args: unknown) => boolean;

/**
 * The first step (0-based) of the previous run, before `limit`, that a tool-granular change can reach:
 * whose command, calls, deltas, searches or registration could differ because of it. `limit` when none
 * can. -1 when loading itself differs (registration at position 0).
 */
function reachOf(prev: Previous, steps: readonly ScenarioStep[], set: ToolChangeSet, limit: number, probe: () => SearchProbe | undefined): number {
  const { engine } = prev.conv;
  const positions = engine.positions;
  const touched = set.patched;
  const changed = set.changed;
  const discoverableDelta = (() => {
    let d = 0;
    const states0 = engine.statesAt(0);
    for (const [name, after] of touched) {
      const before = states0.get(name);
      d += (after.enable.availability.value === 'discoverable' ? 1 : 0) - (before?.enable.availability.value === 'discoverable' ? 1 : 0);
    }
    return d;
  })();
  let registered = (positions[0]?.counts.discoverable ?? 0) + discoverableDelta > 0;
  if (registered !== positions[0]?.registered) return -1;
  let probeFn: SearchProbe | undefined | null = null;
  const searchReaches = (args: unknown): boolean => {
    if (set.definitions) return true;
    if (probeFn === null) probeFn = probe();
    return probeFn === undefined || probeFn(args);
  };
  const version0 = positions[0]?.catalogueVersion;
  let from = prev.checkpoints[0]?.position ?? 0;
  for (let j = 0; j < limit; j++) {
    const record = prev.conv.steps[j];
    const step = steps[j];
    if (!record || !step) return j;
    // The deltas of the step: one that changed a patched tool or '*', or a layer edit, may differ now.
    for (let p = from + 1; p <= record.position; p++) {
      const pos = positions[p];
      if (!pos) return j;
      if (pos.event.kind === 'layer-edit' || engine.touchesDefaultsAt(p)) return j;
      // A tool changed in value: the delta itself may differ now (JP drops a restated value). One that only
      // moved in the text is changed there again by rebaseAt.
      for (const c of pos.changes) if (changed.has(c.name)) return j;
      registered ||= pos.counts.discoverable + discoverableDelta > 0;
      if (registered !== pos.registered) return j;
    }
    // Versions only grow: the same at the step's end, the same all through it (the index at load answers its searches).
    const searchVersionSame = positions[record.position]?.catalogueVersion === version0;
    from = record.position;
    // The command: a bulk directive reads every tool; a named one, a forced tool or a --cfg reads its tool.
    const parsed = parseCommand(step.command);
    if (parsed.ok) {
      const cmd = parsed.command;
      // `jp config set` on a layer edits the layers (a layer-edit position); on the conversation it is a --cfg.
      if (cmd.kind !== 'query' && cmd.target.kind !== 'conversation') return j;
      if (cmd.kind === 'query') {
        for (const d of cmd.directives) if (d.name === undefined || changed.has(d.name)) return j;
        if (cmd.toolUse?.kind === 'function' && changed.has(cmd.toolUse.name)) return j;
      }
      for (const a of cmd.assignments) {
        const m = /^conversation\.tools\.([A-Za-z0-9_-]+)\./.exec(a.key);
        if (!m || changed.has(m[1] ?? '')) return j;
      }
    }
    // The calls: a call of a changed tool, any write or describe_tools; a search that could find one.
    for (const cycle of step.cycles) {
      if (prev.input.scenario.policy.provider === 'anthropic-directives' && changed.size > 0) return j;
      for (const call of cycle.calls) {
        if (changed.has(call.tool)) return j;
        if (call.writes !== undefined && call.writes.length > 0) return j;
        if (call.tool === DESCRIBE_TOOLS && changed.size > 0) return j;
        if (call.tool === SEARCH_TOOLS && changed.size > 0 && (!searchVersionSame || searchReaches(call.args))) return j;
      }
    }
  }
  return limit;
}

/**
 * Caches a derivation may share with other runs of the same documents (a host's scratch runs read
 * the same layers and definitions): given ones are used, missing ones made.
 */
export interface DerivationCaches {
  readonly layerCache?: LayerCache;
  readonly indexCache?: IndexCache;
  readonly definitionCache?: DefinitionCache;
}

export class Derivation {
  private readonly layerCache: LayerCache;
  private readonly indexCache: IndexCache;
  private readonly definitionCache: DefinitionCache;

  constructor(caches: DerivationCaches = {}) {
    this.layerCache = caches.layerCache ?? new LayerCache();
    this.indexCache = caches.indexCache ?? new IndexCache();
    this.definitionCache = caches.definitionCache ?? new DefinitionCache();
  }
  private previous: Previous | undefined;
  private stats: DerivationStats | undefined;

  /** What the newest run re-did and kept. */
  get last(): DerivationStats | undefined {
    return this.stats;
  }

  /** The timeline of `input`, reusing whatever of the previous run the edit cannot have changed. */
  run(input: DerivationInput, options: DeriveOptions = {}): Timeline {
    const steps = input.scenario.steps;
    const through = Math.max(0, Math.min(options.throughStep ?? steps.length, steps.length));
    const parsedBefore = this.layerCache.parsed + this.layerCache.tablesReparsed;
    const buildsBefore = this.indexCache.builds;
    const reindexedBefore = this.indexCache.reindexed;
    const definitionsBefore = this.definitionCache.built;
    const prev = this.previous;
    const change = prev ? compareInputs(prev.input, input) : undefined;
    const limit = prev && change ? Math.min(change.steps, prev.checkpoints.length - 1, through) : -1;
    let conv: Conversation | undefined;
    let diagnostics: readonly Diagnostic[] = [];
    let loadEntry = 0;
    let checkpoints: Checkpoint[] = [];
    let loaded: readonly LoadedLayer[] = [];
    let toolsReresolved = 0;
    let toolsMoved = 0;
    let toolDiagnostics: readonly ToolDiagnostics[] | undefined;
    if (prev && change && !change.restart && !change.layers && prev.checkpoints[limit]) {
      conv = this.resume(prev.conv, prev.checkpoints[limit], input);
      diagnostics = prev.diagnostics;
      toolDiagnostics = prev.toolDiagnostics;
      loadEntry = prev.loadEntry;
      checkpoints = prev.checkpoints.slice(0, limit + 1);
      loaded = prev.loaded;
    } else if (prev && change && !change.restart && change.layers && limit >= 0) {
      const rebased = this.rebase(prev, input, limit);
      if (rebased) ({ conv, diagnostics, toolDiagnostics, loadEntry, checkpoints, loaded, toolsReresolved, toolsMoved } = rebased);
    }
    const restarted = !conv;
    if (!conv) {
      const started = startConversation({ ...input, layerCache: this.layerCache, indexCache: this.indexCache, definitionCache: this.definitionCache });
      conv = started.conv;
      diagnostics = started.diagnostics;
      loadEntry = conv.entries.length - 1;
      checkpoints = [checkpointOf(conv, 0)];
      loaded = conv.loaded;
    }
    const played = conv;
    const from = checkpoints.length - 1;
    playSteps(played, steps, from, through, (n) => checkpoints.push(checkpointOf(played, n)));
    this.previous = { input, loaded, conv: played, diagnostics, loadEntry, checkpoints, ...(toolDiagnostics && !restarted ? { toolDiagnostics } : {}) };
    this.stats = {
      stepsReused: from,
      stepsPlayed: through - from,
      restarted,
      toolsReresolved,
      toolsMoved,
      replayedFromStep: from < through ? from + 1 : steps.length + 1,
      layersParsed: this.layerCache.parsed + this.layerCache.tablesReparsed - parsedBefore,
      indexBuilds: this.indexCache.builds - buildsBefore,
      indexesReindexed: this.indexCache.reindexed - reindexedBefore,
      definitionsBuilt: this.definitionCache.built - definitionsBefore,
      steps: steps.length,
      complete: through === steps.length,
    };
    return timelineOf(played, input.scenario.name, diagnostics, loadEntry);
  }

  /**
   * Does now, in steps (a generator: the host pauses between them while the worker is idle), what the
   * first layer edit after a run would otherwise do on its keystroke, so that keystroke costs what the
   * later ones do (at 100,000 tools the first one took several times as long): the load diagnostics
   * tool by tool (every tool's name checked), and each search of the scenario's calls ranked in full on
   * the index at load (the IndexCache keeps it; a layer edit's probe of which searches it can reach, reachOf, ranks a query's
   * hits the first time it runs with a filter its head cannot answer). Caches only: a run after it gives
   * the same timeline as one without it (derivation.test.ts).
   */
  *prepare(): Generator<void, void, undefined> {
    const prev = this.previous;
    if (!prev) return;
    const old = prev.conv.engine;
    const policy = prev.input.scenario.policy;
    if (!prev.toolDiagnostics) {
      const before: Layer[] = [...(prev.input.workspaceLayers ?? []), ...prev.input.scenario.layers];
      // A batch of tools a step (a keystroke arriving meanwhile waits for one batch, not for every tool's names).
      const states = [...old.orderedStatesAt(0)];
      const indexes = new Map<string, LineIndex>();
      const found: ToolDiagnostics[] = [];
      for (let k = 0; k < states.length; k += PREPARE_BATCH) {
        found.push(...toolDiagnosticsOf(states.slice(k, k + PREPARE_BATCH), before, policy.provider, indexes));
        yield;
        if (this.previous !== prev) return;
      }
      prev.toolDiagnostics = found;
    }
    if (this.previous !== prev) return;
    // The index the probe reads (rebase): the run's own when no definition changed since load, else a fork's at load (the same index from the IndexCache).
    const atLoad = old.current.catalogueVersion === old.positions[0]?.catalogueVersion ? prev.conv.catalogue : new RunCatalogue(old.forkAt(0), prev.input.rankers ?? DEFAULT_RANKERS, this.indexCache, this.definitionCache);
    const index = atLoad.searchIndex(policy.ranking);
    const none = (): boolean => false;
    for (const step of prev.input.scenario.steps) {
      for (const cycle of step.cycles) {
        for (const call of cycle.calls) {
          if (call.tool !== SEARCH_TOOLS) continue;
          searchTools(index, call.args, { filter: none, filterOrder: none, substringMatch: policy.substring_match, reportMatchCount: policy.report_match_count });
          yield;
          // A newer run replaced the one prepared for: what is left is its own first edit's to do.
          if (this.previous !== prev) return;
        }
      }
    }
    // A rehearsal of the first keystroke, run and undone: its code (the layer's table edit, the rebase,
    // the replay over a patched engine) runs for the first time otherwise on the user's first keystrokes,
    // unoptimized, which took 2-3 times what later ones do (at 1,000 tools in Chromium: 32-62 ms against
    // ~20). Only where two keystrokes' runs are cheap: at 100,000 tools they would hold the worker for
    // a keystroke arriving meanwhile longer than the warm-up saves.
    const rehearsal = prev.conv.engine.current.counts.configured <= REHEARSAL_TOOLS ? rehearsalOf(prev) : undefined;
    if (!rehearsal) return;
    // A few times over: V8 optimizes a function after some runs of it, not after the first.
    for (let k = 0; k < REHEARSALS; k++) {
      this.run(rehearsal);
      yield;
      // Typing meanwhile moved the derivation on from the rehearsal: nothing to undo.
      if (this.previous?.input !== rehearsal) return;
      this.run(prev.input);
      yield;
      if (this.previous?.input !== prev.input) return;
    }
  }

  /**
   * A layer edit applied tool by tool (see the head of this file): the previous run's conversation up
   * to the first step the change can reach, over an engine with the changed tools patched in.
   * Undefined when the edit cannot be applied so (the run then starts over).
   */
  private rebase(prev: Previous, input: DerivationInput, limit: number): { conv: Conversation; diagnostics: readonly Diagnostic[]; toolDiagnostics: readonly ToolDiagnostics[]; loadEntry: number; checkpoints: Checkpoint[]; loaded: readonly LoadedLayer[]; toolsReresolved: number; toolsMoved: number } | undefined {
    const layers: Layer[] = [...(input.workspaceLayers ?? []), ...input.scenario.layers];
    const loaded = this.layerCache.loadAll(layers);
    if (loaded.length !== prev.loaded.length || loaded.some((l, i) => l.name !== prev.loaded[i]?.name)) return undefined;
    const old = prev.conv.engine;
    const edit = mergedByLayerChange(prev.loaded, loaded, old.loadedBase);
    const base = edit?.base ?? loaded.reduce((acc, l) => mergeConfigs(acc, l.config), EMPTY_CONFIG);
    const set = toolChanges(old, base, edit?.names);
    if (!set) return undefined;
    const rankers = input.rankers ?? DEFAULT_RANKERS;
    const probe = (): SearchProbe | undefined => {
      // The tools a search could return before or after the change; the index is the one at load (no definition changed).
      const states0 = old.statesAt(0);
      const names = new Set<string>();
      for (const name of set.changed) {
        const before = states0.get(name);
        const after = set.patched.get(name);
        if ((before?.resolution.ok && before.enable.availability.value === 'discoverable') || (after?.resolution.ok && after.enable.availability.value === 'discoverable')) names.add(name);
      }
      if (names.size === 0) return () => false;
      const policy = input.scenario.policy;
      // The previous run's catalogue answers when no definition changed since load (its documents are kept); else a fork at load.
      const atLoad = old.current.catalogueVersion === old.positions[0]?.catalogueVersion ? prev.conv.catalogue : new RunCatalogue(old.forkAt(0), rankers, this.indexCache, this.definitionCache);
      const index = atLoad.searchIndex(policy.ranking);
      const orders = new Set([...names].map((n) => states0.get(n)?.order ?? -1));
      return (args) => {
        const r = searchTools(index, args, { filter: (n) => names.has(n), filterOrder: (o) => orders.has(o), substringMatch: policy.substring_match, reportMatchCount: policy.report_match_count });
        return !r.ok || r.hits.length > 0 || (r.total ?? 0) > 0;
      };
    };
    const reached = reachOf(prev, input.scenario.steps, set, limit, probe);
    const keep = set.deltaOnly ? beforeFirstChange(prev, set.deltaOnly, reached) : reached;
    const at = prev.checkpoints[keep];
    if (keep < 0 || !at) return undefined;
    const engine = old.rebaseAt(at.position, base, set.patched);
    const was = prev.conv;
    const catalogue = new RunCatalogue(engine, rankers, this.indexCache, this.definitionCache);
    // No definition changed: the patched tools keep their resolutions (and so their documents) and orders.
    if (!set.definitions) catalogue.adoptDocuments(was.catalogue);
    const conv: Conversation = {
      policy: was.policy,
      engine,
      catalogue,
      warnings: at.warnings.clone(),
      layers,
      loaded,
      entries: was.entries.slice(0, at.entries),
      requests: [],
      calls: was.calls.slice(0, at.calls),
      steps: [],
      messages: was.messages.slice(0, at.messages),
      announced: at.announced,
      // The system prompt is derived again on first read (it may name a patched tool's category).
      derived: { key: '', value: undefined },
    };
    // Records of the kept steps, made again over the patched engine: what they derive is read from it.
    for (const r of was.requests.slice(0, at.requests)) {
      conv.requests.push(requestRecord(conv, { id: r.id, step: r.step, cycle: r.cycle, position: r.position, ...(r.forced !== undefined ? { forced: r.forced } : {}), toolChoice: r.toolChoice, registered: engine.positions[r.position]?.registered ?? r.registered, messages: r.messages }));
    }
    for (const st of was.steps.slice(0, at.steps)) {
      // Field by field: `sets` is a getter, which a spread would run.
      const fields = { step: st.step, entry: st.entry, lastEntry: st.lastEntry, position: st.position, time: st.time, ...(st.error !== undefined ? { error: st.error } : {}) };
      conv.steps.push(stepRecord(engine, { ...fields, registered: engine.positions[st.position]?.registered ?? st.registered, layers }));
    }
    const checkpoints = prev.checkpoints.slice(0, keep + 1).map((c) => ({ ...c, layers, loaded }));
    const before: Layer[] = [...(prev.input.workspaceLayers ?? []), ...prev.input.scenario.layers];
    const previous = prev.toolDiagnostics ?? toolDiagnosticsOf(old.orderedStatesAt(0), before, prev.input.scenario.policy.provider, new Map());
    const { diagnostics, tools: toolDiagnostics } = patchedLoadDiagnostics(input, loaded, layers, before, previous, old.statesAt(0), set.patched);
    return { conv, diagnostics, toolDiagnostics, loadEntry: prev.loadEntry, checkpoints, loaded, toolsReresolved: set.changed.size, toolsMoved: set.patched.size - set.changed.size };
  }

  /** A conversation standing where `prev` stood at a checkpoint; `prev` and its timeline are not changed. */
  private resume(prev: Conversation, at: Checkpoint, input: DerivationInput): Conversation {
    const engine = prev.engine.forkAt(at.position);
    const rankers: ReadonlyMap<string, Ranker> | undefined = input.rankers;
    // No DefinitionCache.startRun: a resumed run has the previous run's layers, so no tool was removed,
    // and the names it marked as read stay right (its catalogue walked every tool to mark them).
    const catalogue = new RunCatalogue(engine, rankers ?? prev.catalogue.rankerMap, this.indexCache, this.definitionCache);
    catalogue.adoptDocuments(prev.catalogue);
    return {
      policy: prev.policy,
      engine,
      catalogue,
      warnings: at.warnings.clone(),
      layers: at.layers,
      loaded: at.loaded,
      entries: prev.entries.slice(0, at.entries),
      requests: prev.requests.slice(0, at.requests),
      calls: prev.calls.slice(0, at.calls),
      steps: prev.steps.slice(0, at.steps),
      messages: prev.messages.slice(0, at.messages),
      announced: at.announced,
      ...(prev.system !== undefined ? { system: prev.system } : {}),
      derived: { key: '', value: undefined },
    };
  }
}

function checkpointOf(conv: Conversation, steps: number): Checkpoint {
  return {
    steps,
    position: conv.engine.current.index,
    entries: conv.entries.length,
    requests: conv.requests.length,
    calls: conv.calls.length,
    messages: conv.messages.length,
    announced: conv.announced,
    layers: conv.layers,
    loaded: conv.loaded,
    warnings: conv.warnings.clone(),
  };
}

export type { ScenarioStep };
