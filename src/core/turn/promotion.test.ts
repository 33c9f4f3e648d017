// Semantics §6 (promotion, cycles and folding), §8 items 7, 9, 10, 11, 27, and
// the RFD's phase 3 and phase 4 tests, driven through small scenarios.
import { describe, expect, it } from 'vitest';
import { call, check, cycleDeltas, finalAvailability, layer, run, runAndCheck, search, stepErrors, turn } from './test-kit';
import type { ScenarioSpec, ToolSpec } from './test-kit';
import { NOT_AVAILABLE } from './run';

const SUB = { ranking: 'substring' } as const;

describe('RFD phase 3: registration of search_tools is monotone and derived from the stream', () => {
  it('a conversation with no discoverable tool gains the builtin after a --cfg delta introduces one', () => {
    const t = run({
      policy: SUB,
      layer: layer({ deploy: { summary: 'Deploy.' }, lint: { summary: 'Lint.' } }, { enable: '"on"' }),
      body: `
[[steps]]
command = "jp q first"
${turn('jp q --cfg conversation.tools.deploy.enable=discoverable second', [[search('deploy')]])}`,
    });
    expect(t.requests[0]?.array).toEqual(['deploy', 'lint', 'describe_tools']);
    expect(t.requests[0]?.registered).toBe(false);
    // The invocation's delta is appended before its first request: the builtin is there from it on.
    expect(t.requests[1]?.array).toEqual(['lint', 'describe_tools', 'search_tools']);
    expect(t.requests[1]?.sets.searchable).toEqual(['deploy']);
    expect(t.calls[0]?.search?.returned.map((r) => r.name)).toEqual(['deploy']);
    expect(t.positions.map((p) => p.registered)).toEqual([false, true, true]);
  });

  it('before registration, calling or naming search_tools is Tool not found / not available', () => {
    const { timeline: t, expectations } = runAndCheck({
      policy: SUB,
      layer: layer({ deploy: { summary: 'Deploy.' } }, { enable: '"on"' }),
      body: `${turn('jp q first', [[search('deploy')]])}
[[steps]]
command = "jp q -t search_tools second"
[steps.expect]
error = "Tool not found: search_tools"
`,
    });
    expect(t.calls[0]?.status).toBe('error');
    expect(t.calls[0]?.error).toBe(NOT_AVAILABLE('search_tools'));
    expect(expectations.every((e) => e.pass)).toBe(true);
  });

  it('a conversation keeps the builtin after every discoverable tool has been promoted', () => {
    const t = run({
      policy: SUB,
      layer: layer({ deploy: { summary: 'Deploy.' }, read: { enable: '"on"', summary: 'Read.' } }),
      body: `${turn('jp q first', [[search('deploy')]])}
[[steps]]
command = "jp q second"
`,
    });
    expect(finalAvailability(t)).toEqual({ deploy: 'on', read: 'on' });
    const last = t.positions[t.positions.length - 1];
    expect(last?.counts.discoverable).toBe(0);
    expect(last?.registered).toBe(true);
    // Every request after the promotion still offers search_tools, though nothing is left to find.
    for (const r of t.requests) expect(r.array[r.array.length - 1]).toBe('search_tools');
    expect(t.requests[t.requests.length - 1]?.sets.searchable).toEqual([]);
  });

  it('a tool write that makes a tool discoverable mid-turn registers search_tools for the next request of the same turn', () => {
    const t = run({
      policy: SUB,
      layer: layer({ admin: { enable: '"on"' }, deploy: { enable: '"off"', summary: 'Deploy.' } }, {}),
      body: turn('jp q go', [[call('admin', 'writes = ["conversation.tools.deploy.enable=discoverable"], approved = true')], [search('deploy')]]),
    });
    expect(t.requests.map((r) => r.array)).toEqual([
      ['admin', 'describe_tools'],
      ['admin', 'describe_tools', 'search_tools'],
      ['admin', 'deploy', 'describe_tools', 'search_tools'],
    ]);
    expect(t.calls[1]?.search?.returned.map((r) => r.status)).toEqual(['usable']);
  });

  it('disabling the last discoverable tool (-T) keeps the builtin too', () => {
    const t = run({
      policy: SUB,
      layer: layer({ deploy: { summary: 'Deploy.' } }),
      body: `
[[steps]]
command = "jp q -T deploy first"
[[steps]]
command = "jp q second"
`,
    });
    expect(t.positions.map((p) => p.registered)).toEqual([true, true]);
    expect(t.requests.map((r) => r.array)).toEqual([
      ['describe_tools', 'search_tools'],
      ['describe_tools', 'search_tools'],
    ]);
  });
});

