// The model's calls from the page (issue 33 §2): which run on a live server, after a question or
// unattended, which stay simulated, and what the step records when the user refuses.
import { describe, expect, it, vi } from 'vitest';
import type { RequestToolView } from '../../derive/labProtocol';
import { REFUSED, resolveServerCall, routeCall } from './modelCalls';
import type { LiveTool, RouteContext } from './modelCalls';

const tool = (name: string, more: Partial<RequestToolView>): RequestToolView => ({ name, offered: true, kind: 'mcp', summary: '', params: [], ...more });

const TOOLS: RequestToolView[] = [
  tool('search_tools', { kind: 'builtin', run: 'unattended' }),
  tool('describe_tools', { kind: 'builtin', run: 'unattended' }),
  tool('echo', { server: 'ev', backendName: 'echo', run: 'unattended' }),
  tool('sum', { server: 'ev', backendName: 'get-sum', run: 'ask' }),
  tool('wipe', { server: 'ev', backendName: 'wipe', run: 'unattended' }),
  tool('edited', { server: 'ev', backendName: 'edited', run: 'edit' }),
  tool('offline_tool', { server: 'gone', backendName: 'offline_tool', run: 'unattended' }),
  tool('read_file', { kind: 'local', run: 'unattended' }),
];

const ctx = (unattended: boolean): RouteContext => ({
  tools: TOOLS,
  endpointOf: (server) => (server === 'ev' ? 'http://127.0.0.1:1/bridge/servers/ev/mcp' : undefined),
  destructive: (_server, name) => name === 'wipe',
  unattended,
});

describe('routeCall: what the page does with a call in the model’s answer', () => {
  it('asks before running a tool of a live server, whatever its run mode, while the unattended choice is off', () => {
    for (const name of ['echo', 'sum', 'edited']) expect(routeCall(name, ctx(false)).kind).toBe('ask');
    expect(routeCall('sum', ctx(false))).toEqual({ kind: 'ask', target: { name: 'sum', server: 'ev', tool: 'get-sum', endpoint: 'http://127.0.0.1:1/bridge/servers/ev/mcp', run: 'ask', destructive: false } });
  });

  it('runs unattended only a tool whose run is unattended, and only with the choice ticked', () => {
    expect(routeCall('echo', ctx(true)).kind).toBe('unattended');
    expect(routeCall('sum', ctx(true)).kind).toBe('ask');
    expect(routeCall('edited', ctx(true)).kind).toBe('ask');
  });

  it('a tool annotated destructive: asked with the annotation shown, but run = "unattended" with the choice ticked runs it, as JP and the CLI do', () => {
    expect(routeCall('wipe', ctx(false))).toMatchObject({ kind: 'ask', target: { destructive: true } });
    expect(routeCall('wipe', ctx(true))).toMatchObject({ kind: 'unattended', target: { destructive: true } });
  });

  it('simulates a tool with no running server, a local tool, and a tool outside the permitted set', () => {
    expect(routeCall('offline_tool', ctx(true)).kind).toBe('simulated');
    expect(routeCall('read_file', ctx(true)).kind).toBe('simulated');
    expect(routeCall('not_permitted', ctx(true)).kind).toBe('simulated');
    // A name the model made up to look like a live tool's name on the server is not that tool.
    expect(routeCall('get-sum', ctx(true)).kind).toBe('simulated');
  });

  it('keeps search_tools and describe_tools in the workbench', () => {
    expect(routeCall('search_tools', ctx(true)).kind).toBe('workbench');
    expect(routeCall('describe_tools', ctx(false)).kind).toBe('workbench');
  });
});

describe('resolveServerCall: what the step records', () => {
  const target: LiveTool = { name: 'sum', server: 'ev', tool: 'get-sum', endpoint: 'http://e', run: 'ask', destructive: false };

  it('asked and confirmed: runs it with the model’s arguments, on the tool’s name on the server, and records its result', async () => {
    const confirm = vi.fn(() => Promise.resolve(true));
    const run = vi.fn(() => Promise.resolve({ text: 'The sum of 2 and 3 is 5.', isError: false, asked: [] }));
    const r = await resolveServerCall({ kind: 'ask', target }, { a: 2, b: 3 }, { confirm, run });
    expect(confirm).toHaveBeenCalledWith(target, { a: 2, b: 3 });
    expect(run).toHaveBeenCalledWith(target, { a: 2, b: 3 });
    expect(r).toEqual({ how: 'confirmed', outcome: { result: 'The sum of 2 and 3 is 5.' } });
  });

  it('refused: nothing runs, and the refusal is recorded as the call’s failure (the model reads it)', async () => {
    const run = vi.fn(() => Promise.resolve({ text: 'ran', isError: false, asked: [] }));
    const r = await resolveServerCall({ kind: 'ask', target }, { a: 2 }, { confirm: () => Promise.resolve(false), run });
    expect(run).not.toHaveBeenCalled();
    expect(r).toEqual({ how: 'refused', outcome: { fail: `${REFUSED}: the user declined sum` } });
  });

  it('unattended: runs without asking', async () => {
    const confirm = vi.fn(() => Promise.resolve(false));
    const r = await resolveServerCall({ kind: 'unattended', target: { ...target, run: 'unattended' } }, {}, { confirm, run: () => Promise.resolve({ text: 'Echo: hi', isError: false, asked: [] }) });
    expect(confirm).not.toHaveBeenCalled();
    expect(r).toEqual({ how: 'unattended', outcome: { result: 'Echo: hi' } });
  });

  it('the server’s error is a fail, as Run on server records it; questions the server asked go with it', async () => {
    const asked = [{ kind: 'elicitation', message: 'Sure?', action: 'decline' }];
    const r = await resolveServerCall({ kind: 'unattended', target }, {}, { confirm: () => Promise.resolve(true), run: () => Promise.resolve({ text: '', isError: true, asked }) });
    expect(r).toEqual({ how: 'unattended', outcome: { fail: 'the tool failed' }, asked });
  });

  it('a call that could not reach the server is recorded as a failure with the reason, not as a simulated result', async () => {
    const r = await resolveServerCall({ kind: 'ask', target }, {}, { confirm: () => Promise.resolve(true), run: () => Promise.reject(new Error('the server has no open session')) });
    expect(r).toEqual({ how: 'failed', outcome: { fail: 'the call did not run: the server has no open session' } });
  });
});
