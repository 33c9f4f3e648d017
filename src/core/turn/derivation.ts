// The incremental derivation (issue 23.3): one document derived again and again as it is edited, with
// nothing re-done that the edit cannot have changed.
//
//   - a layer is parsed only when its text changes (LayerCache, by name and text);
//   - a tool's definition is built only when its config changes (DefinitionCache), and so its search
//     document; the search index is rebuilt only when the documents change (IndexCache), never for an
//     availability edit;
//   - the run restarts from the first step the edit can affect: the steps before it, their positions,
//     requests, calls and rows, are the previous run's (the engine is forked at the position the last
//     kept step left, StreamEngine.forkAt). An edit of a layer, a server, the policy or anything above
//     the steps affects every position, so the run starts over (with the caches above).
//
// A derivation is a value in and a value out: `run` returns a Timeline equal to runScenario's on the
// same input (the property tests in derivation.test.ts hold it to that), and never changes a timeline
// it returned before. `throughStep` plays only the first steps, so a shell can answer the selected
// position first and the rest after: the next run with the same input resumes where it stopped.
import type { Diagnostic } from '../config/types';
import type { Layer, LoadedLayer } from '../config/layer';
import type { ScenarioStep } from '../scenario/types';
import type { Ranker } from '../search/types';
import { IndexCache, LayerCache } from './caches';
import type { Conversation } from './conversation';
import { DefinitionCache } from './definitions';
import { RunCatalogue } from './lookups';
import { playSteps, startConversation, timelineOf } from './run';
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
  /** Whether the run started over (a layer, server, policy or workspace change, or the first run). */
  readonly restarted: boolean;
  /** Layers parsed by this run, whole or (an edit inside one tool's tables) only those tables (the others' texts were unchanged). */
  readonly layersParsed: number;
  /** Search indexes built by this run (0: the catalogue's documents were unchanged). */
  readonly indexBuilds: number;
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
  readonly conv: Conversation;
  readonly diagnostics: readonly Diagnostic[];
  readonly loadEntry: number;
  /** checkpoints[k]: after k steps (0: after loading). */
  readonly checkpoints: readonly Checkpoint[];
}

/**
 * Deep equality of plain values (objects, arrays, Maps, Sets, primitives). Used on scenario parts:
 * spans included, so a step whose text moved is not taken as unchanged.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
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
 * How many leading steps of `next` a run may take from a run of `prev` unchanged: -1 when anything the
 * steps play against differs (layers, servers, policy, workspace, rankers, live servers: even loading
 * must be redone), else the number of leading steps equal in value and place (their spans included).
 */
export function unchangedSteps(prev: DerivationInput, next: DerivationInput): number {
  const a = prev.scenario;
  const b = next.scenario;
  if (!sameValue(a.policy, b.policy) || !sameLayers(a.layers, b.layers) || !sameLayers(prev.workspaceLayers, next.workspaceLayers)) return -1;
  if (!sameValue(a.servers, b.servers) || !sameValue(prev.workspaceDiagnostics ?? [], next.workspaceDiagnostics ?? [])) return -1;
  if (!sameMembers(prev.extraServers, next.extraServers) || prev.rankers !== next.rankers) return -1;
  let k = 0;
  while (k < a.steps.length && k < b.steps.length && sameValue(a.steps[k], b.steps[k])) k++;
  return k;
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
    const definitionsBefore = this.definitionCache.built;
    const prev = this.previous;
    const keep = prev ? Math.min(unchangedSteps(prev.input, input), prev.checkpoints.length - 1, through) : -1;
    let conv: Conversation;
    let diagnostics: readonly Diagnostic[];
    let loadEntry: number;
    let checkpoints: Checkpoint[];
    if (prev && keep >= 0 && prev.checkpoints[keep]) {
      conv = this.resume(prev.conv, prev.checkpoints[keep], input);
      diagnostics = prev.diagnostics;
      loadEntry = prev.loadEntry;
      checkpoints = prev.checkpoints.slice(0, keep + 1);
    } else {
      const started = startConversation({ ...input, layerCache: this.layerCache, indexCache: this.indexCache, definitionCache: this.definitionCache });
      conv = started.conv;
      diagnostics = started.diagnostics;
      loadEntry = conv.entries.length - 1;
      checkpoints = [checkpointOf(conv, 0)];
    }
    const from = checkpoints.length - 1;
    playSteps(conv, steps, from, through, (played) => checkpoints.push(checkpointOf(conv, played)));
    this.previous = { input, conv, diagnostics, loadEntry, checkpoints };
    this.stats = {
      stepsReused: from,
      stepsPlayed: through - from,
      restarted: !prev || keep < 0,
      layersParsed: this.layerCache.parsed + this.layerCache.tablesReparsed - parsedBefore,
      indexBuilds: this.indexCache.builds - buildsBefore,
      definitionsBuilt: this.definitionCache.built - definitionsBefore,
      steps: steps.length,
      complete: through === steps.length,
    };
    return timelineOf(conv, input.scenario.name, diagnostics, loadEntry);
  }

  /** A conversation standing where `prev` stood at a checkpoint; `prev` and its timeline are not changed. */
  private resume(prev: Conversation, at: Checkpoint, input: DerivationInput): Conversation {
    const engine = prev.engine.forkAt(at.position);
    const rankers: ReadonlyMap<string, Ranker> | undefined = input.rankers;
    this.definitionCache.startRun();
    return {
      policy: prev.policy,
      engine,
      catalogue: new RunCatalogue(engine, rankers ?? prev.catalogue.rankerMap, this.indexCache, this.definitionCache),
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
