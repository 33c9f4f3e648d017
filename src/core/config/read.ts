// Reads a TOML tree (a layer file, or a `--cfg` assignment shaped as one) into a
// typed PartialConfig. Bad values are diagnosed at their position and skipped;
// reading never throws.
import { readEnable } from './enable';
import type { Span, TomlEntry, TomlTable, TomlValue } from './toml-ast';
import { toPlain } from './toml-ast';
import type {
  ExtendsEntry,
  McpServerConfig,
  Origin,
  ParameterConfig,
  PartialConfig,
  PartialEnable,
  RunMode,
  Sourced,
  ToolConfig,
  ToolDefaults,
  ToolSource,
} from './types';
import { RUN_MODES } from './types';
import { LayerSourced } from './anchors';

export const RESERVED_TOOL_NAMES: ReadonlySet<string> = new Set(['describe_tools', 'search_tools']);

export const TOOL_KEYS = [
  'source', 'enable', 'command', 'summary', 'description', 'examples', 'parameters', 'run', 'format', 'result',
  'cancellation_response', 'style', 'questions', 'options', 'access', 'groups',
] as const;
export const DEFAULTS_KEYS = ['enable', 'run', 'format', 'result', 'cancellation_response', 'style', 'groups'] as const;
export const PARAMETER_KEYS = ['type', 'required', 'summary', 'description', 'examples', 'enum', 'default', 'items', 'properties'] as const;
export const FORMAT_MODES = ['ask', 'unattended'] as const;
export const RESULT_MODES = ['unattended', 'ask', 'edit', 'skip'] as const;

export interface ReadContext {
  /** Origin of a value node. */
  origin(node: TomlValue | Span): Origin;
  /** A value with the origin of the node it was read from (a layer's keep the origin compact: anchors.ts LayerSourced); `{ value, origin }` when absent. */
  sourced?<T>(value: T, node: TomlValue): Sourced<T>;
  report(severity: 'error' | 'warning', message: string, at: Span, code?: string): void;
}

const list = (keys: readonly string[]): string => keys.join(', ');

function span(node: TomlValue): Span {
  return node.span;
}

function sourced<T>(value: T, node: TomlValue, ctx: ReadContext): Sourced<T> {
  return ctx.sourced ? ctx.sourced(value, node) : { value, origin: ctx.origin(node) };
}

function readString(entry: TomlEntry, ctx: ReadContext, what: string): Sourced<string> | undefined {
  if (entry.value.kind !== 'string') {
    ctx.report('error', `${what} must be a string`, span(entry.value), 'type');
    return undefined;
  }
  return sourced(entry.value.value, entry.value, ctx);
}

/** readString of `path.key`, naming the key only when it is not a string (the message is rarely needed). */
function readStringAt(entry: TomlEntry, ctx: ReadContext, path: string, key: string): Sourced<string> | undefined {
  const v = entry.value;
  return v.kind === 'string' ? sourced(v.value, v, ctx) : readString(entry, ctx, `${path}.${key}`);
}

function readChoice<T extends string>(entry: TomlEntry, ctx: ReadContext, what: string, choices: readonly T[]): Sourced<T> | undefined {
  const v = entry.value;
  if (v.kind !== 'string' || !(choices as readonly string[]).includes(v.value)) {
    const written = v.kind === 'string' ? `'${v.value}'` : `a ${v.kind}`;
    ctx.report('error', `invalid ${what}: ${written}, expected one of ${choices.map((c) => `"${c}"`).join(', ')}`, span(v), `${what}-value`);
    return undefined;
  }
  return sourced(v.value as T, v, ctx);
}

export const SOURCE_MCP_ERROR =
  'MCP tool source must name a server: use `mcp.<server>` or `mcp.<server>.<tool>` (legacy `mcp` is no longer accepted).';

