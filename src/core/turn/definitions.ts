// Tool definitions kept from one run to the next. A run builds a configured
// tool's definition (its schema and docs) only when something reads it (a
// request's cost, rendering, a search index), but every run starts from freshly
// loaded layers, so typing one character in a 1,000-tool layer would build and
// measure all 1,000 definitions again. With this cache, a tool whose definition
// inputs are the same as in the previous run gets the same definition object
// back, and so its cost, tokens and search document, which are memoized per
// definition object, are not computed again.
//
// "The same inputs": the tool's merged config, compared by value with every
// origin (where a value was written) and the enable fields left out, its run
// mode and its name. Origins move whenever text above them changes, but a
// definition never holds one. MCP tools, whose definition also depends on the
// server's tool list, are always built anew.
import type { ToolConfig } from '../config/types';
import { LayerSourced } from '../config/anchors';
import type { ToolDefinition } from '../catalogue/types';
import type { ToolState } from '../stream/engine';

interface Entry {
  readonly config: ToolConfig;
  readonly run: ToolState['run'];
  readonly resolution: ToolState['resolution'];
  readonly definition: ToolDefinition;
}

const ORIGIN_KINDS = new Set(['layer', 'delta', 'builtin', 'default']);

/** A `Sourced` value: `{ value, origin }` with an origin's shape. */
function isSourced(o: Record<string, unknown>): boolean {
  if (o instanceof LayerSourced) return true;
  if (!('value' in o) || !('origin' in o)) return false;
  const origin = o.origin as { kind?: unknown } | null;
  if (typeof origin !== 'object' || origin === null || !ORIGIN_KINDS.has(origin.kind as string)) return false;
  for (const k in o) if (k !== 'value' && k !== 'origin') return false;
  return true;
}

/**
 * Deep equality of config values, ignoring origins (and, at the top, the tool's enable and declared fields).
 * `raw`: inside a written value, which is the user's data (a parameter's `default` may be any table): a
 * table there shaped like `{ value, origin }` is compared whole, or editing its `origin` would keep the
 * definition of the text before the edit.
 */
function same(a: unknown, b: unknown, top = false, raw = false): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i], false, raw)) return false;
    return true;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    // In order: a parameter's (or property's) place in its Map is its place in the definition's schema.
    const ib = b.entries();
    for (const [k, v] of a) {
      const next = ib.next().value;
      if (!next || next[0] !== k || !same(v, next[1], false, raw)) return false;
    }
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // Before the prototypes: a layer's value (LayerSourced) and a delta's (a plain pair) may be compared.
  if (!raw && (isSourced(x) || isSourced(y))) return isSourced(x) && isSourced(y) && same(x.value, y.value, false, true);
  // An array or a map against `a` (neither, by now) has another prototype.
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  let n = 0;
  for (const k in x) {
    if (x[k] === undefined || (top && (k === 'enable' || k === 'declared'))) continue;
    n++;
    if (!same(x[k], y[k], false, raw)) return false;
  }
  let m = 0;
  for (const k in y) if (y[k] !== undefined && !(top && (k === 'enable' || k === 'declared'))) m++;
  return n === m;
}

export class DefinitionCache {
  private entries = new Map<string, Entry>();
  private used = new Set<string>();
  /** How many definitions were built (not reused) since the cache was made: for tests. */
  built = 0;

  /** The definition of a resolved tool's state: the previous run's when its inputs are the same, else built now. */
  definition(state: ToolState): ToolDefinition | undefined {
    const resolution = state.resolution;
    if (!resolution.ok) return undefined;
    const kept = this.kept(state);
    if (kept) return kept;
    const definition = resolution.definition;
    this.built++;
    this.entries.set(state.name, { config: state.config, run: state.run, resolution, definition });
    return definition;
  }

  /** What `definition` answers when it needs to build nothing; undefined when it would build one. */
  kept(state: ToolState): ToolDefinition | undefined {
    const resolution = state.resolution;
    if (!resolution.ok) return undefined;
    this.used.add(state.name);
    const hit = this.entries.get(state.name);
    if (hit && hit.resolution === resolution) return hit.definition;
    if (hit && hit.run === state.run && hit.definition.kind !== 'mcp' && state.config.source?.value.kind !== 'mcp' && same(hit.config, state.config, true)) {
      this.entries.set(state.name, { config: state.config, run: state.run, resolution, definition: hit.definition });
      return hit.definition;
    }
    return undefined;
  }

  /** Call once per run, before it: forgets the tools the previous run did not read (removed or renamed), once they pile up. */
  startRun(): void {
    if (this.used.size > 0 && this.entries.size > 2 * this.used.size + 100) {
      for (const name of [...this.entries.keys()]) if (!this.used.has(name)) this.entries.delete(name);
    }
    this.used = new Set();
  }
}
