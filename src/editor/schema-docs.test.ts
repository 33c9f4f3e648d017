import { describe, expect, it } from 'vitest';
import { DEFAULTS_KEYS, PARAMETER_KEYS, SHORTHANDS, TOOL_KEYS } from '../core';
import {
  ALLOW_TOGGLE_DOCS,
  AVAILABILITY_DOCS,
  DEFAULTS_KEY_DOCS,
  ENABLE_SHORTHAND_DOCS,
  PARAMETER_KEY_DOCS,
  TOOL_KEY_DOCS,
  classifyPath,
  codeSpan,
  escapeMarkdown,
  headerCompletions,
  keyCompletions,
  keyHover,
  serverInfos,
  valueCompletions,
  valueHover,
} from './schema-docs';
import type { ServerInfo } from './schema-docs';

const T = ['conversation', 'tools'];
const servers: ServerInfo[] = [
  { name: 'github', status: 'running', tools: [{ name: 'list_issues', description: 'List issues. In a repo.' }] },
  { name: 'sentry', status: 'offline', tools: [] },
];

describe('docs cover every key the core knows', () => {
  it('tool, defaults and parameter keys each have a one-line detail and a doc', () => {
    for (const k of TOOL_KEYS) expect(TOOL_KEY_DOCS.get(k)?.detail, k).toMatch(/\S/u);
    for (const k of DEFAULTS_KEYS) expect(DEFAULTS_KEY_DOCS.get(k)?.detail, k).toMatch(/\S/u);
    for (const k of PARAMETER_KEYS) expect(PARAMETER_KEY_DOCS.get(k)?.detail, k).toMatch(/\S/u);
    for (const doc of [...TOOL_KEY_DOCS.values(), ...DEFAULTS_KEY_DOCS.values(), ...PARAMETER_KEY_DOCS.values()]) expect(doc.detail).not.toContain('\n');
  });

  it('every shorthand the core accepts is documented with the fields it expands to', () => {
    for (const [word, [a, t]] of SHORTHANDS) {
      const doc = ENABLE_SHORTHAND_DOCS.get(word)?.doc ?? '';
      expect(doc, word).toContain(`{ availability = "${a}", allow_toggle = "${t}" }`);
    }
  });

  it('availability and allow_toggle values are the core\'s', () => {
    expect([...AVAILABILITY_DOCS.keys()].sort()).toEqual(['discoverable', 'off', 'on']);
    expect([...ALLOW_TOGGLE_DOCS.keys()].sort()).toEqual(['any', 'if_named', 'if_named_or_group', 'never']);
  });
});

describe('classifyPath', () => {
  it.each([
    [[], { kind: 'root' }],
    [T, { kind: 'tools' }],
    [[...T, 'x'], { kind: 'tool', tool: 'x' }],
    [[...T, '*'], { kind: 'defaults' }],
    [[...T, 'x', 'source'], { kind: 'tool-key', tool: 'x', key: 'source' }],
    [[...T, '*', 'run'], { kind: 'defaults-key', key: 'run' }],
    [[...T, 'x', 'enable', 'availability'], { kind: 'enable-field', tool: 'x', field: 'availability' }],
    [[...T, '*', 'enable', 'allow_toggle'], { kind: 'enable-field', tool: '*', field: 'allow_toggle' }],
    [[...T, 'x', 'parameters', 'p'], { kind: 'parameter', tool: 'x', name: 'p' }],
    [[...T, 'x', 'parameters', 'p', 'type'], { kind: 'parameter-key', tool: 'x', key: 'type' }],
    [[...T, 'x', 'parameters', 'p', 'properties', 'q', 'type'], { kind: 'parameter-key', tool: 'x', key: 'type' }],
    [[...T, 'x', 'parameters', 'p', 'items', 'type'], { kind: 'parameter-key', tool: 'x', key: 'type' }],
    [['providers', 'mcp', 'github'], { kind: 'mcp-server', server: 'github' }],
    [['assistant', 'model'], { kind: 'other' }],
  ])('%j', (path, role) => {
    expect(classifyPath(path)).toEqual(role);
  });

  it('a tool named __proto__ is just a tool', () => {
    expect(classifyPath([...T, '__proto__', 'enable'])).toEqual({ kind: 'tool-key', tool: '__proto__', key: 'enable' });
  });
});

