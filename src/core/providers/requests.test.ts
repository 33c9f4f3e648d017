// Semantics §7 and §8 items 13, 14, 15, 26 through the runner: each request's
// tools array in every provider's shape, tool_choice, cost, the prefix cache,
// Anthropic directives mode and promoted_position.
import { describe, expect, it } from 'vitest';
import { check, layer, run, search, turn } from '../turn/test-kit';
import type { ToolSpec } from '../turn/test-kit';
import { definitionCost, utf8ByteLength } from './cost';
import { describeToolsDefinition, searchToolsDefinition } from '../catalogue/builtins';
import { PROVIDER_IDS } from './types';
import type { ProviderId } from './types';

const TOOLS: Record<string, ToolSpec> = {
  read_file: { enable: '"on"', summary: 'Read a file.', params: { path: { required: true, summary: 'Path.' } } },
  deploy: { summary: 'Deploy a service.', params: { env: { required: true, summary: 'Environment.' } } },
  page_oncall: { summary: 'Page the on-call engineer.' },
};

/** Forced read_file in cycle 1 (which searches), auto in cycle 2 (which replies). */
function forcedRun(provider: ProviderId) {
  return run({
    policy: { ranking: 'substring', provider },
    layer: layer(TOOLS),
    body: turn('jp q go -u read_file', [[search('deploy')]]),
  });
}

/** How each provider's array entry names its tool. */
function entryName(provider: ProviderId, entry: unknown): string {
  const e = entry as Record<string, unknown>;
  switch (provider) {
    case 'anthropic':
    case 'anthropic-directives':
    case 'openai':
      return String(e.name);
    case 'google':
      return String((e.functionDeclarations as Record<string, unknown>[])[0]?.name);
    default:
      return String((e.function as Record<string, unknown>).name);
  }
}

const FORCED_CHOICE: Record<ProviderId, unknown> = {
  anthropic: { type: 'tool', name: 'read_file' },
  'anthropic-directives': { type: 'tool', name: 'read_file' },
  openai: { type: 'function', name: 'read_file' },
  google: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['read_file'] } },
  openrouter: { type: 'function', function: { name: 'read_file' } },
  cerebras: { type: 'function', function: { name: 'read_file' } },
  ollama: undefined,
  llamacpp: 'required',
};
const AUTO_CHOICE: Record<ProviderId, unknown> = {
  anthropic: { type: 'auto' },
  'anthropic-directives': { type: 'auto' },
  openai: 'auto',
  google: { functionCallingConfig: { mode: 'VALIDATED' } },
  openrouter: 'auto',
  cerebras: 'auto',
  ollama: undefined,
  llamacpp: 'auto',
};

