// The model's calls to real tools from the page (issue 33 §2, the page's half of `--call-servers`).
// "Ask the model" hands each call of the model's answer here: search_tools and describe_tools stay in
// the workbench; a call to a permitted tool of a server with a live session now goes to that server,
// after the same confirmation as Run on the server, or without it when the user ticked, for this run,
// "let the model run tools whose run is unattended" and the tool's effective run is `unattended`;
// every other call stays simulated, as before. The result (or the refusal) is recorded in the step as
// Run on the server records it, so the next request carries it to the model. The name and arguments
// come from the model: they only ever pick a tool of the request's permitted set by its exact name.
import type { CallDoc, Plain } from '../../core';
import type { RunMode } from '../../core/config/types';
import type { RequestToolView } from '../../derive/labProtocol';

const WORKBENCH_TOOLS = new Set(['search_tools', 'describe_tools']);

/** What a refused call's recorded failure starts with (the CLI's words: the model reads the same). */
export const REFUSED = 'not run';

/** A tool of a live server, as the model named it. */
export interface LiveTool {
  /** The name the model called (the scenario's). */
  readonly name: string;
  readonly server: string;
  /** Its name on the server. */
  readonly tool: string;
  readonly endpoint: string;
  readonly run: RunMode | undefined;
  readonly destructive: boolean;
}

export type CallRoute =
  | { readonly kind: 'workbench' }
  | { readonly kind: 'simulated' }
  | { readonly kind: 'ask'; readonly target: LiveTool }
  | { readonly kind: 'unattended'; readonly target: LiveTool };

export interface RouteContext {
  /** The request's permitted tools: a name outside them is the executor's "not available", simulated. */
  readonly tools: readonly RequestToolView[];
  /** The endpoint of a server with an open live session now; undefined when it has none. */
  readonly endpointOf: (server: string) => string | undefined;
  /** Whether the server lists the tool (by its name there) as destructive. */
  readonly destructive: (server: string, tool: string) => boolean;
  /** The run's choice: let the model run tools whose `run` is `unattended` without a question. */
  readonly unattended: boolean;
}

export function routeCall(name: string, ctx: RouteContext): CallRoute {
  if (WORKBENCH_TOOLS.has(name)) return { kind: 'workbench' };
  const t = ctx.tools.find((x) => x.name === name);
  if (t?.server === undefined) return { kind: 'simulated' };
  const endpoint = ctx.endpointOf(t.server);
  if (endpoint === undefined) return { kind: 'simulated' };
  const tool = t.backendName ?? t.name;
  const target: LiveTool = { name, server: t.server, tool, endpoint, run: t.run, destructive: ctx.destructive(t.server, tool) };
  return ctx.unattended && t.run === 'unattended' ? { kind: 'unattended', target } : { kind: 'ask', target };
}

/** What one real run gave: the result's text, whether the server said it failed, and what it asked meanwhile. */
export interface ServerRun {
  readonly text: string;
  readonly isError: boolean;
  readonly asked: NonNullable<CallDoc['asked']>;
}

export interface ResolveDeps {
  /** The confirmation: true to run it. */
  readonly confirm: (target: LiveTool, args: { readonly [key: string]: Plain }) => Promise<boolean>;
  readonly run: (target: LiveTool, args: { readonly [key: string]: Plain }) => Promise<ServerRun>;
}

export interface ServerCallRecord {
  /** 'confirmed': run after a yes; 'unattended': run without a question; 'refused'; 'failed': it could not run. */
  readonly how: 'confirmed' | 'unattended' | 'refused' | 'failed';
  /** What the step records as the call's outcome, as Run on the server does. */
  readonly outcome: { readonly result: string } | { readonly fail: string };
  readonly asked?: NonNullable<CallDoc['asked']>;
}

export async function resolveServerCall(route: Extract<CallRoute, { kind: 'ask' | 'unattended' }>, args: { readonly [key: string]: Plain }, deps: ResolveDeps): Promise<ServerCallRecord> {
  const { target } = route;
  if (route.kind === 'ask' && !(await deps.confirm(target, args))) return { how: 'refused', outcome: { fail: `${REFUSED}: the user declined ${target.name}` } };
  const how = route.kind === 'ask' ? 'confirmed' : 'unattended';
  let r: ServerRun;
  try {
    r = await deps.run(target, args);
  } catch (e) {
    // Recorded all the same: left without an outcome, the call would get a simulated result the model would take for real.
    return { how: 'failed', outcome: { fail: `the call did not run: ${e instanceof Error ? e.message : String(e)}` } };
  }
  return { how, outcome: r.isError ? { fail: r.text || 'the tool failed' } : { result: r.text }, ...(r.asked.length > 0 ? { asked: r.asked } : {}) };
}
