// `[providers.mcp.NAME]` launch specs: JP's merge (lists append, scalars replace), its defaults,
// every key's bad value refused with the layer named, and the command line a user confirms.
import { describe, expect, it } from 'vitest';
import { loadLayer } from '../config/layer';
import { loadWorkspace } from './load';
import { commandLine, mcpLaunchSpecs, shellWord } from './mcp-servers';

const layers = (...texts: string[]) => texts.map((text, i) => loadLayer({ name: `l${i + 1}`, text }));

describe('mcpLaunchSpecs', () => {
  it('reads every key, with JP defaults for the ones left out', () => {
    const { servers, problems } = mcpLaunchSpecs(layers('[providers.mcp.fs]\ntype = "stdio"\ncommand = "node"\narguments = ["bin.js", "/tmp/x"]\n'));
    expect(problems).toEqual([]);
    expect(servers).toEqual([{ name: 'fs', command: 'node', arguments: ['bin.js', '/tmp/x'], variables: [], optional: false, startupTimeoutSecs: 60, layers: ['l1'] }]);
  });

  it('appends arguments and variables across layers and lets a later layer replace the scalars', () => {
    const { servers } = mcpLaunchSpecs(
      layers(
        '[providers.mcp.m]\ntype = "stdio"\ncommand = "a"\narguments = ["-x"]\nvariables = ["HOME"]\nstartup_timeout_secs = 5\n',
        '[providers.mcp.m]\ncommand = "b"\narguments = ["-y"]\nvariables = ["API_KEY"]\noptional = true\nchecksum = { algorithm = "sha1", value = "ABCDEF" }\n',
      ),
    );
    expect(servers[0]).toEqual({
      name: 'm',
      command: 'b',
      arguments: ['-x', '-y'],
      variables: ['HOME', 'API_KEY'],
      checksum: { algorithm: 'sha1', value: 'abcdef' },
      optional: true,
      startupTimeoutSecs: 5,
      layers: ['l1', 'l2'],
    });
  });

  it('defaults the checksum algorithm to sha256 and keeps 0 as "no limit"', () => {
    const { servers } = mcpLaunchSpecs(layers('[providers.mcp.m]\ntype = "stdio"\ncommand = "a"\nstartup_timeout_secs = 0\nchecksum = { value = "00ff" }\n'));
    expect(servers[0]?.checksum).toEqual({ algorithm: 'sha256', value: '00ff' });
    expect(servers[0]?.startupTimeoutSecs).toBe(0);
  });

  it.each([
    ['no type', '[providers.mcp.m]\ncommand = "a"\n', /missing `type`/],
    ['an unknown type', '[providers.mcp.m]\ntype = "http"\ncommand = "a"\n', /type "http" is not one JP starts/],
    ['no command', '[providers.mcp.m]\ntype = "stdio"\n', /missing `command`/],
    ['an empty command', '[providers.mcp.m]\ntype = "stdio"\ncommand = ""\n', /`command` must be a non-empty string/],
    ['arguments not strings', '[providers.mcp.m]\ntype = "stdio"\ncommand = "a"\narguments = [1]\n', /`arguments` must be an array of strings/],
    ['variables not a list', '[providers.mcp.m]\ntype = "stdio"\ncommand = "a"\nvariables = "HOME"\n', /`variables` must be an array of strings/],
    ['a bad algorithm', '[providers.mcp.m]\ntype = "stdio"\ncommand = "a"\nchecksum = { algorithm = "md5", value = "00" }\n', /"sha256" or "sha1", got "md5"/],
    ['a non-hex digest', '[providers.mcp.m]\ntype = "stdio"\ncommand = "a"\nchecksum = { value = "xyz" }\n', /hexadecimal digest/],
    ['a checksum without value', '[providers.mcp.m]\ntype = "stdio"\ncommand = "a"\nchecksum = { algorithm = "sha1" }\n', /has no `value`/],
    ['optional not a boolean', '[providers.mcp.m]\ntype = "stdio"\ncommand = "a"\noptional = "yes"\n', /`optional` must be true or false/],
    ['a negative timeout', '[providers.mcp.m]\ntype = "stdio"\ncommand = "a"\nstartup_timeout_secs = -1\n', /whole number of seconds/],
    ['an unknown key', '[providers.mcp.m]\ntype = "stdio"\ncommand = "a"\nenv = ["X"]\n', /unknown key `env`/],
  ])('refuses %s, naming the server and the layer', (_why, text, message) => {
    const { servers, problems } = mcpLaunchSpecs(layers(text));
    expect(servers).toEqual([]);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.map((p) => p.message).join('\n')).toMatch(message);
    expect(problems[0]).toMatchObject({ server: 'm', layer: 'l1' });
  });

  it('reads a workspace with a persona that adds a server', () => {
    const files = new Map([
      ['config.toml', 'config_load_paths = [".jp/personas"]\n[providers.mcp.fs]\ntype = "stdio"\ncommand = "node"\narguments = ["fs.js"]\n'],
      ['personas/dev.toml', '[providers.mcp.fs]\narguments = ["/src"]\n[providers.mcp.mem]\ntype = "stdio"\ncommand = "mem"\n'],
    ]);
    const plain = mcpLaunchSpecs(loadWorkspace(files).layers.map(loadLayer));
    expect(plain.servers.map((s) => s.name)).toEqual(['fs']);
    const dev = mcpLaunchSpecs(loadWorkspace(files, { persona: 'dev' }).layers.map(loadLayer));
    expect(dev.servers.map((s) => [s.name, commandLine(s)])).toEqual([
      ['fs', 'node fs.js /src'],
      ['mem', 'mem'],
    ]);
  });

  it('keeps a server called __proto__ as data', () => {
    const { servers } = mcpLaunchSpecs(layers('[providers.mcp.__proto__]\ntype = "stdio"\ncommand = "x"\n'));
    expect(servers.map((s) => s.name)).toEqual(['__proto__']);
  });
});

describe('commandLine', () => {
  it.each([
    ['plain', 'plain'],
    ['/usr/bin/node', '/usr/bin/node'],
    ['a b', "'a b'"],
    ["it's", "'it'\\''s'"],
    ['', "''"],
    ['$HOME', "'$HOME'"],
    ['x;rm -rf /', "'x;rm -rf /'"],
  ])('quotes %j as %s', (word, quoted) => {
    expect(shellWord(word)).toBe(quoted);
  });

  it('joins the command and its arguments', () => {
    expect(commandLine({ command: 'node', arguments: ['my server.js', '--port=1'] })).toBe("node 'my server.js' --port=1");
  });
});
