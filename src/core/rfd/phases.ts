// RFD 108 "Implementation Plan": the tests each phase names, each as a small scenario whose
// expectations say what the test asserts. A row passes when every expectation of its scenario passes
// (and, where an expectation key cannot say it, the value read from the run agrees).
import type { Timeline } from '../turn/timeline';
import { counts, entryWhere, localTool, run, scenarioRef } from './run';
import type { Ran } from './run';
import type { RfdRow, RfdTable } from './types';

interface PhaseTest {
  readonly phase: string;
  /** The test, in the RFD's words. */
  readonly test: string;
  readonly layer: string;
  readonly rest: string;
  /** The row the test's point stands on. */
  readonly entry: (t: Timeline) => number;
  /** A check the expectation keys cannot state, read from the run; undefined when it holds. */
  readonly extra?: (t: Timeline) => string | undefined;
}

const DEPLOY = localTool('deploy', '"on"', 'Deploy a service.');
const stepRow = (n: number) => (t: Timeline) => entryWhere(t, (e) => e.kind === 'step' && e.step === n);
const callRow = (step: number, index: number) => (t: Timeline) => entryWhere(t, (e) => e.kind === 'call' && e.step === step && e.call.index === index);
const requestRow = (step: number, cycle: number) => (t: Timeline) => entryWhere(t, (e) => e.kind === 'request' && e.step === step && e.cycle === cycle);

const SERVER = `[servers.ci]
status = "running"
tools = [ { name = "lint", description = "Run the linter over the repository.", inputSchema = { type = "object", properties = {} } } ]`;

