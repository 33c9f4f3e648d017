// RFD 108 "Conflicting writes in one cycle": a promotion is evaluated against the folded state at its
// own call index, which answers three ways. One scenario per row puts the tool in that folded state at
// the index of the search the row is about.
import type { CallRecord, Timeline } from '../turn/timeline';
import { availabilityAt, cell, counts, entryWhere, localTool, run, scenarioRef } from './run';
import type { RfdRow, RfdTable } from './types';

const LAYER = `[conversation.tools.'*']
enable = "discoverable"

${localTool('release_workflow', '"on"', 'Run the release workflow.')}
${localTool('deploy', '"discoverable"', 'Deploy the current release.')}`;

interface FoldRow {
  readonly state: 'discoverable' | 'on' | 'off';
  readonly promotion: string;
  readonly reported: string;
  /** The calls before the row's search, which put deploy in the row's folded state. */
  readonly before: string;
  readonly expect: string;
  readonly description: string;
}

const ROWS: readonly FoldRow[] = [
  {
    state: 'discoverable',
    promotion: 'applied',
    reported: 'usable',
    before: '',
    expect: 'usable = ["deploy"]',
    description: 'deploy is discoverable when the search at call 0 finds it: the fold promotes it, and the search reports it usable.',
  },
  {
    state: 'on',
    promotion: 'no-op, none needed',
    reported: 'usable',
    before: `    [[steps.cycles.calls]]
    tool = "search_tools"
    args = { query = "deploy" }
    expect = { usable = ["deploy"] }
`,
    expect: 'usable = ["deploy"]',
    description: 'Two searches in one cycle match deploy: the first (call 0) promotes it, so at call 1 the folded state is on, and the second search reports it usable with no second promotion.',
  },
  {
    state: 'off',
    promotion: 'skipped',
    reported: 'found, unavailable',
    before: `    [[steps.cycles.calls]]
    tool = "release_workflow"
    args = {}
    writes = ["conversation.tools.deploy.enable=off"]
    approved = true
`,
    expect: 'unavailable = ["deploy"]',
    description: 'Call 0 proposes disabling deploy and the user approves; the search at call 1 still matches deploy (discoverable in the cycle-start snapshot), but the folded state at its index is off: the promotion is skipped and deploy is reported found, unavailable.',
  },
];

/** What the run did with the row's search: its promotion and what the search reported. */
function outcome(t: Timeline, search: CallRecord | undefined): { promotion: string; reported: string; detail: string } {
  const status = search?.search?.returned.find((r) => r.name === 'deploy')?.status;
  const reported = status === 'usable' ? 'usable' : status === 'unavailable' ? 'found, unavailable' : 'not returned';
  const end = t.steps[0]?.position ?? 0;
  const after = availabilityAt(t, end, 'deploy');
  const earlier = t.calls.some((c) => c.step === 1 && c.cycle === 1 && search !== undefined && c.index < search.index && c.search?.returned.some((r) => r.name === 'deploy' && r.status === 'usable'));
  // Promotions this run committed: the deltas of the cycle that turned deploy on.
  const promotions = t.positions.filter((p) => p.event.kind === 'delta' && p.event.sources.includes('promotion') && p.changes.some((c) => c.name === 'deploy')).length;
  const promotion = after === 'off' ? 'skipped' : earlier ? 'no-op, none needed' : after === 'on' && promotions === 1 ? 'applied' : `deploy ${after}`;
  return { promotion, reported, detail: `deploy after the cycle: ${after}; promotion deltas for deploy: ${promotions}` };
}

function foldRow(row: FoldRow, index: number): RfdRow {
  const searchIndex = row.before === '' ? 0 : 1;
  const ran = run({
    name: `RFD 108 fold: folded state ${row.state} at the search's index`,
    description: row.description,
    policy: ['ranking = "substring"'],
    layer: LAYER,
    rest: `[[steps]]
command = "jp q 'Ship it'"

  [[steps.cycles]]

${row.before}
    [[steps.cycles.calls]]
    tool = "search_tools"
    args = { query = "deploy" }
    expect = { status = "ok", ${row.expect} }

  [[steps.cycles]]
  reply = "done"

[steps.expect]
availability = { deploy = "${row.state === 'off' ? 'off' : 'on'}" }`,
  });
  const t = ran.timeline;
  const search = t.calls.find((c) => c.step === 1 && c.cycle === 1 && c.index === searchIndex);
  const got = outcome(t, search);
  return {
    id: `fold-${index}`,
    label: row.state,
    cells: [cell(row.promotion, got.promotion, got.detail), cell(row.reported, got.reported)],
    scenario: scenarioRef(ran, entryWhere(t, (e) => e.kind === 'call' && e.step === 1 && e.call.index === searchIndex)),
    expectations: counts(ran),
  };
}

export function foldTable(): RfdTable {
  return {
    id: 'fold',
    title: 'A promotion against the folded state at its own position',
    source: 'Design › Conflicting writes in one cycle',
    note: 'The search response reports what committed rather than what was matched.',
    columns: ['Promotion', 'Reported as'],
    rows: ROWS.map(foldRow),
  };
}
