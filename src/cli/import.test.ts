// `tool-workbench import` through `main`: the layer it prints, the scenario form
// that `check` loads, and its refusals.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from './main';
import type { Io } from './main';

const catalogues = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared'), 'data', 'catalogues');
const GITHUB = join(catalogues, 'github-mcp-server.tools-list.json');
const LIVE = join(catalogues, 'livemcpbench-tools.json');

function run(args: readonly string[], extra: Record<string, string> = {}): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const io: Io = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    readFile: (p) => extra[p] ?? readFileSync(p, 'utf8'),
  };
  return { code: main(args, io), out, err };
}

describe('tool-workbench import', () => {
  it('prints the generated layer for a tools/list reply', () => {
    const r = run(['import', GITHUB, '--server', 'github']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^# Imported from github-mcp-server\.tools-list\.json: 117 tools of 1 MCP server\./u);
    expect(r.out).toContain('[conversation.tools.get_me]\nsource = "mcp.github.get_me"\nenable = "on"');
    expect(r.out.match(/^\[conversation\.tools\./gmu)).toHaveLength(117);
    // Without --off-destructive, destructive tools are discoverable like the rest.
    expect(r.out).toContain('[conversation.tools.delete_file]\nsource = "mcp.github.delete_file"\nenable = "discoverable"');
  });

  it('policies and options', () => {
    expect(run(['import', GITHUB, '--server', 'gh', '--policy', 'on']).out).not.toContain('"discoverable"');
    const off = run(['import', GITHUB, '--server', 'gh', '--keep', '0', '--off-destructive']).out;
    expect(off).not.toMatch(/enable = "on"/u);
    expect(off).toContain('[conversation.tools.delete_file]\nsource = "mcp.gh.delete_file"\nenable = "off"');
  });

  it('the multi-server form: one section per server; --server picks one', () => {
    const all = run(['import', LIVE, '--policy', 'per-server', '--keep', '1']);
    expect(all.code).toBe(0);
    expect(all.out.match(/^# ── MCP server /gmu)).toHaveLength(70);
    expect(all.out.match(/enable = "on"/gu)).toHaveLength(70);
    const one = run(['import', LIVE, '--server', 'Ant Design Components']);
    expect(one.out).toContain('# ── MCP server ant_design_components ("Ant Design Components"), 4 tools');
  });

  it('--scenario prints a scenario that check loads and passes', () => {
    const scenario = run(['import', GITHUB, '--server', 'github', '--scenario']).out;
    const checked = run(['check', '/virtual/gh.toml'], { '/virtual/gh.toml': scenario });
    expect(checked.err).toBe('');
    expect(checked.out).toBe('2 passed, 0 failed\n');
    expect(checked.code).toBe(0);
    const ref = run(['import', LIVE, '--scenario', '--ref', LIVE]).out;
    expect(ref).toContain(`catalogue = ${JSON.stringify(`${LIVE}#bing-cn-mcp`)}`);
    expect(run(['check', '/virtual/live.toml'], { '/virtual/live.toml': ref }).out).toBe('2 passed, 0 failed\n');
  });

  it('refuses what it cannot import, with exit status 2', () => {
    const noServer = run(['import', GITHUB]);
    expect(noServer.code).toBe(2);
    expect(noServer.err).toMatch(/names no server; give it one with --server NAME/u);
    expect(run(['import', GITHUB, '--server', 'x', '--policy', 'some']).err).toMatch(/--policy takes on, discoverable or per-server/u);
    const bad = run(['import', '/virtual/bad.json', '--server', 'x'], { '/virtual/bad.json': '{"tools":[{"inputSchema":{}}]}' });
    expect(bad.code).toBe(2);
    expect(bad.err).toBe('/virtual/bad.json: tools[0]: missing name\n');
    expect(run(['import', LIVE, '--server', 'nope']).err).toMatch(/has no server "nope"; it has bing-cn-mcp, yahoo-finance/u);
  });
});
