// Every policy switch, each value, showing the behaviour change; §8 items 17, 18
// and 23; and the RFD's phase 1 and phase 2 tests.
import { describe, expect, it } from 'vitest';
import { POLICY_CHOICES, POLICY_KEYS } from '../scenario/policy';
import type { PolicyKey } from '../scenario/policy';
import { call, check, finalAvailability, layer, run, runAndCheck, search, stepErrors, turn } from './test-kit';
import type { ToolSpec } from './test-kit';
import type { Timeline } from './timeline';

type Probe = (value: string | boolean) => unknown;

const DEPLOY: Record<string, ToolSpec> = {
  read_file: { enable: '"on"', summary: 'Read a file.' },
  deploy: { summary: 'Deploy to the staging environment.' },
  locked: { enable: '{ availability = "discoverable", allow_toggle = "never" }', summary: 'Deploy, locked.' },
  asks: { run: 'ask', summary: 'Deploy with approval.' },
  lint: { enable: '"off"', summary: 'Lint.' },
};

const searchOf = (t: Timeline, i = 0) => t.calls[i]?.search;

/**
 * For every switch: a probe that runs one scenario under a value and returns what that value
 * decides, and the expected outcome per value. Every value of POLICY_CHOICES must be listed.
 */
const SWITCHES: { [K in PolicyKey]: { probe: Probe; outcomes: Record<string, unknown> } } = {
  ranking: {
    // Substring needs the literal text; bm25 stems "deploying" to "deploy" and ignores word order.
    probe: (v) => {
      const t = run({ policy: { ranking: v as string }, layer: layer(DEPLOY), body: turn('jp q go', [[search('deploying staging')]]) });
      return searchOf(t)?.returned[0]?.name ?? null;
    },
    outcomes: { bm25: 'deploy', substring: null },
  },
  substring_match: {
    probe: (v) => {
      const t = run({ policy: { ranking: 'substring', substring_match: v as string }, layer: layer(DEPLOY), body: turn('jp q go', [[search('staging deploy')]]) });
      return searchOf(t)?.returned.map((r) => r.name);
    },
    outcomes: { all_terms: ['deploy'], whole_query: [] },
  },
  report_match_count: {
    probe: (v) => {
      const t = run({ policy: { ranking: 'substring', report_match_count: v as boolean }, layer: layer(DEPLOY), body: turn('jp q go', [[search('deploy', 1)]]) });
      return [searchOf(t)?.returned.length, searchOf(t)?.total, JSON.parse(t.calls[0]?.result ?? '{}').total];
    },
    outcomes: { true: [1, 3, 3], false: [1, undefined, undefined] },
  },
  forced_off_tool: {
    probe: (v) => {
      const t = run({ policy: { forced_off_tool: v as string }, layer: layer(DEPLOY), body: '[[steps]]\ncommand = "jp q go -u lint"\n[[steps]]\ncommand = "jp q go -u deploy"' });
      return [stepErrors(t).get(1) ?? t.requests[0]?.array, stepErrors(t).get(2) ?? 'ok'];
    },
    outcomes: {
      allow: [['read_file', 'lint', 'describe_tools', 'search_tools'], 'ok'],
      // JP today: an off tool cannot be forced; a permitted (discoverable) one can.
      reject: ["tool choice 'lint' does not match any enabled tools", 'ok'],
    },
  },
  promoted_position: {
    probe: (v) => {
      const t = run({ policy: { ranking: 'substring', promoted_position: v as string }, layer: layer(DEPLOY), body: turn('jp q go', [[search('staging')]]) });
      return t.requests[1]?.array;
    },
    outcomes: {
      config_order: ['read_file', 'deploy', 'describe_tools', 'search_tools'],
      append: ['read_file', 'describe_tools', 'search_tools', 'deploy'],
    },
  },
  never_blocks_promotion: {
    probe: (v) => {
      const t = run({ policy: { ranking: 'substring', never_blocks_promotion: v as boolean }, layer: layer(DEPLOY), body: turn('jp q go', [[search('locked')]]) });
      return [searchOf(t)?.returned.map((r) => `${r.name}:${r.status}`), finalAvailability(t).locked];
    },
    outcomes: { false: [['locked:usable'], 'on'], true: [['locked:unavailable'], 'discoverable'] },
  },
  categories_prompt: {
    // The section names each searchable group on every request; the promotion leaves the prompt as it was.
    probe: (v) => {
      const t = run({ policy: { ranking: 'substring', categories_prompt: v as boolean }, layer: layer(DEPLOY), body: turn('jp q go', [[search('staging')]]) });
      const bodies = t.requests.map((r) => JSON.stringify((r.rendered().body as { system?: unknown }).system));
      return [bodies.map((b) => b.includes('Searchable tool categories')), bodies[0] === bodies[1], bodies[0]?.includes('- deploy (1 tool)') === true || bodies[0]?.includes('- other (') === true];
    },
    outcomes: { false: [[false, false], true, false], true: [[true, true], true, true] },
  },
  hide_unapproved: {
    probe: (v) => {
      const t = run({ policy: { ranking: 'substring', hide_unapproved: v as boolean }, layer: layer(DEPLOY, { enable: '"discoverable"', run: 'unattended' }), body: turn('jp q go', [[search('deploy')]]) });
      return [searchOf(t)?.returned.map((r) => r.name), searchOf(t)?.total];
    },
    outcomes: { false: [['deploy', 'locked', 'asks'], 3], true: [['deploy', 'locked'], 2] },
  },
  provider: {
    probe: (v) => {
      const t = run({ policy: { ranking: 'substring', provider: v as string }, layer: layer(DEPLOY), body: turn('jp q go', [[search('staging')]]) });
      const r = t.requests[1]?.rendered();
      const body = r?.body as Record<string, unknown>;
      return [t.requests[1]?.cache().status, Object.keys(body).join(',')];
    },
    outcomes: {
      anthropic: ['miss', 'tools,tool_choice,system,messages'],
      'anthropic-directives': ['hit', 'tools,tool_choice,system,messages'],
      openai: ['miss', 'tools,tool_choice,input'],
      google: ['miss', 'tools,toolConfig,systemInstruction,contents'],
      openrouter: ['miss', 'tools,tool_choice,messages'],
      cerebras: ['miss', 'tools,tool_choice,messages'],
      ollama: ['miss', 'tools,messages'],
      llamacpp: ['miss', 'tools,tool_choice,messages'],
    },
  },
};

