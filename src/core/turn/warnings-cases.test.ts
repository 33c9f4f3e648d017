// The unresolvable-tool warnings of a run's timeline (warnings.ts, issue 35: its mutation survivors):
// one per server and reason naming its tools, one per tool a running server does not list, none for a
// tool that is off unless it is forced, each given once, and again only when its list of tools grows.
import { describe, expect, it } from 'vitest';
import type { Timeline } from './timeline';
import { layer, run, turn } from './test-kit';
import type { ToolSpec } from './test-kit';

const SERVERS = '[servers.dead]\nstatus = "offline"\n\n[servers.live]\nstatus = "running"\ntools = [ { name = "here", description = "Here.", inputSchema = { type = "object" } } ]\n';

/** The warnings of a run in order: the step they were given at (0 for load) and their text. */
const warnings = (t: Timeline): [number, string][] => t.entries.flatMap((e) => (e.kind === 'warning' ? [[e.step ?? 0, e.message] as [number, string]] : []));

const offline = (n: number, enable = '"on"'): Record<string, ToolSpec> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`t${i}`, { enable, source: `"mcp.dead.t${i}"` }]));

describe('unresolvable-tool warnings', () => {
  const tools = layer({
    d1: { enable: '"on"', source: '"mcp.dead.one"' },
    ghost: { enable: '"on"', source: '"mcp.nowhere"' },
    m1: { enable: '"on"', source: '"mcp.live.nope1"' },
    d2: { enable: '"discoverable"', source: '"mcp.dead.two"' },
    m2: { enable: '"on"', source: '"mcp.live.nope2"' },
    fine: { enable: '"on"', source: '"mcp.live.here"' },
    dz: { enable: '"off"', source: '"mcp.dead.zed"' },
    dy: { enable: '"off"', source: '"mcp.dead.yon"' },
  });

  it('at load: one per offline or unknown server naming its tools, one per tool a running server does not list; none for an off tool', () => {
    const t = run({ layer: tools, body: `${SERVERS}\n${turn('jp q one', [])}` });
    expect(warnings(t)).toEqual([
      [0, 'MCP server `dead` is not running, so these 2 tools are not available: `d1`, `d2`'],
      [0, 'MCP server `nowhere` is not defined, so this tool is not available: `ghost`'],
      [0, 'MCP server `live` does not list `nope1`, so `m1` is not available'],
      [0, 'MCP server `live` does not list `nope2`, so `m2` is not available'],
    ]);
    expect(t.entries.filter((e) => e.kind === 'warning').map((e) => e.position)).toEqual([0, 0, 0, 0]);
  });

  it('an off tool permitted later (-t) or forced (-u) brings its server\'s warning again, with the tools it now takes out; nothing is repeated', () => {
    const steps = [turn('jp q one', []), turn('jp q -t dz two', []), turn('jp q -u dy three', []), turn('jp q four', []), turn('jp q five', [])];
    const t = run({ layer: tools, body: `${SERVERS}\n${steps.join('\n')}` });
    expect(warnings(t).filter(([step]) => step > 0)).toEqual([
      [2, 'MCP server `dead` is not running, so these 3 tools are not available: `d1`, `d2`, `dz`'],
      // Forced for step 3 only: at step 4 the list is step 2's again, already given.
      [3, 'MCP server `dead` is not running, so these 4 tools are not available: `d1`, `d2`, `dz`, `dy`'],
    ]);
  });

  it('a lone unresolvable tool is warned about at load', () => {
    const t = run({ layer: layer({ only: { enable: '"on"', source: '"mcp.nowhere.x"' } }, {}), body: turn('jp q one', []) });
    expect(warnings(t)).toEqual([[0, 'MCP server `nowhere` is not defined, so this tool is not available: `only`']]);
  });

  it('names at most 8 tools of a server and counts the others', () => {
    const names = (n: number): string => Array.from({ length: n }, (_, i) => `\`t${i}\``).join(', ');
    for (const [n, tail] of [
      [8, ''],
      [9, ' and 1 more'],
      [11, ' and 3 more'],
    ] as const) {
      const t = run({ layer: layer(offline(n), {}), body: `${SERVERS}\n${turn('jp q one', [])}` });
      expect(warnings(t)).toEqual([[0, `MCP server \`dead\` is not running, so these ${n} tools are not available: ${names(8)}${tail}`]]);
    }
  });

  it('a tool an approved write turns on mid-turn is warned about at the next invocation, not before', () => {
    const L = layer({ admin: { enable: '"on"' }, late: { enable: '"off"', source: '"mcp.dead.late"' } }, {});
    const write = '{ tool = "admin", args = {}, writes = ["conversation.tools.late.enable=on"], approved = true }';
    const t = run({ layer: L, body: `${SERVERS}\n${turn('jp q one', [[write]])}\n${turn('jp q two', [])}` });
    expect(warnings(t)).toEqual([[2, 'MCP server `dead` is not running, so this tool is not available: `late`']]);
  });
});
