// Importing MCP catalogues: both real shared catalogues give scenarios that load
// cleanly, the generated layer reads well, names stay unique and valid, policies
// and annotations decide availability, and malformed input is refused.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseToml } from '../config/toml';
import { EMPTY_DOC, scenarioDocFromText, writeScenario } from '../scenario/doc';
import type { ScenarioDoc } from '../scenario/doc';
import { checkScenario } from '../scenario/report';
import { approximateTokenCounter } from '../providers/cost';
import {
  applyImport,
  buildImport,
  discoverySavings,
  localToolNames,
  MAX_CATALOGUE_BYTES,
  readCatalogue,
  serverNameFromFileName,
  serverSlug,
  startingStep,
  usefulnessOrder,
} from './index';
import type { Catalogue, StartingPolicy } from './index';

const data = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared'), 'data', 'catalogues');
const GITHUB = 'github-mcp-server.tools-list.json';
const LIVEMCPBENCH = 'livemcpbench-tools.json';
const read = (f: string) => readFileSync(join(data, f), 'utf8');

const DISCOVERABLE: StartingPolicy = { kind: 'discoverable', keep: 8, offDestructive: true };
const BLANK: ScenarioDoc = { ...EMPTY_DOC, layers: [] };

function catalogueOf(file: string): Catalogue {
  const r = readCatalogue(read(file), file);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.catalogue;
}

function importDoc(file: string, policy: StartingPolicy = DISCOVERABLE, into: ScenarioDoc = BLANK): ScenarioDoc {
  const catalogue = catalogueOf(file);
  const result = buildImport(catalogue, { policy, origin: file, into, ...(catalogue.form === 'multi-server' ? {} : { serverNames: [serverNameFromFileName(file)] }) });
  return { ...applyImport(into, result), steps: [startingStep(result)] };
}

const schema = { type: 'object', properties: {} };