describe('policy switches: every value of every switch changes what it says', () => {
  it('the table covers every switch and every value', () => {
    expect(Object.keys(SWITCHES).sort()).toEqual([...POLICY_KEYS].sort());
    for (const k of POLICY_KEYS) expect(Object.keys(SWITCHES[k].outcomes).sort(), k).toEqual(POLICY_CHOICES[k].map(String).sort());
  });
  for (const k of POLICY_KEYS) {
    describe(k, () => {
      const { probe, outcomes } = SWITCHES[k];
      for (const value of POLICY_CHOICES[k]) {
        it(`${String(value)}`, () => {
          expect(probe(value)).toEqual(outcomes[String(value)]);
        });
      }
      it('the values give different outcomes', () => {
        const seen = new Set(Object.values(outcomes).map((o) => JSON.stringify(o)));
        // provider: the three chat-completions providers share a body shape (they differ in their tools, see requests.test.ts).
        expect(seen.size).toBeGreaterThan(1);
      });
    });
  }
  it('omitting [policy] means the defaults (first of each list)', () => {
    const t = run({ layer: layer(DEPLOY), body: '[[steps]]\ncommand = "jp q go"' });
    for (const k of POLICY_KEYS) expect(t.policy[k], k).toBe(POLICY_CHOICES[k][0]);
  });
  it('an unknown policy value is a file error naming the accepted values', () => {
    const report = check({ policy: { ranking: 'regex' }, layer: layer(DEPLOY), body: '' });
    expect(report.fileErrors[0]?.message).toContain('"bm25", "substring"');
  });
});