describe('RFD phase 4: promotion', () => {
  it('after a search_tools call the promoted definitions appear in the very next request of the same turn, alongside the search result', () => {
    for (const provider of ['anthropic', 'openai', 'google', 'ollama'] as const) {
      const t = run({
        policy: { ...SUB, provider },
        layer: layer({ deploy_staging: { summary: 'Deploy to staging.', params: { branch: { required: true, summary: 'Branch.' } } }, other: { summary: 'x' } }),
        body: turn('jp q ship', [[search('staging')], [`{ tool = "deploy_staging", args = { branch = "main" } }`]]),
      });
      const [first, second] = t.requests;
      expect(first?.array, provider).not.toContain('deploy_staging');
      expect(second?.step).toBe(1);
      expect(second?.cycle).toBe(2);
      expect(second?.array, provider).toEqual(['deploy_staging', 'describe_tools', 'search_tools']);
      expect(second?.definitions.get('deploy_staging')?.required).toEqual(['branch']);
      // The search result is in the same request's messages.
      const result = second?.messages.find((m) => m.kind === 'tool-result');
      expect(result?.kind === 'tool-result' && JSON.parse(result.content)).toEqual({
        tools: [{ name: 'deploy_staging', summary: 'Deploy to staging.', status: 'usable' }],
        total: 1,
      });
      const rendered = second?.rendered();
      expect(rendered?.toolNames, provider).toContain('deploy_staging');
      expect(rendered?.messagesJson, provider).toContain('deploy_staging');
      // The promoted tool runs in that next cycle.
      expect(t.calls[1]?.status).toBe('ok');
    }
  });

  it('a promotion folded after an approved disable of the same tool leaves it off and says so in the search response', () => {
    const t = run({
      policy: SUB,
      layer: layer({ workflow: { enable: '"on"', summary: 'Workflow.' }, deploy: { summary: 'Deploy it.' } }),
      body: turn('jp q ship', [[call('workflow', 'writes = ["conversation.tools.deploy.enable=off"], approved = true'), search('deploy')]]),
    });
    expect(t.calls[1]?.search?.returned.map((r) => [r.name, r.status])).toEqual([['deploy', 'unavailable']]);
    expect(JSON.parse(t.calls[1]?.result ?? '{}')).toEqual({ tools: [{ name: 'deploy', summary: 'Deploy it.', status: 'found, unavailable' }], total: 1 });
    expect(finalAvailability(t).deploy).toBe('off');
    expect(t.requests[1]?.array).toEqual(['workflow', 'describe_tools', 'search_tools']);
    expect(cycleDeltas(t)).toBe(1);
  });

  it('two searches in one cycle matching the same tool report it usable both times, with one delta between them', () => {
    const t = run({
      policy: SUB,
      layer: layer({ deploy_staging: { summary: 'Deploy a branch to staging.' }, staging_logs: { summary: 'Staging logs.' } }),
      body: turn('jp q go', [[search('deploy'), search('staging')]]),
    });
    expect(t.calls.map((c) => c.search?.returned.map((r) => `${r.name}:${r.status}`))).toEqual([
      ['deploy_staging:usable'],
      ['deploy_staging:usable', 'staging_logs:usable'],
    ]);
    // Exactly one position between the first and the second request: the cycle's one delta.
    expect((t.requests[1]?.position ?? 0) - (t.requests[0]?.position ?? 0)).toBe(1);
    const delta = t.positions[t.requests[1]?.position ?? 0];
    expect(delta?.event).toMatchObject({ kind: 'delta', sources: ['promotion'], cycle: 1 });
    expect(delta?.changes.map((c) => c.name)).toEqual(['deploy_staging', 'staging_logs']);
  });
});

