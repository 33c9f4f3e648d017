// `tool-workbench tasks --scenario FILE --tasks FILE.jsonl [--policy NAME] [--limit N] [--categories] [--cost] [--json]`
// Plays each task of a task set as one more `jp q` turn at the end of the scenario (a scratch copy;
// the file is never written) and prints one line per silent miss, then the summary line.
import type { Layer } from '../core/config/layer';
import type { Diagnostic } from '../core/config/types';
import { serverNameFromFileName } from '../core/import/catalogue';
import { DEFAULT_PRICE_TABLE } from '../core/providers/prices';
import { writeScenario } from '../core/scenario/doc';
import { parseScenario } from '../core/scenario/parse';
import type { Scenario } from '../core/scenario/types';
import { parseEvalQueries } from '../core/search/metrics';
import { allDiscoverableDoc } from '../core/tasks/catalogue';
import { runTasks } from '../core/tasks/run';
import { resultsJsonl, runNotes, silentMissLines, summaryLine } from '../core/tasks/summary';
import { POLICY_NAMES } from '../core/tasks/types';
import type { PolicyName } from '../core/tasks/types';
import { IndexCache, LayerCache, runScenario } from '../core/turn/run';
import type { Timeline } from '../core/turn/timeline';
import { hostFor } from './check';
import type { Io } from './main';
import { block, line } from './print';
import { readErrorText } from './read';
import { o200kCounter } from './tokens';

interface Options {
  scenario?: string;
  tasks?: string;
  policy: PolicyName;
  limit?: number;
  categories: boolean;
  cost: boolean;
  json: boolean;
}

function parseArgs(args: readonly string[]): Options | string {
  const o: Options = { policy: 'auto', categories: false, cost: false, json: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const value = (): string => args[++i] ?? '';
    if (a === '--scenario') o.scenario = value();
    else if (a === '--tasks') o.tasks = value();
    else if (a === '--json') o.json = true;
    else if (a === '--categories') o.categories = true;
    else if (a === '--cost') o.cost = true;
    else if (a === '--policy') {
      const p = value();
      if (!(POLICY_NAMES as readonly string[]).includes(p)) return `--policy takes ${POLICY_NAMES.join(', ')}, got \`${p}\``;
      o.policy = p as PolicyName;
    } else if (a === '--limit') {
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 50) return `--limit takes an integer from 1 to 50, got \`${v}\``;
      o.limit = n;
    } else return `unknown argument \`${a}\``;
  }
  if (!o.scenario || !o.tasks) return '--scenario FILE and --tasks FILE.jsonl are required';
  return o;
}

type Loaded = { ok: true; scenario: Scenario; run: (s: Scenario) => Timeline; warnings: string[] } | { ok: false; error: string };

/** A scenario file, or a catalogue file (.json) with every tool discoverable; and how to run it. */
export function load(file: string, text: string, io: Io): Loaded {
  let scenarioText = text;
  const warnings: string[] = [];
  if (file.toLowerCase().endsWith('.json')) {
    const made = allDiscoverableDoc(text, file.split(/[\\/]/u).pop() ?? file, serverNameFromFileName(file));
    if (!made.ok) return { ok: false, error: made.errors.map((e) => `${file}: ${e}`).join('\n') };
    warnings.push(...made.warnings);
    scenarioText = writeScenario(made.doc);
  }
  const host = hostFor(file, io);
  const parsed = parseScenario(scenarioText, host);
  if (!parsed.ok) return { ok: false, error: parsed.errors.map((e) => `${file}:${e.line}:${e.column}: ${e.message}`).join('\n') };
  const scenario = parsed.scenario;
  let workspaceLayers: Layer[] = [];
  let workspaceDiagnostics: Diagnostic[] = [];
  if (scenario.workspace) {
    const ws = host.loadWorkspace?.(scenario) ?? { error: 'this shell cannot load workspaces' };
    if ('error' in ws) return { ok: false, error: `${file}: workspace: ${ws.error}` };
    workspaceLayers = ws.layers;
    workspaceDiagnostics = ws.diagnostics;
  }
  // One index and one set of loaded layers for every run: each task changes only its own last step.
  const indexCache = new IndexCache();
  const layerCache = new LayerCache();
  return { ok: true, scenario, warnings, run: (s) => runScenario({ scenario: s, workspaceLayers, workspaceDiagnostics, indexCache, layerCache }) };
}

/**
 * The scenario and the task set both forms of `tasks` read (the stand-in policies' and `--model`'s):
 * each read, load and parse error printed through `err`, then 2; or what was loaded.
 */
export function readTaskInputs(scenarioFile: string, tasksFile: string, io: Io, err: (text: string) => void): { loaded: Extract<Loaded, { ok: true }>; parsed: ReturnType<typeof parseEvalQueries> } | 2 {
  const texts: string[] = [];
  for (const file of [scenarioFile, tasksFile]) {
    try {
      texts.push(io.readFile(file));
    } catch (e) {
      err(line(readErrorText(file, e)));
      return 2;
    }
  }
  const [scenarioText = '', tasksText = ''] = texts;
  const loaded = load(scenarioFile, scenarioText, io);
  if (!loaded.ok) {
    for (const l of loaded.error.split('\n')) err(line(l));
    return 2;
  }
  for (const w of loaded.warnings) err(line(`${scenarioFile}: warning: ${w}`));
  const parsed = parseEvalQueries(tasksText);
  for (const e of parsed.errors) err(line(`${tasksFile}: ${e}`));
  if (parsed.queries.length === 0) {
    err(line(`${tasksFile}: no tasks`));
    return 2;
  }
  return { loaded, parsed };
}

export function tasksCommand(args: readonly string[], io: Io): number {
  const o = parseArgs(args);
  if (typeof o === 'string') {
    io.err(line(`tool-workbench tasks: ${o} (tool-workbench tasks --help)`));
    return 2;
  }
  const inputs = readTaskInputs(o.scenario as string, o.tasks as string, io, io.err);
  if (inputs === 2) return 2;
  const { loaded, parsed } = inputs;
  const run = runTasks(loaded.scenario, loaded.run, parsed.queries, {
    policy: o.policy,
    categories: o.categories,
    counter: o200kCounter,
    ...(o.limit !== undefined ? { limit: o.limit } : {}),
    ...(o.cost ? { cost: { table: DEFAULT_PRICE_TABLE, counter: o200kCounter } } : {}),
  });
  // Requests and tool names come from files anyone can write: printed through ./print.
  if (o.json) io.out(block(JSON.stringify({ policy: run.policy, categories: run.categories, limit: run.limit, section: run.section, summary: run.summary, unknownNames: run.unknownNames, results: resultsJsonl(run).trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown) }, null, 2)));
  else {
    for (const l of silentMissLines(run)) io.out(line(l));
    for (const l of runNotes(run)) io.out(line(l));
    io.out(line(summaryLine(run.summary)));
  }
  if (parsed.errors.length > 0) {
    io.err(line(`${o.tasks ?? ''}: ${parsed.errors.length} malformed line${parsed.errors.length === 1 ? '' : 's'} left out of the run above`));
    return 2;
  }
  return 0;
}