describe('§8.17 describe_tools', () => {
  const tools: Record<string, ToolSpec> = {
    shown: { enable: '"on"', summary: 'Shown.', description: 'Shown in full.' },
    hidden: { summary: 'Discoverable.', description: 'Discoverable, described in full.', params: { p: { summary: 'P.', description: 'The p parameter in detail.' } } },
    off_tool: { enable: '"off"', summary: 'Off.' },
  };
  const rows: { args: string; status: 'ok' | 'error'; contains: string[]; excludes?: string[] }[] = [
    { args: '{ tools = ["hidden"] }', status: 'ok', contains: ['## hidden', 'Discoverable, described in full.', 'The p parameter in detail.'] },
    { args: '{ tools = ["shown", "off_tool", "nope"] }', status: 'ok', contains: ['## shown', 'No additional documentation available for: off_tool, nope'], excludes: ['## off_tool'] },
    { args: '{ tools = ["nope"] }', status: 'ok', contains: ['No additional documentation available for: nope'] },
    { args: '{ tools = [] }', status: 'error', contains: ['must not be empty'] },
    { args: '{}', status: 'error', contains: ['tools'] },
    { args: '{ tools = "hidden" }', status: 'error', contains: ['tools'] },
    { args: '{ tools = [1] }', status: 'error', contains: ['tools'] },
  ];
  for (const row of rows) {
    it(`${row.args} → ${row.status}`, () => {
      const t = run({ layer: layer(tools), body: turn('jp q go', [[`{ tool = "describe_tools", args = ${row.args} }`]]) });
      const c = t.calls[0];
      expect(c?.status).toBe(row.status);
      for (const s of row.contains) expect(c?.result).toContain(s);
      for (const s of row.excludes ?? []) expect(c?.result).not.toContain(s);
    });
  }
  it('describe_tools is offered always, locked on, and skipped by a bulk -T', () => {
    const { timeline: t, expectations } = runAndCheck({ layer: layer(tools, {}), body: '[[steps]]\ncommand = "jp q go -T"\n[[steps]]\ncommand = "jp q go -T describe_tools"\n[steps.expect]\nerror = "locked-on"' });
    // Nothing was ever discoverable, so search_tools is not registered.
    expect(t.requests[0]?.array).toEqual(['describe_tools']);
    expect(t.requests[0]?.sets.permitted).toEqual(['describe_tools']);
    expect(expectations.every((e) => e.pass)).toBe(true);
  });
});