describe('§6 every call in a cycle sees the cycle-start config', () => {
  it('a tool turned on by an approved write at index 0 is not executable at index 1 (it was off at cycle start)', () => {
    const t = run({
      policy: SUB,
      layer: layer({ admin: { enable: '"on"' }, lint: { enable: '"off"' } }),
      body: turn('jp q go', [[call('admin', 'writes = ["conversation.tools.lint.enable=on"], approved = true'), call('lint')], [call('lint')]]),
    });
    expect(t.calls.map((c) => c.status)).toEqual(['ok', 'error', 'ok']);
    expect(t.calls[1]?.error).toBe(NOT_AVAILABLE('lint'));
  });

  it('a tool made discoverable by a write at index 0 is not searchable at index 1, but is next cycle', () => {
    const t = run({
      policy: SUB,
      layer: layer({ admin: { enable: '"on"' }, deploy: { enable: '"off"', summary: 'Deploy.' }, other: { summary: 'Registers search_tools.' } }),
      body: turn('jp q go', [[call('admin', 'writes = ["conversation.tools.deploy.enable=discoverable"], approved = true'), search('deploy')], [search('deploy')]]),
    });
    expect(t.calls[1]?.search?.total).toBe(0);
    expect(t.calls[2]?.search?.returned.map((r) => [r.name, r.status])).toEqual([['deploy', 'usable']]);
  });

  it('a tool disabled by a write at index 0 still runs at index 1 (executable = cycle-start permitted)', () => {
    const t = run({
      policy: SUB,
      layer: layer({ admin: { enable: '"on"' }, lint: { enable: '"on"' } }),
      body: turn('jp q go', [[call('admin', 'writes = ["conversation.tools.lint.enable=off"], approved = true'), call('lint')], [call('lint')]]),
    });
    expect(t.calls.map((c) => c.status)).toEqual(['ok', 'ok', 'error']);
  });
});

describe('§6 the fold: the three-row table, evaluated at each promotion\'s own call index', () => {
  const rows: { state: string; write?: string; applied: boolean; status: 'usable' | 'unavailable'; final: string }[] = [
    { state: 'discoverable', applied: true, status: 'usable', final: 'on' },
    { state: 'on', write: 'conversation.tools.deploy.enable=on', applied: false, status: 'usable', final: 'on' },
    { state: 'on (table form)', write: 'conversation.tools.deploy.enable.availability=on', applied: false, status: 'usable', final: 'on' },
    { state: 'off', write: 'conversation.tools.deploy.enable=off', applied: false, status: 'unavailable', final: 'off' },
    { state: 'off (table form)', write: 'conversation.tools.deploy.enable.availability=off', applied: false, status: 'unavailable', final: 'off' },
    { state: 'off (legacy state)', write: 'conversation.tools.deploy.enable.state=false', applied: false, status: 'unavailable', final: 'off' },
  ];
  for (const row of rows) {
    it(`folded state ${row.state} → ${row.applied ? 'applied' : 'not applied'}, reported ${row.status}`, () => {
      const calls = [row.write ? call('admin', `writes = ["${row.write}"], approved = true`) : call('admin'), search('deploy')];
      const t = run({ policy: SUB, layer: layer({ admin: { enable: '"on"' }, deploy: { summary: 'Deploy.' } }), body: turn('jp q go', [calls]) });
      expect(t.calls[1]?.search?.returned.map((r) => [r.name, r.status])).toEqual([['deploy', row.status]]);
      expect(finalAvailability(t).deploy).toBe(row.final);
      const delta = t.positions[t.requests[1]?.position ?? 0];
      expect(cycleDeltas(t)).toBe(1);
      expect(delta?.event.kind === 'delta' && delta.event.sources.includes('promotion')).toBe(row.applied);
    });
  }

  it('a write at a LATER index than the promotion folds over it: the search reports usable, the tool ends off', () => {
    const t = run({
      policy: SUB,
      layer: layer({ admin: { enable: '"on"' }, deploy: { summary: 'Deploy.' } }),
      body: turn('jp q go', [[search('deploy'), call('admin', 'writes = ["conversation.tools.deploy.enable=off"], approved = true')]]),
    });
    expect(t.calls[0]?.search?.returned.map((r) => r.status)).toEqual(['usable']);
    expect(finalAvailability(t).deploy).toBe('off');
    expect(cycleDeltas(t)).toBe(1);
  });

  it('a rejected write is not in the buffer: the promotion after it applies', () => {
    const t = run({
      policy: SUB,
      layer: layer({ admin: { enable: '"on"' }, deploy: { summary: 'Deploy.' } }),
      body: turn('jp q go', [[call('admin', 'writes = ["conversation.tools.deploy.enable=off"], approved = false'), search('deploy')]]),
    });
    expect(t.calls[1]?.search?.returned.map((r) => r.status)).toEqual(['usable']);
    expect(finalAvailability(t).deploy).toBe('on');
  });

  it("a write to '*' before the promotion: the folded state at the promotion's index is what counts", () => {
    const t = run({
      policy: SUB,
      layer: layer({ admin: { enable: '"on"' }, deploy: { summary: 'Deploy.' }, build: { enable: '"discoverable"', summary: 'Build deploy artifacts.' } }),
      body: turn('jp q go', [[call('admin', `writes = ["conversation.tools.'*'.enable=off"], approved = true`), search('deploy')]]),
    });
    // deploy inherits '*' (now off): skipped. build has its own discoverable: applied.
    expect(t.calls[1]?.search?.returned.map((r) => [r.name, r.status])).toEqual([
      ['deploy', 'unavailable'],
      ['build', 'usable'],
    ]);
    expect(finalAvailability(t)).toEqual({ admin: 'on', deploy: 'off', build: 'on' });
  });
});

