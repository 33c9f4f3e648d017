// `tool-workbench check` through `main` with an in-memory Io: exit statuses, the
// printed lines, `--json`, and file errors with their positions.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from './main';
import type { Io } from './main';

interface Captured {
  code: number;
  out: string;
  err: string;
}

function run(args: readonly string[], files: Record<string, string>): Captured {
  const byPath = new Map(Object.entries(files).map(([p, t]) => [resolve(p), t]));
  let out = '';
  let err = '';
  const io: Io = {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
    readFile: (p) => {
      const t = byPath.get(resolve(p));
      if (t === undefined) throw new Error(`ENOENT: no such file, open '${p}'`);
      return t;
    },
  };
  const code = main(args, io);
  return { code, out, err };
}

const LAYER = `[[layers]]
name = "workspace"
text = '''
[conversation.tools.deploy]
source = "local"
enable = "discoverable"

[conversation.tools.grep]
source = "local"
'''
`;

const PASSING = `name = "passing"
${LAYER}
[[steps]]
command = "jp q 'hi'"
[steps.expect]
offered = ["grep", "describe_tools", "search_tools"]
searchable = ["deploy"]
search_tools = true
`;

const FAILING = `name = "failing"
${LAYER}
[[steps]]
command = "jp q -t deploy 'hi'"

  [[steps.cycles]]
  reply = "ok"
  [steps.cycles.expect]
  tool_choice = "none"
  offered_includes = ["deploy"]

[steps.expect]
availability = { deploy = "off" }
searchable = []
`;

