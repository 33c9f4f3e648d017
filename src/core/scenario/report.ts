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

export interface CheckReport {
  readonly file: string;
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
  const failures: string[] = [];
  let passed = 0;
  let failed = 0;
  for (const e of expectations) {
    if (e.pass) passed += 1;
    else {
      failed += 1;
      failures.push(`${file}: ${e.label}: ${e.key}: expected ${show(e.expected)}, got ${show(e.actual)}`);
    }
  }
  // A load error nobody expected fails the check: a catalogue that does not load is not a passing design.
  const expectedLoad = scenario.load?.get('error');
  for (const d of timeline.diagnostics) {
    // Provider findings never fail a check by themselves (they are expected with provider_warnings).
    if (d.severity !== 'error' || d.code === PROVIDER_RULE) continue;
    const wanted = expectedLoad ? (Array.isArray(expectedLoad.value) ? expectedLoad.value : [expectedLoad.value]).every((s) => d.message.includes(String(s))) : false;
    if (wanted) continue;
    failed += 1;
    failures.push(`${file}: ${diagnosticText(d)}`);
  }
  return { file, fileErrors: [], timeline, expectations, passed, failed, failures };
}
