// The model drives the turn: scripted replies (in each provider's own reply shape, read by its
// descriptor) become the cycle's calls; search_tools promotes in the workbench, other calls are
// simulated or resolved by the shell; the loop stops at the reply, the cycle cap, the budget cap or an
// error; a task set run by the model reads its outcomes with the same rules as the stand-in policies.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_TABLE, modelFor } from '../providers/prices';
import { providerOf } from '../providers/registry';
import type { ModelReply } from '../providers/reply';
import type { ProviderId } from '../providers/types';
import { parseScenario } from '../scenario/parse';
import type { Scenario } from '../scenario/types';
import { layer, scenarioText } from '../turn/test-kit';
import type { ToolSpec } from '../turn/test-kit';
import { IndexCache, runScenario } from '../turn/run';
import { modelMoves, modelStep, playModelTurn } from './model-play';
import type { AskModel, ModelAnswer, ModelCycle, ModelRequest, PlayedCall } from './model-play';
import type { Timeline } from '../turn/timeline';
import { runModelTasks } from './model-run';
import { summaryLine } from './summary';

const TOOLS: Record<string, ToolSpec> = {
  read_file: { enable: '"on"', summary: 'Read a file from the workspace.' },
  deploy_staging: { summary: 'Deploy a branch to the staging environment.' },
  sentry_list_issues: { summary: 'List the error issues Sentry recorded.' },
};

function scenarioOf(provider: ProviderId = 'anthropic'): Scenario {
  const p = parseScenario(scenarioText({ policy: { ranking: 'bm25', provider }, layer: layer(TOOLS), body: '' }));
  if (!p.ok) throw new Error(p.errors.map((e) => e.message).join('; '));
  return p.scenario;
}

const indexCache = new IndexCache();
const runner = (s: Scenario) => runScenario({ scenario: s, indexCache });

const reply = (text: string, calls: [string, Record<string, unknown>][] = [], usage = { uncached: 100, cacheRead: 0, cacheWrite: 0, output: 10 }): ModelReply => ({ text, calls: calls.map(([name, args], i) => ({ id: `c${i}`, name, args })), usage });

/** An ask that answers from a script, keeping every request it was sent. */
function scripted(replies: readonly ModelAnswer[]): { ask: AskModel; sent: ModelRequest[] } {
  const sent: ModelRequest[] = [];
  const ask: AskModel = (req) => {
    sent.push(req);
    return Promise.resolve(replies[sent.length - 1] ?? { ok: false, error: 'the script ran out' });
  };
  return { ask, sent };
}

const ok = (r: ModelReply): ModelAnswer => ({ ok: true, reply: r });

