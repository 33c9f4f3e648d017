// `tasks --model ... --call-servers --workspace DIR` (issue 33 §2): the model's calls to a tool of the
// workspace's running MCP servers go to that server, instead of a simulated result. The servers are
// the ones JP starts for the workspace (src/bridge/workspaces.ts plans them, as `snapshot` does), each
// command printed as it starts; they are named on the command line, so no page confirms them.
// A tool whose effective `run` is `unattended` runs without a question, as in JP; every other mode
// (`ask`, `edit`, `skip`) is asked on the terminal (y/N), and refused where no terminal can ask: a model
// must not run a tool the user would have been asked about. Each call is printed as it goes.
import type { ReplyCall } from '../core/providers/reply';
import type { Scenario } from '../core/scenario/types';
import type { CallAnswer, ResolveCall } from '../core/tasks/model-play';
import type { Timeline } from '../core/turn/timeline';
import type { Terminal } from '../bridge/log';
import type { Masker } from '../bridge/secrets';
import { Upstream } from '../bridge/upstream';
import { Watchdog } from '../bridge/watchdog';
import { WorkspaceError, Workspaces } from '../bridge/workspaces';

/** A tool of the scenario that a workspace server answers: its server, its name there, its run mode. */
interface ServerTool {
  readonly server: string;
  readonly tool: string;
  readonly run: string;
}

/** The scenario's tools sourced from an MCP server, at the end of the scenario as written. */
function serverTools(timeline: Timeline): Map<string, ServerTool> {
  const out = new Map<string, ServerTool>();
  const last = timeline.positions.length - 1;
  if (last < 0) return out;
  for (const [name, s] of timeline.statesAt(last)) {
    const source = s.config.source?.value;
    if (source?.kind === 'mcp') out.set(name, { server: source.server, tool: source.tool ?? name, run: s.run });
  }
  return out;
}

/** The text of a tools/call result: its text parts, any other part as JSON. */
function resultText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  return content.map((c) => (typeof c === 'object' && c !== null && (c as { type?: unknown }).type === 'text' ? String((c as { text?: unknown }).text ?? '') : JSON.stringify(c))).join('\n');
}

const firstLine = (text: string): string => {
  const flat = text.replace(/\s+/gu, ' ').trim();
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
};

export interface CallServersOptions {
  readonly workspace: string;
  readonly terminal: Terminal;
  readonly masker: Masker;
  /** y/N on the terminal; undefined where no terminal can ask. */
  readonly confirm?: (question: string) => Promise<boolean>;
  /** The process that stops every server tree if this one dies (the bin's; tests run without). */
  readonly watchdogArgv?: readonly string[];
}

export interface RunningServers {
  readonly resolveFor: (scenario: Scenario, run: (s: Scenario) => Timeline) => ResolveCall;
  stop(): Promise<void>;
}

/** Starts the workspace's servers; a problem with the workspace or a required server is an Error with the reason. */
export async function startWorkspaceServers(o: CallServersOptions): Promise<RunningServers> {
  const workspaces = new Workspaces();
  let plan;
  try {
    plan = workspaces.plan(workspaces.open(o.workspace).id);
  } catch (e) {
    if (e instanceof WorkspaceError) throw new Error(`--workspace: ${e.message}`);
    throw e;
  }
  for (const p of plan.problems) o.terminal.line(`warning: ${p.layer !== undefined ? `${p.layer}: ` : ''}${p.message}`);
  const watchdog = o.watchdogArgv ? new Watchdog(o.watchdogArgv) : undefined;
  const context = { terminal: o.terminal, masker: o.masker, ...(watchdog ? { watchdog } : {}) };
  const jpStarts = (name: string) => plan.servers.find((s) => s.name === name)?.jpStarts ?? true;
  const ups = plan.specs.map((spec) => new Upstream(spec.name, { kind: 'stdio', spec, cwd: plan.cwd, from: 'the command line' }, context, spec.optional, jpStarts(spec.name)));
  const stop = async (): Promise<void> => {
    await Promise.all(ups.map((u) => u.stop()));
    watchdog?.close();
  };
  await Promise.all(ups.map((u) => u.start()));
  for (const u of ups) {
    if (u.status === 'running') continue;
    if (u.optional || !u.jpStarts) {
      o.terminal.line(`warning: MCP server ${u.name} failed to start; calls to its tools stay simulated: ${u.error ?? ''}`);
      continue;
    }
    await stop();
    throw new Error(`MCP server ${u.name} failed to start; JP would abort with:\n${u.error ?? ''}`);
  }
  const running = new Map(ups.filter((u) => u.status === 'running').map((u) => [u.name, u]));
  // One question at a time: with --concurrency, two tasks may want to ask at once.
  let asking: Promise<unknown> = Promise.resolve();
  const ask = (question: string): Promise<boolean> => {
    const confirm = o.confirm;
    if (!confirm) return Promise.resolve(false);
    const next = asking.then(() => confirm(question));
    asking = next.catch(() => undefined);
    return next;
  };

  const resolveFor = (scenario: Scenario, run: (s: Scenario) => Timeline): ResolveCall => {
    const tools = serverTools(run(scenario));
    return async (call: ReplyCall): Promise<CallAnswer> => {
      const t = tools.get(call.name);
      const up = t ? running.get(t.server) : undefined;
      if (!t || !up) return { kind: 'simulated' };
      const said = `call ${call.name} on ${t.server} (run = "${t.run}")`;
      let how = 'ran';
      if (t.run !== 'unattended') {
        if (!o.confirm) {
          o.terminal.line(`${said}: refused: no terminal to ask on, and only run = "unattended" runs without a question`);
          return { kind: 'server', fail: `not run: ${call.name} has run = "${t.run}" and no terminal could ask the user` };
        }
        const yes = await ask(`run ${t.tool} on ${t.server} with ${JSON.stringify(call.args)}?`);
        if (!yes) {
          o.terminal.line(`${said}: refused on the terminal`);
          return { kind: 'server', fail: `not run: the user declined ${call.name}` };
        }
        how = 'ran after a y';
      }
      try {
        const result = await up.forward('tools/call', { name: t.tool, arguments: call.args });
        const text = o.masker.mask(resultText(result));
        if (result.isError === true) {
          o.terminal.line(`${said}: the server answered an error: ${firstLine(text)}`);
          return { kind: 'server', fail: text };
        }
        o.terminal.line(`${said}: ${how}: ${firstLine(text)}`);
        return { kind: 'server', result: text };
      } catch (e) {
        const message = o.masker.mask(e instanceof Error ? e.message : String(e));
        o.terminal.line(`${said}: failed: ${message}`);
        return { kind: 'server', fail: message };
      }
    };
  };
  return { resolveFor, stop };
}
