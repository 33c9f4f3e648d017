// Resolving a configured tool into the definition the model and the executor
// see (jp-today 1.5, 1.6): local and builtin tools from config; MCP tools from
// their server's tools/list, with config overriding docs and parameters.
import type { ParameterConfig, RunMode, ToolConfig, ToolSource } from '../config/types';
import type { McpToolEntry } from './tools-list';
import { splitDescription } from './split-description';
import type { JsonSchema, ParameterDocs, ToolDefinition } from './types';

export type ServerStatus = 'running' | 'offline';

/** A simulated MCP server: its status and the tools its tools/list returns. */
export interface SimServer {
  readonly name: string;
  readonly status: ServerStatus;
  readonly tools: ReadonlyMap<string, McpToolEntry>;
  /** Why it is offline, when it is (for the timeline's warning). */
  readonly reason?: string;
}

export type Unresolvable =
  | { readonly reason: 'server-offline'; readonly server: string; readonly message: string }
  | { readonly reason: 'server-unknown'; readonly server: string; readonly message: string }
  | { readonly reason: 'tool-missing'; readonly server: string; readonly message: string };

export type Resolution = { readonly ok: true; readonly definition: ToolDefinition } | ({ readonly ok: false } & Unresolvable);

function obj(): JsonSchema {
  return Object.create(null) as JsonSchema;
}

/** JP's to_json_schema for a configured parameter. */
export function parameterSchema(p: ParameterConfig): JsonSchema {
  const out = obj();
  if (p.type) out.type = p.type.value;
  const description = p.summary?.value ?? p.description?.value;
  if (description !== undefined) out.description = description;
  if (p.default) out.default = p.default.value;
  if (p.enum) out.enum = p.enum.value;
  if (p.items) out.items = parameterSchema(p.items);
  if (p.properties && p.properties.size > 0) {
    const props = obj();
    const required: string[] = [];
    for (const [name, child] of p.properties) {
      props[name] = parameterSchema(child);
      if (child.required?.value) required.push(name);
    }
    out.properties = props;
    out.required = required;
  }
  return out;
}

function parameterDocs(p: ParameterConfig): ParameterDocs | undefined {
  const examples = p.examples?.value;
  const docs: ParameterDocs = {
    ...(p.summary ? { summary: p.summary.value } : {}),
    ...(p.description ? { description: p.description.value } : {}),
    ...(examples !== undefined ? { examples: typeof examples === 'string' ? examples : JSON.stringify(examples) } : {}),
  };
  return docs.summary !== undefined || docs.description !== undefined || docs.examples !== undefined ? docs : undefined;
}