describe('one turn driven by the model', () => {
  it('search, promotion, call, reply: each request is the rendered body of its cycle', async () => {
    const { ask, sent } = scripted([ok(reply('', [['search_tools', { query: 'deploy staging' }]])), ok(reply('', [['deploy_staging', { branch: 'main' }]])), ok(reply('Deployed main.'))]);
    const base = scenarioOf();
    const turn = await playModelTurn(base, runner, 'Deploy main to staging', { ask });
    expect(turn.stopped).toBe('reply');
    expect(turn.cycles.map((c) => c.calls.map((k) => `${k.name}:${k.kind}`))).toEqual([['search_tools:workbench'], ['deploy_staging:simulated'], []]);
    // What the model was sent is exactly what the timeline renders for the same cycles.
    const requests = turn.timeline.requests.filter((r) => r.step === 1);
    expect(sent.map((s) => s.body)).toEqual(requests.map((r) => r.rendered().body));
    expect(requests[0]?.sets.offered).not.toContain('deploy_staging');
    expect(requests[1]?.sets.offered).toContain('deploy_staging');
    const search = turn.timeline.calls.find((c) => c.tool === 'search_tools');
    expect(search?.search?.returned[0]?.name).toBe('deploy_staging');
    expect(turn.timeline.steps[0]?.error).toBeUndefined();
  });

  it('parallel calls land in one cycle; a resolved call carries its result, a failed one its message', async () => {
    const { ask } = scripted([ok(reply('Both.', [['read_file', { path: 'a' }], ['search_tools', { query: 'sentry issues' }], ['nosuch', {}]])), ok(reply('ok'))]);
    const turn = await playModelTurn(scenarioOf(), runner, 'Read a and list Sentry issues', {
      ask,
      resolveCall: (call) => Promise.resolve(call.name === 'read_file' ? { kind: 'server', result: 'contents of a' } : { kind: 'simulated', fail: 'no such tool here' }),
    });
    const calls = turn.timeline.calls.filter((c) => c.cycle === 1);
    expect(calls.map((c) => c.tool)).toEqual(['read_file', 'search_tools', 'nosuch']);
    expect(calls[0]?.result).toBe('contents of a');
    expect(turn.cycles[0]?.calls.map((c) => c.kind)).toEqual(['server', 'workbench', 'simulated']);
    expect(calls[2]?.status).toBe('error');
  });

  it('stops at the cycle cap, with the open request not sent', async () => {
    const again = ok(reply('', [['search_tools', { query: 'deploy' }]]));
    const { ask, sent } = scripted([again, again, again, again]);
    const turn = await playModelTurn(scenarioOf(), runner, 'Deploy', { ask, maxCycles: 2 });
    expect(turn.stopped).toBe('cycles');
    expect(sent).toHaveLength(2);
    expect(turn.why).toBe('2 requests reached (the cycle cap)');
  });

  it('stops at the budget before sending, and at an error keeping the cycles before it', async () => {
    const a = scripted([ok(reply('x'))]);
    const capped = await playModelTurn(scenarioOf(), runner, 'Deploy', { ask: a.ask, stopBefore: () => 'the budget cap' });
    expect([capped.stopped, a.sent.length]).toEqual(['budget', 0]);
    const b = scripted([ok(reply('', [['search_tools', { query: 'deploy' }]])), { ok: false, error: '429 Too Many Requests' }]);
    const failed = await playModelTurn(scenarioOf(), runner, 'Deploy', { ask: b.ask });
    expect([failed.stopped, failed.why, failed.cycles.length]).toEqual(['error', '429 Too Many Requests', 1]);
    expect(failed.timeline.calls.filter((c) => c.tool === 'search_tools')).toHaveLength(1);
  });

  it('a turn the model answers in text only is one cycle with the reply', () => {
    const step = modelStep('hi', [{ cycle: 1, reply: reply('Hello.'), calls: [] }]);
    expect(step.cycles.map((c) => [c.calls.length, c.reply])).toEqual([[0, 'Hello.']]);
  });
});

