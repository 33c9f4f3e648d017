// MCP `tools/list` replies, as JSON values: validated into tool entries, and turned
// into the documents search_tools searches. Also the multi-server catalogue form of
// LiveMCPBench (`[{ name, description, category, tools: { SERVER: { tools: [...] } } }]`).
//
// Untrusted input: nothing here throws; every problem becomes an error line. Keys
// are read with Object.hasOwn, so names like `__proto__` or `constructor` are data.
import type { SearchDocument } from '../search/types';
import type { JsonSchema } from './types';
import { splitDescription } from './split-description';

export interface McpToolEntry {
  readonly name: string;
  readonly title?: string;
  /** The server's description; '' when the server gave none. */
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** The JSON Schema of the tool's `structuredContent` (MCP 2025-06-18). */
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  /** How the tool runs, e.g. `{ taskSupport: "optional" }` (MCP 2025-11-25). */
  readonly execution?: Readonly<Record<string, unknown>>;
  readonly icons?: readonly unknown[];
  readonly _meta?: Readonly<Record<string, unknown>>;
  /** The server sent no description at all (`description` is then ''): written back without one. */
  readonly noDescription?: true;
  /** Fields no MCP revision names (`x-cost`, a vendor's `category`), kept as sent, in the server's order. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** The fields of a tool the MCP spec names; any other is kept in `extra`. */
const KNOWN_TOOL_FIELDS = new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'execution', 'icons', '_meta']);

/** The optional object fields of a tool kept as the server sent them (so import, diff and export lose none). */
export const TOOL_OBJECT_FIELDS = ['annotations', 'outputSchema', 'execution', '_meta'] as const;

/** The entry as a tools/list item again, every kept field in the wire's order (a copy: no shared objects). */
export function toolEntryJson(t: McpToolEntry): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify({
      name: t.name,
      ...(t.title !== undefined ? { title: t.title } : {}),
      ...(t.noDescription ? {} : { description: t.description }),
      inputSchema: t.inputSchema,
      ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
      ...(t.annotations ? { annotations: t.annotations } : {}),
      ...(t.execution ? { execution: t.execution } : {}),
      ...(t.icons ? { icons: t.icons } : {}),
      ...(t._meta ? { _meta: t._meta } : {}),
      ...t.extra,
    }),
  ) as Record<string, unknown>;
}

export interface ToolsListParse {
  /** Valid entries in reply order; on duplicate names the first is kept. */
  readonly tools: McpToolEntry[];
  /** One line per problem. Entries without a name or with a non-object inputSchema are dropped. */
  readonly errors: string[];
}

export interface CatalogueServer {
  /** The server's key in the catalogue entry's `tools` object. */
  readonly name: string;
  /** The catalogue entry the server belongs to. */
  readonly entry: string;
  readonly description?: string;
  readonly category?: string;
  /** What the server said of itself (a snapshot keeps all of it: title, description, icons, websiteUrl, ...). */
  readonly serverInfo?: Readonly<Record<string, unknown>>;
  readonly protocolVersion?: string;
  readonly instructions?: string;
  readonly capabilities?: Readonly<Record<string, unknown>>;
  readonly tools: McpToolEntry[];
}

