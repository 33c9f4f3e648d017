// `tool-workbench snapshot`: real servers' tool lists into one catalogue file that a scenario
// names, so `check` replays the real setup offline; JP's required/optional rule decides the exit.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMultiServerCatalogue } from '../core/catalogue/tools-list';
import { listAllTools } from './snapshot';
import { BIN, endsItsProcesses, FIXTURES, ROOT, serverBin, tempWorkspace } from './testServe';

// Whatever a failing test leaves running ends with the file (issue 34.7).
endsItsProcesses();

const node = process.execPath;
/** An enabled tool of `server`: JP starts (and aborts for) only the servers such a tool uses. */
const uses = (server: string) => `[conversation.tools.${server}_tool]\nsource = "mcp.${server}"\n`;
const run = (...args: string[]) => spawnSync(node, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 90_000 });

describe('listAllTools', () => {
  const pages = (n: number, perPage: number, size: number) => ({
    name: 'big',
    forward: async (_m: string, params?: { cursor?: string }) => {
      const page = Number(params?.cursor ?? '0');
      const tools = Array.from({ length: perPage }, (_, i) => ({ name: `t${page}_${i}`, description: 'x'.repeat(size), inputSchema: { type: 'object' } }));
      return { tools, ...(page + 1 < n ? { nextCursor: String(page + 1) } : {}) };
    },
  });

  it('follows every page', async () => {
    expect(await listAllTools(pages(3, 2, 10) as never)).toHaveLength(6);
  });

  it('fails at once, with the reason, when the list passes the size cap', async () => {
    await expect(listAllTools(pages(50, 100, 2000) as never)).rejects.toThrow(/big: the tool list passed 4194304 bytes after 21 pages \(2100 tools\)/u);
  });

  it('refuses a cursor sent twice', async () => {
    const loop = { name: 'loop', forward: async () => ({ tools: [], nextCursor: 'same' }) };
    await expect(listAllTools(loop as never)).rejects.toThrow(/sent the cursor "same" twice/u);
  });
});

