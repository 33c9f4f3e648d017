// The incremental derivation equals a derivation from scratch (issue 23.3): after random sequences of
// step edits, insertions, deletions, reorders, promotions, availability edits and layer replacements,
// on the shared conformance scenarios and on generated catalogues. Compared: the whole timeline as
// `check --json --bodies` writes it (positions, availability, sets, requests with cache status, provider
// findings and bodies, calls, check results), each step's sets and row, and the rows.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toJson } from '../json/serde';
import { checkExpectations } from '../scenario/expectations';
import type { Scenario, ScenarioStep } from '../scenario/types';
import { Derivation, REHEARSALS, unchangedSteps } from './derivation';
import { runScenario } from './run';
import { timelineToJson } from './serialize';
import type { Timeline } from './timeline';
import { layer, parsed, scenarioText, search, turn } from './test-kit';
import type { ToolSpec } from './test-kit';
import type { DerivationInput } from './derivation';
import type { Layer } from '../config/layer';
import { POLICY_CHOICES } from '../scenario/policy';
import type { PolicyKey } from '../scenario/policy';

/** Everything a shell reads from a timeline, as one JSON text. */
function digest(scenario: Scenario, t: Timeline): string {
  const checked = checkExpectations(scenario, t);
  return toJson(
    {
      json: timelineToJson(t, checked, { bodies: true }),
      steps: t.steps.map((s) => ({ step: s.step, entry: s.entry, lastEntry: s.lastEntry, position: s.position, time: s.time, registered: s.registered, error: s.error ?? null, sets: { ...s.sets }, layers: s.layers })),
      entries: t.entries.map((e) => (e.kind === 'call' ? { ...e, call: { ...e.call } } : e)),
      appended: t.positions.map((p) => p.appended),
      setsAt: t.positions.map((p) => ({ ...t.setsAt(p.index) })),
      requests: t.requests.map((r) => ({ id: r.id, sets: { ...r.sets }, cost: r.cost, definitions: [...r.definitions.keys()], cache: r.cache(), findings: r.findings(), bytes: r.rendered().bytes })),
      finalLayers: t.finalLayers,
    },
    false,
  );
}

/** Digests compared, the failure showing where they part (they run to tens of kilobytes). */
function sameDigest(got: string, want: string, label: string): void {
  if (got === want) return;
  let i = 0;
  while (i < got.length && got[i] === want[i]) i++;
  expect(got.slice(Math.max(0, i - 300), i + 200), `${label}: digests part at ${i}`).toBe(want.slice(Math.max(0, i - 300), i + 200));
}

const conformanceDir = resolve(__dirname, '../../../../shared/conformance');
const conformance: readonly Scenario[] = readdirSync(conformanceDir)
  .filter((f) => f.endsWith('.toml'))
  .sort()
  .map((f) => parsed(readFileSync(join(conformanceDir, f), 'utf8')));

/** A generated catalogue: n tools, most discoverable, with steps that search (promote), use directives and edit config. */
function generated(n: number, diagnosed = false): Scenario {
  const tools: Record<string, ToolSpec> = {};
  for (let i = 0; i < n; i++) {
    tools[`tool_${i}`] = {
      ...(i % 10 === 0 ? { enable: '"on"' } : {}),
      summary: `Tool ${i} ${['reads files', 'lists issues', 'deploys apps', 'sends mail'][i % 4]} number ${i}.`,
      ...(i % 7 === 3 ? { params: { target: { summary: `Where it goes ${i}`, description: `The target of tool ${i}, a plain path.` } } } : {}),
    };
  }
  const steps = [
    turn('jp q one', [[search('files', 3)]]),
    turn('jp q two -T tool_0 --cfg conversation.tools.jira_search.enable=on', [[search('deploys', 2)]]),
    '[[steps]]\ncommand = "jp config set --id conversation.tools.tool_3.enable=on"\n',
    turn("jp q three -t tool_5 -u tool_7", [[search('mail issues', 4)]]),
    '[[steps]]\ncommand = "jp config set conversation.tools.tool_9.enable=discoverable"\n',
    turn('jp q four', []),
  ];
  // An MCP tool off at load whose server is not running: its warning is first raised at step 2.
  const servers = '[servers.jira]\nstatus = "offline"\ntools = [ { name = "search", description = "Search Jira issues.", inputSchema = { type = "object", properties = { jql = { type = "string", description = "The query" } } } } ]\n\n[servers.github]\nstatus = "running"\ntools = [ { name = "list_issues", description = "List issues in a repository.", inputSchema = { type = "object", properties = { owner = { type = "string", description = "Repository owner" } } } } ]\n';
  // `diagnosed`: tools with load diagnostics too (no source; a name the provider refuses), so a layer
  // edit that moves or changes them must derive their diagnostics again.
  const mcp =
    '\n[conversation.tools.jira_search]\nsource = "mcp.jira.search"\nenable = "off"\n\n[conversation.tools.gh_list_issues]\nsource = "mcp.github.list_issues"\n' +
    (diagnosed ? '\n[conversation.tools.no_source]\nsummary = "reads files without a source"\n\n[conversation.tools."bad.name"]\nsource = "local"\nsummary = "lists issues under a refused name"\n' : '');
  return parsed(scenarioText({ policy: { promoted_position: n % 2 === 0 ? 'append' : 'config_order' }, layer: layer(tools) + mcp, body: servers + '\n' + steps.join('\n') }));
}