describe('§6 / §8.8 a promotion writes availability only, discoverable → on', () => {
  it('allow_toggle is untouched, no other path changes, and the origin says promotion', () => {
    const t = run({
      policy: SUB,
      layer: layer({ deploy: { enable: '{ availability = "discoverable", allow_toggle = "if_named" }', summary: 'Deploy.', run: 'unattended' } }),
      body: turn('jp q go', [[search('deploy')]]),
    });
    const state = t.engine.state('deploy');
    expect(state?.enable.availability.value).toBe('on');
    expect(state?.enable.availability.origin).toMatchObject({ kind: 'delta', source: 'promotion' });
    expect(state?.enable.allowToggle.value).toBe('if_named');
    expect(state?.enable.allowToggle.origin.kind).toBe('layer');
    expect(state?.run).toBe('unattended');
    const delta = t.positions[1];
    expect(delta?.changes.length).toBe(1);
    expect(delta?.changes[0]?.before?.config.summary).toBe(delta?.changes[0]?.after.config.summary);
  });

  it('§8.8 a promoted locked-discoverable tool becomes {on, never}: -T NAME then fails as locked-on', () => {
    const { timeline: t, expectations } = runAndCheck({
      policy: SUB,
      layer: layer({ deploy: { enable: '{ availability = "discoverable", allow_toggle = "never" }', summary: 'Deploy.' } }),
      body: `${turn('jp q go', [[search('deploy')]])}
[[steps]]
command = "jp q -T deploy again"
[steps.expect]
error = "cannot disable \`deploy\`: this tool is configured as locked-on"
availability = { deploy = "on" }
`,
    });
    expect(t.engine.state('deploy')?.enable.allowToggle.value).toBe('never');
    expect(expectations.every((e) => e.pass)).toBe(true);
  });

  it('promoted tools stay on for the rest of the conversation, until the user disables them (-T NAME)', () => {
    const t = run({
      policy: SUB,
      layer: layer({ deploy: { summary: 'Deploy.' } }),
      body: `${turn('jp q one', [[search('deploy')]])}
[[steps]]
command = "jp q two"
[[steps]]
command = "jp q -T deploy three"
${turn('jp q four', [[search('deploy')]])}`,
    });
    // Requests: one's search and reply, two, three, four's search and reply.
    expect(t.requests.map((r) => r.array.includes('deploy'))).toEqual([false, true, true, false, false, false]);
    // Off now: no longer searchable, so the fourth turn's search finds nothing.
    expect(t.calls[1]?.search?.total).toBe(0);
    expect(finalAvailability(t).deploy).toBe('off');
  });
});