describe('tool-workbench check', () => {
  it('exit 0 when every expectation passes, with only the closing line', () => {
    const r = run(['check', 'a.toml'], { 'a.toml': PASSING });
    expect(r).toEqual({ code: 0, out: '3 passed, 0 failed\n', err: '' });
  });

  it('exit 1 on a failed expectation: one line per failure (file, where, key, expected, got), then the counts', () => {
    const r = run(['check', 'b.toml'], { 'b.toml': FAILING });
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    expect(r.out.split('\n')).toEqual([
      'b.toml: step 1 cycle 1: tool_choice: expected "none", got "auto"',
      'b.toml: step 1: availability: expected {"deploy":"off"}, got {"deploy":"on"}',
      '2 passed, 2 failed',
      '',
    ]);
  });

  it('counts add up over several files', () => {
    const r = run(['check', 'a.toml', 'b.toml', 'a.toml'], { 'a.toml': PASSING, 'b.toml': FAILING });
    expect(r.code).toBe(1);
    expect(r.out.trim().split('\n').pop()).toBe('8 passed, 2 failed');
  });

  it('a step that fails without expecting it is a failure line naming the error', () => {
    const text = `name = "x"\n${LAYER}\n[[steps]]\ncommand = "jp q -t nosuch hi"\n`;
    const r = run(['check', 'c.toml'], { 'c.toml': text });
    expect(r.code).toBe(1);
    expect(r.out).toContain('c.toml: step 1: error: expected null, got "Tool not found: nosuch"');
    expect(r.out).toContain('0 passed, 1 failed');
  });

  it('an unexpected load error fails the check, with the layer, line and column', () => {
    const text = `name = "x"\n[[layers]]\nname = "workspace"\ntext = '''\n[conversation.tools.a]\nenable = "sometimes"\n'''\n[[steps]]\ncommand = "jp q hi"\n`;
    const r = run(['check', 'd.toml'], { 'd.toml': text });
    expect(r.code).toBe(1);
    expect(r.out).toContain(`d.toml: layer workspace 2:10: invalid enable value: 'sometimes'`);
  });

  it('an expected load error passes', () => {
    const text = `name = "x"\n[[layers]]\nname = "workspace"\ntext = '''\n[conversation.tools.a]\nsource = "local"\nenable = { state = true, availability = "on" }\n'''\n[load]\nerror = ["state", "availability", "keep \`availability\`"]\n`;
    expect(run(['check', 'e.toml'], { 'e.toml': text })).toEqual({ code: 0, out: '1 passed, 0 failed\n', err: '' });
  });

  it('warnings go to stderr and do not fail the check', () => {
    const text = `name = "x"\n[[layers]]\nname = "workspace"\ntext = '''\n[conversation.tools.a]\nsummary = "no source"\n'''\n`;
    const r = run(['check', 'w.toml'], { 'w.toml': text });
    expect(r.code).toBe(0);
    expect(r.out).toBe('0 passed, 0 failed\n');
    expect(r.err).toMatch(/^w\.toml: warning: layer workspace 1:\d+: conversation\.tools\.a has no `source`/u);
  });

  it('a bad scenario file is exit 2, with file:line:col: message on stderr', () => {
    const text = `name = "x"\n[[steps]]\ncommand = "jp q"\nreply = \n`;
    const r = run(['check', 'bad.toml'], { 'bad.toml': text });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^bad\.toml:4:9: .+\n$/);
  });

  it('an unknown expectation key is exit 2 with its position', () => {
    const text = `name = "x"\n${LAYER}\n[[steps]]\ncommand = "jp q hi"\n[steps.expect]\noffered = []\nofferred = ["grep"]\n`;
    const r = run(['check', 'typo.toml'], { 'typo.toml': text });
    expect(r.code).toBe(2);
    const line = text.split('\n').findIndex((l) => l.startsWith('offerred')) + 1;
    expect(r.err).toBe(`typo.toml:${line}:1: unknown expectation \`offerred\` on a step; expected one of offered, permitted, searchable, servers, offered_includes, offered_excludes, permitted_includes, permitted_excludes, availability, search_tools, error, layer_text, layer_contains, layer_excludes\n`);
  });

  it.each([
    ['an unknown top-level key', `name = "x"\nstep = []\n`, 2, 1, 'unknown key `step` in the scenario'],
    ['an expectation key in the wrong place', `name = "x"\n[[steps]]\ncommand = "jp q"\n[steps.expect]\ntool_choice = "auto"\n`, 5, 1, 'unknown expectation `tool_choice` on a step'],
    ['a call key typo', `name = "x"\n[[steps]]\ncommand = "jp q"\n[[steps.cycles]]\ncalls = [ { tool = "a", arg = {} } ]\n`, 5, 25, 'unknown key `arg`'],
    ['a bad policy value', `name = "x"\n[policy]\nranking = "tfidf"\n`, 3, 11, 'invalid ranking: "tfidf"'],
    ['a missing command', `name = "x"\n[[steps]]\n[steps.expect]\noffered = []\n`, 2, 1, 'step 1 needs a `command`'],
  ])('%s is exit 2 at its position', (_label, text, line, column, message) => {
    const r = run(['check', 'f.toml'], { 'f.toml': text });
    expect(r.code).toBe(2);
    expect(r.err).toContain(`f.toml:${line}:${column}: ${message}`);
  });

  it('a bad file makes the whole run exit 2, but the other files are still checked', () => {
    const r = run(['check', 'bad.toml', 'b.toml'], { 'bad.toml': 'name = ', 'b.toml': FAILING });
    expect(r.code).toBe(2);
    expect(r.out).toContain('2 passed, 2 failed');
    expect(r.err).toMatch(/^bad\.toml:1:\d+: /);
  });

  it('an unreadable file is exit 2', () => {
    const r = run(['check', 'missing.toml'], {});
    expect(r.code).toBe(2);
    expect(r.err).toContain('missing.toml: cannot read');
  });

  it.each([
    [['check'], 'name at least one scenario file'],
    [['check', '--verbose', 'a.toml'], 'unknown option --verbose'],
    [['frobnicate'], 'unknown command `frobnicate`'],
  ])('%j is exit 2', (args, message) => {
    const r = run(args, { 'a.toml': PASSING });
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });

  it('a catalogue file named by a server is read relative to the scenario', () => {
    const text = `name = "x"\n[servers.gh]\ncatalogue = "gh.json"\n[[layers]]\nname = "workspace"\ntext = '''\n[conversation.tools.list]\nsource = "mcp.gh.list_issues"\n'''\n[[steps]]\ncommand = "jp q hi"\n[steps.expect]\noffered = ["list", "describe_tools"]\nservers = ["gh"]\n`;
    const json = JSON.stringify({ tools: [{ name: 'list_issues', description: 'List issues.', inputSchema: { type: 'object' } }] });
    expect(run(['check', 'dir/s.toml'], { 'dir/s.toml': text, 'dir/gh.json': json }).code).toBe(0);
    const missing = run(['check', 'dir/s.toml'], { 'dir/s.toml': text });
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('dir/s.toml:3:13: cannot read catalogue file `gh.json` of server `gh`');
  });
});