describe('tool-workbench snapshot', () => {
  it('writes every server of the workspace (with the persona) and a scenario replays it offline', () => {
    const root = tempWorkspace(
      (r) =>
        `config_load_paths = [".jp/personas"]\n[providers.mcp.fs]\ntype = "stdio"\ncommand = ${JSON.stringify(node)}\narguments = [${JSON.stringify(serverBin('filesystem'))}, ${JSON.stringify(join(r, 'data'))}]\n`,
    );
    mkdirSync(join(root, '.jp', 'personas'));
    writeFileSync(join(root, '.jp', 'personas', 'dev.toml'), `[providers.mcp.memory]\ntype = "stdio"\ncommand = ${JSON.stringify(node)}\narguments = [${JSON.stringify(serverBin('memory'))}]\n`);
    const out = join(root, 'snap.json');
    const r = run('snapshot', '--workspace', root, '--persona', 'dev', '--out', out);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`starting fs (from the command line): ${node} ${serverBin('filesystem')}`);
    expect(r.stdout).toContain('catalogue = "snap.json#memory"');
    const value = JSON.parse(readFileSync(out, 'utf8')) as unknown;
    const parsed = parseMultiServerCatalogue(value);
    expect(parsed.errors).toEqual([]);
    expect(parsed.servers.map((s) => [s.name, s.tools.length])).toEqual([
      ['fs', 14],
      ['memory', 9],
    ]);
    expect(JSON.stringify(value)).toContain('"serverInfo":{"name":"secure-filesystem-server"');

    const scenario = join(root, 'replay.toml');
    writeFileSync(scenario, readFileSync(join(FIXTURES, 'replay-fs.toml'), 'utf8'));
    const check = run('check', scenario);
    expect(check.stdout).toMatch(/\b0 failed/u);
    expect(check.status).toBe(0);
  }, 120_000);

  it('fails with the error JP would abort with when a required server cannot start; leaves an optional one out', () => {
    const root = tempWorkspace(
      () =>
        `[providers.mcp.gone]\ntype = "stdio"\ncommand = "/no/such/binary"\noptional = true\n[providers.mcp.mem]\ntype = "stdio"\ncommand = ${JSON.stringify(node)}\narguments = [${JSON.stringify(serverBin('memory'))}]\n${uses('gone')}${uses('mem')}`,
    );
    const ok = run('snapshot', '--workspace', root, '--out', join(root, 'a.json'));
    expect(ok.status).toBe(0);
    expect(ok.stderr).toMatch(/warning: optional MCP server gone failed to start and is left out: Cannot spawn process: \/no\/such\/binary/u);
    expect(parseMultiServerCatalogue(JSON.parse(readFileSync(join(root, 'a.json'), 'utf8'))).servers.map((s) => s.name)).toEqual(['mem']);

    writeFileSync(join(root, '.jp', 'config.toml'), `[providers.mcp.gone]\ntype = "stdio"\ncommand = "/no/such/binary"\n${uses('gone')}`);
    const bad = run('snapshot', '--workspace', root, '--out', join(root, 'b.json'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/MCP server gone failed to start; JP would abort with:\nCannot spawn process: \/no\/such\/binary/u);
  }, 120_000);

  it("escapes the hidden characters of a failing server's stderr on the terminal, as every line the bridge prints", () => {
    const root = tempWorkspace(() => `[providers.mcp.liar]\ntype = "stdio"\ncommand = ${JSON.stringify(node)}\narguments = ["-e", "process.stderr.write('ok \\u202e\\u2066; rm -rf ~\\u2069 \\u001b[2Kdone\\n'); process.exit(3)"]\n${uses('liar')}`);
    const r = run('snapshot', '--workspace', root, '--out', join(root, 'c.json'));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('ok \\u202E\\u2066; rm -rf ~\\u2069 \\u001B[2Kdone');
    expect(r.stderr).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/u);
    expect(r.stderr).not.toContain(String.fromCharCode(0x1b));
  }, 60_000);

  it.each([
    [['snapshot'], /--workspace DIR is required/u],
    [['snapshot', '--workspace', '/nonexistent-folder', '--out', '/tmp/x.json'], /no such folder: \/nonexistent-folder/u],
    [['snapshot', '--workspace', ROOT, '--out', '/tmp/x.json', '--persona', 'nobody'], /no \.jp folder|persona/u],
    [['serve', '--port', 'abc'], /--port must be a whole number/u],
  ])('refuses %j with exit 2 and a sentence, no stack trace', (args, message) => {
    const r = run(...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /u);
  });

  it("lists what JP is offered: server-everything's 13 tools, as the bridge declares neither sampling nor elicitation, as JP's client", () => {
    const root = tempWorkspace(() => `[providers.mcp.everything]\ntype = "stdio"\ncommand = ${JSON.stringify(node)}\narguments = [${JSON.stringify(serverBin('everything'))}]\n${uses('everything')}`);
    const out = join(root, 'everything.json');
    const r = run('snapshot', '--workspace', root, '--out', out);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const parsed = parseMultiServerCatalogue(JSON.parse(readFileSync(out, 'utf8')));
    const names = parsed.servers[0]?.tools.map((t) => t.name) ?? [];
    expect(names).toHaveLength(13);
    // Registered only for a client that declares sampling / elicitation, which rmcp's default handler (JP's) does not.
    expect(names).not.toContain('trigger-sampling-request');
    expect(names).not.toContain('trigger-elicitation-request');
  }, 60_000);

  it('keeps everything the server said: serverInfo whole, instructions, capabilities, non-standard tool fields, a missing description missing', () => {
    const root = tempWorkspace(() => `[providers.mcp.rich]\ntype = "stdio"\ncommand = ${JSON.stringify(node)}\narguments = [${JSON.stringify(join(FIXTURES, 'hostile.mjs'))}, "rich"]\n`);
    const out = join(root, 'rich.json');
    const r = run('snapshot', '--workspace', root, '--out', out);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const [entry] = JSON.parse(readFileSync(out, 'utf8')) as [{ tools: { rich: Record<string, unknown> } }];
    const rich = entry.tools.rich;
    expect(rich.serverInfo).toEqual({ name: 'rich', version: '3.1.4', title: 'Rich Server', description: 'Says everything about itself.', icons: [{ src: 'https://example.com/rich.png', mimeType: 'image/png', sizes: ['48x48'] }], websiteUrl: 'https://example.com/rich', 'x-vendor': 'acme', debug: { build: 'abc123', features: ['a', 'b'] }, vendorInfo: { vendor: 'Acme', support: 'https://example.com/support' } });
    expect(rich.instructions).toBe('Call plain before fancy.');
    expect(rich.capabilities).toEqual({ tools: { listChanged: true }, logging: {}, experimental: { 'x-rich': { level: 2 } } });
    expect(rich.tools).toEqual([
      { name: 'plain', inputSchema: { type: 'object' } },
      { name: 'fancy', description: 'Has extras.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, 'x-cost': 3, category: 'demo' },
    ]);
    const parsed = parseMultiServerCatalogue(JSON.parse(readFileSync(out, 'utf8')));
    expect(parsed.errors).toEqual([]);
    expect(parsed.servers[0]?.serverInfo).toEqual(rich.serverInfo);
    expect(parsed.servers[0]?.instructions).toBe('Call plain before fancy.');
    // Meant to be committed: nothing of this machine's folders (its description named the .jp folder's full path).
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain(root);
    expect(text).not.toContain(ROOT);
    expect(text).toContain(`${basename(root)}/.jp`);
  }, 60_000);
});
