import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mcpToolToSearchDocument, parseMultiServerCatalogue, parseToolsList, toolEntryJson } from './tools-list';
import type { McpToolEntry } from './tools-list';

const schema = { type: 'object', properties: {} };

describe('parseToolsList', () => {
  it('keeps valid tools in order with their fields', () => {
    const { tools, errors } = parseToolsList({
      tools: [
        { name: 'a', description: 'First.', inputSchema: schema, annotations: { readOnlyHint: true }, title: 'A' },
        { name: 'b', inputSchema: schema },
      ],
    });
    expect(errors).toEqual([]);
    expect(tools).toEqual([
      { name: 'a', description: 'First.', inputSchema: schema, annotations: { readOnlyHint: true }, title: 'A' },
      { name: 'b', description: '', noDescription: true, inputSchema: schema },
    ]);
  });

  it('writes a tool back as the server sent it: no description stays none, fields no spec names are kept (a __proto__ one as data)', () => {
    const sent = [
      { name: 'plain', inputSchema: schema },
      JSON.parse('{"name":"fancy","description":"","inputSchema":{"type":"object"},"x-cost":3,"category":"demo","__proto__":{"polluted":true}}') as unknown,
    ];
    const { tools, errors } = parseToolsList({ tools: sent });
    expect(errors).toEqual([]);
    expect(tools.map(toolEntryJson)).toEqual(sent);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(toolEntryJson(tools[1] as McpToolEntry), '__proto__')).toBe(true);
  });

  const bad: { why: string; value: unknown; error: RegExp; kept?: string[] }[] = [
    { why: 'not an object', value: [1], error: /must be an object with a "tools" array, got an array/ },
    { why: 'null', value: null, error: /got null/ },
    { why: 'tools not an array', value: { tools: {} }, error: /"tools" must be an array, got an object/ },
    { why: 'tools missing', value: {}, error: /"tools" must be an array, got nothing/ },
    { why: 'a tool that is not an object', value: { tools: ['x'] }, error: /tools\[0\]: a tool must be an object, got a string/ },
    { why: 'missing name', value: { tools: [{ inputSchema: schema }, { name: 'ok', inputSchema: schema }] }, error: /tools\[0\]: missing name/, kept: ['ok'] },
    { why: 'empty name', value: { tools: [{ name: ' ', inputSchema: schema }] }, error: /name must be a non-empty string/ },
    { why: 'numeric name', value: { tools: [{ name: 7, inputSchema: schema }] }, error: /name must be a non-empty string, got a number/ },
    { why: 'missing inputSchema', value: { tools: [{ name: 'x' }] }, error: /tools\[0\] \("x"\): inputSchema must be an object, got nothing/ },
    { why: 'non-object inputSchema', value: { tools: [{ name: 'x', inputSchema: 'object' }] }, error: /inputSchema must be an object, got a string/ },
    { why: 'array inputSchema', value: { tools: [{ name: 'x', inputSchema: [] }] }, error: /inputSchema must be an object, got an array/ },
    { why: 'non-object properties', value: { tools: [{ name: 'x', inputSchema: { properties: [] } }] }, error: /inputSchema.properties must be an object/ },
    {
      why: 'a duplicate name keeps the first',
      value: { tools: [{ name: 'x', description: '1', inputSchema: schema }, { name: 'x', description: '2', inputSchema: schema }] },
      error: /tools\[1\] \("x"\): duplicate name; the first is kept/,
      kept: ['x'],
    },
    { why: 'a non-string description is ignored', value: { tools: [{ name: 'x', description: 5, inputSchema: schema }] }, error: /description must be a string, got a number; ignored/, kept: ['x'] },
    { why: 'non-object annotations are ignored', value: { tools: [{ name: 'x', annotations: 'ro', inputSchema: schema }] }, error: /annotations must be an object/, kept: ['x'] },
  ];
  for (const row of bad) {
    it(`reports ${row.why}`, () => {
      const { tools, errors } = parseToolsList(row.value);
      expect(errors.join('\n')).toMatch(row.error);
      expect(tools.map((t) => t.name)).toEqual(row.kept ?? []);
    });
  }

  it('accepts null description and annotations (as real servers send)', () => {
    const { tools, errors } = parseToolsList({ tools: [{ name: 'x', description: null, annotations: null, inputSchema: schema }] });
    expect(errors).toEqual([]);
    expect(tools[0]).toEqual({ name: 'x', description: '', inputSchema: schema });
  });

  it('treats __proto__ and constructor as ordinary names, tool and parameter alike', () => {
    const value = JSON.parse(
      '{"tools":[{"name":"__proto__","description":"Proto.","inputSchema":{"type":"object","properties":{"__proto__":{"description":"p"},"constructor":{}}}},{"name":"constructor","inputSchema":{}}]}',
    ) as unknown;
    const { tools, errors } = parseToolsList(value);
    expect(errors).toEqual([]);
    expect(tools.map((t) => t.name)).toEqual(['__proto__', 'constructor']);
    const doc = mcpToolToSearchDocument(tools[0]!, 0);
    expect(doc.parameterNames).toEqual(['__proto__', 'constructor']);
    expect(doc.parameterDescriptions).toEqual(['p']);
  });
});