const stepsOf = (s: Scenario): readonly ScenarioStep[] => s.steps;

type Edit =
  | { readonly kind: 'replace'; readonly at: number; readonly from: number }
  | { readonly kind: 'delete'; readonly at: number }
  | { readonly kind: 'insert'; readonly at: number; readonly from: number }
  | { readonly kind: 'swap'; readonly at: number }
  | { readonly kind: 'command'; readonly at: number; readonly extra: string }
  | { readonly kind: 'layer'; readonly from: number }
  | { readonly kind: 'server'; readonly at: number; readonly what: number }
  | { readonly kind: 'policy'; readonly key: number; readonly value: number }
  | { readonly kind: 'workspace'; readonly which: number }
  | { readonly kind: 'tool'; readonly at: number; readonly line: number }
  | { readonly kind: 'param'; readonly at: number; readonly words: number }
  | { readonly kind: 'star'; readonly line: number }
  | { readonly kind: 'span'; readonly at: number }
  | { readonly kind: 'overrides'; readonly at: number; readonly line: number }
  | { readonly kind: 'same' };

/** Lines a tool-table edit writes (an existing line with the same key is replaced). */
const TOOL_LINES = ['enable = "on"', 'enable = "off"', 'enable = "discoverable"', 'description = "deploys files and sends mail"', 'summary = "zebra crossing"', 'run = "ask"', 'enable = { availability = "on", allow_toggle = "never" }', 'summary = "Tool reads files"'];
const STAR_LINES = ['enable = "on"', 'enable = "off"', 'enable = "discoverable"', 'run = "ask"', 'run = "unattended"', 'enable = { allow_toggle = "if_named" }'];
const WORDS = ['deploys the mail', 'zebra issues', 'reads files quickly'];
/** Workspace layers (below the scenario's own); the empty list is no workspace. */
const WORKSPACES: readonly (readonly Layer[])[] = [
  [],
  [{ name: 'user', text: "[conversation.tools.'*']\nrun = \"unattended\"\n" }],
  [{ name: 'user', text: '[conversation.tools.tool_2]\nsource = "local"\nenable = "off"\n' }],
  [{ name: 'user', text: '[conversation.tools.tool_1]\nsource = "local"\ndescription = "sends mail to files"\n\n[conversation.tools.ws_only]\nsource = "local"\nenable = "discoverable"\nsummary = "deploys mail"\n' }],
];

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), from: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), from: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('command' as const), at: fc.nat(), extra: fc.constantFrom(' -t', ' -T', ' -T tool_1', " -t 'nosuch'", ' --cfg conversation.tools.tool_2.enable=off', ' --cfg conversation.tools.tool_2.enable=on', ' --cfg conversation.tools.jira_search.enable=on') }),
  fc.record({ kind: fc.constant('layer' as const), from: fc.nat() }),
  fc.record({ kind: fc.constant('server' as const), at: fc.nat(), what: fc.nat({ max: 3 }) }),
  fc.record({ kind: fc.constant('policy' as const), key: fc.nat(), value: fc.nat() }),
  fc.record({ kind: fc.constant('workspace' as const), which: fc.nat({ max: WORKSPACES.length - 1 }) }),
  fc.record({ kind: fc.constant('tool' as const), at: fc.nat(), line: fc.nat({ max: TOOL_LINES.length - 1 }) }),
  fc.record({ kind: fc.constant('param' as const), at: fc.nat(), words: fc.nat({ max: WORDS.length - 1 }) }),
  fc.record({ kind: fc.constant('star' as const), line: fc.nat({ max: STAR_LINES.length - 1 }) }),
  fc.record({ kind: fc.constant('span' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('overrides' as const), at: fc.nat(), line: fc.nat({ max: TOOL_LINES.length - 1 }) }),
  fc.constant({ kind: 'same' as const }),
);

