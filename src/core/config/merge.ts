// Layer merge rules (jp-today 3.4): tool maps keep the first position of a name
// and deep-merge later entries into it; enable merges per field; parameters
// merge per key; an MCP server's lists append; every other field is replaced whole.
import { mergeEnable } from './enable';
import type { McpServerConfig, ParameterConfig, PartialConfig, ToolConfig, ToolDefaults } from './types';

export function mergeParameter(lower: ParameterConfig, upper: ParameterConfig): ParameterConfig {
  const properties =
    lower.properties && upper.properties ? mergeParameterMap(lower.properties, upper.properties) : (upper.properties ?? lower.properties);
  const items = lower.items && upper.items ? mergeParameter(lower.items, upper.items) : (upper.items ?? lower.items);
  return { ...lower, ...upper, ...(items ? { items } : {}), ...(properties ? { properties } : {}) };
}

export function mergeParameterMap(
  lower: ReadonlyMap<string, ParameterConfig>,
  upper: ReadonlyMap<string, ParameterConfig>,
): ReadonlyMap<string, ParameterConfig> {
  if (upper.size === 0) return lower;
  if (lower.size === 0) return upper;
  const out = new Map(lower);
  for (const [name, p] of upper) {
    const existing = out.get(name);
    out.set(name, existing ? mergeParameter(existing, p) : p);
  }
  return out;
}

export function mergeTool(lower: ToolConfig, upper: ToolConfig): ToolConfig {
  return {
    ...lower,
    ...upper,
    name: lower.name,
    declared: lower.declared,
    enable: mergeEnable(lower.enable, upper.enable),
    parameters: mergeParameterMap(lower.parameters, upper.parameters),
  };
}

export function mergeDefaults(lower: ToolDefaults, upper: ToolDefaults): ToolDefaults {
  return { ...lower, ...upper, enable: mergeEnable(lower.enable, upper.enable) };
}

const isTable = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A server's keys as JP merges them (workspace/mcp-servers.ts, which launches from the layers): the
 * lists `arguments` and `variables` are appended to (JP's `append_vec`), `checksum` merges per key,
 * anything else is replaced. A value of the wrong shape is replaced, for the launch spec to report.
 */
function mergeServerRaw(lower: Readonly<Record<string, unknown>>, upper: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  // Own keys only, and defined rather than assigned: a key named `__proto__` is a key like any other.
  const merged = Object.entries(upper).map(([key, b]): [string, unknown] => {
    const a = Object.hasOwn(lower, key) ? lower[key] : undefined;
    if ((key === 'arguments' || key === 'variables') && Array.isArray(a) && Array.isArray(b)) return [key, [...(a as unknown[]), ...(b as unknown[])]];
    if (key === 'checksum' && isTable(a) && isTable(b)) return [key, { ...a, ...b }];
    return [key, b];
  });
  return { ...lower, ...Object.fromEntries(merged) };
}

function mergeServers(
  lower: ReadonlyMap<string, McpServerConfig>,
  upper: ReadonlyMap<string, McpServerConfig>,
): ReadonlyMap<string, McpServerConfig> {
  if (upper.size === 0) return lower;
  if (lower.size === 0) return upper;
  const out = new Map(lower);
  for (const [name, s] of upper) {
    const existing = out.get(name);
    out.set(name, existing ? { ...existing, ...s, declared: existing.declared, raw: mergeServerRaw(existing.raw, s.raw) } : s);
  }
  return out;
}

/** Merges `upper` over `lower`. Neither input is changed. */
export function mergeConfigs(lower: PartialConfig, upper: PartialConfig): PartialConfig {
  let tools: ReadonlyMap<string, ToolConfig> = lower.tools;
  if (upper.tools.size > 0) {
    if (lower.tools.size === 0) tools = upper.tools;
    else {
      const out = new Map(lower.tools);
      for (const [name, t] of upper.tools) {
        const existing = out.get(name);
        out.set(name, existing ? mergeTool(existing, t) : t);
      }
      tools = out;
    }
  }
  return {
    defaults: mergeDefaults(lower.defaults, upper.defaults),
    tools,
    mcpServers: mergeServers(lower.mcpServers, upper.mcpServers),
  };
}
