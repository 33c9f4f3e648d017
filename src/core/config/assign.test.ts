// `--cfg KEY=VALUE` / `KEY:=JSON` assignment (jp-today 5.4), as config deltas.
import { describe, expect, it } from 'vitest';
import { assignmentsToDelta, assignmentToDelta, jsonToNode, parseAssignment } from './assign';
import { EMPTY_CONFIG } from './read';
import type { Origin } from './types';

const O: Origin = { kind: 'delta', delta: 3, source: 'cfg', detail: 'x' };
const a = (key: string, value: string, json = false) => ({ path: key.split('.'), value, json });

describe('parseAssignment (the tool-write grammar)', () => {
  it.each([
    ['conversation.tools.x.enable=off', { path: ['conversation', 'tools', 'x', 'enable'], value: 'off', json: false }],
    ['conversation.tools.x.enable:={"availability":"on"}', { path: ['conversation', 'tools', 'x', 'enable'], value: '{"availability":"on"}', json: true }],
    ['k=a=b', { path: ['k'], value: 'a=b', json: false }],
    ['k=', { path: ['k'], value: '', json: false }],
  ])('%s', (text, want) => {
    expect(parseAssignment(text)).toEqual(want);
  });
  it.each(['no-equals', '=value', ''])('%j is not an assignment', (text) => {
    expect(parseAssignment(text)).toBeUndefined();
  });
});

describe('assignmentToDelta', () => {
  it('types a string by the key it lands on: enable.state and required are booleans', () => {
    const r = assignmentToDelta(a('conversation.tools.x.parameters.p.required', 'true'), O);
    expect(r.ok && r.delta.tools.get('x')?.parameters.get('p')?.required?.value).toBe(true);
    const bad = assignmentToDelta(a('conversation.tools.x.parameters.p.required', 'maybe'), O);
    expect(bad).toEqual({ ok: false, error: "conversation.tools.x.parameters.p.required: invalid required: 'maybe', expected true or false" });
  });

  it('other string keys stay strings; every value carries the delta origin', () => {
    const r = assignmentToDelta(a('conversation.tools.x.summary', 'true'), O);
    expect(r.ok && r.delta.tools.get('x')?.summary).toEqual({ value: 'true', origin: O });
  });

  it("routes '*' (quoted or not) to the defaults", () => {
    for (const key of ["conversation.tools.'*'.enable", 'conversation.tools.*.enable']) {
      const r = assignmentToDelta(a(key, 'explicit'), O);
      expect(r.ok && [r.delta.defaults.enable.availability?.value, r.delta.tools.size]).toEqual(['off', 0]);
    }
  });

  it('a whole tool as JSON assigns each listed key and creates the tool', () => {
    const r = assignmentToDelta(a('conversation.tools.new', '{"source":"mcp.gh.list","enable":"discoverable","summary":null}', true), O);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = r.delta.tools.get('new');
    expect(t?.source?.value).toEqual({ kind: 'mcp', server: 'gh', tool: 'list' });
    expect(t?.enable.availability?.value).toBe('discoverable');
    expect(t?.summary).toBeUndefined();
  });

  it.each([
    ['conversation..x', 'invalid key'],
    ['conversation.tools.x.bogus', 'unknown key `bogus` in conversation.tools.x'],
  ])('%s is an error', (key, part) => {
    const r = assignmentToDelta(a(key, 'v'), O);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(part);
  });

  it('keys JP has but the workbench does not simulate are accepted and change nothing', () => {
    expect(assignmentToDelta(a('assistant.tool_choice', 'x'), O)).toEqual({ ok: true, delta: EMPTY_CONFIG });
  });

  it('MCP server keys land in mcpServers', () => {
    const r = assignmentToDelta(a('providers.mcp.gh.command', 'gh-mcp'), O);
    expect(r.ok && r.delta.mcpServers.get('gh')?.raw).toMatchObject({ command: 'gh-mcp' });
  });
});

describe('assignmentsToDelta', () => {
  it('applies in order, later assignments over earlier ones, per field for enable tables', () => {
    const r = assignmentsToDelta(
      [a('conversation.tools.x.enable', 'always'), a('conversation.tools.x.enable', '{"availability":"discoverable"}', true), a('conversation.tools.y.enable.state', 'false')],
      O,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect([r.delta.tools.get('x')?.enable.availability?.value, r.delta.tools.get('x')?.enable.allowToggle?.value]).toEqual(['discoverable', 'never']);
    expect([...r.delta.tools.keys()]).toEqual(['x', 'y']);
  });

  it('reports the first failure', () => {
    const r = assignmentsToDelta([a('conversation.tools.x.enable', 'on'), a('conversation.tools.x.enable', 'bad'), a('conversation.tools.x.enable.state', 'bad')], O);
    expect(r.ok ? '' : r.error).toMatch(/^conversation\.tools\.x\.enable: invalid enable value: 'bad'/);
  });
});

describe('jsonToNode', () => {
  it('drops null members (an unset cannot be persisted) and keeps key order', () => {
    const n = jsonToNode({ b: 1, a: null, c: [true, null, 'x'], d: 1.5 });
    expect(n?.kind).toBe('table');
    if (n?.kind !== 'table') return;
    expect([...n.entries.keys()]).toEqual(['b', 'c', 'd']);
    expect(n.entries.get('c')?.value).toMatchObject({ kind: 'array', items: [{ kind: 'boolean' }, { kind: 'string' }] });
    expect(n.entries.get('d')?.value.kind).toBe('float');
    expect(jsonToNode(null)).toBeUndefined();
  });

  it('a JSON key __proto__ is an ordinary key', () => {
    const n = jsonToNode(JSON.parse('{"__proto__":{"enable":"on"}}'));
    expect(n?.kind === 'table' && [...n.entries.keys()]).toEqual(['__proto__']);
    const r = assignmentToDelta(a('conversation.tools', '{"__proto__":{"enable":"off"}}', true), O);
    expect(r.ok && r.delta.tools.get('__proto__')?.enable.availability?.value).toBe('off');
  });
});