describe('what the turn keeps of the model and the shell', () => {
  it('a call the shell runs and that fails reaches the timeline as a failed call with its message; the shell is told where the call is', async () => {
    const { ask } = scripted([ok(reply('', [['read_file', { path: 'a' }]])), ok(reply('', [['read_file', { path: 'b' }]])), ok(reply('Could not.'))]);
    const at: { step: number; cycle: number }[] = [];
    const base = parseScenario(scenarioText({ policy: { ranking: 'bm25', provider: 'anthropic' }, layer: layer(TOOLS), body: '[[steps]]\ncommand = "jp q hello"\n  [[steps.cycles]]\n  reply = "Hello."' }));
    if (!base.ok) throw new Error('bad scenario');
    const turn = await playModelTurn(base.scenario, runner, 'Read a and b', {
      ask,
      resolveCall: (call, where) => {
        at.push({ ...where });
        return Promise.resolve(call.args.path === 'a' ? { kind: 'server', fail: 'permission denied: a' } : { kind: 'server', result: 'contents of b' });
      },
    });
    expect(at).toEqual([{ step: 2, cycle: 1 }, { step: 2, cycle: 2 }]);
    expect(turn.cycles.map((c) => c.calls.map((k) => [k.kind, k.fail, k.result]))).toEqual([[['server', 'permission denied: a', undefined]], [['server', undefined, 'contents of b']], []]);
    const calls = turn.timeline.calls.filter((c) => c.step === 2 && c.tool === 'read_file');
    expect(calls.map((c) => c.status)).toEqual(['error', 'ok']);
    expect(calls[0]?.result).toContain('permission denied: a');
    expect(calls[1]?.result).toBe('contents of b');
    // The saved step carries the failure, so a replay of the scenario fails the same call.
    const saved = modelStep('Read a and b', turn.cycles);
    expect(saved.cycles[0]?.calls[0]?.fail).toBe('permission denied: a');
    expect(saved.cycles[1]?.calls[0]?.result).toBe('contents of b');
  });

  it('on a scenario with steps, each request sent is the new step\'s own, and the turn stops at the reply with the reason', async () => {
    const { ask, sent } = scripted([ok(reply('', [['search_tools', { query: 'deploy staging' }]])), ok(reply('Done.'))]);
    const base = parseScenario(scenarioText({ policy: { ranking: 'bm25', provider: 'anthropic' }, layer: layer(TOOLS), body: '[[steps]]\ncommand = "jp q hello"\n  [[steps.cycles]]\n  reply = "Hello."\n[[steps]]\ncommand = "jp q again"\n  [[steps.cycles]]\n  reply = "Again."' }));
    if (!base.ok) throw new Error('bad scenario');
    const turn = await playModelTurn(base.scenario, runner, 'Deploy main to staging', { ask });
    expect([turn.stopped, turn.why]).toEqual(['reply', 'the model replied without a tool call']);
    expect(sent.map((s) => [s.step, s.cycle])).toEqual([[3, 1], [3, 2]]);
    expect(sent.map((s) => s.body)).toEqual(turn.timeline.requests.filter((r) => r.step === 3).map((r) => r.rendered().body));
    expect(sent[0]?.body).not.toEqual(turn.timeline.requests.find((r) => r.step === 1)?.rendered().body);
  });

  it('the model\'s calls run once (no restart), and a turn left open by a cap ends with an empty reply', async () => {
    const again = ok(reply('', [['read_file', { path: 'a' }]]));
    const { ask } = scripted([again, again]);
    const turn = await playModelTurn(scenarioOf(), runner, 'Read a', { ask, maxCycles: 2 });
    expect(turn.stopped).toBe('cycles');
    expect(turn.timeline.entries.filter((e) => e.kind === 'restart')).toEqual([]);
    expect(turn.timeline.calls.filter((c) => c.tool === 'read_file')).toHaveLength(2);
    const replies = turn.timeline.entries.filter((e) => e.kind === 'reply' && e.step === 1);
    expect(replies.map((e) => (e.kind === 'reply' ? [e.cycle, e.text] : []))).toEqual([[3, '']]);
    expect(turn.timeline.steps[0]?.error).toBeUndefined();
    const step = modelStep('Read a', turn.cycles);
    expect(step.cycles.map((c) => [c.calls.length, c.reply, c.restart])).toEqual([[1, undefined, false], [1, undefined, false], [0, '', false]]);
    // A turn that ended on the model's reply has no extra cycle.
    expect(modelStep('hi', [{ cycle: 1, reply: reply('Hello.'), calls: [] }]).cycles.map((c) => c.restart)).toEqual([false]);
  });

  it('a turn whose step sends no request stops with the step\'s error, or says it sent none', async () => {
    const { ask, sent } = scripted([ok(reply('x'))]);
    const base = scenarioOf();
    const withoutRequests = (error: string | undefined) => (s: Scenario): Timeline => {
      const t = runner(s);
      const last = s.steps.length - 1;
      return { ...t, requests: t.requests.filter((r) => r.step !== s.steps.length), steps: error === undefined ? t.steps.slice(0, last) : t.steps.map((st, i) => (i === last ? { ...st, error } : st)) };
    };
    const failed = await playModelTurn(base, withoutRequests('the step failed: locked-on'), 'Deploy', { ask });
    expect([failed.stopped, failed.why, failed.cycles.length]).toEqual(['no-request', 'the step failed: locked-on', 0]);
    const none = await playModelTurn(base, withoutRequests(undefined), 'Deploy', { ask });
    expect([none.stopped, none.why]).toEqual(['no-request', 'the turn sent no request']);
    expect(none.scenario.steps).toHaveLength(1);
    expect(sent).toHaveLength(0);
  });
});

