// Resolving a configured tool into the definition the model and the executor
// see (jp-today 1.5, 1.6): local and builtin tools from config; MCP tools from
// their server's tools/list, with config overriding docs and parameters.
import type { ParameterConfig, RunMode, ToolConfig, ToolSource } from '../config/types';
import type { SearchDocument } from '../search/types';
import type { McpToolEntry } from './tools-list';
import { pushParameterDocs, searchDocument } from './search-document';
import { splitDescription } from './split-description';
import type { JsonSchema, ParameterDocs, ToolDefinition, ToolDocs } from './types';

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

/** `{ summary?, description?, examples? }` in that key order, without spreading temporaries. */
function docsOf(summary: string | undefined, description: string | undefined, examples?: string): ParameterDocs {
  const docs: { -readonly [K in keyof ParameterDocs]: ParameterDocs[K] } = {};
  if (summary !== undefined) docs.summary = summary;
  if (description !== undefined) docs.description = description;
  if (examples !== undefined) docs.examples = examples;
  return docs;
}

function parameterDocs(p: ParameterConfig): ParameterDocs | undefined {
  const examples = p.examples?.value;
  const summary = p.summary?.value;
  const description = p.description?.value;
  if (summary === undefined && description === undefined && examples === undefined) return undefined;
  return docsOf(summary, description, examples === undefined ? undefined : typeof examples === 'string' ? examples : JSON.stringify(examples));
}

