// One scenario's check result, shared by `tool-workbench check` and the UI:
// the run's timeline, the checker's results, the failures as printable lines, and the counts.
import { parseScenario } from './parse';
import type { ScenarioHost } from './parse';
import type { Scenario, ScenarioError } from './types';
import { runScenario } from '../turn/run';
import type { RunInput } from '../turn/run';
import type { Timeline } from '../turn/timeline';
import { show } from './check';
import { checkExpectations } from './expectations';
import type { ExpectationResult } from './expectations';
import type { CostCheckOptions } from './cost-expectations';
import type { Diagnostic, Layer } from '../index-types';
import { LineIndex } from '../config/toml-ast';
import { PROVIDER_RULE } from '../turn/provider-names';

/** Something that fails the check, where it stands: a failed expectation or a load error nobody expected. */
export interface CheckProblem {
  /** The timeline row it stands on. */
  readonly entry: number;
  /** "step 1 cycle 2", "load", or the layer and line of a load error. */
  readonly label: string;
  readonly key: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

export interface CheckReport {
  readonly file: string;
  /** The scenario's name and description, when the file parsed. */
  readonly name?: string;
  readonly description?: string;
  /** Every problem the failed count counts: the failed expectations in order, then unexpected load errors. */
  readonly problems?: readonly CheckProblem[];
  /** Problems with the file itself (exit status 2). */
  readonly fileErrors: readonly ScenarioError[];
  readonly timeline?: Timeline;
  /** The checker's results over the timeline (empty when the file is bad). */
  readonly expectations: readonly ExpectationResult[];
  readonly passed: number;
  readonly failed: number;
  /** One line per failure, ready to print. */
  readonly failures: readonly string[];
}

export interface CheckHost extends ScenarioHost {
  /** Loads a `[workspace]` into layers (the shell reads its files). */
  loadWorkspace?(scenario: Scenario): { layers: Layer[]; diagnostics: Diagnostic[] } | { error: string };
}

function diagnosticText(d: Diagnostic): string {
  const where = d.layer !== undefined ? `layer ${d.layer}${d.line !== undefined ? ` ${d.line}:${d.column ?? 1}` : ''}` : 'load';
  return `${where}: ${d.message}`;
}

export function checkScenario(file: string, text: string, host: CheckHost = {}, extra: Partial<RunInput> = {}, cost: CostCheckOptions = {}): CheckReport {
  const parsed = parseScenario(text, host);
  if (!parsed.ok) return { file, fileErrors: parsed.errors, expectations: [], passed: 0, failed: 0, failures: [] };
  const scenario = parsed.scenario;
  let workspaceLayers: Layer[] | undefined;
  let workspaceDiagnostics: Diagnostic[] | undefined;
  if (scenario.workspace) {
    const ws = host.loadWorkspace?.(scenario) ?? { error: 'this shell cannot load workspaces' };
    if ('error' in ws) {
      const p = scenario.workspace.span;
      const at = new LineIndex(text).position(p.start);
      return { file, fileErrors: [{ message: `workspace: ${ws.error}`, line: at.line, column: at.column, span: p }], expectations: [], passed: 0, failed: 0, failures: [] };
    }
    workspaceLayers = ws.layers;
    workspaceDiagnostics = ws.diagnostics;
  }
  const timeline = runScenario({
    scenario,
    ...extra,
    ...(workspaceLayers ? { workspaceLayers } : {}),
    ...(workspaceDiagnostics ? { workspaceDiagnostics } : {}),
  });
  const expectations = checkExpectations(scenario, timeline, cost);
  const summary = summarizeCheck(scenario, timeline, expectations);
  const failures = summary.problems.map((p) => (p.key === 'load error' ? `${file}: ${String(p.actual)}` : `${file}: ${p.label}: ${p.key}: expected ${show(p.expected)}, got ${show(p.actual)}`));
  return {
    file,
    name: scenario.name,
    ...(scenario.description !== undefined ? { description: scenario.description } : {}),
    problems: summary.problems,
    fileErrors: [],
    timeline,
    expectations,
    passed: summary.passed,
    failed: summary.failed,
    failures,
  };
}

/**
 * The one count of a check, shared by `tool-workbench check`, the workbench's header and timeline, and
 * the HTML report: every expectation, plus each load error nobody expected (a catalogue that does not
 * load is not a passing design), with the row each problem stands on.
 */
export function summarizeCheck(scenario: Scenario, timeline: Timeline, expectations: readonly ExpectationResult[]): { passed: number; failed: number; problems: CheckProblem[] } {
  const problems: CheckProblem[] = [];
  let passed = 0;
  for (const e of expectations) {
    if (e.pass) passed += 1;
    else problems.push({ entry: e.entry, label: e.label, key: e.key, expected: e.expected, actual: e.actual });
  }
  const expectedLoad = scenario.load?.get('error');
  for (const d of timeline.diagnostics) {
    // Provider findings never fail a check by themselves (they are expected with provider_warnings).
    if (d.severity !== 'error' || d.code === PROVIDER_RULE) continue;
    const wanted = expectedLoad ? (Array.isArray(expectedLoad.value) ? expectedLoad.value : [expectedLoad.value]).every((s) => d.message.includes(String(s))) : false;
    if (!wanted) problems.push({ entry: timeline.loadEntry, label: 'load', key: 'load error', expected: null, actual: diagnosticText(d) });
  }
  return { passed, failed: problems.length, problems };
}