const TABLE = /^\[conversation\.tools\.([^\]\s]+)\]\s*$/gm;

/** The tool tables of a layer text: each header's name and where its body runs. */
function tablesOf(text: string): { name: string; start: number; end: number }[] {
  const heads = [...text.matchAll(/^\[\[?[^\n]*$/gm)].map((m) => m.index);
  const out: { name: string; start: number; end: number }[] = [];
  for (const m of text.matchAll(TABLE)) {
    const start = m.index + m[0].length;
    const end = heads.find((h) => h > m.index) ?? text.length;
    out.push({ name: m[1] ?? '', start, end });
  }
  return out;
}

/** `line` written into one table's body, replacing a line of the same key. */
function setLine(text: string, t: { start: number; end: number }, line: string): string {
  const key = line.slice(0, line.indexOf(' ='));
  const body = text.slice(t.start, t.end).split('\n').filter((l) => !l.startsWith(`${key} =`));
  body.splice(1, 0, line);
  return text.slice(0, t.start) + body.join('\n') + text.slice(t.end);
}

/** Layer `i` (of the scenario's, by number) rewritten by `f`. */
function editLayer(s: Scenario, i: number, f: (text: string) => string): Scenario {
  if (s.layers.length === 0) return s;
  const k = i % s.layers.length;
  return { ...s, layers: s.layers.map((l, j) => (j === k ? { name: l.name, text: f(l.text) } : l)) };
}

/** One edit of a derivation's input; steps and layers are drawn from the pool of every scenario under test. */
function applyEdit(input: DerivationInput, e: Edit, pool: readonly Scenario[]): DerivationInput {
  const s = input.scenario;
  const steps = [...s.steps];
  const allSteps = pool.flatMap(stepsOf);
  const pick = (i: number): ScenarioStep | undefined => allSteps[i % Math.max(1, allSteps.length)];
  const at = (i: number, n = steps.length): number => (n === 0 ? 0 : i % n);
  const withScenario = (scenario: Scenario): DerivationInput => ({ ...input, scenario });
  switch (e.kind) {
    case 'replace': {
      const step = pick(e.from);
      if (step && steps.length > 0) steps[at(e.at)] = step;
      break;
    }
    case 'delete':
      if (steps.length > 0) steps.splice(at(e.at), 1);
      break;
    case 'insert': {
      const step = pick(e.from);
      if (step) steps.splice(at(e.at, steps.length + 1), 0, step);
      break;
    }
    case 'swap':
      if (steps.length > 1) {
        const i = at(e.at, steps.length - 1);
        [steps[i], steps[i + 1]] = [steps[i + 1] as ScenarioStep, steps[i] as ScenarioStep];
      }
      break;
    case 'command': {
      const i = at(e.at);
      const step = steps[i];
      if (step && step.command.startsWith('jp q')) steps[i] = { ...step, command: step.command + e.extra };
      break;
    }
    case 'layer': {
      // Replace the scenario's layers with another scenario's (a layer replaced by the user, or reverted).
      const other = pool[e.from % pool.length];
      if (other && other.layers.length > 0) return withScenario({ ...s, layers: other.layers, servers: other.servers, steps });
      break;
    }
    case 'server': {
      // The servers alone: a status flipped, a tool's description or a parameter's rewritten, a tool dropped.
      if (s.servers.length === 0) break;
      const k = e.at % s.servers.length;
      const servers = s.servers.map((sv, j) => {
        if (j !== k) return sv;
        if (e.what === 0) return { ...sv, status: sv.status === 'running' ? ('offline' as const) : ('running' as const) };
        if (e.what === 1) return { ...sv, tools: sv.tools.map((t, i) => (i === 0 ? { ...t, description: 'deploys zebra files' } : t)) };
        if (e.what === 2) return { ...sv, tools: sv.tools.slice(1) };
        return { ...sv, tools: sv.tools.map((t) => ({ ...t, inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'mail issues to read' } } } })) };
      });
      return withScenario({ ...s, servers, steps });
    }
    case 'policy': {
      const keys = Object.keys(POLICY_CHOICES) as PolicyKey[];
      const key = keys[e.key % keys.length] as PolicyKey;
      const choices = POLICY_CHOICES[key] as readonly unknown[];
      return withScenario({ ...s, policy: { ...s.policy, [key]: choices[e.value % choices.length] }, steps });
    }
    case 'workspace': {
      const layers = WORKSPACES[e.which] ?? [];
      const { workspaceLayers: _w, ...rest } = input;
      return layers.length === 0 ? { ...rest, scenario: { ...s, steps } } : { ...rest, scenario: { ...s, steps }, workspaceLayers: layers };
    }
    case 'tool':
      // One tool's table in a layer (a keystroke inside the catalogue layer).
      return withScenario(
        editLayer({ ...s, steps }, e.at, (text) => {
          const tables = tablesOf(text).filter((t) => t.name !== "'*'" && !t.name.includes('.'));
          const t = tables[e.at % Math.max(1, tables.length)];
          return t ? setLine(text, t, TOOL_LINES[e.line] ?? '') : text;
        }),
      );
    case 'param':
      // A parameter's description alone (search reads it).
      return withScenario(
        editLayer({ ...s, steps }, e.at, (text) => {
          const params = tablesOf(text).filter((t) => t.name.includes('.parameters.'));
          const t = params[e.at % Math.max(1, params.length)];
          return t ? setLine(text, t, `description = "${WORDS[e.words] ?? ''}"`) : `${text}\n[conversation.tools.tool_3.parameters.extra]\ntype = "string"\ndescription = "${WORDS[e.words] ?? ''}"\n`;
        }),
      );
    case 'star':
      return withScenario(
        editLayer({ ...s, steps }, 0, (text) => {
          const star = tablesOf(text).find((t) => t.name === "'*'");
          return star ? setLine(text, star, STAR_LINES[e.line] ?? '') : `[conversation.tools.'*']\n${STAR_LINES[e.line] ?? ''}\n\n${text}`;
        }),
      );
    case 'span':
      // Text moves, values do not: a comment line above a table (origins move with it).
      return withScenario(
        editLayer({ ...s, steps }, e.at, (text) => {
          const tables = tablesOf(text);
          const t = tables[e.at % Math.max(1, tables.length)];
          if (!t) return `# moved\n${text}`;
          const head = text.lastIndexOf('\n[', t.start - 1);
          return head < 0 ? `# moved\n${text}` : `${text.slice(0, head)}\n# moved${text.slice(head)}`;
        }),
      );
    case 'overrides': {
      // A small layer on top naming one tool of the catalogue (a keystroke in the small layer).
      const names = s.layers.flatMap((l) => tablesOf(l.text).map((t) => t.name)).filter((n) => n !== "'*'" && !n.includes('.'));
      const name = names[e.at % Math.max(1, names.length)] ?? 'tool_1';
      const text = `[conversation.tools.${name}]\n${TOOL_LINES[e.line] ?? ''}\n`;
      const layers = [...s.layers.filter((l) => l.name !== 'overrides'), { name: 'overrides', text }];
      return withScenario({ ...s, layers, steps });
    }
    case 'same':
      break;
  }
  return withScenario({ ...s, steps });
}

