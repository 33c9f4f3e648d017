// The two builtins: JP's `describe_tools` (crates/jp_cli/src/cmd/query/tool/builtins.rs) and RFD
// 108's `search_tools` (semantics §8 item 3). Both are configured `{on, never}` and run unattended.
//
// Docs follow JP's `ToolDocs::from_config` for local/builtin tools: the config sets only a
// `description`, and `summary()` falls back to it, so `summary == description` (describe_tools prints
// it twice in JP too). `schemaDescription` is therefore the description.
import { jsonObject } from './schema';
import type { JsonSchema, ParameterDocs, ToolDefinition } from './types';

export const DESCRIBE_TOOLS = 'describe_tools';
export const SEARCH_TOOLS = 'search_tools';
export const BUILTIN_NAMES: readonly string[] = [DESCRIBE_TOOLS, SEARCH_TOOLS];

/** Build a schema object (null prototype) from entries, keeping their order. */
function schema(entries: readonly (readonly [string, unknown])[]): JsonSchema {
  const out = jsonObject();
  for (const [k, v] of entries) out[k] = v;
  return out;
}

const DESCRIBE_DESCRIPTION = 'Get detailed descriptions and usage examples for one or more tools.';
/** JP's own wording for the `tools` parameter (builtins.rs). */
const DESCRIBE_TOOLS_PARAM = 'Array of tool names to describe';

/**
 * `describe_tools(tools: string[])`. The parameter renders, as JP's `to_json_schema` orders it
 * (type, description, default, enum, items, properties), to
 * `{"type":"array","description":"Array of tool names to describe","items":{"type":"string"}}`
 * (90 bytes), so the whole parameters schema is 181 bytes and the definition costs
 * 14 + 67 + 181 = 262 bytes.
 */
export const describeToolsDefinition: ToolDefinition = Object.freeze({
  name: DESCRIBE_TOOLS,
  kind: 'builtin',
  backendName: DESCRIBE_TOOLS,
  docs: {
    summary: DESCRIBE_DESCRIPTION,
    description: DESCRIBE_DESCRIPTION,
    parameters: new Map<string, ParameterDocs>([['tools', { description: DESCRIBE_TOOLS_PARAM }]]),
  },
  schemaDescription: DESCRIBE_DESCRIPTION,
  parameters: new Map<string, JsonSchema>([
    [
      'tools',
      schema([
        ['type', 'array'],
        ['description', DESCRIBE_TOOLS_PARAM],
        ['items', schema([['type', 'string']])],
      ]),
    ],
  ]),
  required: ['tools'],
  run: 'unattended',
});

const SEARCH_DESCRIPTION = 'Search the available tools by keyword and load the matches into context.';
const SEARCH_QUERY_PARAM = 'Keywords to look for in tool names, descriptions and parameters.';
const SEARCH_LIMIT_PARAM = 'Maximum number of tools to return.';

export const SEARCH_LIMIT_DEFAULT = 10;
export const SEARCH_LIMIT_MIN = 1;
export const SEARCH_LIMIT_MAX = 50;

/** `search_tools(query: string, limit?: integer 1..50 = 10)` (semantics §8 item 3). */
export const searchToolsDefinition: ToolDefinition = Object.freeze({
  name: SEARCH_TOOLS,
  kind: 'builtin',
  backendName: SEARCH_TOOLS,
  docs: {
    summary: SEARCH_DESCRIPTION,
    description: SEARCH_DESCRIPTION,
    parameters: new Map<string, ParameterDocs>([
      ['query', { description: SEARCH_QUERY_PARAM }],
      ['limit', { description: SEARCH_LIMIT_PARAM }],
    ]),
  },
  schemaDescription: SEARCH_DESCRIPTION,
  parameters: new Map<string, JsonSchema>([
    [
      'query',
      schema([
        ['type', 'string'],
        ['description', SEARCH_QUERY_PARAM],
      ]),
    ],
    [
      'limit',
      schema([
        ['type', 'integer'],
        ['description', SEARCH_LIMIT_PARAM],
        ['default', SEARCH_LIMIT_DEFAULT],
        ['minimum', SEARCH_LIMIT_MIN],
        ['maximum', SEARCH_LIMIT_MAX],
      ]),
    ],
  ]),
  required: ['query'],
  run: 'unattended',
});