export interface MultiServerParse {
  readonly servers: CatalogueServer[];
  readonly errors: string[];
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function own(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function quote(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
}

/** `where[i]`: a tool's place in error lines (built only for an error line). */
function at(where: string, i: number): string {
  return `${where}[${i}]`;
}

/** `where[i] ("name")`. */
function named(where: string, i: number, name: string): string {
  return `${where}[${i}] (${quote(name)})`;
}

function parseTool(value: unknown, where: string, i: number, errors: string[]): McpToolEntry | undefined {
  if (!isObject(value)) {
    errors.push(`${at(where, i)}: a tool must be an object, got ${describe(value)}`);
    return undefined;
  }
  const name = own(value, 'name');
  if (name === undefined || name === null) {
    errors.push(`${at(where, i)}: missing name`);
    return undefined;
  }
  if (typeof name !== 'string' || name.trim() === '') {
    errors.push(`${at(where, i)}: name must be a non-empty string, got ${typeof name === 'string' ? 'an empty string' : describe(name)}`);
    return undefined;
  }
  const inputSchema = own(value, 'inputSchema');
  if (!isObject(inputSchema)) {
    errors.push(`${named(where, i, name)}: inputSchema must be an object, got ${describe(inputSchema)}`);
    return undefined;
  }
  const properties = own(inputSchema, 'properties');
  if (properties !== undefined && !isObject(properties)) {
    errors.push(`${named(where, i, name)}: inputSchema.properties must be an object, got ${describe(properties)}`);
    return undefined;
  }

  let description = '';
  const rawDescription = own(value, 'description');
  if (typeof rawDescription === 'string') description = rawDescription;
  else if (rawDescription !== undefined && rawDescription !== null) {
    errors.push(`${named(where, i, name)}: description must be a string, got ${describe(rawDescription)}; ignored`);
  }

  const entry: { -readonly [K in keyof McpToolEntry]: McpToolEntry[K] } = { name, description, inputSchema };
  const title = own(value, 'title');
  if (typeof title === 'string') entry.title = title;
  else if (title !== undefined && title !== null) errors.push(`${named(where, i, name)}: title must be a string, got ${describe(title)}; ignored`);
  for (const key of TOOL_OBJECT_FIELDS) {
    const field = own(value, key);
    if (isObject(field)) entry[key] = field;
    else if (field !== undefined && field !== null) errors.push(`${named(where, i, name)}: ${key} must be an object, got ${describe(field)}; ignored`);
  }
  const icons = own(value, 'icons');
  if (Array.isArray(icons)) entry.icons = icons;
  else if (icons !== undefined && icons !== null) errors.push(`${named(where, i, name)}: icons must be an array, got ${describe(icons)}; ignored`);
  if (rawDescription === undefined) entry.noDescription = true;
  const extraKeys = Object.keys(value).filter((k) => !KNOWN_TOOL_FIELDS.has(k));
  if (extraKeys.length > 0) {
    const extra: Record<string, unknown> = {};
    // defineProperty: a field called __proto__ is data, not the object's prototype.
    for (const k of extraKeys) Object.defineProperty(extra, k, { value: value[k], enumerable: true, writable: true, configurable: true });
    entry.extra = extra;
  }
  return entry;
}

function parseToolArray(value: unknown, where: string, errors: string[]): McpToolEntry[] {
  if (!Array.isArray(value)) {
    errors.push(`${where}: "tools" must be an array, got ${describe(value)}`);
    return [];
  }
  const tools: McpToolEntry[] = [];
  const seen = new Set<string>();
  value.forEach((item: unknown, i) => {
    const tool = parseTool(item, where, i, errors);
    if (!tool) return;
    if (seen.has(tool.name)) {
      errors.push(`${named(where, i, tool.name)}: duplicate name; the first is kept`);
      return;
    }
    seen.add(tool.name);
    tools.push(tool);
  });
  return tools;
}

/** Parses a `tools/list` reply: `{"tools": [{ name, description, inputSchema, title?, annotations?, outputSchema?, execution?, icons?, _meta? }]}`. */
export function parseToolsList(value: unknown): ToolsListParse {
  const errors: string[] = [];
  if (!isObject(value)) {
    errors.push(`a tools/list reply must be an object with a "tools" array, got ${describe(value)}`);
    return { tools: [], errors };
  }
  return { tools: parseToolArray(own(value, 'tools'), 'tools', errors), errors };
}

/** Parses the multi-server catalogue form: `[{ name, description, category, tools: { SERVER: { tools: [...] } } }]`. */
export function parseMultiServerCatalogue(value: unknown): MultiServerParse {
  const errors: string[] = [];
  const servers: CatalogueServer[] = [];
  if (!Array.isArray(value)) {
    errors.push(`a multi-server catalogue must be an array of entries, got ${describe(value)}`);
    return { servers, errors };
  }
  value.forEach((item: unknown, i) => {
    const where = `[${i}]`;
    if (!isObject(item)) {
      errors.push(`${where}: an entry must be an object, got ${describe(item)}`);
      return;
    }
    const rawEntryName = own(item, 'name');
    const entry = typeof rawEntryName === 'string' ? rawEntryName : '';
    const byServer = own(item, 'tools');
    if (!isObject(byServer)) {
      errors.push(`${where}: "tools" must be an object keyed by server name, got ${describe(byServer)}`);
      return;
    }
    const description = own(item, 'description');
    const category = own(item, 'category');
    for (const serverName of Object.keys(byServer)) {
      const server = byServer[serverName];
      const at = `${where}.tools[${quote(serverName)}]`;
      if (!isObject(server)) {
        errors.push(`${at}: a server must be an object with a "tools" array, got ${describe(server)}`);
        continue;
      }
      const serverInfo = own(server, 'serverInfo');
      const protocolVersion = own(server, 'protocolVersion');
      const instructions = own(server, 'instructions');
      const capabilities = own(server, 'capabilities');
      servers.push({
        name: serverName,
        entry,
        ...(typeof description === 'string' ? { description } : {}),
        ...(typeof category === 'string' ? { category } : {}),
        ...(isObject(serverInfo) ? { serverInfo } : {}),
        ...(typeof protocolVersion === 'string' ? { protocolVersion } : {}),
        ...(typeof instructions === 'string' ? { instructions } : {}),
        ...(isObject(capabilities) ? { capabilities } : {}),
        tools: parseToolArray(own(server, 'tools'), `${at}.tools`, errors),
      });
    }
  });
  return { servers, errors };
}

/** The search surface of an MCP tool with no config docs (JP's docs rules, semantics §8 item 23). */
export function mcpToolToSearchDocument(entry: McpToolEntry, order: number): SearchDocument {
  const parameterNames: string[] = [];
  const parameterDescriptions: string[] = [];
  const properties = own(entry.inputSchema, 'properties');
  if (isObject(properties)) {
    for (const name of Object.keys(properties)) {
      parameterNames.push(name);
      const schema = properties[name];
      const description = isObject(schema) ? own(schema, 'description') : undefined;
      if (typeof description === 'string' && description.trim() !== '') parameterDescriptions.push(description);
    }
  }
  return {
    name: entry.name,
    order,
    parameterNames,
    summary: splitDescription(entry.description),
    description: entry.description,
    parameterDescriptions,
  };
}
