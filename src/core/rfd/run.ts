// Running the RFD view's scenarios: each is written as a scenario file (so a reviewer can open it in the
// workbench or run it with `tool-workbench check`), then parsed, run and checked by the core.
import type { ToolState } from '../stream/engine';
import { checkExpectations } from '../scenario/expectations';
import type { ExpectationResult } from '../scenario/expectations';
import { parseScenario } from '../scenario/parse';
import { tomlString } from '../scenario/doc';
import { runScenario } from '../turn/run';
import type { Timeline, TimelineEntry } from '../turn/timeline';
import type { RfdCell, RfdScenario } from './types';

export interface ScenarioSpec {
  readonly name: string;
  readonly description: string;
  /** `[policy]` lines, e.g. `ranking = "substring"`. */
  readonly policy?: readonly string[];
  /** The workspace layer's text. */
  readonly layer: string;
  /** Whole `[servers.X]` tables and the `[[steps]]`, as TOML. */
  readonly rest: string;
}

export function scenarioText(spec: ScenarioSpec): string {
  const policy = spec.policy && spec.policy.length > 0 ? `\n[policy]\n${spec.policy.join('\n')}\n` : '';
  return `name = ${tomlString(spec.name)}
description = ${tomlString(spec.description)}
${policy}
[[layers]]
name = "workspace"
text = '''
${spec.layer.trim()}
'''

${spec.rest.trim()}
`;
}

export interface Ran {
  readonly text: string;
  readonly name: string;
  readonly timeline: Timeline;
  readonly expectations: readonly ExpectationResult[];
}

/** Runs a scenario the view wrote; a scenario that does not parse is a bug here, not bad input. */
export function run(spec: ScenarioSpec): Ran {
  const text = scenarioText(spec);
  const parsed = parseScenario(text);
  if (!parsed.ok) throw new Error(`RFD view scenario "${spec.name}" does not parse: ${parsed.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('; ')}`);
  const timeline = runScenario({ scenario: parsed.scenario });
  return { text, name: spec.name, timeline, expectations: checkExpectations(parsed.scenario, timeline) };
}

export function counts(ran: Ran): { passed: number; failed: number } {
  const failed = ran.expectations.filter((e) => !e.pass).length;
  return { passed: ran.expectations.length - failed, failed };
}

/** The first timeline row that matches, else the last row. */
export function entryWhere(t: Timeline, test: (e: TimelineEntry) => boolean): number {
  const i = t.entries.findIndex(test);
  return i >= 0 ? i : t.entries.length - 1;
}

export function scenarioRef(ran: Ran, entry: number): RfdScenario {
  return { name: ran.name, text: ran.text, entry };
}

export function cell(stated: string, computed: string, detail?: string): RfdCell {
  return { stated, computed, agrees: stated === computed, ...(detail !== undefined ? { detail } : {}) };
}

/** A tool's effective availability at a position. */
export function availabilityAt(t: Timeline, position: number, name: string): string {
  const s: ToolState | undefined = t.statesAt(position).get(name);
  return s?.enable.availability.value ?? 'not configured';
}

/** What a directive did to a tool, in the RFD table's words: "→ on", "no-op". */
export function moveWords(before: string, after: string): string {
  return before === after ? 'no-op' : `→ ${after}`;
}

/** A local tool's table in a layer. */
export function localTool(name: string, enable: string, summary: string): string {
  return `[conversation.tools.${name}]\nsource = "local"\nenable = ${enable}\nsummary = ${tomlString(summary)}\n`;
}
