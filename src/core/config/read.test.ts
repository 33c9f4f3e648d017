// Reading a layer into a typed PartialConfig (jp-today section 1): the tool keys,
// the source grammar, parameters, pass-through keys, '*' and MCP servers.
import { describe, expect, it } from 'vitest';
import { loadLayer } from './layer';
import { parseSource, readConfig, SOURCE_MCP_ERROR } from './read';
import { parseToml } from './toml';
import type { ToolConfig } from './types';

function load(text: string): ReturnType<typeof loadLayer> {
  return loadLayer({ name: 'workspace', text });
}

function tool(text: string, name = 'x'): ToolConfig {
  const l = load(text);
  expect(l.diagnostics).toEqual([]);
  const t = l.config.tools.get(name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
}

describe('source grammar (jp-today 1.4): split at the first `.`', () => {
  it.each([
    ['local', { kind: 'local' }],
    ['local.read', { kind: 'local', tool: 'read' }],
    ['builtin', { kind: 'builtin' }],
    ['builtin.fs_read', { kind: 'builtin', tool: 'fs_read' }],
    ['mcp.github', { kind: 'mcp', server: 'github' }],
    ['mcp.github.list_issues', { kind: 'mcp', server: 'github', tool: 'list_issues' }],
    ['mcp.github.a.b', { kind: 'mcp', server: 'github', tool: 'a.b' }],
    ['mcp.github.', { kind: 'mcp', server: 'github' }],
  ])('%s', (text, source) => {
    expect(parseSource(text)).toEqual({ ok: true, source });
  });

  it.each([
    ['mcp', SOURCE_MCP_ERROR],
    ['mcp.', SOURCE_MCP_ERROR],
    ['mcp..list', 'MCP tool source must name a server: use `mcp.<server>` or `mcp.<server>.<tool>` (legacy `mcp..<tool>` is no longer accepted).'],
    ['remote', 'Unknown tool source: remote, must be one of: builtin, local, mcp'],
    ['', 'Unknown tool source: , must be one of: builtin, local, mcp'],
    ['MCP.github', 'Unknown tool source: MCP.github, must be one of: builtin, local, mcp'],
  ])('%j is an error', (text, message) => {
    expect(parseSource(text)).toEqual({ ok: false, message });
  });
});

describe('tool keys (jp-today 1.2)', () => {
  it('reads every documented key', () => {
    const t = tool(`
[conversation.tools.x]
source = "local.real_x"
enable = "discoverable"
command = "cargo run -- {{tool}}"
summary = "Short."
description = "Long {{description}}."
examples = "x(path = 'a')"
run = "unattended"
format = "ask"
result = "edit"
cancellation_response = "cancelled"
style = { hidden = true }
questions = { q1 = { target = "user" } }
options = { depth = 3 }
access = { fs = [ { path = "src", read = true } ] }
groups = ["fs"]
`);
    expect(t.source?.value).toEqual({ kind: 'local', tool: 'real_x' });
    expect(t.enable.availability?.value).toBe('discoverable');
    expect(t.command?.value).toBe('cargo run -- {{tool}}');
    expect([t.summary?.value, t.description?.value, t.examples?.value]).toEqual(['Short.', 'Long {{description}}.', "x(path = 'a')"]);
    expect([t.run?.value, t.format?.value, t.result?.value, t.cancellationResponse?.value]).toEqual(['unattended', 'ask', 'edit', 'cancelled']);
    expect(t.style?.value).toMatchObject({ hidden: true });
    expect(t.questions?.value).toMatchObject({ q1: { target: 'user' } });
    expect(t.options?.value).toMatchObject({ depth: 3 });
    expect(t.access?.value).toMatchObject({ fs: [{ path: 'src', read: true }] });
    expect(t.groups?.value).toEqual(['fs']);
  });

  it('reads parameters: type, required, summary, description, examples, enum, default, items, properties', () => {
    const t = tool(`
[conversation.tools.x.parameters.path]
type = "string"
required = true
summary = "The path."
description = "The path to read, relative to the root."
examples = ["src/main.rs"]
default = "."

[conversation.tools.x.parameters.mode]
type = ["string", "null"]
enum = ["fast", "slow"]

[conversation.tools.x.parameters.files]
type = "array"
items = { type = "object", properties = { name = { type = "string", required = true }, size = { type = "integer" } } }
`);
    expect([...t.parameters.keys()]).toEqual(['path', 'mode', 'files']);
    const path = t.parameters.get('path');
    expect([path?.type?.value, path?.required?.value, path?.summary?.value, path?.default?.value]).toEqual(['string', true, 'The path.', '.']);
    expect(path?.examples?.value).toEqual(['src/main.rs']);
    expect(t.parameters.get('mode')?.type?.value).toEqual(['string', 'null']);
    expect(t.parameters.get('mode')?.enum?.value).toEqual(['fast', 'slow']);
    const items = t.parameters.get('files')?.items;
    expect(items?.type?.value).toBe('object');
    expect([...(items?.properties?.keys() ?? [])]).toEqual(['name', 'size']);
    expect(items?.properties?.get('name')?.required?.value).toBe(true);
  });

  it("reads '*': enable, run, format, result, cancellation_response, style, groups", () => {
    const l = load(`[conversation.tools.'*']\nenable = "explicit"\nrun = "ask"\nformat = "unattended"\nresult = "skip"\ncancellation_response = "no"\nstyle = { inline_results = "off" }\ngroups = []\n`);
    expect(l.diagnostics).toEqual([]);
    const d = l.config.defaults;
    expect([d.enable.availability?.value, d.enable.allowToggle?.value, d.run?.value, d.format?.value, d.result?.value, d.cancellationResponse?.value]).toEqual(['off', 'if_named', 'ask', 'unattended', 'skip', 'no']);
  });

  it('reads [providers.mcp.NAME] servers and ignores keys the workbench does not simulate', () => {
    const l = load(`[assistant]\nmodel = "x"\n[providers.mcp.github]\ncommand = "gh-mcp"\noptional = true\n[providers.mcp.fs]\ncommand = "fs"\n[conversation]\ntitle = "t"\n`);
    expect(l.diagnostics).toEqual([]);
    expect([...l.config.mcpServers.keys()]).toEqual(['github', 'fs']);
    expect(l.config.mcpServers.get('github')?.optional).toBe(true);
    expect(l.config.mcpServers.get('github')?.raw).toMatchObject({ command: 'gh-mcp' });
  });

  // [label, text, message part, line]
  const errors: readonly [string, string, string, number][] = [
    ['a tool that is not a table', `[conversation.tools]\nx = "on"\n`, 'conversation.tools.x must be a table', 2],
    ['conversation.tools not a table', `[conversation]\ntools = 3\n`, 'conversation.tools must be a table', 2],
    ['source not a string', `[conversation.tools.x]\nsource = 1\n`, 'conversation.tools.x.source must be a string', 2],
    ['summary not a string', `[conversation.tools.x]\nsummary = true\n`, 'conversation.tools.x.summary must be a string', 2],
    ['parameters not a table', `[conversation.tools.x]\nparameters = "p"\n`, 'parameters must be a table of parameters', 2],
    ['a parameter not a table', `[conversation.tools.x.parameters]\np = "string"\n`, 'conversation.tools.x.parameters.p must be a table with keys type, required', 2],
    ['parameter required not a boolean', `[conversation.tools.x.parameters.p]\nrequired = "yes"\n`, 'conversation.tools.x.parameters.p.required must be true or false', 2],
    ['parameter type not a string', `[conversation.tools.x.parameters.p]\ntype = 3\n`, 'type must be a string or a list of strings', 2],
    ['parameter enum not a list', `[conversation.tools.x.parameters.p]\nenum = "a"\n`, 'enum must be a list', 2],
    ['nested unknown parameter key', `[conversation.tools.x.parameters.p]\nitems = { kind = "string" }\n`, 'unknown key `kind` in conversation.tools.x.parameters.p.items', 2],
    ['bad format', `[conversation.tools.x]\nformat = "edit"\n`, `invalid format: 'edit', expected one of "ask", "unattended"`, 2],
    ['bad result', `[conversation.tools.x]\nresult = 1\n`, 'invalid result: a integer, expected one of "unattended", "ask", "edit", "skip"', 2],
    ['command of the wrong type', `[conversation.tools.x]\ncommand = 1\n`, 'command must be a string or a { program, args, shell } table', 2],
    ['style not a table', `[conversation.tools.x]\nstyle = "plain"\n`, 'style must be a table', 2],
    ['access on an mcp tool', `[conversation.tools.x]\nsource = "mcp.gh"\naccess = { fs = [] }\n`, "`access` is only supported on local tools, but 'x' is a mcp tool", 1],
    ['an mcp server that is not a table', `[providers.mcp]\ngh = 1\n`, 'providers.mcp.gh must be a table', 2],
  ];
  it.each(errors)('%s', (_label, text, part, line) => {
    const l = load(text);
    const d = l.diagnostics.find((x) => x.message.includes(part));
    expect(d, l.diagnostics.map((x) => x.message).join('\n')).toBeDefined();
    expect(d?.line).toBe(line);
    expect(d?.severity).toBe('error');
  });

  it('readConfig never throws on odd trees, and keeps tools in order', () => {
    const doc = parseToml(`[conversation.tools.b]\n[conversation.tools.a]\n[conversation.tools.'*']\n[conversation.tools.c]\n`);
    const diags: string[] = [];
    const cfg = readConfig(doc.root, { origin: () => ({ kind: 'default' }), report: (_s, m) => diags.push(m) });
    expect(diags).toEqual([]);
    expect([...cfg.tools.keys()]).toEqual(['b', 'a', 'c']);
  });
});
