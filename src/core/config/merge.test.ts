// Layer merging field by field (jp-today 3.4; semantics §1 "layers merge per field"): one row per
// field a layer can write, of a tool, of a parameter at every depth (`items`, `properties`, and the
// two nested in each other), of `'*'` and of an MCP server. Each row is played three ways: the higher
// layer overrides the lower's value, the higher layer writes the same table but not the field, and
// the lower layer writes the table without the field. The merged value must be the layer's that
// wrote it last, with that layer's origin, and the table's other fields must survive.
import { describe, expect, it } from 'vitest';
import { loadLayer } from './layer';
import type { LoadedLayer } from './layer';
import { mergeConfigs } from './merge';
import { EMPTY_CONFIG } from './read';
import type { ParameterConfig, PartialConfig, Sourced, ToolConfig } from './types';
import { mcpLaunchSpecs } from '../workspace/mcp-servers';

const tool = (c: PartialConfig): ToolConfig | undefined => c.tools.get('t');
const param = (c: PartialConfig): ParameterConfig | undefined => tool(c)?.parameters.get('p');
const prop = (p: ParameterConfig | undefined, name: string): ParameterConfig | undefined => p?.properties?.get(name);

type Read = (c: PartialConfig) => Sourced<unknown> | undefined;

interface Row {
  /** The TOML table the field is written in. */
  readonly table: string;
  readonly key: string;
  readonly lower: string;
  readonly upper: string;
  /** How the merged config is read at this field. */
  readonly read: Read;
}

/** A field of a parameter config at `at` (a header path below the tool) read by `get`. */
const parameterRows = (at: string, get: (c: PartialConfig) => ParameterConfig | undefined): Row[] => [
  { table: at, key: 'type', lower: '"string"', upper: '"integer"', read: (c) => get(c)?.type },
  { table: at, key: 'required', lower: 'false', upper: 'true', read: (c) => get(c)?.required },
  { table: at, key: 'summary', lower: '"low"', upper: '"high"', read: (c) => get(c)?.summary },
  { table: at, key: 'description', lower: '"low"', upper: '"high"', read: (c) => get(c)?.description },
  { table: at, key: 'examples', lower: '["a"]', upper: '["b", "c"]', read: (c) => get(c)?.examples },
  { table: at, key: 'enum', lower: '["a", "b"]', upper: '["c"]', read: (c) => get(c)?.enum },
  { table: at, key: 'default', lower: '"a"', upper: '"b"', read: (c) => get(c)?.default },
];

const T = 'conversation.tools.t';
const P = `${T}.parameters.p`;