describe('§6 / §8.11 restart', () => {
  const tools: Record<string, ToolSpec> = { admin: { enable: '"on"' }, build: { summary: 'Build.' }, test: { summary: 'Test.' } };

  it("a restart discards its own cycle's buffer, replays its calls once, and sends no new request", () => {
    const t = run({
      policy: SUB,
      layer: layer(tools),
      body: `
[[steps]]
command = "jp q go"
  [[steps.cycles]]
  calls = [ ${search('build')} ]
  [[steps.cycles]]
  restart = true
  calls = [ ${search('test')}, ${call('build')} ]
  [[steps.cycles]]
  reply = "ok"
`,
    });
    expect(t.requests.length).toBe(3);
    expect(t.entries.filter((e) => e.kind === 'restart').length).toBe(1);
    // Only the replay's records are kept.
    expect(t.calls.map((c) => [c.cycle, c.tool, c.replayed])).toEqual([
      [1, 'search_tools', false],
      [2, 'search_tools', true],
      [2, 'build', true],
    ]);
    expect(t.calls[1]?.search?.returned.map((r) => [r.name, r.status])).toEqual([['test', 'usable']]);
    // One delta per cycle: the earlier cycle's promotion, then the replay's.
    expect(cycleDeltas(t)).toBe(2);
    expect(finalAvailability(t)).toEqual({ admin: 'on', build: 'on', test: 'on' });
  });

  it('deltas committed by earlier cycles of the turn stay after a restart', () => {
    const report = check({
      policy: SUB,
      layer: layer(tools),
      body: `
[[steps]]
command = "jp q go"
  [[steps.cycles]]
  calls = [ ${search('build')} ]
  [[steps.cycles]]
  restart = true
  calls = [ ${call('build')} ]
  [steps.cycles.expect]
  offered_includes = ["build"]
  [[steps.cycles]]
  reply = "ok"
  [steps.cycles.expect]
  availability = { build = "on", test = "discoverable" }
`,
    });
    expect(report.failures).toEqual([]);
    expect(report.passed).toBe(2);
  });

  it('the replay writes are the ones kept: a write in a restarted cycle is applied exactly once', () => {
    const t = run({
      policy: SUB,
      layer: layer(tools),
      body: `
[[steps]]
command = "jp q go"
  [[steps.cycles]]
  restart = true
  calls = [ ${call('admin', 'writes = ["conversation.tools.test.enable=off"], approved = true')} ]
  [[steps.cycles]]
  reply = "ok"
`,
    });
    expect(cycleDeltas(t)).toBe(1);
    expect(t.calls.length).toBe(1);
    expect(t.calls[0]?.write).toEqual({ proposed: ['conversation.tools.test.enable=off'], applied: true });
    expect(finalAvailability(t).test).toBe('off');
  });
});

describe('§8.7 never_blocks_promotion', () => {
  const tools: Record<string, ToolSpec> = {
    deploy_locked: { enable: '{ availability = "discoverable", allow_toggle = "never" }', summary: 'Deploy, locked discoverable.' },
    deploy_free: { summary: 'Deploy, free.' },
  };
  it('false (default): a locked-discoverable tool is promoted like any other', () => {
    const t = run({ policy: SUB, layer: layer(tools), body: turn('jp q go', [[search('deploy')]]) });
    expect(t.calls[0]?.search?.returned.map((r) => [r.name, r.status])).toEqual([
      ['deploy_locked', 'usable'],
      ['deploy_free', 'usable'],
    ]);
    expect(finalAvailability(t)).toEqual({ deploy_locked: 'on', deploy_free: 'on' });
  });
  it('true: it stays searchable and counted, its promotion is skipped and reported found-but-unavailable', () => {
    const t = run({ policy: { ...SUB, never_blocks_promotion: true }, layer: layer(tools), body: turn('jp q go', [[search('deploy')], [search('deploy')]]) });
    expect(t.requests[0]?.sets.searchable).toEqual(['deploy_locked', 'deploy_free']);
    expect(t.calls[0]?.search?.returned.map((r) => [r.name, r.status])).toEqual([
      ['deploy_locked', 'unavailable'],
      ['deploy_free', 'usable'],
    ]);
    expect(t.calls[0]?.search?.total).toBe(2);
    expect(JSON.parse(t.calls[0]?.result ?? '{}').tools[0].status).toBe('found, unavailable');
    // Still searchable in the next cycle, still discoverable at the end.
    expect(t.calls[1]?.search?.returned.map((r) => [r.name, r.status])).toEqual([['deploy_locked', 'unavailable']]);
    expect(finalAvailability(t)).toEqual({ deploy_locked: 'discoverable', deploy_free: 'on' });
  });
  it('true: a tool locked only by a defaults allow_toggle = "never" is blocked too', () => {
    const t = run({
      policy: { ...SUB, never_blocks_promotion: true },
      layer: layer({ deploy: { summary: 'Deploy.' } }, { enable: '{ availability = "discoverable", allow_toggle = "never" }' }),
      body: turn('jp q go', [[search('deploy')]]),
    });
    expect(t.calls[0]?.search?.returned.map((r) => r.status)).toEqual(['unavailable']);
    expect(t.positions.length).toBe(1);
  });
});