/** Runs what a host runs while idle after a derivation (Derivation.prepare), to its end. */
function prepareAll(derivation: Derivation): number {
  let steps = 0;
  for (const _ of derivation.prepare()) steps++;
  return steps;
}

function holdsAfterEdits(start: Scenario, edits: readonly Edit[], cuts: readonly number[], pool: readonly Scenario[], prepared: readonly boolean[] = []): void {
  const derivation = new Derivation();
  // Prepared ahead or not, the first edit after a run gives the same timeline (prepare fills caches only).
  if (prepared[0] === true) {
    derivation.run({ scenario: start });
    prepareAll(derivation);
  }
  let input: DerivationInput = { scenario: start };
  edits.forEach((edit, i) => {
    input = applyEdit(input, edit, pool);
    const { scenario } = input;
    const cut = cuts[i];
    // Sometimes the selected step first (the rest follows on the next run), as a shell would.
    if (cut !== undefined && scenario.steps.length > 0) {
      const part = derivation.run(input, { throughStep: cut % (scenario.steps.length + 1) });
      const cutScenario = { ...scenario, steps: scenario.steps.slice(0, cut % (scenario.steps.length + 1)) };
      sameDigest(digest(cutScenario, part), digest(cutScenario, runScenario({ ...input, scenario: cutScenario })), `edit ${i} (${edit.kind}), cut at ${cut % (scenario.steps.length + 1)}`);
    }
    const t = derivation.run(input);
    expect(derivation.last?.complete).toBe(true);
    sameDigest(digest(scenario, t), digest(scenario, runScenario(input)), `edit ${i} (${edit.kind})`);
    if (prepared[i + 1] === true) prepareAll(derivation);
  });
}