describe('completions', () => {
  it('tool keys are the core\'s TOOL_KEYS, source and enable first', () => {
    const keys = keyCompletions([...T, 'x']);
    expect(keys.map((k) => k.label).sort()).toEqual([...TOOL_KEYS].sort());
    const sorted = [...keys].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label));
    expect(sorted.slice(0, 2).map((k) => k.label)).toEqual(['source', 'enable']);
    expect(keys.find((k) => k.label === 'enable')).toMatchObject({ insertText: 'enable = ', retrigger: true });
  });

  it("defaults keys in '*', parameter keys in a parameter, enable fields with state marked legacy", () => {
    expect(keyCompletions([...T, '*']).map((k) => k.label)).toEqual([...DEFAULTS_KEYS]);
    expect(keyCompletions([...T, 'x', 'parameters', 'p']).map((k) => k.label)).toEqual([...PARAMETER_KEYS]);
    const fields = keyCompletions([...T, 'x', 'enable']);
    expect(fields.map((k) => k.label)).toEqual(['availability', 'allow_toggle', 'state']);
    expect(fields.find((k) => k.label === 'state')?.deprecated).toBe(true);
  });

  it('enable values: the shorthands, quoted, booleans bare, and the table forms', () => {
    const values = valueCompletions([...T, 'x', 'enable'], false);
    const inserts = values.map((v) => v.insertText);
    for (const w of ['on', 'off', 'always', 'explicit', 'discoverable']) expect(inserts).toContain(`"${w}"`);
    expect(inserts).toContain('true');
    expect(inserts).toContain('false');
    expect(values.filter((v) => v.snippet).map((v) => v.insertText)).toEqual([
      '{ availability = "${1|on,discoverable,off|}", allow_toggle = "${2|any,if_named,if_named_or_group,never|}" }',
      '{ availability = "${1|discoverable,on,off|}" }',
      '{ allow_toggle = "${1|if_named,never,any,if_named_or_group|}" }',
    ]);
  });

  it('inside quotes, only the words go in', () => {
    const values = valueCompletions([...T, 'x', 'enable'], true);
    expect(values.map((v) => v.insertText)).toEqual(['on', 'off', 'discoverable', 'explicit', 'always']);
  });

  it('availability, allow_toggle, state, run values', () => {
    expect(valueCompletions([...T, 'x', 'enable', 'availability'], true).map((v) => v.insertText)).toEqual(['on', 'discoverable', 'off']);
    expect(valueCompletions([...T, '*', 'enable', 'allow_toggle'], false).map((v) => v.insertText)).toEqual(['"any"', '"never"', '"if_named"', '"if_named_or_group"']);
    expect(valueCompletions([...T, 'x', 'enable', 'state'], false).map((v) => v.insertText)).toEqual(['true', 'false']);
    expect(valueCompletions([...T, 'x', 'run'], true).map((v) => v.insertText)).toEqual(['ask', 'unattended', 'edit', 'skip']);
  });

  it('source forms: local, builtin, and every server and tool of the scenario, the matching tool preselected', () => {
    const values = valueCompletions([...T, 'github_list_issues', 'source'], true, servers);
    expect(values.map((v) => v.insertText)).toEqual(['local', 'builtin', 'mcp.github', 'mcp.github.list_issues', 'mcp.sentry']);
    expect(values.find((v) => v.preselect)?.insertText).toBe('mcp.github.list_issues');
  });

  it('headers: conversation.tools, the defaults table and the servers\' tools', () => {
    expect(headerCompletions([], false).map((e) => e.label)).toContain("conversation.tools.'*'");
    const tools = headerCompletions(T, false, servers);
    expect(tools.map((e) => e.label)).toEqual(["'*'", 'github_list_issues']);
    expect(headerCompletions([...T, 'x'], false).map((e) => e.label)).toContain('parameters');
  });

  it('no completions where nothing is known', () => {
    expect(valueCompletions([...T, 'x', 'summary'], true)).toEqual([]);
    expect(keyCompletions(['assistant'])).toEqual([]);
  });
});

describe('hovers carry the semantics', () => {
  it('"discoverable" explains its expansion, the table form, and explicit', () => {
    const md = valueHover([...T, 'x', 'enable'], 'discoverable', 'string') ?? '';
    expect(md).toContain('{ availability = "discoverable", allow_toggle = "any" }');
    expect(md).toContain("keeps `[conversation.tools.'*']`'s `allow_toggle`");
    expect(md).toContain('`explicit` withholds the tool until the **user** names it');
  });

  it("in '*', a shorthand is the default of every tool", () => {
    expect(valueHover([...T, '*', 'enable'], 'discoverable', 'string')).toContain('default of **every** tool');
  });

  it('state is the legacy alias', () => {
    expect(keyHover([...T, 'x', 'enable', 'state'])).toContain('legacy spelling of `availability`');
    expect(valueHover([...T, 'x', 'enable', 'state'], 'false', 'boolean')).toContain('availability = "off"');
  });

  it('a bad value says what is accepted', () => {
    expect(valueHover([...T, 'x', 'enable'], 'bogus', 'string')).toContain('"discoverable"');
    expect(valueHover([...T, 'x', 'enable', 'allow_toggle'], 'sometimes', 'string')).toContain('"if_named_or_group"');
  });

  it('source hovers describe the server and the tool', () => {
    expect(valueHover([...T, 'x', 'source'], 'mcp.github.list_issues', 'string', servers)).toContain('List issues');
    expect(valueHover([...T, 'x', 'source'], 'mcp.nope', 'string', servers)).toContain('offline');
    expect(valueHover([...T, 'x', 'source'], 'mcp', 'string', servers)).toContain('error');
  });

  it("keys: tool keys, '*' and unknown keys", () => {
    expect(keyHover([...T, 'x', 'enable'])).toContain('A **shorthand**');
    expect(keyHover([...T, '*'])).toContain('defaults table');
    expect(keyHover([...T, 'x', 'bogus'])).toContain('not a key JP knows');
  });
});

describe('untrusted text stays text', () => {
  it('escapes markdown and HTML', () => {
    expect(escapeMarkdown('<img src=x onerror=alert(1)> ![a](http://x) *b*')).toBe('\\<img src=x onerror=alert\\(1\\)\\> \\!\\[a\\]\\(http://x\\) \\*b\\*');
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x')).toBe('`` `x ``');
  });

  it('server descriptions in docs are escaped', () => {
    const evil: ServerInfo[] = [{ name: 'gh', status: 'running', tools: [{ name: 'x', description: '![p](http://evil.example/p.png) <script>' }] }];
    const md = valueHover([...T, 'x', 'source'], 'mcp.gh.x', 'string', evil) ?? '';
    expect(md).not.toContain('![p](');
    expect(md).not.toContain('<script>');
  });

  it('serverInfos reads names and descriptions from tools/list entries', () => {
    expect(serverInfos([{ name: 'gh', status: 'running', tools: [{ name: 'a', description: 'A.' }, { title: 'no name' }] }])).toEqual([{ name: 'gh', status: 'running', tools: [{ name: 'a', description: 'A.' }] }]);
  });
});
