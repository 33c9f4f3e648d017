// Test-only: small scenario TOML strings, built tersely and run through the same
// code as `tool-workbench check`.
import { parseScenario } from '../scenario/parse';
import type { PolicyKey } from '../scenario/policy';
import type { Scenario } from '../scenario/types';
import { checkExpectations } from '../scenario/expectations';
import type { ExpectationResult } from '../scenario/expectations';
import { checkScenario } from '../scenario/report';
import type { CheckReport } from '../scenario/report';
import { runScenario } from './run';
import type { Timeline } from './timeline';

export interface ParamSpec {
  readonly type?: string;
  readonly required?: boolean;
  readonly summary?: string;
  readonly description?: string;
}

export interface ToolSpec {
  /** TOML text of the enable value, e.g. `"discoverable"` or `{ availability = "on" }`. */
  readonly enable?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly run?: string;
  /** TOML text of source, e.g. `"mcp.github"`; defaults to `"local"`. */
  readonly source?: string;
  readonly params?: Readonly<Record<string, ParamSpec>>;
}

const q = (s: string): string => JSON.stringify(s);
const key = (s: string): string => (/^[A-Za-z0-9_-]+$/.test(s) ? s : q(s));

/** A JP config layer with `'*'` defaults and tools in the given order. */
export function layer(tools: Readonly<Record<string, ToolSpec>>, star: { enable?: string; run?: string } = { enable: '"discoverable"' }): string {
  const out: string[] = [];
  if (star.enable !== undefined || star.run !== undefined) {
    out.push(`[conversation.tools.'*']`);
    if (star.enable !== undefined) out.push(`enable = ${star.enable}`);
    if (star.run !== undefined) out.push(`run = ${q(star.run)}`);
    out.push('');
  }
  for (const [name, t] of Object.entries(tools)) {
    out.push(`[conversation.tools.${key(name)}]`);
    out.push(`source = ${t.source ?? '"local"'}`);
    if (t.enable !== undefined) out.push(`enable = ${t.enable}`);
    if (t.run !== undefined) out.push(`run = ${q(t.run)}`);
    if (t.summary !== undefined) out.push(`summary = ${q(t.summary)}`);
    if (t.description !== undefined) out.push(`description = ${q(t.description)}`);
    out.push('');
    for (const [p, spec] of Object.entries(t.params ?? {})) {
      out.push(`[conversation.tools.${key(name)}.parameters.${key(p)}]`);
      out.push(`type = ${q(spec.type ?? 'string')}`);
      if (spec.required) out.push('required = true');
      if (spec.summary !== undefined) out.push(`summary = ${q(spec.summary)}`);
      if (spec.description !== undefined) out.push(`description = ${q(spec.description)}`);
      out.push('');
    }
  }
  return out.join('\n');
}

export interface ScenarioSpec {
  readonly policy?: Partial<Record<PolicyKey, string | boolean>>;
  /** One layer named "workspace" (text), or several. */
  readonly layer?: string;
  readonly layers?: readonly { name: string; text: string }[];
  /** Raw TOML appended after the layers (servers, steps...). */
  readonly body: string;
}

export function scenarioText(spec: ScenarioSpec): string {
  const parts = ['name = "test"', ''];
  const policy = Object.entries(spec.policy ?? {});
  if (policy.length > 0) {
    parts.push('[policy]');
    for (const [k, v] of policy) parts.push(`${k} = ${typeof v === 'boolean' ? String(v) : q(v)}`);
    parts.push('');
  }
  const layers = spec.layers ?? (spec.layer !== undefined ? [{ name: 'workspace', text: spec.layer }] : []);
  for (const l of layers) parts.push('[[layers]]', `name = ${q(l.name)}`, `text = '''\n${l.text}\n'''`, '');
  parts.push(spec.body);
  return parts.join('\n');
}

/**
 * A scenario's text parsed, or a throw naming each error's line and column, so a test with a bad
 * file fails loudly; `showText` adds the whole text to the message.
 */
export function parsed(text: string, showText = false): Scenario {
  const p = parseScenario(text);
  if (!p.ok) throw new Error(`bad scenario: ${p.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('; ')}${showText ? `\n${text}` : ''}`);
  return p.scenario;
}

/** Parses and runs a scenario. */
export function run(spec: ScenarioSpec | string): Timeline {
  return runAndCheck(spec).timeline;
}

/** Runs a scenario, then checks its expectations against the timeline. */
export function runAndCheck(spec: ScenarioSpec | string): { timeline: Timeline; expectations: ExpectationResult[] } {
  const text = typeof spec === 'string' ? spec : scenarioText(spec);
  const scenario = parsed(text, true);
  const timeline = runScenario({ scenario });
  return { timeline, expectations: checkExpectations(scenario, timeline) };
}

/** Checks a scenario's own expectations, as `tool-workbench check` does. */
export function check(spec: ScenarioSpec | string): CheckReport {
  const text = typeof spec === 'string' ? spec : scenarioText(spec);
  return checkScenario('test.toml', text);
}

/** Step-level errors of a run (a failed command), by step number. */
export function stepErrors(t: Timeline): Map<number, string> {
  const out = new Map<number, string>();
  for (const e of t.entries) if (e.kind === 'step' && e.error !== undefined) out.set(e.step, e.error);
  return out;
}

/** Effective availability of every configured tool at the end of a run. */
export function finalAvailability(t: Timeline): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of t.engine.currentStates()) out[s.name] = s.enable.availability.value;
  return out;
}

/** Number of config deltas committed by cycles (promotions and tool writes). */
export function cycleDeltas(t: Timeline): number {
  return t.positions.filter((p) => p.event.kind === 'delta' && p.event.cycle !== undefined).length;
}

/** A `jp q` step with cycles given as a list of call lists (the last cycle replies). */
export function turn(command: string, cycles: readonly string[][], reply = 'done'): string {
  const out = ['[[steps]]', `command = ${q(command)}`];
  for (const calls of cycles) {
    out.push('  [[steps.cycles]]', `  calls = [ ${calls.join(', ')} ]`);
  }
  out.push('  [[steps.cycles]]', `  reply = ${q(reply)}`, '');
  return out.join('\n');
}

/** A call table as inline TOML. */
export function search(query: string, limit?: number): string {
  return `{ tool = "search_tools", args = { query = ${q(query)}${limit !== undefined ? `, limit = ${limit}` : ''} } }`;
}

export function call(tool: string, extra = ''): string {
  return `{ tool = ${q(tool)}, args = {}${extra ? `, ${extra}` : ''} }`;
}