/** JP's source grammar: split at the first `.`. */
export function parseSource(text: string): { ok: true; source: ToolSource } | { ok: false; message: string } {
  const dot = text.indexOf('.');
  const head = dot < 0 ? text : text.slice(0, dot);
  const rest = dot < 0 ? undefined : text.slice(dot + 1);
  if (head === 'local' || head === 'builtin') {
    return { ok: true, source: rest === undefined || rest === '' ? { kind: head } : { kind: head, tool: rest } };
  }
  if (head === 'mcp') {
    if (rest === undefined || rest === '') return { ok: false, message: SOURCE_MCP_ERROR };
    const d2 = rest.indexOf('.');
    const server = d2 < 0 ? rest : rest.slice(0, d2);
    const tool = d2 < 0 ? undefined : rest.slice(d2 + 1);
    if (server === '') {
      return { ok: false, message: 'MCP tool source must name a server: use `mcp.<server>` or `mcp.<server>.<tool>` (legacy `mcp..<tool>` is no longer accepted).' };
    }
    return { ok: true, source: tool === undefined || tool === '' ? { kind: 'mcp', server } : { kind: 'mcp', server, tool } };
  }
  return { ok: false, message: `Unknown tool source: ${text}, must be one of: builtin, local, mcp` };
}

function readEnableEntry(entry: TomlEntry, ctx: ReadContext): PartialEnable | undefined {
  const result = readEnable(entry.value, (n) => ctx.origin(n));
  if (!result.ok) {
    ctx.report('error', result.message, span(result.node), result.code);
    return undefined;
  }
  return result.enable;
}

