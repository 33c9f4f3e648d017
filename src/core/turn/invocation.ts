// One `jp q` invocation before its turn (semantics 2, 3 and 8.21): the --cfg
// assignments apply first, in order; then the directives, left to right; then
// -u/-U is validated against the result. Together they form ONE delta.
import { assignmentToDelta } from '../config/assign';
import { acceptsScope } from '../config/effective';
import { lockedWord } from '../config/enable';
import { mergeConfigs } from '../config/merge';
import { EMPTY_CONFIG, EMPTY_DEFAULTS } from '../config/read';
import type { Availability, DeltaSource, Origin, ParameterConfig, PartialConfig, ToolConfig } from '../config/types';
import { DESCRIBE_TOOLS, SEARCH_TOOLS } from '../catalogue/builtins';
import type { QueryCommand } from '../cli/parse';
import type { ToolChoice } from '../providers/types';
import type { Policy } from '../scenario/policy';
import type { StreamEngine } from '../stream/engine';
import { nextDeltaNumber } from './conversation';

export type Prepared =
  | { ok: true; delta: PartialConfig; sources: DeltaSource[]; toolChoice: ToolChoice; forced?: string }
  | { ok: false; error: string };

export const toolNotFound = (name: string): string => `Tool not found: ${name}`;

const NO_PARAMETERS: ReadonlyMap<string, ParameterConfig> = new Map();

/** A delta setting only availability on the given tools. */
export function availabilityDelta(changes: ReadonlyMap<string, Availability>, origin: Origin): PartialConfig {
  const tools = new Map<string, ToolConfig>();
  // Values are immutable: every tool moved to the same availability shares one enable (a bulk -T moves thousands).
  const shared = new Map<Availability, PartialConfig['defaults']['enable']>();
  for (const [name, availability] of changes) {
    let enable = shared.get(availability);
    if (!enable) shared.set(availability, (enable = { availability: { value: availability, origin } }));
    tools.set(name, { name, enable, parameters: NO_PARAMETERS, declared: origin });
  }
  return { defaults: EMPTY_DEFAULTS, tools, mcpServers: new Map() };
}

function directiveTarget(kind: 'enable' | 'disable', current: Availability): Availability | undefined {
  if (kind === 'enable') return current === 'on' ? undefined : 'on';
  return current === 'off' ? undefined : 'off';
}

export function prepareInvocation(engine: StreamEngine, cmd: QueryCommand, policy: Policy, commandText: string): Prepared {
  const deltaNumber = nextDeltaNumber(engine);
  let working: PartialConfig = EMPTY_CONFIG;
  const sources: DeltaSource[] = [];
  for (const a of cmd.assignments) {
    const origin: Origin = { kind: 'delta', delta: deltaNumber, source: 'cfg', detail: `--cfg ${a.key}${a.json ? ':=' : '='}${a.value}` };
    const r = assignmentToDelta(a, origin);
    if (!r.ok) return { ok: false, error: r.error };
    working = mergeConfigs(working, r.delta);
  }
  if (cmd.assignments.length > 0) sources.push('cfg');

  const registered = engine.isRegistered;
  const builtinConfigured = (name: string): boolean => name === DESCRIBE_TOOLS || (name === SEARCH_TOOLS && registered);

  for (const d of cmd.directives) {
    const flag = d.kind === 'enable' ? '-t' : '-T';
    const origin: Origin = { kind: 'delta', delta: deltaNumber, source: 'directive', detail: d.name === undefined ? flag : `${flag} ${d.name}` };
    const changes = new Map<string, Availability>();
    if (d.name === undefined) {
      for (const name of engine.pendingOrder(working)) {
        const eff = engine.pendingEnable(name, working);
        const target = directiveTarget(d.kind, eff.availability.value);
        if (target && acceptsScope(eff.allowToggle.value, 'bulk')) changes.set(name, target);
      }
    } else {
      const name = d.name;
      if (builtinConfigured(name)) {
        // Builtins are locked on: -t is a no-op, -T the locked-on error.
        if (d.kind === 'disable') return { ok: false, error: `cannot disable \`${name}\`: this tool is configured as locked-on` };
        continue;
      }
      if (!engine.pendingHas(name, working)) return { ok: false, error: toolNotFound(name) };
      const eff = engine.pendingEnable(name, working);
      const target = directiveTarget(d.kind, eff.availability.value);
      if (!target) continue;
      if (!acceptsScope(eff.allowToggle.value, 'named')) {
        return { ok: false, error: `cannot ${d.kind} \`${name}\`: this tool is configured as ${lockedWord(eff.availability.value)}` };
      }
      changes.set(name, target);
    }
    if (changes.size > 0) working = mergeConfigs(working, availabilityDelta(changes, origin));
  }
  if (cmd.directives.length > 0 && !sources.includes('directive')) sources.push('directive');

  let toolChoice: ToolChoice = { kind: 'auto' };
  let forced: string | undefined;
  const use = cmd.toolUse;
  if (use && use.kind !== 'auto') {
    if (use.kind === 'function') {
      const name = use.name;
      if (!builtinConfigured(name)) {
        if (!engine.pendingHas(name, working)) return { ok: false, error: toolNotFound(name) };
        const eff = engine.pendingEnable(name, working);
        if (eff.availability.value === 'off' && eff.allowToggle.value === 'never') {
          return { ok: false, error: `tool choice forces \`${name}\`, but it is locked off (availability = off, allow_toggle = never)` };
        }
        if (policy.forced_off_tool === 'reject' && eff.availability.value === 'off') {
          return { ok: false, error: `tool choice '${name}' does not match any enabled tools` };
        }
      }
      forced = name;
      toolChoice = { kind: 'function', name };
    } else toolChoice = use;
  }
  void commandText;
  return { ok: true, delta: working, sources, toolChoice, ...(forced !== undefined ? { forced } : {}) };
}