const TESTS: readonly PhaseTest[] = [
  {
    phase: 'Phase 1 — the state and its alias',
    test: 'a stored enable = { state = false } round-trips',
    layer: `[conversation.tools.legacy_off]\nsource = "local"\nenable = { state = false }\n\n[conversation.tools.legacy_on]\nsource = "local"\nenable = { state = true }`,
    rest: `[[steps]]\ncommand = "jp q 'read the legacy spelling'"\n\n[steps.expect]\navailability = { legacy_off = "off", legacy_on = "on" }`,
    entry: stepRow(1),
  },
  {
    phase: 'Phase 1 — the state and its alias',
    test: '--cfg ...enable.state=false still resolves',
    layer: DEPLOY,
    rest: `[[steps]]\ncommand = "jp q --cfg conversation.tools.deploy.enable.state=false 'turn it off the old way'"\n\n[steps.expect]\navailability = { deploy = "off" }`,
    entry: (t) => entryWhere(t, (e) => e.kind === 'delta' && e.step === 1),
  },
  {
    phase: 'Phase 1 — the state and its alias',
    test: 'editing a legacy file leaves exactly one spelling behind',
    layer: `[conversation.tools.deploy]\nsource = "local"\nenable = { state = false }`,
    rest: `[[steps]]\ncommand = "jp config set conversation.tools.deploy.enable.availability=discoverable"\n\n[steps.expect]\nlayer_contains = { workspace = ['availability = "discoverable"'] }\nlayer_excludes = { workspace = ["state"] }\navailability = { deploy = "discoverable" }`,
    entry: (t) => entryWhere(t, (e) => e.kind === 'layer-edit' && e.step === 1),
  },
  {
    phase: 'Phase 2 — splitting the sets',
    test: "a discoverable tool's definition is absent from the request while its docs are present in the map",
    layer: `${DEPLOY}\n${localTool('rollback', '"discoverable"', 'Roll back the last release.')}`,
    rest: `[[steps]]\ncommand = "jp q 'what can roll back?'"\n\n  [[steps.cycles]]\n  [steps.cycles.expect]\n  offered_excludes = ["rollback"]\n  permitted_includes = ["rollback"]\n\n    [[steps.cycles.calls]]\n    tool = "describe_tools"\n    args = { tools = ["rollback"] }\n    expect = { status = "ok", result_contains = "Roll back the last release." }\n\n  [[steps.cycles]]\n  reply = "rollback can."`,
    entry: callRow(1, 0),
  },
  {
    phase: 'Phase 2 — splitting the sets',
    test: 'jp q -u NAME on an off MCP tool still starts its server and builds an executor',
    layer: `[conversation.tools.lint]\nsource = "mcp.ci.lint"\nenable = "off"`,
    rest: `${SERVER}\n\n[[steps]]\ncommand = "jp q -u lint 'lint it'"\n\n  [[steps.cycles]]\n  [steps.cycles.expect]\n  servers = ["ci"]\n  offered_includes = ["lint"]\n  tool_choice = "lint"\n\n    [[steps.cycles.calls]]\n    tool = "lint"\n    args = {}\n    expect = { status = "ok" }\n\n  [[steps.cycles]]\n  reply = "clean"\n\n[steps.expect]\navailability = { lint = "off" }`,
    entry: callRow(1, 0),
  },
  {
    phase: 'Phase 3 — search_tools',
    test: 'a conversation that starts with no discoverable tool gains the builtin after a --cfg delta introduces one',
    layer: DEPLOY,
    rest: `[[steps]]\ncommand = "jp q 'nothing discoverable yet'"\n\n  [[steps.cycles]]\n  reply = "ok"\n  [steps.cycles.expect]\n  search_tools = false\n\n[[steps]]\ncommand = "jp q --cfg conversation.tools.deploy.enable=discoverable 'now there is'"\n\n  [[steps.cycles]]\n  reply = "ok"\n  [steps.cycles.expect]\n  search_tools = true\n  searchable = ["deploy"]`,
    entry: requestRow(2, 1),
  },
  {
    phase: 'Phase 3 — search_tools',
    test: 'a conversation keeps it after every discoverable tool has been promoted',
    layer: localTool('deploy', '"discoverable"', 'Deploy a service.'),
    rest: `[[steps]]\ncommand = "jp q 'find the deploy tool'"\n\n  [[steps.cycles]]\n    [[steps.cycles.calls]]\n    tool = "search_tools"\n    args = { query = "deploy" }\n    expect = { usable = ["deploy"] }\n\n  [[steps.cycles]]\n  reply = "found"\n\n[[steps]]\ncommand = "jp q 'and again'"\n\n  [[steps.cycles]]\n  reply = "ok"\n  [steps.cycles.expect]\n  search_tools = true\n  searchable = []\n  availability = { deploy = "on" }`,
    entry: requestRow(2, 1),
  },
  {
    phase: 'Phase 4 — promotion',
    test: 'after a search_tools call the promoted definitions appear in the very next request of the same turn alongside the search result',
    layer: localTool('deploy', '"discoverable"', 'Deploy a service.'),
    rest: `[[steps]]\ncommand = "jp q 'deploy it'"\n\n  [[steps.cycles]]\n  [steps.cycles.expect]\n  offered_excludes = ["deploy"]\n\n    [[steps.cycles.calls]]\n    tool = "search_tools"\n    args = { query = "deploy" }\n    expect = { usable = ["deploy"] }\n\n  [[steps.cycles]]\n  [steps.cycles.expect]\n  offered_includes = ["deploy"]\n\n    [[steps.cycles.calls]]\n    tool = "deploy"\n    args = {}\n    expect = { status = "ok" }\n\n  [[steps.cycles]]\n  reply = "deployed"`,
    entry: requestRow(1, 2),
    extra: (t) => {
      const r = t.requests.find((x) => x.step === 1 && x.cycle === 2);
      const carries = r?.messages.some((m) => JSON.stringify(m).includes('search_tools')) ?? false;
      return carries ? undefined : 'the next request does not carry the search result';
    },
  },
  {
    phase: 'Phase 4 — promotion',
    test: 'a promotion folded after an approved disable of the same tool leaves it off and says so in the search response',
    layer: `${localTool('release_workflow', '"on"', 'Run the release workflow.')}\n${localTool('deploy', '"discoverable"', 'Deploy the current release.')}`,
    rest: `[[steps]]\ncommand = "jp q 'Ship it'"\n\n  [[steps.cycles]]\n\n    [[steps.cycles.calls]]\n    tool = "release_workflow"\n    args = {}\n    writes = ["conversation.tools.deploy.enable=off"]\n    approved = true\n\n    [[steps.cycles.calls]]\n    tool = "search_tools"\n    args = { query = "deploy" }\n    expect = { unavailable = ["deploy"], result_contains = "found, unavailable" }\n\n  [[steps.cycles]]\n  reply = "done"\n\n[steps.expect]\navailability = { deploy = "off" }`,
    entry: callRow(1, 1),
  },
  {
    phase: 'Phase 4 — promotion',
    test: 'two searches in one cycle matching the same tool report it usable both times, with one delta between them',
    layer: `${localTool('deploy_staging', '"discoverable"', 'Deploy a branch to staging.')}`,
    rest: `[[steps]]\ncommand = "jp q 'Deploy and check staging'"\n\n  [[steps.cycles]]\n\n    [[steps.cycles.calls]]\n    tool = "search_tools"\n    args = { query = "deploy" }\n    expect = { usable = ["deploy_staging"] }\n\n    [[steps.cycles.calls]]\n    tool = "search_tools"\n    args = { query = "staging" }\n    expect = { usable = ["deploy_staging"] }\n\n  [[steps.cycles]]\n  reply = "done"`,
    entry: callRow(1, 1),
    extra: (t) => {
      const deltas = t.entries.filter((e) => e.kind === 'delta' && e.step === 1).length;
      return deltas === 1 ? undefined : `${deltas} deltas in the turn, not one`;
    },
  },
];

function phaseRow(test: PhaseTest, index: number): RfdRow {
  const ran: Ran = run({ name: `RFD 108 ${test.phase.split(' — ')[0] ?? ''}: ${test.test}`, description: `${test.phase}. The RFD names this test: ${test.test}.`, policy: ['ranking = "substring"'], layer: test.layer, rest: test.rest });
  const c = counts(ran);
  const extra = test.extra?.(ran.timeline);
  const failed = ran.expectations.filter((e) => !e.pass).map((e) => `${e.label} ${e.key}`);
  const computed = c.failed === 0 && extra === undefined ? 'passes' : 'fails';
  const detail = [`${c.passed} of ${c.passed + c.failed} expectations pass`, ...failed.map((f) => `failed: ${f}`), ...(extra ? [extra] : [])].join('; ');
  return { id: `phase-${index}`, label: test.test, cells: [{ stated: 'passes', computed, agrees: computed === 'passes', detail }], quote: test.phase, scenario: scenarioRef(ran, test.entry(ran.timeline)), expectations: c };
}

export function phasesTable(): RfdTable {
  return {
    id: 'phases',
    title: 'The tests each implementation phase names',
    source: 'Implementation Plan',
    note: 'Phase 5 (measurement: search rate against the first open question) names no test; the question is in the Open questions panel.',
    columns: ['Result'],
    quoteColumn: 'Phase',
    rows: TESTS.map(phaseRow),
  };
}