describe('importing the shared catalogues', () => {
  for (const file of [GITHUB, LIVEMCPBENCH]) {
    it(`${file} gives a scenario that checks cleanly, in the UI's inline form`, () => {
      const doc = importDoc(file);
      const text = writeScenario(doc);
      const report = checkScenario(file, text);
      expect(report.fileErrors).toEqual([]);
      expect(report.timeline?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(report.failures).toEqual([]);
      expect(report.passed).toBe(2);
      // Read back, it is the same document.
      const again = scenarioDocFromText(text);
      expect(again.ok && writeScenario(again.doc)).toBe(text);
    });

    it(`${file} gives a scenario that checks cleanly with a catalogue reference`, () => {
      const catalogue = catalogueOf(file);
      const multi = catalogue.form === 'multi-server';
      const result = buildImport(catalogue, {
        policy: DISCOVERABLE,
        ...(multi ? {} : { serverNames: ['gh'] }),
        catalogueRef: (_i, key) => (multi ? `${file}#${key ?? ''}` : file),
      });
      const text = writeScenario({ ...applyImport(BLANK, result), steps: [startingStep(result)] });
      const report = checkScenario(file, text, { readFile: (p) => read(p) });
      expect(report.fileErrors).toEqual([]);
      expect(report.failures).toEqual([]);
      expect(result.servers.every((s) => s.tools.length === 0 && s.catalogue !== undefined)).toBe(true);
    });
  }

  it('GitHub: 117 tools, 10 destructive ones off, 8 kept on, the rest discoverable', () => {
    const doc = importDoc(GITHUB);
    expect(doc.servers.map((s) => s.name)).toEqual(['github']);
    expect(doc.servers[0]?.tools).toHaveLength(117);
    const report = checkScenario('gh', writeScenario(doc));
    const sets = report.timeline?.setsAt(0);
    expect(sets?.offered).toEqual(['get_gist', 'get_me', 'get_teams', 'list_gists', 'list_global_security_advisories', 'list_notifications', 'list_starred_repositories', 'search_code', 'describe_tools', 'search_tools']);
    expect(sets?.searchable).toHaveLength(99);
    expect(sets?.permitted).toHaveLength(107 + 2);
  });

  it('LiveMCPBench: 70 servers, duplicate tool names prefixed by their server, Chinese descriptions kept', () => {
    const catalogue = catalogueOf(LIVEMCPBENCH);
    const result = buildImport(catalogue, { policy: DISCOVERABLE, into: BLANK });
    expect(result.servers).toHaveLength(70);
    expect(result.tools).toHaveLength(527);
    const names = result.tools.map((t) => t.name);
    expect(new Set(names).size).toBe(527);
    expect(names.every((n) => /^[A-Za-z0-9_-]{1,64}$/u.test(n))).toBe(true);
    // `read_file` is listed by two servers: both are prefixed, neither wins the plain name.
    expect(names).not.toContain('read_file');
    expect(names).toContain('filesystem_read_file');
    expect(names).toContain('desktop-commander_read_file');
    const rf = result.tools.find((t) => t.name === 'filesystem_read_file');
    expect(rf?.backendName).toBe('read_file');
    expect(result.layer.text).toContain('source = "mcp.filesystem.read_file"');
    // Server names are valid keys: "Ant Design Components" → ant_design_components.
    expect(result.servers.map((s) => s.name)).toContain('ant_design_components');
    expect(result.servers.every((s) => /^[a-z0-9_-]+$/u.test(s.name))).toBe(true);
    // Non-ASCII descriptions survive into the server's tools and the layer's comments.
    const bing = result.servers.find((s) => s.name === 'bing-cn-mcp');
    expect(JSON.stringify(bing?.tools)).toContain('使用必应搜索指定的关键词');
    expect(result.layer.text).toContain('中文必应搜索工具');
  });

  it('the generated layer is readable TOML: one table per tool, a comment per server, annotations noted', () => {
    const doc = importDoc(GITHUB);
    const layer = doc.layers[0];
    expect(layer?.name).toBe('mcp-github');
    const text = layer?.text ?? '';
    expect(parseToml(text).errors).toEqual([]);
    expect(text.split('\n').slice(0, 3).join('\n')).toMatchInlineSnapshot(`
      "# Imported from github-mcp-server.tools-list.json: 117 tools of 1 MCP server.
      # Starting policy: every tool discoverable, the 8 most useful kept on. Destructive tools (MCP destructiveHint) start off.
      # Now 8 on, 99 discoverable, 10 off."
    `);
    expect(text).toContain(`[conversation.tools.get_me]
source = "mcp.github.get_me"
enable = "on"  # read-only · Get my user profile`);
    expect(text).toContain(`[conversation.tools.delete_file]
source = "mcp.github.delete_file"
enable = "off"  # destructive · Delete file`);
    expect(text.match(/^\[conversation\.tools\./gmu)).toHaveLength(117);
    // Every line is short enough to read without scrolling sideways.
    expect(Math.max(...text.split('\n').map((l) => [...l].length))).toBeLessThanOrEqual(140);
  });

  it('importing into a document keeps its work and avoids its names', () => {
    const first = importDoc(GITHUB);
    const again = importDoc(GITHUB, DISCOVERABLE, first);
    expect(again.servers.map((s) => s.name)).toEqual(['github', 'github_2']);
    expect(again.layers.map((l) => l.name)).toEqual(['mcp-github', 'mcp-github_2']);
    expect(again.layers[0]).toEqual(first.layers[0]);
    expect(again.layers[1]?.text).toContain('[conversation.tools.github_2_get_me]');
    const report = checkScenario('twice', writeScenario({ ...again, steps: [] }));
    expect(report.timeline?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('starting policies and annotations', () => {
  const tools = [
    { name: 'delete_repo', description: '', inputSchema: schema, annotations: { destructiveHint: true } },
    { name: 'create_issue', description: '', inputSchema: { type: 'object', required: ['title'] } },
    { name: 'search_issues', description: '', inputSchema: { type: 'object', required: ['q'] }, annotations: { readOnlyHint: true } },
    { name: 'get_me', description: '', inputSchema: schema, annotations: { readOnlyHint: true, title: 'Who am I' } },
    { name: 'list_repositories_of_org', description: '', inputSchema: schema, annotations: { readOnlyHint: true } },
  ];
  const one: Catalogue = { form: 'tools/list', servers: [{ tools }], warnings: [], bytes: 0 };
  const two: Catalogue = { form: 'multi-server', servers: [{ key: 'a', tools }, { key: 'b', tools: tools.slice(0, 3) }], warnings: [], bytes: 0 };
  const availability = (c: Catalogue, policy: StartingPolicy) => Object.fromEntries(buildImport(c, { policy, serverNames: ['s'] }).tools.map((t) => [t.name, t.availability]));

  it('usefulness: general verbs, then read-only, then fewer required parameters, then shorter names; never destructive', () => {
    expect(usefulnessOrder(tools).map((i) => tools[i]?.name)).toEqual(['get_me', 'list_repositories_of_org', 'search_issues', 'create_issue']);
  });

  it('all on; destructive tools off when asked', () => {
    expect(availability(one, { kind: 'on', keep: 0, offDestructive: false })).toEqual({ delete_repo: 'on', create_issue: 'on', search_issues: 'on', get_me: 'on', list_repositories_of_org: 'on' });
    expect(availability(one, { kind: 'on', keep: 0, offDestructive: true }).delete_repo).toBe('off');
  });

  it('all discoverable with the N most useful kept on', () => {
    expect(availability(one, { kind: 'discoverable', keep: 2, offDestructive: true })).toEqual({
      delete_repo: 'off', create_issue: 'discoverable', search_issues: 'discoverable', get_me: 'on', list_repositories_of_org: 'on',
    });
    expect(Object.values(availability(one, { kind: 'discoverable', keep: 0, offDestructive: false })).every((a) => a === 'discoverable')).toBe(true);
  });

  it('per server: each server its own mode, discoverable servers keep N each', () => {
    const r = buildImport(two, { policy: { kind: 'per-server', keep: 1, offDestructive: false, servers: new Map([['b', 'off']]) } });
    const byServer = (s: string) => r.tools.filter((t) => t.server === s).map((t) => `${t.name}:${t.availability}`);
    expect(byServer('a')).toEqual(['a_delete_repo:discoverable', 'a_create_issue:discoverable', 'a_search_issues:discoverable', 'get_me:on', 'list_repositories_of_org:discoverable']);
    expect(byServer('b')).toEqual(['b_delete_repo:off', 'b_create_issue:off', 'b_search_issues:off']);
  });

  it('the generated layer names its server once: a server already called mcp-… is not prefixed again', () => {
    expect(buildImport(one, { policy: DISCOVERABLE, serverNames: ['mcp-servers_everything'] }).layer.name).toBe('mcp-servers_everything');
    expect(buildImport(one, { policy: DISCOVERABLE, serverNames: ['mcp_notes'] }).layer.name).toBe('mcp_notes');
    expect(buildImport(one, { policy: DISCOVERABLE, serverNames: ['mcpx'] }).layer.name).toBe('mcp-mcpx');
    expect(buildImport(one, { policy: DISCOVERABLE, serverNames: ['everything'] }).layer.name).toBe('mcp-everything');
  });

  it('annotations are carried: read-only, destructive and the title', () => {
    const r = buildImport(one, { policy: DISCOVERABLE, serverNames: ['s'] });
    const get = (n: string) => r.tools.find((t) => t.name === n)?.hints;
    expect(get('get_me')).toMatchObject({ readOnly: true, destructive: false, title: 'Who am I' });
    expect(get('delete_repo')).toMatchObject({ readOnly: false, destructive: true });
  });
});

describe('names', () => {
  it('server slugs are valid keys without dots', () => {
    expect(serverSlug('Ant Design Components')).toBe('ant_design_components');
    expect(serverSlug('my.server')).toBe('my_server');
    expect(serverSlug('日本語')).toBe('server');
    expect(serverNameFromFileName('github-mcp-server.tools-list.json')).toBe('github');
    expect(serverNameFromFileName('/tmp/mcp-server-git.json')).toBe('git');
  });

  it('tool names: valid, unique, reserved and existing names avoided', () => {
    expect(localToolNames([
      { server: 's', tool: 'search_tools' },
      { server: 's', tool: 'get.weather' },
      { server: 's', tool: 'taken' },
      { server: 's', tool: 'x'.repeat(80) },
      { server: 's', tool: '__proto__' },
    ], new Set(['taken']))).toEqual(['s_search_tools', 'get_weather', 's_taken', 'x'.repeat(64), '__proto__']);
  });
});

describe('malformed input is refused with a clear message', () => {
  const refused = (text: string): string => {
    const r = readCatalogue(text, 'bad.json');
    expect(r.ok).toBe(false);
    return r.ok ? '' : r.errors.join('\n');
  };

  it('a tools/list with a tool missing its name', () => {
    expect(refused(JSON.stringify({ tools: [{ description: 'no name', inputSchema: schema }, { name: 'ok', inputSchema: schema }] }))).toMatch(/bad\.json: tools\[0\]: missing name/u);
  });

  it('a non-object inputSchema', () => {
    expect(refused(JSON.stringify({ tools: [{ name: 'x', inputSchema: 'object' }] }))).toMatch(/tools\[0\] \("x"\): inputSchema must be an object, got a string/u);
  });

  it('5 MB of JSON, before parsing it', () => {
    const big = JSON.stringify({ tools: [{ name: 'x', description: 'y'.repeat(5 * 1024 * 1024), inputSchema: schema }] });
    expect(big.length).toBeGreaterThan(MAX_CATALOGUE_BYTES);
    expect(refused(big)).toMatch(/bad\.json is 5\.0 MB; the importer reads at most 4\.0 MB of JSON/u);
  });

  it('HTML instead of JSON', () => {
    expect(refused('<!doctype html><html><body>502 Bad Gateway</body></html>')).toMatch(/bad\.json is HTML, not JSON/u);
  });

  it('not JSON, the wrong shape, an empty list, a JSON-RPC error', () => {
    expect(refused('{"tools": [')).toMatch(/not valid JSON/u);
    expect(refused('{"servers": {}}')).toMatch(/expected a tools\/list reply/u);
    expect(refused('{"tools": []}')).toMatch(/lists no tools/u);
    expect(refused('{"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}')).toMatch(/JSON-RPC error.*Method not found/u);
  });

  it('accepts a JSON-RPC response and a bare array, and keeps warnings that lose nothing', () => {
    const rpc = readCatalogue(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'a', inputSchema: schema }] } }));
    expect(rpc.ok && rpc.catalogue.form).toBe('json-rpc');
    const dup = readCatalogue(JSON.stringify([{ name: 'a', inputSchema: schema }, { name: 'a', inputSchema: schema }]));
    expect(dup.ok && dup.catalogue.warnings[0]).toMatch(/duplicate name; the first is kept/u);
  });
});

describe('what discovery saves', () => {
  it('on the GitHub catalogue: every tool against the discoverable setup, per server', () => {
    const doc = importDoc(GITHUB);
    const t = checkScenario('gh', writeScenario(doc)).timeline;
    if (!t) throw new Error('no timeline');
    const s = discoverySavings(t.statesAt(0).values(), t.setsAt(0), approximateTokenCounter);
    // All on as JP runs today: the 10 destructive tools the policy starts off stay off (issue 24.5).
    expect(s.all.tools).toBe(108);
    expect(s.discoverable.tools).toBe(10);
    expect(s.all.bytes).toBe(91_528);
    expect(s.saved.bytes).toBe(s.all.bytes - s.discoverable.bytes);
    expect(s.saved.percent).toBeGreaterThan(90);
    expect(s.servers).toEqual([expect.objectContaining({ server: 'github', searchable: 99 })]);
    // The server's own all-on figure is the same run: its 117 tools less the 10 off (the Cost tab's all on).
    expect(s.servers[0]?.all.tools).toBe(107);
    expect(s.servers[0]?.all.tools).toBe(s.all.tools - 1);
    expect(s.rfd.verdict).toBe('within');
    expect(s.selection).toMatchObject({ all: 'above', discoverable: 'below' });
  });

  it('measures against all on as JP runs today: a tool the user turned off is not saved by discovery (issue 24.5)', () => {
    const text = `name = "off"
[[layers]]
name = "w"
text = '''
[conversation.tools.a]
source = "local"
summary = "A."
enable = "on"
[conversation.tools.b]
source = "local"
summary = "B."
enable = "discoverable"
[conversation.tools.c]
source = "local"
summary = "C."
enable = "off"
'''
[[steps]]
command = "jp q 'hi'"
`;
    const t = checkScenario('off', text).timeline;
    if (!t) throw new Error('no timeline');
    const s = discoverySavings(t.statesAt(0).values(), t.setsAt(0));
    // a, b turned on, describe_tools: the Cost tab's all-on run offers the same three.
    expect(s.all.tools).toBe(3);
    expect(s.discoverable.tools).toBe(3);
    expect(s.selection.sentence).toMatch(/^All on \(JP today\) puts 3 tools/u);
  });
});
