// The servers a run starts with (run.ts buildServers): a scenario's offline server says why in the
// message of each tool it leaves unavailable, and an MCP server no scenario table defines is unknown.
import { describe, expect, it } from 'vitest';
import { layer, run, turn } from './test-kit';

describe('the servers of a run', () => {
  it('an offline server and an undefined one, each named in its tools\' resolution message', () => {
    const workspace = layer({ down: { enable: '"on"', source: '"mcp.dead.thing"' }, ghost: { enable: '"on"', source: '"mcp.nowhere"' } });
    const t = run({ policy: { ranking: 'substring' }, layer: workspace, body: `[servers.dead]\nstatus = "offline"\n\n${turn('jp q one', [])}` });
    const messages = new Map([...t.engine.currentStates()].map((s) => [s.name, s.resolution.ok ? 'ok' : s.resolution.message]));
    expect(messages.get('down')).toBe('MCP server `dead` is not running (status = "offline"), so `down` is not available');
    expect(messages.get('ghost')).toBe('MCP server `nowhere` is not defined, so `ghost` is not available');
    expect(t.requests[0]?.array).toEqual(['describe_tools']);
  });
});