function localDefinition(tool: ToolConfig, run: RunMode, kind: 'local' | 'builtin', backendName: string): ToolDefinition {
  const parameters = new Map<string, JsonSchema>();
  const required: string[] = [];
  const docsParams = new Map<string, ParameterDocs>();
  for (const [name, p] of tool.parameters) {
    parameters.set(name, parameterSchema(p));
    if (p.required?.value) required.push(name);
    const d = parameterDocs(p);
    if (d) docsParams.set(name, d);
  }
  // JP: summary falls back to description, so a tool with only a description uses it as both.
  const summary = tool.summary?.value ?? tool.description?.value;
  const description = tool.description?.value;
  return {
    name: tool.name,
    kind,
    backendName,
    docs: {
      ...(summary !== undefined ? { summary } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(tool.examples ? { examples: tool.examples.value } : {}),
      parameters: docsParams,
    },
    ...(summary !== undefined ? { schemaDescription: summary } : {}),
    parameters,
    required,
    run,
  };
}

/** JP's merge_description: no user text → the server's; `{{description}}` → substituted; else the user's. */
export function mergeDescription(user: string | undefined, server: string | undefined): string | undefined {
  if (user === undefined) return server;
  if (user.includes('{{description}}')) return user.split('{{description}}').join(server ?? '');
  return user;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function own(o: Record<string, unknown>, k: string): unknown {
  return Object.hasOwn(o, k) ? o[k] : undefined;
}

function mcpDefinition(tool: ToolConfig, entry: McpToolEntry, server: string, run: RunMode): ToolDefinition {
  const merged = mergeDescription(tool.description?.value, entry.description === '' ? undefined : entry.description);
  const props = own(entry.inputSchema, 'properties');
  const serverRequired = own(entry.inputSchema, 'required');
  const requiredSet = new Set(Array.isArray(serverRequired) ? serverRequired.filter((r): r is string => typeof r === 'string') : []);
  const parameters = new Map<string, JsonSchema>();
  const docsParams = new Map<string, ParameterDocs>();
  const required: string[] = [];
  if (isRecord(props)) {
    for (const name of Object.keys(props)) {
      const raw = props[name];
      const schema = obj();
      if (isRecord(raw)) for (const k of Object.keys(raw)) schema[k] = raw[k];
      // Overrides only for parameters the server declares (JP drops the rest silently).
      const user = tool.parameters.get(name);
      const serverDesc = typeof schema.description === 'string' ? schema.description : undefined;
      const desc = mergeDescription(user?.description?.value, serverDesc);
      if (user) {
        if (user.type) schema.type = user.type.value;
        if (user.items) schema.items = parameterSchema(user.items);
        if (user.default) schema.default = user.default.value;
        if (user.enum && user.enum.value.length > 0) schema.enum = user.enum.value;
        if (user.properties && user.properties.size > 0) schema.properties = parameterSchema({ properties: user.properties }).properties;
      }
      if (desc !== undefined) schema.description = desc;
      else delete schema.description;
      parameters.set(name, schema);
      if (requiredSet.has(name) || user?.required?.value) required.push(name);
      const summary = user?.summary?.value ?? (desc !== undefined ? splitDescription(desc) : undefined);
      if (summary !== undefined || desc !== undefined) {
        docsParams.set(name, { ...(summary !== undefined ? { summary } : {}), ...(desc !== undefined ? { description: desc } : {}) });
      }
    }
  }
  const ownSummary = tool.summary?.value ?? (tool.description ? merged : undefined);
  const summary = ownSummary ?? (merged !== undefined ? splitDescription(merged) : undefined);
  return {
    name: tool.name,
    kind: 'mcp',
    server,
    backendName: entry.name,
    docs: {
      ...(summary !== undefined ? { summary } : {}),
      ...(merged !== undefined ? { description: merged } : {}),
      ...(tool.examples ? { examples: tool.examples.value } : {}),
      parameters: docsParams,
    },
    ...(summary !== undefined ? { schemaDescription: summary } : {}),
    parameters,
    required,
    run,
    ...(entry.annotations ? { annotations: entry.annotations } : {}),
  };
}

/**
 * A successful resolution whose definition is built on first use and kept: whether a tool resolves
 * is cheap and decides the sets at every position, while building its schema and docs is needed only
 * by a request, a search index or describe_tools (and at 10,000 tools would dominate the stream).
 */
class Resolved {
  readonly ok = true as const;
  private built: ToolDefinition | undefined;
  constructor(
    private readonly tool: ToolConfig,
    private readonly run: RunMode,
    private readonly kind: 'local' | 'builtin' | 'mcp',
    private readonly backendName: string,
    private readonly entry?: McpToolEntry,
    private readonly server?: string,
  ) {}
  get definition(): ToolDefinition {
    if (!this.built) {
      this.built =
        this.kind === 'mcp' && this.entry && this.server !== undefined
          ? mcpDefinition(this.tool, this.entry, this.server, this.run)
          : localDefinition(this.tool, this.run, this.kind === 'builtin' ? 'builtin' : 'local', this.backendName);
    }
    return this.built;
  }
}

const LOCAL: ToolSource = { kind: 'local' };

/** Resolves one tool. `run` is its effective run mode. */
export function resolveTool(tool: ToolConfig, run: RunMode, servers: ReadonlyMap<string, SimServer>): Resolution {
  const source = tool.source?.value ?? LOCAL;
  if (source.kind !== 'mcp') return new Resolved(tool, run, source.kind, source.tool ?? tool.name);
  const server = servers.get(source.server);
  if (!server) {
    return { ok: false, reason: 'server-unknown', server: source.server, message: `MCP server \`${source.server}\` is not defined, so \`${tool.name}\` is not available` };
  }
  if (server.status !== 'running') {
    return { ok: false, reason: 'server-offline', server: source.server, message: `MCP server \`${source.server}\` is not running${server.reason ? ` (${server.reason})` : ''}, so \`${tool.name}\` is not available` };
  }
  const backendName = source.tool ?? tool.name;
  const entry = server.tools.get(backendName);
  if (!entry) {
    return { ok: false, reason: 'tool-missing', server: source.server, message: `MCP server \`${source.server}\` does not list \`${backendName}\`, so \`${tool.name}\` is not available` };
  }
  return new Resolved(tool, run, 'mcp', backendName, entry, source.server);
}