const ROWS: readonly Row[] = [
  { table: T, key: 'source', lower: '"local"', upper: '"mcp.srv.other"', read: (c) => tool(c)?.source },
  { table: T, key: 'enable', lower: '{ availability = "off" }', upper: '{ availability = "discoverable" }', read: (c) => tool(c)?.enable.availability },
  { table: T, key: 'enable', lower: '{ allow_toggle = "never" }', upper: '{ allow_toggle = "if_named" }', read: (c) => tool(c)?.enable.allowToggle },
  { table: T, key: 'summary', lower: '"low"', upper: '"high"', read: (c) => tool(c)?.summary },
  { table: T, key: 'description', lower: '"low"', upper: '"high"', read: (c) => tool(c)?.description },
  { table: T, key: 'examples', lower: '"low"', upper: '"high"', read: (c) => tool(c)?.examples },
  { table: T, key: 'run', lower: '"ask"', upper: '"unattended"', read: (c) => tool(c)?.run },
  { table: T, key: 'command', lower: '"low"', upper: '{ program = "high" }', read: (c) => tool(c)?.command },
  { table: T, key: 'format', lower: '"ask"', upper: '"unattended"', read: (c) => tool(c)?.format },
  { table: T, key: 'result', lower: '"ask"', upper: '"skip"', read: (c) => tool(c)?.result },
  { table: T, key: 'cancellation_response', lower: '"low"', upper: '"high"', read: (c) => tool(c)?.cancellationResponse },
  { table: T, key: 'style', lower: '{ inline_results = "off" }', upper: '{ inline_results = "full" }', read: (c) => tool(c)?.style },
  { table: T, key: 'questions', lower: '{ q = { target = "user" } }', upper: '{ q = { target = "assistant" } }', read: (c) => tool(c)?.questions },
  { table: T, key: 'options', lower: '{ o = 1 }', upper: '{ o = 2 }', read: (c) => tool(c)?.options },
  { table: T, key: 'access', lower: '{ fs = ["a"] }', upper: '{ fs = ["b"] }', read: (c) => tool(c)?.access },
  { table: T, key: 'groups', lower: '["a"]', upper: '["b"]', read: (c) => tool(c)?.groups },
  ...parameterRows(P, param),
  ...parameterRows(`${P}.items`, (c) => param(c)?.items),
  ...parameterRows(`${P}.items.items`, (c) => param(c)?.items?.items),
  ...parameterRows(`${P}.properties.x`, (c) => prop(param(c), 'x')),
  ...parameterRows(`${P}.properties.x.properties.y`, (c) => prop(prop(param(c), 'x'), 'y')),
  ...parameterRows(`${P}.items.properties.x`, (c) => prop(param(c)?.items, 'x')),
  ...parameterRows(`${P}.properties.x.items`, (c) => prop(param(c), 'x')?.items),
  ...(
    [
      ['enable', '{ availability = "off" }', '{ availability = "discoverable" }', (c) => c.defaults.enable.availability],
      ['enable', '{ allow_toggle = "never" }', '{ allow_toggle = "if_named" }', (c) => c.defaults.enable.allowToggle],
      ['run', '"ask"', '"edit"', (c) => c.defaults.run],
      ['format', '"ask"', '"unattended"', (c) => c.defaults.format],
      ['result', '"ask"', '"skip"', (c) => c.defaults.result],
      ['cancellation_response', '"low"', '"high"', (c) => c.defaults.cancellationResponse],
      ['style', '{ inline_results = "off" }', '{ inline_results = "full" }', (c) => c.defaults.style],
      ['groups', '["a"]', '["b"]', (c) => c.defaults.groups],
    ] as const satisfies readonly (readonly [string, string, string, Read])[]
  ).map(([key, lower, upper, read]): Row => ({ table: "conversation.tools.'*'", key, lower, upper, read })),
];

/** Another field of the same table, so a layer can write the table without the row's field. */
function sibling(row: Row): { line: string; read: Read } {
  if (row.table.endsWith("'*'")) {
    return row.key === 'result' ? { line: 'run = "skip"', read: (c) => c.defaults.run } : { line: 'result = "edit"', read: (c) => c.defaults.result };
  }
  const at = (c: PartialConfig): { summary?: Sourced<string>; description?: Sourced<string> } | undefined => {
    if (row.table === T) return tool(c);
    let p: ParameterConfig | undefined = param(c);
    for (const part of row.table.slice(P.length + 1).split('.').filter((s) => s !== '')) {
      p = part === 'items' ? p?.items : part === 'properties' ? p : prop(p, part);
    }
    return p;
  };
  return row.key === 'summary'
    ? { line: 'description = "sibling"', read: (c) => at(c)?.description }
    : { line: 'summary = "sibling"', read: (c) => at(c)?.summary };
}

const layerText = (row: Row, line: string): string => `[${row.table}]\n${line}\n`;
const load = (name: string, text: string): PartialConfig => {
  const l = loadLayer({ name, text });
  expect(l.diagnostics).toEqual([]);
  return l.config;
};

/** The value and the place it was written: which layer, and where in it. */
function written(s: Sourced<unknown> | undefined): { value: unknown; layer?: string; start?: number; end?: number } | undefined {
  if (!s) return undefined;
  const o = s.origin;
  return o.kind === 'layer' ? { value: s.value, layer: o.layer, start: o.span.start, end: o.span.end } : { value: s.value };
}

const rowName = (r: Row): string => `${r.table} ${r.key} ${r.lower} → ${r.upper}`;