/** The property tests run many whole derivations: on a loaded machine they take far longer than vitest's default. */
const SLOW = 180_000;

describe('the incremental derivation equals a derivation from scratch', () => {
  const pool = [...conformance, generated(30), generated(30, true)];

  it('on the conformance scenarios, after random edits, reorders, promotions and layer replacements', () => {
    fc.assert(
      fc.property(fc.nat({ max: conformance.length - 1 }), fc.array(editArb, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 6 }), fc.array(fc.boolean(), { maxLength: 7 }), (i, edits, cuts, prepared) => {
        holdsAfterEdits(conformance[i] as Scenario, edits, cuts, pool, prepared);
      }),
      { numRuns: 60 },
    );
  }, SLOW);

  it('on generated catalogues', () => {
    fc.assert(
      fc.property(fc.constantFrom(30, 120, 301), fc.array(editArb, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 5 }), fc.array(fc.boolean(), { maxLength: 6 }), (n, edits, cuts, prepared) => {
        holdsAfterEdits(generated(n, n % 2 === 0), edits, cuts, [generated(n), ...conformance.slice(0, 3)], prepared);
      }),
      { numRuns: 15 },
    );
  }, SLOW);

  it('prepare does its work in steps once, and a layer edit after it equals one without it', () => {
    const s = generated(120);
    const derivation = new Derivation();
    derivation.run({ scenario: s });
    // The load diagnostics, then one step per search call of the scenario.
    const searches = s.steps.reduce((n, st) => n + st.cycles.reduce((m, c) => m + c.calls.filter((call) => call.tool === 'search_tools').length, 0), 0);
    expect(searches).toBeGreaterThan(0);
    // No rehearsal of a keystroke: the one layer names every tool (a table appended would be a second one).
    expect(prepareAll(derivation)).toBe(1 + searches);
    // Done: the diagnostics are kept, the searches ranked again (a walk, no step for the diagnostics).
    expect(prepareAll(derivation)).toBe(searches);
    for (const kind of ['tool', 'overrides', 'span'] as const) {
      const edited = applyEdit({ scenario: s }, kind === 'span' ? { kind, at: 4 } : { kind, at: 5, line: 1 }, [s]);
      const fresh = new Derivation();
      fresh.run({ scenario: s });
      prepareAll(fresh);
      sameDigest(digest(edited.scenario, fresh.run(edited)), digest(edited.scenario, runScenario(edited)), `${kind} after prepare`);
    }
  });

  it('prepare rehearses a keystroke (one tool re-resolved, the conversation replayed) and undoes it, and stops when a run comes between', () => {
    const base = generated(120);
    // The catalogue and a small layer of overrides, as a page's document often is.
    const s: Scenario = { ...base, layers: [...base.layers, { name: 'overrides', text: '[conversation.tools.tool_2]\nsummary = "typed"\n' }] };
    const searches = s.steps.reduce((n, st) => n + st.cycles.reduce((m, c) => m + c.calls.filter((call) => call.tool === 'search_tools').length, 0), 0);
    const derivation = new Derivation();
    derivation.run({ scenario: s });
    // The load diagnostics, the searches, then a run and its undoing a step each, REHEARSALS times.
    expect(prepareAll(derivation)).toBe(1 + searches + 2 * REHEARSALS);
    // The last run was the undoing: tool by tool, not from scratch.
    expect(derivation.last).toMatchObject({ restarted: false, toolsReresolved: 1 });
    expect(derivation.last?.stepsPlayed).toBeGreaterThan(0);
    sameDigest(digest(s, derivation.run({ scenario: s })), digest(s, runScenario({ scenario: s })), 'the same input after the rehearsal');
    expect(derivation.last).toMatchObject({ stepsPlayed: 0, toolsReresolved: 0 });

    // Typing during the rehearsal: the rehearsal is left where it was, the typed edit derived from it.
    const typed = new Derivation();
    typed.run({ scenario: s });
    const steps = typed.prepare();
    // Up to the rehearsal's first run (not its undoing).
    let rehearsed = false;
    while (!rehearsed && steps.next().done !== true) rehearsed = typed.last?.toolsReresolved === 1;
    expect(rehearsed).toBe(true);
    const edited = applyEdit({ scenario: s }, { kind: 'overrides', at: 5, line: 1 }, [s]);
    const got = typed.run(edited);
    const after = typed.last;
    for (let r = steps.next(); !r.done; r = steps.next()) {
      // nothing more runs
    }
    expect(typed.last).toBe(after);
    sameDigest(digest(edited.scenario, got), digest(edited.scenario, runScenario(edited)), 'an edit typed during the rehearsal');
  });

  it('an earlier timeline is not changed by a later run', () => {
    const derivation = new Derivation();
    const a = generated(40);
    const ta = derivation.run({ scenario: a });
    const before = digest(a, ta);
    const b = applyEdit({ scenario: a }, { kind: 'command', at: 2, extra: ' -T' }, [a]);
    derivation.run(b);
    expect(digest(a, ta)).toEqual(before);
  });
});

