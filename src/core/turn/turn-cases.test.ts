// A `jp q` turn as the timeline records it (turn.ts, issue 35: its mutation survivors): the rows of a
// turn in order, the conversation the provider is sent (the query, each cycle's calls with their ids and
// results, the replies), and the deltas its cycles commit with where they came from.
import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../providers/types';
import type { Timeline, TimelineEntry } from './timeline';
import { call, layer, run, search, turn } from './test-kit';

/** A row without its span or call record, so a whole turn reads as one list. */
const row = (e: TimelineEntry): unknown => {
  if (e.kind === 'step') return { kind: e.kind, step: e.step, position: e.position };
  if (e.kind === 'call') return { kind: e.kind, step: e.step, cycle: e.cycle, tool: e.call.tool, position: e.position };
  return e;
};
const rows = (t: Timeline): unknown[] => t.entries.map(row);
/** The conversation as the last request was sent it. */
const lastMessages = (t: Timeline): readonly ConversationMessage[] => t.requests.at(-1)?.messages ?? [];

const TOOLS = layer({ a: { enable: '"on"', summary: 'alpha' }, b: { enable: '"discoverable"', summary: 'bravo files' }, admin: { enable: '"on"' }, x: { enable: '"off"' } });

describe('the rows and messages of a turn', () => {
  const body = [
    turn("jp q --cfg conversation.tools.b.enable=on 'first'", [[call('a'), call('admin', 'fail = "boom"')]], 'done one'),
    // A step without cycles still sends its request, answered by an empty reply.
    '[[steps]]\ncommand = "jp q second"\n',
    // A last cycle without a reply: the reply is empty.
    '[[steps]]\ncommand = "jp q third"\n  [[steps.cycles]]\n  calls = [ { tool = "a", args = { n = 1 } } ]\n  [[steps.cycles]]\n  calls = []\n',
    turn('jp q fourth', []),
  ].join('\n');
  // Run inside each test, not when the file is collected: Stryker activates a mutant for the tests only.
  const played = (): Timeline => run({ policy: { ranking: 'substring' }, layer: TOOLS, body });

  it('rows: the invocation\'s delta, the turn, each request and its calls, the reply, at their positions', () => {
    const t = played();
    expect(rows(t)).toEqual([
      { kind: 'base', position: 0 },
      { kind: 'step', step: 1, position: 0 },
      { kind: 'delta', step: 1, position: 1 },
      { kind: 'turn', step: 1, query: 'first', position: 1 },
      { kind: 'request', step: 1, cycle: 1, request: 0, position: 1 },
      { kind: 'call', step: 1, cycle: 1, tool: 'a', position: 1 },
      { kind: 'call', step: 1, cycle: 1, tool: 'admin', position: 1 },
      { kind: 'request', step: 1, cycle: 2, request: 1, position: 1 },
      { kind: 'reply', step: 1, cycle: 2, text: 'done one', position: 1 },
      { kind: 'step', step: 2, position: 1 },
      { kind: 'turn', step: 2, query: 'second', position: 1 },
      { kind: 'request', step: 2, cycle: 1, request: 2, position: 1 },
      { kind: 'reply', step: 2, cycle: 1, text: '', position: 1 },
      { kind: 'step', step: 3, position: 1 },
      { kind: 'turn', step: 3, query: 'third', position: 1 },
      { kind: 'request', step: 3, cycle: 1, request: 3, position: 1 },
      { kind: 'call', step: 3, cycle: 1, tool: 'a', position: 1 },
      { kind: 'request', step: 3, cycle: 2, request: 4, position: 1 },
      { kind: 'reply', step: 3, cycle: 2, text: '', position: 1 },
      { kind: 'step', step: 4, position: 1 },
      { kind: 'turn', step: 4, query: 'fourth', position: 1 },
      { kind: 'request', step: 4, cycle: 1, request: 5, position: 1 },
      { kind: 'reply', step: 4, cycle: 1, text: 'done', position: 1 },
    ]);
    expect(t.requests.map((r) => [r.step, r.cycle])).toEqual([
      [1, 1],
      [1, 2],
      [2, 1],
      [3, 1],
      [3, 2],
      [4, 1],
    ]);
  });

  it('messages: the queries, each cycle\'s calls with ids by step, cycle and index, their results and errors, and the replies', () => {
    const t = played();
    expect(lastMessages(t)).toEqual([
      { kind: 'user', text: 'first' },
      {
        kind: 'assistant',
        toolCalls: [
          { id: 'call_1_1_0', name: 'a', arguments: {} },
          { id: 'call_1_1_1', name: 'admin', arguments: {} },
        ],
      },
      { kind: 'tool-result', callId: 'call_1_1_0', name: 'a', content: 'a ran with {}.', isError: false },
      { kind: 'tool-result', callId: 'call_1_1_1', name: 'admin', content: 'boom', isError: true },
      { kind: 'assistant', text: 'done one' },
      { kind: 'user', text: 'second' },
      { kind: 'assistant', text: '' },
      { kind: 'user', text: 'third' },
      { kind: 'assistant', toolCalls: [{ id: 'call_3_1_0', name: 'a', arguments: { n: 1 } }] },
      { kind: 'tool-result', callId: 'call_3_1_0', name: 'a', content: 'a ran with {"n":1}.', isError: false },
      { kind: 'assistant', text: '' },
      { kind: 'user', text: 'fourth' },
    ]);
    // The assistant message of a cycle with calls carries no text key when the cycle has no reply.
    expect(Object.keys(lastMessages(t)[1] ?? {})).toEqual(['kind', 'toolCalls']);
  });
});

