// Executing a call, as the timeline records it (issue 35: survivors of call.ts's mutation run): a
// proposed config write that is rejected, invalid, or proposed by a failing call; what an approved one
// commits and where it says it came from; a search's query, errors, summaries, and hide_unapproved.
import { describe, expect, it } from 'vitest';
import type { CallRecord, Timeline } from './timeline';
import { call, layer, run, search, turn } from './test-kit';

const ADMIN = layer({ admin: { enable: '"on"' }, x: { enable: '"off"' } }, {});
const calls = (t: Timeline): CallRecord[] => t.calls.filter((c) => c.tool === 'admin');

describe('config writes a call proposes', () => {
  it('rejected by the user: not applied, and the result says which writes were rejected', () => {
    const t = run({ layer: ADMIN, body: turn('jp q go', [[call('admin', 'writes = ["conversation.tools.x.enable=on"], approved = false')]]) });
    const [c] = calls(t);
    expect(c?.write).toEqual({ proposed: ['conversation.tools.x.enable=on'], applied: false, reason: 'rejected by the user' });
    expect(c?.result).toBe('admin ran with {}.\nThe config write was rejected: conversation.tools.x.enable=on.');
    expect(t.engine.state('x')?.enable.availability.value).toBe('off');
  });

  it('approved but invalid: not applied, and the result says why', () => {
    const t = run({ layer: ADMIN, body: turn('jp q go', [[call('admin', 'writes = ["nonsense"], approved = true')]]) });
    const [c] = calls(t);
    expect(c?.write).toEqual({ proposed: ['nonsense'], applied: false, reason: 'invalid write `nonsense`, expected KEY=VALUE' });
    expect(c?.result).toBe('admin ran with {}.\nThe config write was rejected: invalid write `nonsense`, expected KEY=VALUE.');
    expect(c?.status).toBe('ok');
  });

  it('proposed by a call that fails: an error, the write not applied because the call failed', () => {
    const t = run({ layer: ADMIN, body: turn('jp q go', [[call('admin', 'fail = "boom", writes = ["conversation.tools.x.enable=on"], approved = true')]]) });
    const [c] = calls(t);
    expect(c).toMatchObject({ status: 'error', result: 'boom', error: 'boom', write: { proposed: ['conversation.tools.x.enable=on'], applied: false, reason: 'the call failed' } });
    expect(t.engine.state('x')?.enable.availability.value).toBe('off');
  });

  it('approved and valid: applied at the cycle end, as a delta that names the tool and its writes', () => {
    const t = run({ layer: ADMIN, body: turn('jp q go', [[call('admin', 'writes = ["conversation.tools.x.enable=on"], approved = true')]]) });
    const [c] = calls(t);
    expect(c?.write).toEqual({ proposed: ['conversation.tools.x.enable=on'], applied: true });
    expect(c?.result).toBe('admin ran with {}.');
    expect(t.engine.state('x')?.enable.availability).toMatchObject({ value: 'on', origin: { kind: 'delta', source: 'tool-write', detail: 'admin: conversation.tools.x.enable=on' } });
  });

  it('two writes: the delta names both, and a rejection lists both', () => {
    const writes = 'writes = ["conversation.tools.x.enable=on", "conversation.tools.admin.run=unattended"]';
    const applied = run({ layer: ADMIN, body: turn('jp q go', [[call('admin', `${writes}, approved = true`)]]) });
    expect(applied.engine.state('x')?.enable.availability.origin).toMatchObject({ detail: 'admin: conversation.tools.x.enable=on, conversation.tools.admin.run=unattended' });
    const rejected = run({ layer: ADMIN, body: turn('jp q go', [[call('admin', `${writes}, approved = false`)]]) });
    expect(calls(rejected)[0]?.result).toBe('admin ran with {}.\nThe config write was rejected: conversation.tools.x.enable=on, conversation.tools.admin.run=unattended.');
  });

  it('an empty list of writes is no write', () => {
    const t = run({ layer: ADMIN, body: turn('jp q go', [[call('admin', 'writes = [], approved = true')]]) });
    expect(calls(t)[0]?.write).toBeUndefined();
  });
});

const TOOLS = layer({
  deploy_ask: { summary: 'Deploys the app after asking.', run: 'ask' },
  deploy_now: { summary: 'Deploys the app now.', run: 'unattended' },
});

describe('search_tools', () => {
  it('records its query, and each hit with the summary of its definition', () => {
    const t = run({ layer: TOOLS, body: turn('jp q go', [[search('deploys')]]) });
    const s = t.calls.find((c) => c.search)?.search;
    expect(s?.query).toBe('deploys');
    expect(s?.returned.map((r) => [r.name, r.summary]).sort()).toEqual([['deploy_ask', 'Deploys the app after asking.'], ['deploy_now', 'Deploys the app now.']]);
    // The promotion it commits names its query.
    expect(t.engine.state('deploy_ask')?.enable.availability.origin).toMatchObject({ kind: 'delta', source: 'promotion', detail: 'search_tools("deploys")' });
  });

  it('a hit with neither summary nor description reads as an empty summary', () => {
    const t = run({ layer: layer({ deploy: {} }), body: turn('jp q go', [[search('deploy')]]) });
    expect(t.calls.find((c) => c.search)?.search?.returned.map((r) => [r.name, r.summary])).toEqual([['deploy', '']]);
  });

  it('with arguments it cannot read: an error call, and nothing promoted', () => {
    const t = run({ layer: TOOLS, body: turn('jp q go', [['{ tool = "search_tools", args = { limit = "many" } }']]) });
    const c = t.calls.find((x) => x.tool === 'search_tools');
    expect(c?.status).toBe('error');
    expect(c?.result).toBe(c?.error);
    expect(c?.error).toMatch(/\S/);
    expect(c?.search).toBeUndefined();
    expect(t.engine.state('deploy_ask')?.enable.availability.value).toBe('discoverable');
  });

  it('under hide_unapproved, leaves out the tools whose run asks the user', () => {
    const t = run({ policy: { hide_unapproved: true }, layer: TOOLS, body: turn('jp q go', [[search('deploys')]]) });
    expect(t.calls.find((c) => c.search)?.search?.returned.map((r) => r.name)).toEqual(['deploy_now']);
  });
});