describe('§7 every provider via the runner: tools array shape and tool_choice', () => {
  for (const provider of PROVIDER_IDS) {
    it(provider, () => {
      const t = forcedRun(provider);
      const [first, second] = t.requests;
      expect(first?.toolChoice).toEqual({ kind: 'function', name: 'read_file' });
      expect(second?.toolChoice).toEqual({ kind: 'auto' });
      const r1 = first?.rendered();
      const r2 = second?.rendered();
      const body1 = JSON.parse(JSON.stringify(r1?.body)) as Record<string, unknown>;
      const body2 = JSON.parse(JSON.stringify(r2?.body)) as Record<string, unknown>;
      const tools1 = body1.tools as unknown[];
      const tools2 = body2.tools as unknown[];
      // The array the provider gets, by name.
      const directives = provider === 'anthropic-directives';
      const want1 = directives
        ? ['read_file', 'deploy', 'page_oncall', 'describe_tools', 'search_tools']
        : provider === 'llamacpp'
          ? ['read_file'] // llama.cpp filters the array down to the forced tool
          : ['read_file', 'describe_tools', 'search_tools'];
      const want2 = directives
        ? want1
        : ['read_file', 'deploy', 'describe_tools', 'search_tools'];
      expect(tools1.map((e) => entryName(provider, e))).toEqual(want1);
      expect(tools2.map((e) => entryName(provider, e))).toEqual(want2);
      expect(r1?.toolNames).toEqual(want1);
      // The promoted tool carries its schema in the provider's shape.
      const deploy = tools2.find((e) => entryName(provider, e) === 'deploy') as Record<string, unknown>;
      const schemaText = JSON.stringify(deploy);
      expect(schemaText).toContain('"env"');
      expect(schemaText).toContain('Deploy a service.');
      switch (provider) {
        case 'anthropic':
        case 'anthropic-directives':
          expect(deploy).toMatchObject({ name: 'deploy', description: 'Deploy a service.', input_schema: { type: 'object', required: ['env'] } });
          // The one cache breakpoint sits on the last tool.
          expect((tools2[tools2.length - 1] as Record<string, unknown>).cache_control).toEqual({ type: 'ephemeral' });
          break;
        case 'openai':
          expect(deploy).toMatchObject({ type: 'function', name: 'deploy', strict: true, parameters: { type: 'object', additionalProperties: false } });
          break;
        case 'google':
          expect(deploy).toMatchObject({ functionDeclarations: [{ name: 'deploy', parametersJsonSchema: { type: 'object' } }] });
          break;
        case 'openrouter':
        case 'llamacpp':
          expect(deploy).toMatchObject({ type: 'function', function: { name: 'deploy', strict: true } });
          break;
        case 'cerebras':
          expect(deploy).toMatchObject({ type: 'function', function: { name: 'deploy', parameters: { additionalProperties: true } } });
          break;
        case 'ollama':
          // Properties only (JP's to_parameters_map).
          expect(deploy).toMatchObject({ type: 'function', function: { name: 'deploy', parameters: { env: { type: 'string' } } } });
          break;
      }
      // tool_choice on the wire.
      expect(r1?.toolChoice).toEqual(FORCED_CHOICE[provider]);
      expect(r2?.toolChoice).toEqual(AUTO_CHOICE[provider]);
      if (provider === 'ollama') {
        // No tool_choice field: a forced choice is a system nudge at the end of the history.
        expect(r1?.messagesJson).toContain("You MUST use the function named 'read_file'");
        expect(r2?.messagesJson).not.toContain('You MUST use');
      }
    });
  }

  it('-U renders tool_choice none; -u with no name renders required', () => {
    const none = run({ policy: { provider: 'openai' }, layer: layer(TOOLS), body: '[[steps]]\ncommand = "jp q go -U"' });
    expect(none.requests[0]?.rendered().toolChoice).toBe('none');
    const required = run({ policy: { provider: 'anthropic' }, layer: layer(TOOLS), body: '[[steps]]\ncommand = "jp q go -u"' });
    expect(required.requests[0]?.rendered().toolChoice).toEqual({ type: 'any' });
  });
});

describe('§7 / §8.13 the prefix cache, per provider', () => {
  /** Cycle 1 searches and promotes; cycle 2 calls nothing new; a second turn follows. */
  const body = `
[[steps]]
command = "jp q one"
  [[steps.cycles]]
  calls = [ ${search('deploy')} ]
  [[steps.cycles]]
  calls = [ { tool = "read_file", args = { path = "a" } } ]
  [[steps.cycles]]
  reply = "ok"
[[steps]]
command = "jp q two"
`;
  for (const provider of PROVIDER_IDS) {
    it(`${provider}: first request misses; a discovery ${provider === 'anthropic-directives' ? 'keeps' : 'busts'} the cache; unchanged requests hit`, () => {
      const t = run({ policy: { ranking: 'substring', provider }, layer: layer(TOOLS), body });
      const statuses = t.requests.map((r) => r.cache().status);
      expect(t.requests[0]?.cache().reason).toBe('first request');
      if (provider === 'anthropic-directives') expect(statuses).toEqual(['miss', 'hit', 'hit', 'hit']);
      else {
        expect(statuses).toEqual(['miss', 'miss', 'hit', 'hit']);
        expect(t.requests[1]?.cache().firstDifference?.section).toBe('tools');
      }
    });
  }

  it('a user directive that changes the offered set busts the cache of a later turn (non-directive providers)', () => {
    const t = run({ policy: { provider: 'openai' }, layer: layer(TOOLS), body: '[[steps]]\ncommand = "jp q one"\n[[steps]]\ncommand = "jp q two -T read_file"' });
    expect(t.requests.map((r) => r.cache().status)).toEqual(['miss', 'miss']);
  });

  it('a cache expectation in a scenario checks the same thing', () => {
    const report = check({
      policy: { ranking: 'substring', provider: 'anthropic-directives' },
      layer: layer(TOOLS),
      body: `
[[steps]]
command = "jp q one"
  [[steps.cycles]]
  calls = [ ${search('deploy')} ]
  [steps.cycles.expect]
  cache = "miss"
  [[steps.cycles]]
  reply = "ok"
  [steps.cycles.expect]
  cache = "hit"
  offered_includes = ["deploy"]
`,
    });
    expect(report.failures).toEqual([]);
    expect(report.passed).toBe(3);
  });
});