describe('the deltas a turn\'s cycles commit', () => {
  // Cycle 1 searches (promoting b) with a reply beside its calls and restarts; cycle 2 approves a write;
  // cycle 3 calls b and commits nothing.
  const body = `[[steps]]
command = "jp q go"
  [[steps.cycles]]
  calls = [ ${search('bravo')} ]
  reply = "looking"
  restart = true
  [[steps.cycles]]
  calls = [ ${call('admin', 'writes = ["conversation.tools.x.enable=on"], approved = true')} ]
  [[steps.cycles]]
  calls = [ ${call('b')} ]
  [[steps.cycles]]
  reply = "end"
`;

  it.each([
    ['append', ['b'], ['a', 'admin', 'x', 'describe_tools', 'search_tools', 'b']],
    ['config_order', [], ['a', 'b', 'admin', 'x', 'describe_tools', 'search_tools']],
  ] as const)('promoted_position = %s: a promotion delta, then a tool-write delta, each a row of its cycle', (promoted, appended, offered) => {
    const t = run({ policy: { promoted_position: promoted, ranking: 'substring' }, layer: TOOLS, body });
    expect(rows(t)).toEqual([
      { kind: 'base', position: 0 },
      { kind: 'step', step: 1, position: 0 },
      { kind: 'turn', step: 1, query: 'go', position: 0 },
      { kind: 'request', step: 1, cycle: 1, request: 0, position: 0 },
      { kind: 'restart', step: 1, cycle: 1, position: 0 },
      { kind: 'call', step: 1, cycle: 1, tool: 'search_tools', position: 0 },
      { kind: 'delta', step: 1, cycle: 1, position: 1 },
      { kind: 'request', step: 1, cycle: 2, request: 1, position: 1 },
      { kind: 'call', step: 1, cycle: 2, tool: 'admin', position: 1 },
      { kind: 'delta', step: 1, cycle: 2, position: 2 },
      { kind: 'request', step: 1, cycle: 3, request: 2, position: 2 },
      { kind: 'call', step: 1, cycle: 3, tool: 'b', position: 2 },
      { kind: 'request', step: 1, cycle: 4, request: 3, position: 2 },
      { kind: 'reply', step: 1, cycle: 4, text: 'end', position: 2 },
    ]);
    expect(t.positions.map((p) => p.event)).toEqual([
      { kind: 'base' },
      { kind: 'delta', delta: 1, sources: ['promotion'], detail: 'promotion: b', step: 1, cycle: 1 },
      { kind: 'delta', delta: 2, sources: ['tool-write'], detail: 'tool write', step: 1, cycle: 2 },
    ]);
    expect(t.positions.map((p) => p.appended)).toEqual([[], appended, appended]);
    expect([...(t.requests.at(-1)?.sets.offered ?? [])]).toEqual(offered);
    // The reply beside cycle 1's calls goes with them, in one assistant message.
    expect(t.requests.at(-1)?.messages[1]).toEqual({ kind: 'assistant', text: 'looking', toolCalls: [{ id: 'call_1_1_0', name: 'search_tools', arguments: { query: 'bravo' } }] });
  });

  it('a promotion of several tools names them all in its delta', () => {
    const L = layer({ b: { enable: '"discoverable"', summary: 'bravo files' }, c: { enable: '"discoverable"', summary: 'bravo mail' } });
    const t = run({ policy: { ranking: 'substring' }, layer: L, body: turn('jp q go', [[search('bravo')]]) });
    expect(t.positions[1]?.event).toEqual({ kind: 'delta', delta: 1, sources: ['promotion'], detail: 'promotion: b, c', step: 1, cycle: 1 });
  });
});