describe('§8.9 executable = permitted', () => {
  const tools: Record<string, ToolSpec> = {
    never_promoted: { summary: 'Discoverable, never searched for.' },
    off_tool: { enable: '"off"' },
    on_tool: { enable: '"on"' },
  };
  it('a call to a discoverable tool that was never promoted runs', () => {
    const t = run({ policy: SUB, layer: layer(tools), body: turn('jp q go', [[call('never_promoted')]]) });
    expect(t.calls[0]?.status).toBe('ok');
    // Running it promotes nothing.
    expect(finalAvailability(t).never_promoted).toBe('discoverable');
  });
  for (const name of ['off_tool', 'no_such_tool']) {
    it(`a call to ${name} (outside the permitted set) gets JP's executor error`, () => {
      const t = run({ policy: SUB, layer: layer(tools), body: turn('jp q go', [[call(name)]]) });
      expect(t.calls[0]?.status).toBe('error');
      expect(t.calls[0]?.error).toBe(`Tool '${name}' is not available. It may have been available earlier in this conversation but is no longer enabled.`);
    });
  }
  it('an MCP tool whose server is offline is not executable', () => {
    const t = run({
      policy: SUB,
      layer: layer({ gh_tool: { source: '"mcp.gh"' } }),
      body: `[servers.gh]\nstatus = "offline"\n${turn('jp q go', [[call('gh_tool')]])}`,
    });
    expect(t.calls[0]?.error).toContain("Tool 'gh_tool' is not available");
  });
});