describe('tool-workbench check --json', () => {
  const text = `name = "json shape"
[policy]
ranking = "substring"
[servers.gh]
tools = [ { name = "list_prs", description = "List pull requests.", inputSchema = { type = "object" } } ]
[[layers]]
name = "workspace"
text = '''
[conversation.tools.deploy]
source = "local"
summary = "Deploy the app."
enable = "discoverable"
[conversation.tools.prs]
source = "mcp.gh.list_prs"
'''
[[steps]]
command = "jp q -T prs 'deploy'"
  [[steps.cycles]]
  calls = [ { tool = "search_tools", args = { query = "deploy" } } ]
  [[steps.cycles]]
  reply = "done"
[steps.expect]
availability = { deploy = "on", prs = "off" }
`;

  it('prints the whole timeline: positions with event, availability per tool, sets and registration; requests; calls', () => {
    const r = run(['check', '--json', 'j.toml'], { 'j.toml': text });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as {
      file: string;
      name: string;
      positions: { index: number; event: { kind: string }; search_tools: boolean; availability: Record<string, { availability: string; allow_toggle: string; why: string }>; configured: string[]; permitted: string[]; offered: string[]; searchable: string[]; servers: string[] }[];
      requests: { step: number; cycle: number; position: number; tool_choice: string; offered: string[]; permitted: string[]; searchable: string[]; servers: string[]; array: string[]; overhead_chars: { offered: number; permitted: number }; cache: { status: string } }[];
      calls: { tool: string; status: string; search?: { returned: { name: string; status: string }[] } }[];
      expectations: { where: string; key: string; pass: boolean }[];
    };
    expect(j.file).toBe('j.toml');
    expect(j.name).toBe('json shape');
    expect(j.positions.map((p) => [p.index, p.event.kind, p.search_tools])).toEqual([
      [0, 'base', true],
      [1, 'delta', true],
      [2, 'delta', true],
    ]);
    const [p0, p1, p2] = j.positions;
    expect(p0?.availability.deploy).toEqual({ availability: 'discoverable', allow_toggle: 'any', why: 'layer workspace' });
    expect(p0?.permitted).toEqual(['deploy', 'prs', 'describe_tools', 'search_tools']);
    expect(p0?.offered).toEqual(['prs', 'describe_tools', 'search_tools']);
    expect(p0?.searchable).toEqual(['deploy']);
    expect(p0?.servers).toEqual(['gh']);
    expect(p0?.configured).toEqual(['deploy', 'prs', 'describe_tools', 'search_tools']);
    expect(p1?.availability.prs?.availability).toBe('off');
    expect(p1?.availability.prs?.why).toContain('delta 1 (directive: -T prs)');
    expect(p1?.servers).toEqual([]);
    expect(p2?.availability.deploy?.why).toContain('promotion');
    expect(p2?.offered).toEqual(['deploy', 'describe_tools', 'search_tools']);
    expect(j.requests.map((q) => [q.step, q.cycle, q.position, q.tool_choice])).toEqual([
      [1, 1, 1, 'auto'],
      [1, 2, 2, 'auto'],
    ]);
    expect(j.requests[0]?.searchable).toEqual(['deploy']);
    expect(j.requests[1]?.array).toEqual(['deploy', 'describe_tools', 'search_tools']);
    expect(j.requests[0]?.overhead_chars.offered).toBeGreaterThan(0);
    expect(j.requests[0]?.cache.status).toBe('miss');
    expect(j.calls[0]?.search?.returned).toMatchObject([{ name: 'deploy', status: 'usable' }]);
    expect(j.expectations).toEqual([expect.objectContaining({ where: 'step 1', key: 'availability', pass: true })]);
  });

  it('--json and --bodies keep stdout pure JSON and put the pass/fail line (and each failure) on stderr (issue 24.10)', () => {
    for (const flag of ['--json', '--bodies']) {
      const ok = run(['check', flag, 'j.toml'], { 'j.toml': text });
      expect(ok.code).toBe(0);
      expect(() => JSON.parse(ok.out) as unknown).not.toThrow();
      expect(ok.err).toBe('1 passed, 0 failed\n');
      const bad = run(['check', flag, 'b.toml'], { 'b.toml': FAILING });
      expect(bad.code).toBe(1);
      expect(bad.err.split('\n')).toEqual([
        'b.toml: step 1 cycle 1: tool_choice: expected "none", got "auto"',
        'b.toml: step 1: availability: expected {"deploy":"off"}, got {"deploy":"on"}',
        '2 passed, 2 failed',
        '',
      ]);
    }
  });

  it('several files give an array; a failure still exits 1', () => {
    const r = run(['check', 'j.toml', '--json', 'b.toml'], { 'j.toml': text, 'b.toml': FAILING });
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out) as { file: string; name: string }[];
    expect(j.map((x) => [x.file, x.name])).toEqual([
      ['j.toml', 'json shape'],
      ['b.toml', 'failing'],
    ]);
  });
});