describe('mcpToolToSearchDocument', () => {
  it('summary is split_description of the description; parameters from inputSchema.properties', () => {
    const doc = mcpToolToSearchDocument(
      {
        name: 'list_runs',
        description: 'List workflow runs. Paginated with a cursor.',
        inputSchema: {
          type: 'object',
          properties: { owner: { type: 'string', description: 'Repository owner' }, cursor: { type: 'string' }, odd: 5, blank: { description: '  ' } },
        },
      },
      3,
    );
    expect(doc).toEqual({
      name: 'list_runs',
      order: 3,
      parameterNames: ['owner', 'cursor', 'odd', 'blank'],
      summary: 'List workflow runs.',
      description: 'List workflow runs. Paginated with a cursor.',
      parameterDescriptions: ['Repository owner'],
    });
  });

  it('a tool without properties has no parameters', () => {
    expect(mcpToolToSearchDocument({ name: 'x', description: '', inputSchema: { type: 'object' } }, 0).parameterNames).toEqual([]);
  });
});

describe('parseMultiServerCatalogue', () => {
  it('returns each server with its tools, and errors per bad part', () => {
    const { servers, errors } = parseMultiServerCatalogue([
      { name: 'Entry', description: 'Desc', category: 'Cat', tools: { s1: { tools: [{ name: 't', inputSchema: schema }] }, s2: { tools: [{ name: 'u' }] } } },
      { name: 'Broken', tools: [] },
      'nope',
      { name: 'BadServer', tools: { s3: 4 } },
    ]);
    expect(servers.map((s) => [s.entry, s.name, s.category, s.description, s.tools.map((t) => t.name)])).toEqual([
      ['Entry', 's1', 'Cat', 'Desc', ['t']],
      ['Entry', 's2', 'Cat', 'Desc', []],
    ]);
    expect(errors).toEqual([
      '[0].tools["s2"].tools[0] ("u"): inputSchema must be an object, got nothing',
      '[1]: "tools" must be an object keyed by server name, got an array',
      '[2]: an entry must be an object, got a string',
      '[3].tools["s3"]: a server must be an object with a "tools" array, got a number',
    ]);
  });

  it('rejects a non-array value', () => {
    expect(parseMultiServerCatalogue({}).errors).toEqual(['a multi-server catalogue must be an array of entries, got an object']);
  });

  it('reads the LiveMCPBench catalogue: 70 servers, 527 tools, no errors', () => {
    const path = fileURLToPath(new URL('../../../../shared/data/catalogues/livemcpbench-tools.json', import.meta.url));
    const { servers, errors } = parseMultiServerCatalogue(JSON.parse(readFileSync(path, 'utf8')));
    expect(errors).toEqual([]);
    expect(servers).toHaveLength(70);
    expect(servers.reduce((n, s) => n + s.tools.length, 0)).toBe(527);
    expect(servers[0]?.tools[0]?.name).toBe('bing_search');
  });
});

describe('every field of a tool is kept', () => {
  // A tool as MCP 2025-11-25 describes it (modelcontextprotocol.io/specification/2025-11-25/server/tools, read 2026-12-01).
  const full = {
    name: 'get_weather',
    title: 'Weather',
    description: 'Current weather.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    outputSchema: { type: 'object', properties: { celsius: { type: 'number' } } },
    annotations: { title: 'Weather now', readOnlyHint: true, openWorldHint: true, idempotentHint: true },
    execution: { taskSupport: 'optional' },
    icons: [{ src: 'https://example.com/w.png', mimeType: 'image/png' }],
    _meta: { 'example.com/owner': 'me' },
  };

  it('parses outputSchema, execution, icons and _meta beside annotations and gives them back in wire order', () => {
    const { tools, errors } = parseToolsList({ tools: [full] });
    expect(errors).toEqual([]);
    expect(toolEntryJson(tools[0]!)).toEqual(full);
    expect(Object.keys(toolEntryJson(tools[0]!))).toEqual(Object.keys(full));
  });

  it.each(['outputSchema', 'execution', '_meta'])('ignores a non-object %s with a warning', (key) => {
    const { tools, errors } = parseToolsList({ tools: [{ ...full, [key]: 'x' }] });
    expect(tools[0]).not.toHaveProperty(key);
    expect(errors).toEqual([expect.stringMatching(new RegExp(`${key} must be an object, got a string; ignored`))]);
  });
});