function readParameter(node: TomlValue, ctx: ReadContext, path: string): ParameterConfig | undefined {
  if (node.kind !== 'table') {
    ctx.report('error', `${path} must be a table with keys ${list(PARAMETER_KEYS)}`, span(node), 'type');
    return undefined;
  }
  const out: {
    -readonly [K in keyof ParameterConfig]: ParameterConfig[K];
  } = {};
  for (const entry of node.entries.values()) {
    const key = entry.key;
    const v = entry.value;
    switch (key) {
      case 'type':
        if (v.kind === 'string') out.type = sourced(v.value, v, ctx);
        else if (v.kind === 'array' && v.items.every((i) => i.kind === 'string')) {
          out.type = sourced(v.items.map((i) => (i.kind === 'string' ? i.value : '')), v, ctx);
        } else ctx.report('error', `${path}.type must be a string or a list of strings`, span(v), 'type');
        break;
      case 'required':
        if (v.kind === 'boolean') out.required = sourced(v.value, v, ctx);
        else ctx.report('error', `${path}.required must be true or false`, span(v), 'type');
        break;
      case 'summary':
      case 'description': {
        const s = readStringAt(entry, ctx, path, key);
        if (s) out[key] = s;
        break;
      }
      case 'examples':
        out.examples = sourced(toPlain(v), v, ctx);
        break;
      case 'enum':
        if (v.kind === 'array') out.enum = sourced(v.items.map((item) => toPlain(item, true)), v, ctx);
        else ctx.report('error', `${path}.enum must be a list`, span(v), 'type');
        break;
      case 'default':
        out.default = sourced(toPlain(v, true), v, ctx);
        break;
      case 'items': {
        const items = readParameter(v, ctx, `${path}.items`);
        if (items) out.items = items;
        break;
      }
      case 'properties': {
        if (v.kind !== 'table') {
          ctx.report('error', `${path}.properties must be a table of parameters`, span(v), 'type');
          break;
        }
        const props = new Map<string, ParameterConfig>();
        for (const pentry of v.entries.values()) {
          const pname = pentry.key;
          const p = readParameter(pentry.value, ctx, `${path}.properties.${pname}`);
          if (p) props.set(pname, p);
        }
        out.properties = props;
        break;
      }
      default:
        ctx.report('error', `unknown key \`${key}\` in ${path}; expected ${list(PARAMETER_KEYS)}`, entry.keySpan, 'unknown-key');
    }
  }
  return out;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function readPassThrough(key: string, entry: TomlEntry, ctx: ReadContext, path: string, out: Mutable<ToolDefaults> | Mutable<ToolConfig>): boolean {
  const v = entry.value;
  switch (key) {
    case 'format': {
      const f = readChoice(entry, ctx, 'format', FORMAT_MODES);
      if (f) out.format = f;
      return true;
    }
    case 'result': {
      const r = readChoice(entry, ctx, 'result', RESULT_MODES);
      if (r) out.result = r;
      return true;
    }
    case 'cancellation_response': {
      const s = readString(entry, ctx, `${path}.cancellation_response`);
      if (s) out.cancellationResponse = s;
      return true;
    }
    case 'style':
      if (v.kind !== 'table') ctx.report('error', `${path}.style must be a table`, span(v), 'type');
      else out.style = sourced(toPlain(v), v, ctx);
      return true;
    case 'groups':
      out.groups = sourced(toPlain(v), v, ctx);
      return true;
    case 'run': {
      const r = readChoice<RunMode>(entry, ctx, 'run', RUN_MODES);
      if (r) out.run = r;
      return true;
    }
    case 'enable': {
      const e = readEnableEntry(entry, ctx);
      if (e) out.enable = e;
      return true;
    }
    default:
      return false;
  }
}

/** The parameters of a tool that declares none (most tools of an MCP layer): one empty map for them all. */
const NO_PARAMETERS: ReadonlyMap<string, ParameterConfig> = new Map();

function readTool(name: string, entry: TomlEntry, ctx: ReadContext): ToolConfig | undefined {
  const node = entry.value;
  const path = `conversation.tools.${name}`;
  if (node.kind !== 'table') {
    ctx.report('error', `${path} must be a table`, span(node), 'type');
    return undefined;
  }
  const out: Mutable<ToolConfig> = { name, enable: {}, parameters: NO_PARAMETERS, declared: ctx.origin(entry.keySpan) };
  // Entries are read by value (an entry's key is its map key): a layer of 10,000 tools has some
  // hundred thousand of them, and iterating [key, entry] pairs costs an array each.
  for (const e of node.entries.values()) {
    const key = e.key;
    if (readPassThrough(key, e, ctx, path, out)) continue;
    const v = e.value;
    switch (key) {
      case 'source': {
        const s = readStringAt(e, ctx, path, key);
        if (!s) break;
        const parsed = parseSource(s.value);
        if (parsed.ok) out.source = s instanceof LayerSourced ? s.with(parsed.source) : { value: parsed.source, origin: s.origin };
        else ctx.report('error', parsed.message, span(v), 'source-value');
        break;
      }
      case 'summary':
      case 'description':
      case 'examples': {
        const s = readStringAt(e, ctx, path, key);
        if (s) out[key] = s;
        break;
      }
      case 'parameters': {
        if (v.kind !== 'table') {
          ctx.report('error', `${path}.parameters must be a table of parameters`, span(v), 'type');
          break;
        }
        const params = new Map<string, ParameterConfig>();
        for (const pentry of v.entries.values()) {
          const pname = pentry.key;
          const p = readParameter(pentry.value, ctx, `${path}.parameters.${pname}`);
          if (p) params.set(pname, p);
        }
        out.parameters = params;
        break;
      }
      case 'command':
        if (v.kind !== 'string' && v.kind !== 'table') ctx.report('error', `${path}.command must be a string or a { program, args, shell } table`, span(v), 'type');
        else out.command = sourced(toPlain(v), v, ctx);
        break;
      case 'questions':
      case 'options':
      case 'access':
        if (v.kind !== 'table') ctx.report('error', `${path}.${key} must be a table`, span(v), 'type');
        else out[key] = sourced(toPlain(v), v, ctx);
        break;
      default:
        ctx.report('error', `unknown key \`${key}\` in ${path}; expected ${list(TOOL_KEYS)}`, e.keySpan, 'unknown-key');
    }
  }
  if (out.access && out.source && out.source.value.kind !== 'local') {
    ctx.report('error', `${path}: \`access\` is only supported on local tools, but '${name}' is a ${out.source.value.kind} tool`, span(node), 'access');
  }
  return out;
}

function readDefaults(entry: TomlEntry, ctx: ReadContext): ToolDefaults | undefined {
  const node = entry.value;
  if (node.kind !== 'table') {
    ctx.report('error', `conversation.tools.'*' must be a table`, span(node), 'type');
    return undefined;
  }
  const out: Mutable<ToolDefaults> = { enable: {} };
  for (const e of node.entries.values()) {
    const key = e.key;
    if (readPassThrough(key, e, ctx, "conversation.tools.'*'", out)) continue;
    ctx.report('error', `unknown key \`${key}\` in conversation.tools.'*'; expected ${list(DEFAULTS_KEYS)}`, e.keySpan, 'unknown-key');
  }
  return out;
}

function readStringList(entry: TomlEntry, ctx: ReadContext, what: string): Sourced<readonly string[]> | undefined {
  const v = entry.value;
  if (v.kind === 'string') return sourced([v.value], v, ctx);
  if (v.kind !== 'array' || !v.items.every((i) => i.kind === 'string')) {
    ctx.report('error', `${what} must be a list of strings`, span(v), 'type');
    return undefined;
  }
  return sourced(v.items.map((i) => (i.kind === 'string' ? i.value : '')), v, ctx);
}

/** `extends`: a string, or a list of strings and `{ path, strategy = "before" | "after" }` tables (JP's `ExtendingRelativePath`). */
function readExtends(entry: TomlEntry, ctx: ReadContext): ExtendsEntry[] | undefined {
  const v = entry.value;
  const items = v.kind === 'array' ? v.items : v.kind === 'string' ? [v] : undefined;
  if (!items) {
    ctx.report('error', 'extends must be a list of paths', span(v), 'type');
    return undefined;
  }
  const out: ExtendsEntry[] = [];
  for (const item of items) {
    if (item.kind === 'string') {
      out.push({ path: item.value, strategy: 'before', span: item.span });
      continue;
    }
    if (item.kind !== 'table') {
      ctx.report('error', 'each extends entry must be a path or a { path, strategy } table', span(item), 'type');
      continue;
    }
    const path = item.entries.get('path')?.value;
    const strategy = item.entries.get('strategy')?.value;
    for (const [key, e] of item.entries) {
      if (key !== 'path' && key !== 'strategy') ctx.report('error', `unknown key \`${key}\` in an extends entry; expected path, strategy`, e.keySpan, 'unknown-key');
    }
    if (path?.kind !== 'string') {
      ctx.report('error', 'an extends entry table needs `path = "..."`', span(path ?? item), 'type');
      continue;
    }
    if (strategy !== undefined && (strategy.kind !== 'string' || (strategy.value !== 'before' && strategy.value !== 'after'))) {
      ctx.report('error', 'invalid extends strategy, expected one of "before", "after"', span(strategy), 'strategy-value');
      continue;
    }
    out.push({ path: path.value, strategy: strategy?.kind === 'string' && strategy.value === 'after' ? 'after' : 'before', span: path.span });
  }
  return out;
}

export const EMPTY_DEFAULTS: ToolDefaults = { enable: {} };

/** What one entry of `conversation.tools` reads as: `'*'`, a reserved name (only diagnosed), or a tool. */
export type ToolsEntryRead =
  | { readonly kind: 'defaults'; readonly defaults: ToolDefaults | undefined }
  | { readonly kind: 'reserved' }
  | { readonly kind: 'tool'; readonly tool: ToolConfig | undefined };

/**
 * Reads one entry of `conversation.tools`. It reads nothing but the entry's own subtree, which is what
 * lets the incremental layer parse (incremental.ts) read one tool again on its own.
 */
export function readToolsEntry(entry: TomlEntry, ctx: ReadContext): ToolsEntryRead {
  const name = entry.key;
  if (name === '*') return { kind: 'defaults', defaults: readDefaults(entry, ctx) };
  if (RESERVED_TOOL_NAMES.has(name)) {
    ctx.report('error', `\`${name}\` is a builtin tool name and cannot be configured (reserved)`, entry.keySpan, 'reserved-name');
    return { kind: 'reserved' };
  }
  return { kind: 'tool', tool: readTool(name, entry, ctx) };
}

/** Where readConfig is in `conversation.tools`, for a caller that keeps each entry's part (incremental.ts). */
/** An entry of `conversation.tools` read while the layer was still being parsed (TomlParseOptions.releaseRun). */
export interface EarlyRead {
  readonly read: ToolsEntryRead;
  /** Its ctx.report calls, in order: made again where the entry's turn comes, so the diagnostics keep the layer's order. */
  readonly reports: readonly Parameters<ReadContext['report']>[];
}

export interface ReadHooks {
  /** Just before the first entry of `conversation.tools` is read (not called when it is not a table). */
  beforeTools?(): void;
  /** Just after each entry of `conversation.tools` is read. */
  toolsEntry?(entry: TomlEntry, read: ToolsEntryRead): void;
}

/** Reads a whole config document. Keys the workbench does not simulate are kept out silently. */
export function readConfig(root: TomlTable, ctx: ReadContext, hooks?: ReadHooks, early?: ReadonlyMap<TomlEntry, EarlyRead>): PartialConfig {
  let defaults: ToolDefaults = EMPTY_DEFAULTS;
  const tools = new Map<string, ToolConfig>();
  const mcpServers = new Map<string, McpServerConfig>();
  let extendsList: Sourced<readonly string[]> | undefined;
  let configLoadPaths: Sourced<readonly string[]> | undefined;

  let extendsEntries: ExtendsEntry[] | undefined;
  const ext = root.entries.get('extends');
  if (ext) {
    const read = readExtends(ext, ctx);
    if (read) {
      extendsEntries = read;
      extendsList = sourced(read.map((e) => e.path), ext.value, ctx);
    }
  }
  const clp = root.entries.get('config_load_paths');
  if (clp) configLoadPaths = readStringList(clp, ctx, 'config_load_paths');

  const conversation = root.entries.get('conversation')?.value;
  const toolsNode = conversation?.kind === 'table' ? conversation.entries.get('tools') : undefined;
  if (toolsNode) {
    if (toolsNode.value.kind !== 'table') {
      ctx.report('error', 'conversation.tools must be a table', span(toolsNode.value), 'type');
    } else {
      hooks?.beforeTools?.();
      for (const entry of toolsNode.value.entries.values()) {
        const done = early?.get(entry);
        if (done) for (const r of done.reports) ctx.report(...r);
        const read = done ? done.read : readToolsEntry(entry, ctx);
        if (read.kind === 'defaults') defaults = read.defaults ?? defaults;
        else if (read.kind === 'tool' && read.tool) tools.set(entry.key, read.tool);
        hooks?.toolsEntry?.(entry, read);
      }
    }
  }

  const providers = root.entries.get('providers')?.value;
  const mcp = providers?.kind === 'table' ? providers.entries.get('mcp') : undefined;
  if (mcp) {
    if (mcp.value.kind !== 'table') ctx.report('error', 'providers.mcp must be a table of servers', span(mcp.value), 'type');
    else {
      for (const [name, entry] of mcp.value.entries) {
        if (entry.value.kind !== 'table') {
          ctx.report('error', `providers.mcp.${name} must be a table`, span(entry.value), 'type');
          continue;
        }
        const raw = toPlain(entry.value) as Record<string, unknown>;
        const optional = entry.value.entries.get('optional')?.value;
        mcpServers.set(name, {
          name,
          declared: ctx.origin(entry.keySpan),
          raw,
          ...(optional?.kind === 'boolean' ? { optional: optional.value } : {}),
        });
      }
    }
  }

  return {
    defaults,
    tools,
    mcpServers,
    ...(extendsList ? { extends: extendsList } : {}),
    ...(extendsEntries ? { extendsEntries } : {}),
    ...(configLoadPaths ? { configLoadPaths } : {}),
  };
}

export const EMPTY_CONFIG: PartialConfig = { defaults: EMPTY_DEFAULTS, tools: new Map(), mcpServers: new Map() };