describe('layers merge field by field: the higher layer wins each field it writes, with its origin', () => {
  it.each(ROWS.map((r) => [rowName(r), r] as const))('%s: overridden', (_, row) => {
    const lower = load('user', layerText(row, `${row.key} = ${row.lower}`));
    const upper = load('workspace', layerText(row, `${row.key} = ${row.upper}`));
    // The row must be able to fail: the two layers disagree on the field.
    expect(row.read(lower)?.value).not.toEqual(row.read(upper)?.value);
    const merged = mergeConfigs(mergeConfigs(EMPTY_CONFIG, lower), upper);
    expect(written(row.read(merged))).toEqual(written(row.read(upper)));
    expect(written(row.read(merged))?.layer).toBe('workspace');
  });

  it.each(ROWS.map((r) => [rowName(r), r] as const))('%s: the higher layer writes the table but not the field', (_, row) => {
    const s = sibling(row);
    const lower = load('user', layerText(row, `${row.key} = ${row.lower}`));
    const upper = load('workspace', layerText(row, s.line));
    expect(row.read(upper)).toBeUndefined();
    const merged = mergeConfigs(lower, upper);
    expect(written(row.read(merged))).toEqual(written(row.read(lower)));
    expect(written(row.read(merged))?.layer).toBe('user');
    expect(written(s.read(merged))).toEqual(written(s.read(upper)));
    expect(s.read(merged)?.value).toBeDefined();
  });

  it.each(ROWS.map((r) => [rowName(r), r] as const))('%s: the lower layer writes the table but not the field', (_, row) => {
    const s = sibling(row);
    const lower = load('user', layerText(row, s.line));
    const upper = load('workspace', layerText(row, `${row.key} = ${row.upper}`));
    const merged = mergeConfigs(lower, upper);
    expect(written(row.read(merged))).toEqual(written(row.read(upper)));
    expect(written(s.read(merged))).toEqual(written(s.read(lower)));
    expect(s.read(merged)?.value).toBeDefined();
  });
});

describe('maps merge by key: a name keeps its first place and where it was declared, new names follow', () => {
  it('tools, parameters and nested properties at every depth', () => {
    const lower = load(
      'user',
      `[conversation.tools.a]\nsummary = "A"\n[conversation.tools.b.parameters.p.properties.x]\ntype = "string"\n[conversation.tools.b.parameters.p.properties.z]\ntype = "string"\n[conversation.tools.b.parameters.p.items.properties.i]\ntype = "string"\n`,
    );
    const upper = load(
      'workspace',
      `[conversation.tools.c]\nsummary = "C"\n[conversation.tools.b.parameters.q]\ntype = "integer"\n[conversation.tools.b.parameters.p.properties.w]\ntype = "boolean"\n[conversation.tools.b.parameters.p.properties.x]\ndescription = "x"\n[conversation.tools.b.parameters.p.items.properties.j]\ntype = "integer"\n[conversation.tools.a]\nsummary = "A2"\n`,
    );
    const merged = mergeConfigs(lower, upper);
    expect([...merged.tools.keys()]).toEqual(['a', 'b', 'c']);
    const a = merged.tools.get('a');
    expect(a?.name).toBe('a');
    expect(a?.declared).toEqual(lower.tools.get('a')?.declared);
    expect(a?.declared.kind === 'layer' && a.declared.layer).toBe('user');
    const b = merged.tools.get('b');
    expect(b?.declared).toEqual(lower.tools.get('b')?.declared);
    expect([...(b?.parameters.keys() ?? [])]).toEqual(['p', 'q']);
    const p = b?.parameters.get('p');
    expect([...(p?.properties?.keys() ?? [])]).toEqual(['x', 'z', 'w']);
    expect(p?.properties?.get('x')?.type?.value).toBe('string');
    expect(p?.properties?.get('x')?.description?.value).toBe('x');
    expect(p?.properties?.get('z')?.type?.value).toBe('string');
    expect([...(p?.items?.properties?.keys() ?? [])]).toEqual(['i', 'j']);
  });

  it('neither input is changed', () => {
    const text = (v: string): string => `[conversation.tools.t]\nsummary = "${v}"\n[conversation.tools.t.parameters.p.properties.x]\ntype = "${v}"\n[conversation.tools.'*']\nrun = "ask"\n`;
    const lower = load('user', text('low'));
    const upper = load('workspace', text('high'));
    const before = JSON.stringify([lower, upper], (_, v: unknown) => (v instanceof Map ? [...v] : v));
    mergeConfigs(lower, upper);
    expect(JSON.stringify([lower, upper], (_, v: unknown) => (v instanceof Map ? [...v] : v))).toBe(before);
  });
});