describe('the moves a task result lists for the model', () => {
  const played = (name: string, args: Record<string, unknown>, kind: PlayedCall['kind']): PlayedCall => ({ id: 'c', name, args, kind });
  const cycle = (n: number, calls: PlayedCall[], text = ''): ModelCycle => ({ cycle: n, reply: reply(text), calls });
  const ROWS: readonly (readonly [string, ModelCycle, unknown])[] = [
    ['a reply', cycle(2, [], 'Done.'), { kind: 'reply', text: 'Done.', why: 'the model replied (cycle 2)' }],
    ['a search with its limit', cycle(1, [played('search_tools', { query: 'deploy', limit: 5 }, 'workbench')]), { kind: 'search', query: 'deploy', limit: 5, why: 'the model searched (cycle 1)' }],
    ['a search without a limit', cycle(3, [played('search_tools', { query: 'deploy' }, 'workbench')]), { kind: 'search', query: 'deploy', limit: 0, why: 'the model searched (cycle 3)' }],
    ['a search with a limit that is no number', cycle(1, [played('search_tools', { query: 'deploy', limit: '5' }, 'workbench')]), { kind: 'search', query: 'deploy', limit: 0, why: 'the model searched (cycle 1)' }],
    ['a search_tools call without a text query', cycle(1, [played('search_tools', { query: 7 }, 'workbench')]), { kind: 'call', tool: 'search_tools', args: { query: 7 }, why: 'the model called it (cycle 1; run in the workbench)' }],
    ['describe_tools', cycle(1, [played('describe_tools', { query: 'deploy' }, 'workbench')]), { kind: 'call', tool: 'describe_tools', args: { query: 'deploy' }, why: 'the model called it (cycle 1; run in the workbench)' }],
    ['a call run on its server', cycle(4, [played('read_file', { path: 'a' }, 'server')]), { kind: 'call', tool: 'read_file', args: { path: 'a' }, why: 'the model called it (cycle 4; run on its server)' }],
    ['a simulated call', cycle(1, [played('deploy_staging', { branch: 'main' }, 'simulated')]), { kind: 'call', tool: 'deploy_staging', args: { branch: 'main' }, why: 'the model called it (cycle 1; result simulated)' }],
  ];
  it.each(ROWS)('%s', (_name, c, move) => {
    expect(modelMoves([c])).toEqual([move]);
  });

  it('parallel calls are one move each, in the order of the reply, then the closing reply', () => {
    const moves = modelMoves([cycle(1, [played('search_tools', { query: 'deploy' }, 'workbench'), played('read_file', { path: 'a' }, 'simulated')]), cycle(2, [], 'Done.')]);
    expect(moves.map((m) => m.kind)).toEqual(['search', 'call', 'reply']);
  });
});

describe('each provider: a reply in its wire shape drives the turn', () => {
  // The reply bodies a provider sends for "search, then call": parsed by the descriptor, then played.
  const SHAPES: readonly (readonly [ProviderId, unknown, unknown])[] = [
    ['anthropic', { content: [{ type: 'tool_use', id: 't1', name: 'search_tools', input: { query: 'deploy staging' } }] }, { content: [{ type: 'text', text: 'Done.' }] }],
    ['openai', { output: [{ type: 'function_call', call_id: 'c1', name: 'search_tools', arguments: '{"query":"deploy staging"}' }] }, { output: [{ type: 'message', content: [{ type: 'output_text', text: 'Done.' }] }] }],
    ['google', { candidates: [{ content: { parts: [{ functionCall: { name: 'search_tools', args: { query: 'deploy staging' } } }] } }] }, { candidates: [{ content: { parts: [{ text: 'Done.' }] } }] }],
    ['openrouter', { choices: [{ message: { tool_calls: [{ id: 'c1', function: { name: 'search_tools', arguments: '{"query":"deploy staging"}' } }] } }] }, { choices: [{ message: { content: 'Done.' } }] }],
    ['cerebras', { choices: [{ message: { tool_calls: [{ id: 'c1', function: { name: 'search_tools', arguments: '{"query":"deploy staging"}' } }] } }] }, { choices: [{ message: { content: 'Done.' } }] }],
    ['ollama', { message: { content: '', tool_calls: [{ function: { name: 'search_tools', arguments: { query: 'deploy staging' } } }] } }, { message: { content: 'Done.' } }],
    ['llamacpp', { choices: [{ message: { tool_calls: [{ id: 'c1', function: { name: 'search_tools', arguments: '{"query":"deploy staging"}' } }] } }] }, { choices: [{ message: { content: 'Done.' } }] }],
  ];
  it.each(SHAPES)('%s', async (provider, first, second) => {
    const bodies = [first, second];
    const sent: ModelRequest[] = [];
    const ask: AskModel = (req) => {
      sent.push(req);
      const parsed = providerOf(req.provider).reply.parse(bodies[sent.length - 1]);
      return Promise.resolve(parsed.ok ? { ok: true, reply: parsed.reply } : parsed);
    };
    const run = await runModelTasks(scenarioOf(), runner, [{ query: 'Deploy main to staging', relevant: ['deploy_staging'] }], { model: `${provider}:m`, provider, askFor: () => ask });
    expect(sent.every((s) => s.provider === provider)).toBe(true);
    expect(run.results[0]?.outcome).toBe('met-by-search');
    expect(summaryLine(run.run.summary)).toBe('tasks 1: met up front 0, met by search 1, silent misses 0, impossible 0; searched in 1 of 1 task; search rate 100% (searched in 1 of the 1 task a search would have helped)');
  });
});