describe('nothing re-done that did not change', () => {
  it('an edit of step k replays only steps k.. ; the same input again replays nothing', () => {
    const derivation = new Derivation();
    const s = generated(50);
    derivation.run({ scenario: s });
    expect(derivation.last).toMatchObject({ restarted: true, stepsReused: 0, stepsPlayed: s.steps.length, layersParsed: 1 });
    derivation.run({ scenario: s });
    expect(derivation.last).toMatchObject({ restarted: false, stepsReused: s.steps.length, stepsPlayed: 0, layersParsed: 0, indexBuilds: 0 });
    const edited = applyEdit({ scenario: s }, { kind: 'command', at: 3, extra: ' -T tool_1' }, [s]);
    expect(unchangedSteps({ scenario: s }, edited)).toBe(3);
    derivation.run(edited);
    expect(derivation.last).toMatchObject({ restarted: false, stepsReused: 3, stepsPlayed: s.steps.length - 3, layersParsed: 0 });
  });

  it('throughStep plays the first steps; the next run with the same input plays only the rest', () => {
    const derivation = new Derivation();
    const s = generated(50);
    const part = derivation.run({ scenario: s }, { throughStep: 2 });
    expect(part.steps).toHaveLength(2);
    expect(derivation.last).toMatchObject({ complete: false, stepsPlayed: 2 });
    derivation.run({ scenario: s });
    expect(derivation.last).toMatchObject({ complete: true, stepsReused: 2, stepsPlayed: s.steps.length - 2 });
  });

  it('a layer edit that changes only availability parses that layer again, re-resolves that tool alone, and keeps the search index', () => {
    const derivation = new Derivation();
    const s = generated(60);
    derivation.run({ scenario: s });
    expect(derivation.last?.indexBuilds).toBeGreaterThan(0);
    const text = s.layers[0]?.text ?? '';
    const edited: Scenario = { ...s, layers: [{ name: 'workspace', text: text.replace('[conversation.tools.tool_4]\nsource = "local"\n', '[conversation.tools.tool_4]\nsource = "local"\nenable = "on"\n') }] };
    expect(edited.layers[0]?.text).not.toBe(text);
    derivation.run({ scenario: edited });
    // The tools below it only moved in the text: read table by table, the edit moved their spans'
    // anchors (config/anchors.ts) and left them the same objects, so none is even patched. The one
    // definition built is tool_4's, offered now: no tool's definition is built before a request needs
    // it (its cost and search document are read without keeping one, catalogue/resolve.ts).
    expect(derivation.last).toMatchObject({ restarted: false, toolsReresolved: 1, toolsMoved: 0, layersParsed: 1, indexBuilds: 0, definitionsBuilt: 1 });
    // A definition's text changes: the index is made again (from the previous one, re-indexing that
    // tool's document alone), and the first search is played again.
    const described: Scenario = { ...s, layers: [{ name: 'workspace', text: text.replace('Tool 4 ', 'Tool four ') }] };
    derivation.run({ scenario: described });
    expect(derivation.last).toMatchObject({ indexBuilds: 0, indexesReindexed: 1 });
    expect(derivation.last).toMatchObject({ restarted: false, replayedFromStep: 1 });
  });

  it("builds no definition but of a tool a request offers, never every tool's (every tool's cost and search document are read without one)", () => {
    const derivation = new Derivation();
    const s = generated(60);
    const t = derivation.run({ scenario: s });
    const offered = new Set<string>();
    for (const r of t.requests) for (const name of r.array) if (name.startsWith('tool_')) offered.add(name);
    // Every tool was priced (the permitted cost) and indexed for search_tools, yet only the offered were built.
    expect(t.requests.at(-1)?.cost.permitted).toBeGreaterThan(t.requests.at(-1)?.cost.offered ?? Infinity);
    expect(derivation.last?.indexBuilds).toBe(1);
    expect(offered.size).toBeGreaterThan(0);
    expect(offered.size).toBeLessThan(60);
    expect(derivation.last?.definitionsBuilt).toBeLessThanOrEqual(offered.size);
  });

  it('a layer edit replays only from the first step it can reach', () => {
    const s = generated(60);
    // Without the tool whose server is offline: a change of an unresolvable tool starts over (its warnings belong to loading).
    const resolvable: Scenario = { ...s, layers: s.layers.map((l) => ({ name: l.name, text: l.text.replace(/\n\[conversation\.tools\.jira_search\][^[]*/, '\n') })) };
    const cases: { readonly edit: Edit; readonly from: number; readonly tools: number; readonly moved: number; readonly restarted?: boolean; readonly on?: Scenario }[] = [
      // Text moves, values do not: the tools below the comment stay the same objects (the edit, read
      // table by table, moved their spans' anchors, config/anchors.ts), so none is patched; played again
      // only from step 5, the `jp config set` that edits a layer.
      { edit: { kind: 'span', at: 30 }, from: 5, tools: 0, moved: 0, restarted: false },
      // '*' run changes for every tool that inherits it (and so their definitions): the first search reaches them.
      { edit: { kind: 'star', line: 4 }, from: 1, tools: 61, moved: 0, on: resolvable },
      { edit: { kind: 'star', line: 4 }, from: 1, tools: 0, moved: 0 },
      // A tool that is on and never searched for, called or named turned off: played again only from step 5,
      // the `jp config set` that edits a layer (its layer-edit position is built on the layers).
      { edit: { kind: 'overrides', at: 20, line: 1 }, from: 5, tools: 1, moved: 0, on: { ...s, layers: [...s.layers, { name: 'overrides', text: '[conversation.tools.tool_20]\nenable = "on"\n' }] } },
    ];
    for (const c of cases) {
      const derivation = new Derivation();
      const start = c.on ?? s;
      derivation.run({ scenario: start });
      const edited = applyEdit({ scenario: start }, c.edit, [start]);
      const t = derivation.run(edited);
      expect(derivation.last, c.edit.kind).toMatchObject({ restarted: c.restarted ?? (c.tools === 0 && c.moved === 0), replayedFromStep: c.from, toolsReresolved: c.tools, toolsMoved: c.moved });
      sameDigest(digest(edited.scenario, t), digest(edited.scenario, runScenario(edited)), c.edit.kind);
    }
    // An off tool turned on in a small layer on top, never searched for: nothing is played again.
    const derivation = new Derivation();
    const withOverrides: Scenario = { ...s, layers: [...s.layers, { name: 'overrides', text: '[conversation.tools.jira_search]\nenable = "off"\n' }] };
    derivation.run({ scenario: withOverrides });
    const quiet: Scenario = { ...s, layers: [...s.layers, { name: 'overrides', text: '[conversation.tools.tool_1]\nrun = "ask"\n' }] };
    derivation.run({ scenario: quiet });
    const moved: Scenario = { ...s, layers: [...s.layers, { name: 'overrides', text: '[conversation.tools.tool_1]\nrun = "unattended"\n' }] };
    const t = derivation.run({ scenario: moved });
    expect(derivation.last).toMatchObject({ restarted: false, toolsReresolved: 1 });
    sameDigest(digest(moved, t), digest(moved, runScenario({ scenario: moved })), 'run moved');
  });
});

describe('edits the generator once missed', () => {
  /** Runs `inputs` in order through one derivation, each compared with a run from scratch. */
  function holds(inputs: readonly DerivationInput[]): void {
    const derivation = new Derivation();
    inputs.forEach((input, i) => {
      const t = derivation.run(input);
      sameDigest(digest(input.scenario, t), digest(input.scenario, runScenario(input)), `input ${i}`);
    });
  }
  const s = generated(30);
  const pool = [s];

  it("a '*' edit after a step's delta configured a tool no layer names (it inherits from '*' from that step on)", () => {
    // fast-check's counterexample (seed -51138569): `deploy`, configured by a step's --cfg alone, kept the allow_toggle of the '*' before the edit.
    holdsAfterEdits(generated(30), [{ kind: 'layer', from: 548403709 }, { kind: 'insert', at: 0, from: 94340814 }, { kind: 'star', line: 0 }], [], [generated(30), ...conformance.slice(0, 3)]);
  });

  it('a server-only edit (status, a tool description, a parameter description, a tool dropped)', () => {
    for (let what = 0; what < 4; what++) for (let at = 0; at < 2; at++) holds([{ scenario: s }, applyEdit({ scenario: s }, { kind: 'server', at, what }, pool)]);
  }, SLOW);

  it('a policy-only edit, every key and value', () => {
    const keys = Object.keys(POLICY_CHOICES) as PolicyKey[];
    keys.forEach((key, k) => {
      (POLICY_CHOICES[key] as readonly unknown[]).forEach((_, v) => holds([{ scenario: s }, applyEdit({ scenario: s }, { kind: 'policy', key: k, value: v }, pool)]));
    });
  }, SLOW);

  it('a workspace-only edit', () => {
    WORKSPACES.forEach((_, a) => WORKSPACES.forEach((__, b) => holds([applyEdit({ scenario: s }, { kind: 'workspace', which: a }, pool), applyEdit({ scenario: s }, { kind: 'workspace', which: b }, pool)])));
  }, SLOW);

  it('a warning first raised at step 2 stays after an edit of step 2', () => {
    const first = derivationOf(s);
    expect(first.entries.some((e) => e.kind === 'warning' && e.step === 2)).toBe(true);
    holds([{ scenario: s }, applyEdit({ scenario: s }, { kind: 'command', at: 1, extra: ' -T tool_1' }, pool)]);
  });

  it('a parameter description alone changes what search finds', () => {
    const edited = applyEdit({ scenario: s }, { kind: 'param', at: 0, words: 1 }, pool);
    expect(edited.scenario.layers[0]?.text).toContain('zebra issues');
    holds([{ scenario: s }, edited]);
  });

  it('tool-table, star, span-only and overrides edits, each kind in turn', () => {
    for (let at = 0; at < 6; at++) {
      for (let line = 0; line < TOOL_LINES.length; line++) {
        holds([{ scenario: s }, applyEdit({ scenario: s }, { kind: 'tool', at: at * 5, line }, pool)]);
        holds([{ scenario: s }, applyEdit({ scenario: s }, { kind: 'overrides', at: at * 5, line }, pool)]);
      }
      holds([{ scenario: s }, applyEdit({ scenario: s }, { kind: 'span', at: at * 3 }, pool)]);
    }
    STAR_LINES.forEach((_, line) => holds([{ scenario: s }, applyEdit({ scenario: s }, { kind: 'star', line }, pool)]));
  }, SLOW);
});

function derivationOf(s: Scenario): Timeline {
  return new Derivation().run({ scenario: s });
}