describe('tool-workbench check: provider findings and --bodies', () => {
  const text = `name = "provider findings"
[policy]
ranking = "substring"
provider = "anthropic"
[[layers]]
name = "workspace"
text = '''
[conversation.tools.'git.status']
source = "local"
summary = "Show the working tree status."
enable = "on"
[conversation.tools.scale]
source = "local"
summary = "Scale."
enable = "on"
[conversation.tools.scale.parameters.factor]
type = "number"
default = 1.0
'''
[[steps]]
command = "jp q 'status'"
  [[steps.cycles]]
  reply = "clean"
  [steps.cycles.expect]
  provider_warnings = ["error: Anthropic refuses the tool name \`git.status\`"]
`;

  it('findings never fail the check; they go to stderr, one line per distinct finding with its requests', () => {
    const r = run(['check', 'p.toml'], { 'p.toml': text });
    expect(r.code).toBe(0);
    expect(r.out).toBe('1 passed, 0 failed\n');
    expect(r.err).toContain('p.toml: anthropic error (step 1 cycle 1): Anthropic refuses the tool name `git.status`: it holds `.`');
    // The declaration diagnostic is not printed again as a plain warning.
    expect(r.err.match(/git\.status/g)?.length).toBe(1);
  });

  it('an expected finding that is absent fails the check', () => {
    const r = run(['check', 'p.toml'], { 'p.toml': text.replace("'git.status'", 'git_status').replace('`git.status`', '`git_status`') });
    expect(r.code).toBe(1);
    expect(r.out).toContain('step 1 cycle 1: provider_warnings: expected ["error: Anthropic refuses the tool name `git_status`"], got []');
  });

  it('--json lists the findings per request; --bodies adds the body as serde_json writes it', () => {
    const plain = run(['check', '--json', 'p.toml'], { 'p.toml': text });
    const j = JSON.parse(plain.out) as { requests: { provider_findings: { severity: string; rule: string; tool?: string }[]; body?: unknown }[] };
    expect(j.requests[0]?.provider_findings.map((f) => [f.severity, f.rule, f.tool])).toEqual([['error', 'tool-name', 'git.status']]);
    expect(j.requests[0]?.body).toBeUndefined();
    const bodies = run(['check', '--bodies', 'p.toml'], { 'p.toml': text });
    expect(bodies.code).toBe(0);
    const jb = JSON.parse(bodies.out) as { requests: { body: { tools: { name: string }[] } }[] };
    expect(jb.requests[0]?.body.tools.map((t) => t.name)).toEqual(['git.status', 'scale', 'describe_tools']);
    expect(bodies.out).toContain('"default": 1.0');
  });
});

describe('tool-workbench check --json: one cache word with its reason (issue 24.6)', () => {
  it('the demo\'s reused prefix below Anthropic\'s 1,024-token minimum reads "prefix reused · below the 1,024-token minimum: 0 cached"; the old fields stay', () => {
    const demo = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../app/demo-scenario.toml'), 'utf8');
    const r = run(['check', '--json', 'demo.toml'], { 'demo.toml': demo });
    const j = JSON.parse(r.out) as { requests: { step: number; cycle: number; cache: { status: string; reason: string; summary: string; cached_tokens: number }; prompt_cache: { cache_read_tokens: number } }[] };
    const third = j.requests.find((q) => q.step === 1 && q.cycle === 3);
    expect(third?.cache).toMatchObject({ status: 'hit', summary: 'prefix reused · below the 1,024-token minimum: 0 cached', cached_tokens: 0 });
    expect(third?.cache.reason).toMatch(/^previous request is a prefix/u);
    for (const q of j.requests) expect(q.cache.cached_tokens).toBe(q.prompt_cache.cache_read_tokens);
    expect(j.requests[0]?.cache.summary).toBe('first request · 0 cached');
  });
});