describe('a task set run by the model', () => {
  const TASKS = [
    { query: 'Deploy main to staging', relevant: ['deploy_staging'] },
    { query: 'Read the README', relevant: ['read_file'] },
    { query: 'What errors did Sentry record?', relevant: ['sentry_list_issues'] },
  ];
  /** A model that searches for deploy requests only, and answers everything else in text. */
  const model = (usage = { uncached: 1_000_000, cacheRead: 0, cacheWrite: 0, output: 0 }): AskModel => (req) => {
    const last = JSON.stringify(req.body);
    if (req.cycle === 1 && last.includes('Deploy')) return Promise.resolve(ok(reply('', [['search_tools', { query: 'deploy staging' }]], usage)));
    return Promise.resolve(ok(reply('Done.', [], usage)));
  };

  it('outcomes by the same rules; billed usage priced; the calibration table beside the cost model', async () => {
    const price = modelFor(DEFAULT_PRICE_TABLE, 'anthropic', 'claude-haiku-4-5');
    const counter = { id: 'chars/4', count: (t: string) => Math.ceil(t.length / 4) };
    const run = await runModelTasks(scenarioOf(), runner, TASKS, { model: 'anthropic:claude-haiku-4-5', provider: 'anthropic', askFor: () => model(), ...(price ? { price } : {}), cost: { table: DEFAULT_PRICE_TABLE, model: 'claude-haiku-4-5', counter } });
    expect(run.results.map((r) => r.outcome)).toEqual(['met-by-search', 'met-up-front', 'silent-miss']);
    expect(run.usd).toBeCloseTo(4, 10); // 4 requests × 1M uncached tokens × $1/MTok
    const rows = run.results.flatMap((r) => r.calibration);
    expect(rows.map((r) => `${r.task}/${r.cycle}`)).toEqual(['0/1', '0/2', '1/1', '2/1']);
    expect(rows.every((r) => r.billed?.uncached === 1_000_000 && r.modelled !== undefined && r.modelled.uncached + r.modelled.cacheRead + r.modelled.cacheWrite > 0)).toBe(true);
  });

  it('the budget cap stops sending and keeps the finished results; concurrency gives the same outcomes', async () => {
    const price = modelFor(DEFAULT_PRICE_TABLE, 'anthropic', 'claude-haiku-4-5');
    const opts = { model: 'anthropic:claude-haiku-4-5', provider: 'anthropic' as const, askFor: () => model(), ...(price ? { price } : {}) };
    const capped = await runModelTasks(scenarioOf(), runner, TASKS, { ...opts, maxUsd: 2 });
    // Task 0 spends $2 over its two requests; the cap stops the next task before it sends anything.
    expect(capped.results.map((r) => r.stopped)).toEqual(['reply', 'budget', 'budget']);
    expect(capped.notRun).toEqual([1, 2]);
    expect(capped.run.summary.tasks).toBe(1);
    expect(capped.stoppedBy).toContain('the budget cap');
    const serial = await runModelTasks(scenarioOf(), runner, TASKS, opts);
    const parallel = await runModelTasks(scenarioOf(), runner, TASKS, { ...opts, concurrency: 3 });
    expect(parallel.results.map((r) => [r.outcome, r.reason])).toEqual(serial.results.map((r) => [r.outcome, r.reason]));
  });
});