describe('§8.14 Anthropic directives mode', () => {
  const tools: Record<string, ToolSpec> = {
    read_file: { enable: '"on"', summary: 'Read.' },
    deploy: { summary: 'Deploy.' },
    disabled: { enable: '"off"', summary: 'Off.' },
    lint: { summary: 'Lint.' },
  };
  const t = run({
    policy: { ranking: 'substring', provider: 'anthropic-directives' },
    layer: layer(tools),
    body: `
[[steps]]
command = "jp q one"
  [[steps.cycles]]
  calls = [ ${search('deploy')} ]
  [[steps.cycles]]
  calls = [ ${search('lint')} ]
  [[steps.cycles]]
  reply = "ok"
[[steps]]
command = "jp q two"
`,
  });

  it('the array is every configured tool plus both builtins, in config order, from the first request on, whatever their availability', () => {
    for (const r of t.requests) expect(r.array).toEqual(['read_file', 'deploy', 'disabled', 'lint', 'describe_tools', 'search_tools']);
    const bytes = t.requests.map((r) => r.rendered().toolsJson);
    expect(new Set(bytes).size).toBe(1);
  });

  it('offered* compares the offered set, offered_order the array', () => {
    expect(t.requests[0]?.sets.offered).toEqual(['read_file', 'describe_tools', 'search_tools']);
    expect(t.requests[1]?.sets.offered).toEqual(['read_file', 'deploy', 'describe_tools', 'search_tools']);
    const report = check({
      policy: { ranking: 'substring', provider: 'anthropic-directives' },
      layer: layer(tools),
      body: `
[[steps]]
command = "jp q one"
  [[steps.cycles]]
  calls = [ ${search('deploy')} ]
  [steps.cycles.expect]
  offered = ["read_file", "describe_tools", "search_tools"]
  offered_excludes = ["deploy", "disabled"]
  offered_order = ["read_file", "deploy", "disabled", "lint", "describe_tools", "search_tools"]
  [[steps.cycles]]
  reply = "ok"
  [steps.cycles.expect]
  offered = ["read_file", "deploy", "describe_tools", "search_tools"]
  offered_order = ["read_file", "deploy", "disabled", "lint", "describe_tools", "search_tools"]
`,
    });
    expect(report.failures).toEqual([]);
  });

  it('the first request carries one block stating the initial availability', () => {
    const first = t.requests[0]?.messages ?? [];
    const blocks = first.filter((m) => m.kind === 'tool-availability');
    expect(blocks).toEqual([{ kind: 'tool-availability', blocks: [{ type: 'tool_availability', tools: ['read_file', 'describe_tools', 'search_tools'] }] }]);
    const body = JSON.parse(JSON.stringify(t.requests[0]?.rendered().body)) as { messages: { role: string; content: { type: string }[] }[] };
    expect(body.messages.flatMap((m) => m.content.map((c) => c.type)).filter((x) => x.startsWith('tool_'))).toEqual(['tool_availability']);
  });

  it('each committed promotion adds a tool_addition block after the tool results of its cycle', () => {
    const body = JSON.parse(JSON.stringify(t.requests[2]?.rendered().body)) as { messages: { role: string; content: Record<string, unknown>[] }[] };
    const types = body.messages.map((m) => `${m.role}:${m.content.map((c) => (c.type === 'tool_addition' ? `tool_addition(${String(c.tools)})` : c.type)).join('+')}`);
    expect(types).toEqual([
      'user:text',
      'user:tool_availability',
      'assistant:tool_use',
      'user:tool_result+tool_addition(deploy)',
      'assistant:tool_use',
      'user:tool_result+tool_addition(lint)',
    ]);
    // No block when nothing changed: the second turn adds only its user message.
    const blocks = (i: number): number => (t.requests[i]?.messages ?? []).filter((m) => m.kind === 'tool-availability').length;
    expect([0, 1, 2, 3].map(blocks)).toEqual([1, 2, 3, 3]);
  });

  it('the prefix cache hits across every discovery', () => {
    expect(t.requests.map((r) => r.cache().status)).toEqual(['miss', 'hit', 'hit', 'hit']);
  });

  it('a user -T in a later turn becomes a tool_removal block; the array stays fixed', () => {
    const t2 = run({
      policy: { ranking: 'substring', provider: 'anthropic-directives' },
      layer: layer(tools),
      body: '[[steps]]\ncommand = "jp q one"\n[[steps]]\ncommand = "jp q two -T read_file"',
    });
    const blocks = t2.requests[1]?.messages.filter((m) => m.kind === 'tool-availability');
    expect(blocks?.[1]).toEqual({ kind: 'tool-availability', blocks: [{ type: 'tool_removal', tools: ['read_file'] }] });
    expect(t2.requests[1]?.cache().status).toBe('hit');
  });

  it('non-directive providers never render availability blocks', () => {
    const plain = run({ policy: { ranking: 'substring', provider: 'anthropic' }, layer: layer(tools), body: turn('jp q one', [[search('deploy')]]) });
    expect(plain.requests[1]?.rendered().messagesJson).not.toContain('tool_addition');
    expect(plain.requests[1]?.array).toEqual(['read_file', 'deploy', 'describe_tools', 'search_tools']);
  });
});