describe('§8.18 run, command, result and fail', () => {
  it('run is optional and defaults to ask; local tools need no command', () => {
    const t = run({ layer: layer({ x: { enable: '"on"' }, y: { enable: '"on"', run: 'unattended' } }, {}), body: '[[steps]]\ncommand = "jp q go"' });
    expect(t.engine.state('x')?.run).toBe('ask');
    expect(t.engine.state('y')?.run).toBe('unattended');
    expect(t.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
  const rows: { extra: string; status: string; result: string }[] = [
    { extra: '', status: 'ok', result: 'x ran with {"a":1}.' },
    { extra: ', result = "42 files"', status: 'ok', result: '42 files' },
    { extra: ', fail = "disk full"', status: 'error', result: 'disk full' },
  ];
  for (const row of rows) {
    it(`a call${row.extra || ' with neither'} → ${row.status}`, () => {
      const t = run({ layer: layer({ x: { enable: '"on"' } }, {}), body: turn('jp q go', [[`{ tool = "x", args = { a = 1 }${row.extra} }`]]) });
      expect(t.calls[0]?.status).toBe(row.status);
      expect(t.calls[0]?.result).toBe(row.result);
      if (row.status === 'error') expect(t.calls[0]?.error).toBe(row.result);
    });
  }
  it('a failed call is rendered as an error tool result', () => {
    const t = run({ policy: { provider: 'anthropic' }, layer: layer({ x: { enable: '"on"' } }, {}), body: turn('jp q go', [['{ tool = "x", args = {}, fail = "boom" }']]) });
    expect(t.requests[1]?.rendered().messagesJson).toContain('"content":"boom","is_error":true');
  });
});

describe('§8.23 what counts as a summary for search', () => {
  it('local: only a description → it is the summary; summary and description → each its own', () => {
    const t = run({
      policy: { ranking: 'substring' },
      layer: layer({ a: { description: 'First. Second.' }, b: { summary: 'Short b.', description: 'Long b. More.' } }),
      body: turn('jp q go', [[search('b'), search('second')]]),
    });
    const a = t.engine.state('a');
    expect(a?.resolution.ok && a.resolution.definition.docs).toMatchObject({ summary: 'First. Second.', description: 'First. Second.' });
    const b = t.engine.state('b');
    expect(b?.resolution.ok && b.resolution.definition.docs).toMatchObject({ summary: 'Short b.', description: 'Long b. More.' });
    // "second" is in a's summary (the whole description): ranked as summary.
    expect(t.calls[1]?.search?.returned.map((r) => [r.name, r.fields[0]])).toEqual([['a', 'summary']]);
  });
  const mcp = (tool: ToolSpec, description: string) =>
    run({
      policy: { ranking: 'substring' },
      layer: layer({ runs: { ...tool, source: '"mcp.gh"' } }),
      body: `[servers.gh]\ntools = [ { name = "runs", description = ${JSON.stringify(description)}, inputSchema = { type = "object" } } ]\n${turn('jp q go', [[search('runs')]])}`,
    });
  const rows: { label: string; tool: ToolSpec; server: string; summary: string; description: string }[] = [
    { label: 'no own docs: first sentence (split_description)', tool: {}, server: 'List runs. With paging.', summary: 'List runs.', description: 'List runs. With paging.' },
    { label: 'no own docs, first line', tool: {}, server: 'List runs\nmore', summary: 'List runs', description: 'List runs\nmore' },
    { label: 'own summary wins', tool: { summary: 'Mine.' }, server: 'List runs. With paging.', summary: 'Mine.', description: 'List runs. With paging.' },
    { label: 'own description replaces the server text', tool: { description: 'Own text. Two.' }, server: 'List runs.', summary: 'Own text. Two.', description: 'Own text. Two.' },
    {
      label: 'own description with {{description}} merges',
      tool: { description: 'Prefix. {{description}}' },
      server: 'List runs.',
      summary: 'Prefix. List runs.',
      description: 'Prefix. List runs.',
    },
  ];
  for (const row of rows) {
    it(`MCP: ${row.label}`, () => {
      const t = mcp(row.tool, row.server);
      expect(t.calls[0]?.search?.returned[0]?.summary).toBe(row.summary);
      const s = t.engine.state('runs');
      expect(s?.resolution.ok && s.resolution.definition.docs.description).toBe(row.description);
    });
  }
});

describe('RFD phase 1: the state alias', () => {
  it('a stored enable = { state = false } reads as off and survives an edit of another table byte for byte', () => {
    const text = '[conversation.tools.old]\nsource = "local"\nenable = { state = false }\n\n[conversation.tools.other]\nsource = "local"\nenable = "on"\n';
    const { timeline: t, expectations } = runAndCheck({
      layer: text,
      body: `
[[steps]]
command = "jp q first"
[[steps]]
command = "jp config set conversation.tools.other.enable=discoverable"
[steps.expect]
availability = { old = "off", other = "discoverable" }
layer_contains = { workspace = ["[conversation.tools.old]\\nsource = \\"local\\"\\nenable = { state = false }\\n"] }
`,
    });
    expect(t.requests[0]?.sets.offered).toEqual(['other', 'describe_tools']);
    expect(expectations.filter((e) => !e.pass)).toEqual([]);
  });
  it('a stored { state = true } reads as on, and a stored conversation delta with state round-trips', () => {
    const { expectations } = runAndCheck({
      layer: '[conversation.tools.old]\nsource = "local"\nenable = { state = true }\n',
      body: `
[[steps]]
command = "jp config set --id conversation.tools.old.enable.state=false"
[steps.expect]
availability = { old = "off" }
[[steps]]
command = "jp q again"
[steps.expect]
availability = { old = "off" }
offered = ["describe_tools"]
`,
    });
    expect(expectations.filter((e) => !e.pass)).toEqual([]);
  });
  it('--cfg ...enable.state=false still resolves, and sets only availability', () => {
    const t = run({
      layer: '[conversation.tools.x]\nsource = "local"\nenable = { availability = "on", allow_toggle = "if_named" }\n',
      body: '[[steps]]\ncommand = "jp q --cfg conversation.tools.x.enable.state=false go"',
    });
    expect(finalAvailability(t).x).toBe('off');
    expect(t.engine.state('x')?.enable.allowToggle.value).toBe('if_named');
    expect(t.requests[0]?.array).toEqual(['describe_tools']);
  });
  it('editing a legacy file leaves exactly one spelling behind', () => {
    const t = run({
      layer: '[conversation.tools.x]\nsource = "local"\nenable = { state = false, allow_toggle = "any" }\n',
      body: '[[steps]]\ncommand = "jp config set conversation.tools.x.enable.availability=discoverable"',
    });
    const text = t.finalLayers[0]?.text ?? '';
    expect(text).toContain('enable = { availability = "discoverable", allow_toggle = "any" }');
    expect(text).not.toContain('state');
    expect(finalAvailability(t).x).toBe('discoverable');
  });
});

describe('RFD phase 2: the two sets', () => {
  it("a discoverable tool's definition is absent from the request while its docs are present in describe_tools", () => {
    const t = run({
      policy: { provider: 'openai' },
      layer: layer({ deploy: { summary: 'Deploy.', description: 'Deploy the service, in detail.' } }),
      body: turn('jp q go', [['{ tool = "describe_tools", args = { tools = ["deploy"] } }']]),
    });
    const req = t.requests[0];
    expect(req?.sets.permitted).toContain('deploy');
    expect(req?.array).not.toContain('deploy');
    expect(req?.rendered().toolsJson).not.toContain('"deploy"');
    expect(t.calls[0]?.result).toContain('Deploy the service, in detail.');
    expect(t.calls[0]?.result).not.toContain('No additional documentation');
  });
  it('jp q -u NAME on an off MCP tool starts its server and builds an executor', () => {
    const body = `
[servers.gh]
tools = [ { name = "list_runs", description = "List runs.", inputSchema = { type = "object" } } ]
[servers.other]
tools = [ { name = "other_tool", description = "Other.", inputSchema = { type = "object" } } ]

[[steps]]
command = "jp q -u list_runs go"
  [[steps.cycles]]
  calls = [ { tool = "list_runs", args = {}, expect = { status = "ok" } } ]
  [steps.cycles.expect]
  servers = ["gh"]
  permitted_includes = ["list_runs"]
  offered_includes = ["list_runs"]
  tool_choice = "list_runs"
  [[steps.cycles]]
  reply = "ok"
[steps.expect]
availability = { list_runs = "off" }
servers = []

[[steps]]
command = "jp q later"
  [[steps.cycles]]
  calls = [ { tool = "list_runs", args = {}, expect = { status = "error", error = "not available" } } ]
  [[steps.cycles]]
  reply = "ok"
`;
    const report = check({ layer: layer({ list_runs: { enable: '"off"', source: '"mcp.gh"' }, other_tool: { enable: '"off"', source: '"mcp.other"' } }, {}), body });
    expect(report.failures).toEqual([]);
    expect(report.passed).toBe(9);
  });
  it('a discoverable MCP tool starts its server eagerly (permitted), though nothing is offered', () => {
    const t = run({
      layer: layer({ list_runs: { source: '"mcp.gh"' } }),
      body: '[servers.gh]\ntools = [ { name = "list_runs", description = "List runs.", inputSchema = { type = "object" } } ]\n[[steps]]\ncommand = "jp q go"',
    });
    expect(t.requests[0]?.sets.servers).toEqual(['gh']);
    expect(t.requests[0]?.array).toEqual(['describe_tools', 'search_tools']);
  });
});

describe('unused helper guard', () => {
  it('call() builds a call table', () => {
    expect(call('x', 'result = "y"')).toBe('{ tool = "x", args = {}, result = "y" }');
  });
});