describe('§8.10 / §8.27 tool writes', () => {
  const tools: Record<string, ToolSpec> = { admin: { enable: '"on"' }, deploy: { enable: '"on"', summary: 'Deploy.' } };
  const rows: { extra: string; applied: boolean; status: string; result?: string; final: string }[] = [
    { extra: 'writes = ["conversation.tools.deploy.enable=off"], approved = true', applied: true, status: 'ok', final: 'off' },
    { extra: 'writes = ["conversation.tools.deploy.enable=off"], approved = false', applied: false, status: 'ok', result: 'rejected', final: 'on' },
    { extra: 'writes = ["conversation.tools.deploy.enable=off"]', applied: false, status: 'ok', result: 'rejected', final: 'on' },
    { extra: 'writes = ["conversation.tools.deploy.enable=off"], approved = true, fail = "boom"', applied: false, status: 'error', final: 'on' },
    { extra: 'writes = ["conversation.tools.deploy.enable=bogus"], approved = true', applied: false, status: 'ok', result: 'rejected', final: 'on' },
    { extra: 'writes = ["not an assignment"], approved = true', applied: false, status: 'ok', result: 'rejected', final: 'on' },
  ];
  for (const row of rows) {
    it(`${row.extra} → ${row.applied ? 'applied' : 'not applied'}, call ${row.status}`, () => {
      const t = run({ policy: SUB, layer: layer(tools), body: turn('jp q go', [[call('admin', row.extra)]]) });
      expect(t.calls[0]?.status).toBe(row.status);
      expect(t.calls[0]?.write?.applied ?? false).toBe(row.applied);
      if (row.result) expect(t.calls[0]?.result).toContain(row.result);
      expect(finalAvailability(t).deploy).toBe(row.final);
      expect(cycleDeltas(t)).toBe(row.applied ? 1 : 0);
    });
  }
  it('writes of a call to a tool that is not executable are not applied', () => {
    const t = run({
      policy: SUB,
      layer: layer({ ...tools, gone: { enable: '"off"' } }),
      body: turn('jp q go', [[call('gone', 'writes = ["conversation.tools.deploy.enable=off"], approved = true')]]),
    });
    expect(t.calls[0]?.status).toBe('error');
    expect(finalAvailability(t).deploy).toBe('on');
    expect(cycleDeltas(t)).toBe(0);
  });
  it('a shorthand =off sets both fields; a table write sets only its own field (§8.27)', () => {
    const t = run({
      policy: SUB,
      layer: layer({ admin: { enable: '"on"' }, a: { enable: '{ availability = "on", allow_toggle = "if_named" }' }, b: { enable: '{ availability = "on", allow_toggle = "if_named" }' } }),
      body: turn('jp q go', [[call('admin', 'writes = ["conversation.tools.a.enable=off", "conversation.tools.b.enable.availability=off"], approved = true')]]),
    });
    expect(t.engine.state('a')?.enable.allowToggle.value).toBe('any');
    expect(t.engine.state('b')?.enable.allowToggle.value).toBe('if_named');
    expect(finalAvailability(t)).toMatchObject({ a: 'off', b: 'off' });
  });
  it('writes of several calls in one cycle fold in call-index order into ONE delta', () => {
    const t = run({
      policy: SUB,
      layer: layer(tools),
      body: turn('jp q go', [[
        call('admin', 'writes = ["conversation.tools.deploy.enable=off"], approved = true'),
        call('admin', 'writes = ["conversation.tools.deploy.enable=discoverable"], approved = true'),
      ]]),
    });
    expect(cycleDeltas(t)).toBe(1);
    expect(finalAvailability(t).deploy).toBe('discoverable');
  });
  it('a write is a config delta that persists into later turns', () => {
    const t = run({
      policy: SUB,
      layer: layer(tools),
      body: `${turn('jp q go', [[call('admin', 'writes = ["conversation.tools.deploy.enable=off"], approved = true')]])}
[[steps]]
command = "jp q later"
`,
    });
    // The cycle with the write, the reply cycle after its delta, the later turn.
    expect(t.requests.map((r) => r.array.includes('deploy'))).toEqual([true, false, false]);
    expect(t.requests[2]?.step).toBe(2);
    expect(stepErrors(t).size).toBe(0);
  });
});

describe('promoted_position = append: a request keeps the order it was sent with', () => {
  // Requests derive their sets when first read, often long after the run. A later promotion must not
  // reorder an earlier request.
  const steps = [turn('jp q first', []), '[[steps]]\ncommand = "jp config set --id conversation.tools.b.enable=discoverable"\n', turn('jp q second', [[search('bee')]])];
  const spec = (n: number): ScenarioSpec => ({
    policy: { ...SUB, promoted_position: 'append' },
    layer: layer({ a: { enable: '"on"', summary: 'A.' }, b: { enable: '"on"', summary: 'Bee tool.' }, c: { enable: '"on"', summary: 'C.' } }),
    body: steps.slice(0, n).join('\n'),
  });

  it('request 0, read after the run, is a, b, c in config order; the promoted b is appended in the turn that found it', () => {
    const t = run(spec(steps.length));
    expect(t.requests[0]?.sets.offered).toEqual(['a', 'b', 'c', 'describe_tools']);
    expect(t.requests.at(-1)?.sets.offered).toEqual(['a', 'c', 'describe_tools', 'search_tools', 'b']);
  });

  it('the timeline answers the sets at a position as the request at that position has them (one answer, issue 23.0)', () => {
    const t = run(spec(steps.length));
    // Before: setsAt read the final appended list, so at request 0's position b sat at the tail.
    for (const r of t.requests) if (r.forced === undefined) expect(t.setsAt(r.position).offered, `request ${r.id}`).toEqual(r.sets.offered);
    for (const s of t.steps) expect(t.setsAt(s.position).offered, `step ${s.step}`).toEqual(s.sets.offered);
    expect(t.setsAt(t.requests[0]?.position ?? -1).offered).toEqual(['a', 'b', 'c', 'describe_tools']);
  });

  it('each request of the whole run reads as it does in a run cut after its step', () => {
    const whole = run(spec(steps.length)).requests;
    for (let n = 1; n <= steps.length; n++) {
      for (const r of run(spec(n)).requests) expect(whole[r.id]?.sets.offered, `request ${r.id}`).toEqual(r.sets.offered);
    }
  });
});