describe('§8.15 / §8.26 promoted_position', () => {
  const tools: Record<string, ToolSpec> = {
    alpha: { summary: 'First in config.' },
    read_file: { enable: '"on"', summary: 'Read.' },
    beta: { summary: 'Second, mentions zeta.' },
    zeta: { summary: 'Third.' },
    gamma: { summary: 'Fourth.' },
  };
  // Cycle 1: search "gamma" (index 0), then "zeta" (index 1) which ranks zeta (name) before beta (summary).
  // Cycle 2: search "alpha".
  const body = `
[[steps]]
command = "jp q one"
  [[steps.cycles]]
  calls = [ ${search('gamma')}, ${search('zeta')} ]
  [[steps.cycles]]
  calls = [ ${search('alpha')} ]
  [[steps.cycles]]
  reply = "ok"
[[steps]]
command = "jp q two"
`;
  it('config_order (default): promoted tools land at their config position', () => {
    const t = run({ policy: { ranking: 'substring' }, layer: layer(tools), body });
    expect(t.calls[1]?.search?.returned.map((r) => r.name)).toEqual(['zeta', 'beta']);
    expect(t.requests.map((r) => r.array)).toEqual([
      ['read_file', 'describe_tools', 'search_tools'],
      ['read_file', 'beta', 'zeta', 'gamma', 'describe_tools', 'search_tools'],
      ['alpha', 'read_file', 'beta', 'zeta', 'gamma', 'describe_tools', 'search_tools'],
      ['alpha', 'read_file', 'beta', 'zeta', 'gamma', 'describe_tools', 'search_tools'],
    ]);
  });
  it('append: after every other entry, builtins included, in commit order — call index, then rank — and the position persists', () => {
    const t = run({ policy: { ranking: 'substring', promoted_position: 'append' }, layer: layer(tools), body });
    expect(t.requests.map((r) => r.array)).toEqual([
      ['read_file', 'describe_tools', 'search_tools'],
      ['read_file', 'describe_tools', 'search_tools', 'gamma', 'zeta', 'beta'],
      ['read_file', 'describe_tools', 'search_tools', 'gamma', 'zeta', 'beta', 'alpha'],
      ['read_file', 'describe_tools', 'search_tools', 'gamma', 'zeta', 'beta', 'alpha'],
    ]);
    // The step expectations see the same order.
    expect(t.setsAt(t.positions.length - 1).offered).toEqual(['read_file', 'describe_tools', 'search_tools', 'gamma', 'zeta', 'beta', 'alpha']);
  });
  it('append: the rendered tools array follows the same order', () => {
    const t = run({ policy: { ranking: 'substring', promoted_position: 'append', provider: 'openai' }, layer: layer(tools), body });
    expect(t.requests[2]?.rendered().toolNames).toEqual(['read_file', 'describe_tools', 'search_tools', 'gamma', 'zeta', 'beta', 'alpha']);
  });
  it('append keeps more of the previous tools array: the first difference comes later than in config order', () => {
    const offset = (position: 'config_order' | 'append'): number => {
      const t = run({ policy: { ranking: 'substring', promoted_position: position }, layer: layer(tools), body });
      return t.requests[2]?.cache().firstDifference?.offset ?? -1;
    };
    expect(offset('append')).toBeGreaterThan(offset('config_order'));
  });
  it('append: a tool turned on by the user (-t NAME), not by search, keeps its config position', () => {
    const t = run({
      policy: { ranking: 'substring', promoted_position: 'append' },
      layer: layer(tools),
      body: `${turn('jp q one', [[search('zeta')]])}\n[[steps]]\ncommand = "jp q two -t alpha"\n`,
    });
    expect(t.requests[2]?.array).toEqual(['alpha', 'read_file', 'describe_tools', 'search_tools', 'zeta', 'beta']);
  });
});