/** A tool's docs in ToolDocs' key order (summary, description, examples, parameters). */
function toolDocs(summary: string | undefined, description: string | undefined, examples: string | undefined, parameters: ReadonlyMap<string, ParameterDocs>): ToolDocs {
  const docs: { -readonly [K in keyof ToolDocs]: ToolDocs[K] } = docsOf(summary, description, examples) as ToolDocs;
  docs.parameters = parameters;
  return docs;
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
  const docs = toolDocs(summary, description, tool.examples?.value, docsParams);
  return summary !== undefined
    ? { name: tool.name, kind, backendName, docs, schemaDescription: summary, parameters, required, run }
    : { name: tool.name, kind, backendName, docs, parameters, required, run };
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

/** A server parameter schema's own `description`, when it is a string (what copying its keys would carry). */
function serverDescription(raw: unknown): string | undefined {
  return isRecord(raw) && Object.prototype.propertyIsEnumerable.call(raw, 'description') && typeof raw.description === 'string' ? raw.description : undefined;
}

/** A parameter's summary: the user's, else the first sentence of its (merged) description. */
function mcpParameterSummary(user: ParameterConfig | undefined, desc: string | undefined): string | undefined {
  return user?.summary?.value ?? (desc !== undefined ? splitDescription(desc) : undefined);
}

/** A tool's summary: the user's (or their description, merged), else the first sentence of the merged description. */
function mcpToolSummary(tool: ToolConfig, merged: string | undefined): string | undefined {
  const ownSummary = tool.summary?.value ?? (tool.description ? merged : undefined);
  return ownSummary ?? (merged !== undefined ? splitDescription(merged) : undefined);
}

function mcpMergedDescription(tool: ToolConfig, entry: McpToolEntry): string | undefined {
  return mergeDescription(tool.description?.value, entry.description === '' ? undefined : entry.description);
}

const NONE: readonly unknown[] = [];

function mcpDefinition(tool: ToolConfig, entry: McpToolEntry, server: string, run: RunMode): ToolDefinition {
  const merged = mcpMergedDescription(tool, entry);
  const props = own(entry.inputSchema, 'properties');
  const serverRequired = own(entry.inputSchema, 'required');
  // Usually a name or two: a scan beats building a Set per tool. (Non-strings never equal a name.)
  const requiredList = Array.isArray(serverRequired) ? (serverRequired as readonly unknown[]) : NONE;
  const requiredSet = requiredList.length > 16 ? new Set(requiredList) : undefined;
  const parameters = new Map<string, JsonSchema>();
  const docsParams = new Map<string, ParameterDocs>();
  const required: string[] = [];
  if (isRecord(props)) {
    for (const name of Object.keys(props)) {
      const raw = props[name];
      const schema = obj();
      if (isRecord(raw)) for (const k of Object.keys(raw)) schema[k] = raw[k];
      // Overrides only for parameters the server declares (JP drops the rest silently).
      const user = tool.parameters.size > 0 ? tool.parameters.get(name) : undefined;
      const desc = mergeDescription(user?.description?.value, serverDescription(raw));
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
      if ((requiredSet ? requiredSet.has(name) : requiredList.includes(name)) || user?.required?.value) required.push(name);
      const summary = mcpParameterSummary(user, desc);
      if (summary !== undefined || desc !== undefined) docsParams.set(name, docsOf(summary, desc));
    }
  }
  const summary = mcpToolSummary(tool, merged);
  const docs = toolDocs(summary, merged, tool.examples?.value, docsParams);
  const definition: { -readonly [K in keyof ToolDefinition]: ToolDefinition[K] } =
    summary !== undefined
      ? { name: tool.name, kind: 'mcp', server, backendName: entry.name, docs, schemaDescription: summary, parameters, required, run }
      : { name: tool.name, kind: 'mcp', server, backendName: entry.name, docs, parameters, required, run };
  if (entry.annotations) definition.annotations = entry.annotations;
  return definition;
}

// What search_tools searches, taken from the tool's docs alone: what searchDocument(definition) gives,
// without building the schemas (at 10,000 tools the index needs every tool's document, a run seldom
// needs more than a few definitions).

function localSearchDocument(tool: ToolConfig, order: number): SearchDocument {
  const parameterNames: string[] = [];
  const parameterDescriptions: string[] = [];
  for (const [name, p] of tool.parameters) {
    parameterNames.push(name);
    pushParameterDocs(parameterDescriptions, p.summary?.value, p.description?.value);
  }
  return {
    name: tool.name,
    order,
    parameterNames,
    summary: tool.summary?.value ?? tool.description?.value ?? '',
    description: tool.description?.value ?? '',
    parameterDescriptions,
  };
}

function mcpSearchDocument(tool: ToolConfig, entry: McpToolEntry, order: number): SearchDocument {
  const merged = mcpMergedDescription(tool, entry);
  const props = own(entry.inputSchema, 'properties');
  const parameterNames: string[] = [];
  const parameterDescriptions: string[] = [];
  if (isRecord(props)) {
    for (const name of Object.keys(props)) {
      parameterNames.push(name);
      const user = tool.parameters.size > 0 ? tool.parameters.get(name) : undefined;
      const desc = mergeDescription(user?.description?.value, serverDescription(props[name]));
      pushParameterDocs(parameterDescriptions, mcpParameterSummary(user, desc), desc);
    }
  }
  return { name: tool.name, order, parameterNames, summary: mcpToolSummary(tool, merged) ?? '', description: merged ?? '', parameterDescriptions };
}

/**
 * A successful resolution whose definition is built on first use and kept: whether a tool resolves
 * is cheap and decides the sets at every position, while building its schema and docs is needed only
 * by a request, a search index or describe_tools (and at 10,000 tools would dominate the stream).
 * What is read from every tool once (its cost, its search document) is taken without keeping the
 * definition: at 100,000 tools the kept definitions were ~170 MB of the worker's heap, built at the
 * open for figures a number or a document holds.
 */
class Resolved {
  readonly ok = true as const;
  private built: ToolDefinition | undefined;
  private document: SearchDocument | undefined;
  constructor(
    private readonly tool: ToolConfig,
    private readonly run: RunMode,
    private readonly kind: 'local' | 'builtin' | 'mcp',
    private readonly backendName: string,
    private readonly entry?: McpToolEntry,
    private readonly server?: string,
  ) {}
  get definition(): ToolDefinition {
    return (this.built ??= this.build());
  }
  /** The definition, kept if it was built, else built for the caller alone (not kept). */
  unkept(): ToolDefinition {
    return this.built ?? this.build();
  }
  /** The config of a local or builtin tool whose definition is not built (its cost is counted from it). */
  unbuiltLocal(): ToolConfig | undefined {
    return this.built || this.kind === 'mcp' ? undefined : this.tool;
  }
  private build(): ToolDefinition {
    return this.kind === 'mcp' && this.entry && this.server !== undefined
      ? mcpDefinition(this.tool, this.entry, this.server, this.run)
      : localDefinition(this.tool, this.run, this.kind === 'builtin' ? 'builtin' : 'local', this.backendName);
  }
  searchDocument(order: number): SearchDocument {
    // Kept: a catalogue's index is rebuilt from every tool's document when one definition changes.
    if (this.document?.order === order) return this.document;
    if (this.built) return (this.document = searchDocument(this.built, order));
    return (this.document =
      this.kind === 'mcp' && this.entry && this.server !== undefined ? mcpSearchDocument(this.tool, this.entry, order) : localSearchDocument(this.tool, order));
  }
}

/** searchDocument(resolution.definition, order), without building the definition when it is not built yet. */
export function resolvedSearchDocument(resolution: Extract<Resolution, { ok: true }>, order: number): SearchDocument {
  return resolution instanceof Resolved ? resolution.searchDocument(order) : searchDocument(resolution.definition, order);
}

/** The config a resolution's definition would be built from, when it is a local or builtin tool's not built yet. */
export function unbuiltLocalTool(resolution: Extract<Resolution, { ok: true }>): ToolConfig | undefined {
  return resolution instanceof Resolved ? resolution.unbuiltLocal() : undefined;
}

/** resolution.definition, without keeping it when it was not built yet: for a figure read from it once. */
export function unkeptDefinition(resolution: Extract<Resolution, { ok: true }>): ToolDefinition {
  return resolution instanceof Resolved ? resolution.unkept() : resolution.definition;
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