// `[providers.mcp.NAME]` as JP merges it (jp-today 1.6; workspace/mcp-servers.ts, which launches from
// the layers): a scalar is replaced, `arguments` and `variables` are appended to, `checksum` merges
// per key. The merged config must say what the launch spec says.
describe('MCP servers merge field by field, as JP launches them', () => {
  // [key, lower, upper, merged raw value]
  const rows: readonly (readonly [string, string, string, unknown])[] = [
    ['command', '"low"', '"high"', 'high'],
    ['type', '"sse"', '"stdio"', 'stdio'],
    ['optional', 'false', 'true', true],
    ['startup_timeout_secs', '5', '0', 0],
    ['arguments', '["a", "b"]', '["c"]', ['a', 'b', 'c']],
    ['variables', '["A"]', '["B"]', ['A', 'B']],
    ['checksum', '{ algorithm = "sha1", value = "ab" }', '{ value = "cd" }', { algorithm: 'sha1', value: 'cd' }],
  ];
  const server = (key: string, value: string): string => `[providers.mcp.srv]\n${key === 'type' ? '' : 'type = "stdio"\n'}${key === 'command' ? '' : 'command = "run"\n'}${key} = ${value}\n`;
  const layers = (key: string, lower: string, upper: string): LoadedLayer[] => [loadLayer({ name: 'user', text: server(key, lower) }), loadLayer({ name: 'workspace', text: server(key, upper) })];

  it.each(rows)('%s: %s then %s', (key, lower, upper, want) => {
    const [a, b] = layers(key, lower, upper);
    if (!a || !b) throw new Error('two layers');
    expect([...a.diagnostics, ...b.diagnostics]).toEqual([]);
    const merged = mergeConfigs(mergeConfigs(EMPTY_CONFIG, a.config), b.config).mcpServers.get('srv');
    expect(merged?.raw[key]).toEqual(want);
    expect(merged?.declared).toEqual(a.config.mcpServers.get('srv')?.declared);
    expect(merged?.name).toBe('srv');
    // A field the higher layer leaves alone keeps the lower layer's value.
    const left = mergeConfigs(a.config, loadLayer({ name: 'workspace', text: '[providers.mcp.srv]\nstartup_timeout_secs = 9\n' }).config).mcpServers.get('srv');
    if (key !== 'startup_timeout_secs') expect(left?.raw[key]).toEqual(a.config.mcpServers.get('srv')?.raw[key]);
  });

  it('optional, read typed, is the higher layer\'s, or the lower\'s where the higher leaves it', () => {
    const [a, b] = layers('optional', 'true', 'false');
    if (!a || !b) throw new Error('two layers');
    expect(mergeConfigs(a.config, b.config).mcpServers.get('srv')?.optional).toBe(false);
    expect(mergeConfigs(b.config, a.config).mcpServers.get('srv')?.optional).toBe(true);
    const none = loadLayer({ name: 'workspace', text: '[providers.mcp.srv]\ncommand = "other"\n' }).config;
    expect(mergeConfigs(a.config, none).mcpServers.get('srv')?.optional).toBe(true);
  });

  it('the merged lists and checksum are the launch spec\'s', () => {
    const ls = [
      loadLayer({ name: 'user', text: '[providers.mcp.srv]\ntype = "stdio"\ncommand = "run"\narguments = ["a"]\nvariables = ["A"]\nchecksum = { algorithm = "sha1", value = "ab" }\n' }),
      loadLayer({ name: 'workspace', text: '[providers.mcp.srv]\narguments = ["b"]\nvariables = ["B"]\nchecksum = { value = "cd" }\n' }),
    ];
    const spec = mcpLaunchSpecs(ls).servers[0];
    const raw = ls.map((l) => l.config).reduce(mergeConfigs, EMPTY_CONFIG).mcpServers.get('srv')?.raw;
    expect(spec).toBeDefined();
    expect(raw?.['arguments']).toEqual(spec?.arguments);
    expect(raw?.['variables']).toEqual(spec?.variables);
    expect(raw?.['checksum']).toEqual(spec?.checksum);
  });
});

it('a server key named __proto__ is kept as a key, not taken as the merged table\'s prototype', () => {
  const a = loadLayer({ name: 'user', text: '[providers.mcp.srv]\ncommand = "run"\n' }).config;
  const b = loadLayer({ name: 'workspace', text: '[providers.mcp.srv]\n"__proto__" = { polluted = true }\n' }).config;
  const raw = mergeConfigs(a, b).mcpServers.get('srv')?.raw ?? {};
  expect(Object.keys(raw)).toEqual(['command', '__proto__']);
  expect((raw as { polluted?: unknown }).polluted).toBeUndefined();
});
