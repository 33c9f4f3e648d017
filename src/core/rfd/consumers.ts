// RFD 108 "Two sets, not one": which set each consumer reads. One scenario holds a tool at each
// availability, each on an MCP server of its own, and exercises every consumer in one cycle; a second
// step forces the off tool (-u) and searches again, for "an off tool never appears in search, forced or not".
import type { Timeline } from '../turn/timeline';
import { cell, counts, entryWhere, run, scenarioRef } from './run';
import type { RfdRow, RfdTable } from './types';

const TOOLS = ['on_tool', 'disc_tool', 'off_tool'] as const;
type Tool = (typeof TOOLS)[number];

const LAYER = `[conversation.tools.on_tool]
source = "mcp.s_on.probe"
enable = "on"

[conversation.tools.disc_tool]
source = "mcp.s_disc.probe"
enable = "discoverable"

[conversation.tools.off_tool]
source = "mcp.s_off.probe"
enable = "off"`;

const server = (name: string): string =>
  `[servers.${name}]\nstatus = "running"\ntools = [ { name = "probe", description = "A probe tool of server ${name}.", inputSchema = { type = "object", properties = {} } } ]\n`;

const REST = `${['s_on', 's_disc', 's_off'].map(server).join('\n')}
[[steps]]
command = "jp q 'Which set does each consumer read?'"

  [[steps.cycles]]
  [steps.cycles.expect]
  offered = ["on_tool", "describe_tools", "search_tools"]
  permitted = ["on_tool", "disc_tool", "describe_tools", "search_tools"]
  servers = ["s_on", "s_disc"]

    [[steps.cycles.calls]]
    tool = "search_tools"
    args = { query = "probe" }
    expect = { status = "ok", returned = ["disc_tool"] }

    [[steps.cycles.calls]]
    tool = "describe_tools"
    args = { tools = ["on_tool", "disc_tool", "off_tool"] }
    expect = { status = "ok", result_contains = "No additional documentation available for: off_tool" }

    [[steps.cycles.calls]]
    tool = "on_tool"
    args = {}
    expect = { status = "ok" }

    [[steps.cycles.calls]]
    tool = "disc_tool"
    args = {}
    expect = { status = "ok" }

    [[steps.cycles.calls]]
    tool = "off_tool"
    args = {}
    expect = { status = "error", error = "is not available" }

  [[steps.cycles]]
  reply = "done"

[[steps]]
command = "jp q -u off_tool 'Forced, still not searchable'"

  [[steps.cycles]]
  [steps.cycles.expect]
  offered_includes = ["off_tool"]

    [[steps.cycles.calls]]
    tool = "search_tools"
    args = { query = "probe" }
    expect = { status = "ok", returned = [] }

  [[steps.cycles]]
  reply = "done"`;

/** A set of the three tools, in the RFD's words. */
function setName(members: ReadonlySet<Tool>): string {
  const key = TOOLS.filter((t) => members.has(t)).join(',');
  if (key === 'on_tool') return 'offered';
  if (key === 'disc_tool') return 'availability discoverable, minus offered';
  if (key === 'on_tool,disc_tool') return 'permitted';
  return key === '' ? 'nothing' : `{${key}}`;
}

const SERVER_OF: Readonly<Record<string, Tool>> = { s_on: 'on_tool', s_disc: 'disc_tool', s_off: 'off_tool' };

interface Observed {
  readonly array: Set<Tool>;
  readonly search: Set<Tool>;
  readonly describe: Set<Tool>;
  readonly executor: Set<Tool>;
  readonly servers: Set<Tool>;
}

function observe(t: Timeline): Observed {
  const only = (names: Iterable<string>): Set<Tool> => new Set([...names].filter((n): n is Tool => (TOOLS as readonly string[]).includes(n)));
  const req = t.requests.find((r) => r.step === 1 && r.cycle === 1);
  const calls = t.calls.filter((c) => c.step === 1 && c.cycle === 1);
  const forcedSearch = t.calls.find((c) => c.step === 2 && c.tool === 'search_tools');
  const describe = calls.find((c) => c.tool === 'describe_tools');
  // describe_tools documents each name it may describe and lists the others after "No additional documentation".
  const undocumented = describe?.result.split('No additional documentation available for:')[1] ?? '';
  return {
    array: only(req?.array ?? []),
    search: only([...(calls.find((c) => c.tool === 'search_tools')?.search?.returned ?? []), ...(forcedSearch?.search?.returned ?? [])].map((r) => r.name)),
    describe: only(TOOLS.filter((n) => describe?.result.includes(n) === true && !undocumented.includes(n))),
    executor: only(calls.filter((c) => c.status === 'ok' && (TOOLS as readonly string[]).includes(c.tool)).map((c) => c.tool)),
    servers: only((req?.sets.servers ?? []).map((s) => SERVER_OF[s] ?? s)),
  };
}

const ROWS: readonly { readonly id: keyof Observed; readonly label: string; readonly set: string; readonly why: string; readonly call?: string }[] = [
  { id: 'array', label: 'Provider tools array', set: 'offered', why: 'the context cost this RFD exists to avoid' },
  { id: 'search', label: 'search_tools', set: 'availability discoverable, minus offered', why: 'an off tool never appears in search, forced or not', call: 'search_tools' },
  { id: 'describe', label: 'describe_tools', set: 'permitted', why: 'a found tool must be explainable before it is called', call: 'describe_tools' },
  { id: 'executor', label: 'Executor eligibility', set: 'permitted', why: 'a promoted tool is callable in the same turn', call: 'disc_tool' },
  { id: 'servers', label: 'MCP server startup', set: 'permitted', why: 'an unstarted server has no metadata to search' },
];

export function consumersTable(): RfdTable {
  const ran = run({
    name: 'RFD 108 consumers: which set each one reads',
    description:
      'on_tool, disc_tool and off_tool, each on its own MCP server. In one cycle: the request (its tools array and the servers started), a search, describe_tools of all three, and a call of each. Then -u off_tool, and the search still never returns it.',
    layer: LAYER,
    rest: REST,
  });
  const t = ran.timeline;
  const seen = observe(t);
  const rows: RfdRow[] = ROWS.map((r) => {
    const entry = r.call ? entryWhere(t, (e) => e.kind === 'call' && e.step === 1 && e.call.tool === r.call) : entryWhere(t, (e) => e.kind === 'request' && e.step === 1);
    const members = [...seen[r.id]].join(', ') || 'none';
    return { id: `consumer-${r.id}`, label: r.label, cells: [cell(r.set, setName(seen[r.id]), `reached: ${members}`)], quote: r.why, scenario: scenarioRef(ran, entry), expectations: counts(ran) };
  });
  return {
    id: 'consumers',
    title: 'Consumers divide along the two sets',
    source: 'Design › Two sets, not one',
    note: 'on_tool is on, disc_tool discoverable, off_tool off; "reached" lists which of them the consumer saw in the run.',
    columns: ['Set'],
    quoteColumn: 'Why (the RFD)',
    rows,
  };
}