describe('§7 definition cost: offered and permitted sets, and the saving', () => {
  const tools: Record<string, ToolSpec> = {
    ping: { enable: '"on"', summary: 'Check the server.' },
    deploy: { summary: 'Déployer ☃.' },
    lint: { summary: 'Lint.' },
  };
  // JP's estimate, by hand: name + description + compact JSON schema, in UTF-8 bytes.
  const EMPTY = '{"type":"object","properties":{},"additionalProperties":false,"required":[]}';
  const PING = 4 + 17 + EMPTY.length;
  const DEPLOY = 6 + utf8ByteLength('Déployer ☃.') + EMPTY.length;
  const LINT = 4 + 5 + EMPTY.length;
  const BUILTINS = definitionCost(describeToolsDefinition) + definitionCost(searchToolsDefinition);

  it('hand-computed bytes: é is 2 bytes, ☃ is 3', () => {
    expect(utf8ByteLength('Déployer ☃.')).toBe(14);
    expect(definitionCost(describeToolsDefinition)).toBe(262);
  });

  it('offered and permitted cost at every request; a promotion moves exactly the promoted tool into the offered cost', () => {
    const t = run({ policy: { ranking: 'substring' }, layer: layer(tools), body: turn('jp q go', [[search('ployer')]]) });
    expect(t.requests.map((r) => r.cost)).toEqual([
      { offered: PING + BUILTINS, permitted: PING + DEPLOY + LINT + BUILTINS },
      { offered: PING + DEPLOY + BUILTINS, permitted: PING + DEPLOY + LINT + BUILTINS },
    ]);
    // The saving of discovery is permitted minus offered: the undiscovered tools.
    expect((t.requests[1]?.cost.permitted ?? 0) - (t.requests[1]?.cost.offered ?? 0)).toBe(LINT);
  });

  it('overhead_chars expectations check the same numbers', () => {
    const report = check({
      policy: { ranking: 'substring' },
      layer: layer(tools),
      body: `
[[steps]]
command = "jp q go"
  [[steps.cycles]]
  reply = "ok"
  [steps.cycles.expect]
  overhead_chars = { offered = ${PING + BUILTINS}, permitted = ${PING + DEPLOY + LINT + BUILTINS} }
`,
    });
    expect(report.failures).toEqual([]);
  });

  it('an off tool costs nothing in either set; a forced one counts in both', () => {
    const t = run({
      policy: { ranking: 'substring' },
      layer: layer({ ...tools, lint: { enable: '"off"', summary: 'Lint.' } }),
      body: '[[steps]]\ncommand = "jp q go"\n[[steps]]\ncommand = "jp q go -u lint"',
    });
    expect(t.requests[0]?.cost).toEqual({ offered: PING + BUILTINS, permitted: PING + DEPLOY + BUILTINS });
    expect(t.requests[1]?.cost).toEqual({ offered: PING + LINT + BUILTINS, permitted: PING + DEPLOY + LINT + BUILTINS });
  });

  it('in directives mode the cost is still that of the offered set, not of the fixed array', () => {
    const t = run({ policy: { ranking: 'substring', provider: 'anthropic-directives' }, layer: layer(tools), body: '[[steps]]\ncommand = "jp q go"' });
    expect(t.requests[0]?.cost.offered).toBe(PING + BUILTINS);
  });
});
