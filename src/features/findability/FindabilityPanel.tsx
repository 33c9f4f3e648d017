// The findability panel (issue 17): for every discoverable tool of the base config, will
// search_tools find it, why not, and which tools crowd each other out; the rankings side by side;
// before and after an edit. The worker computes the report (useFindability); this only shows it.
import { AT_RISK_WORDS, atRiskCounts } from '../../core';
import type { ToolFindability } from '../../core';
import { useCommands } from '../../commands/context';
import { Updating } from '../../components/Updating';
import { FINDABILITY_AUTO_LIMIT, useFindability } from '../../derive/findabilityHooks';
import type { FindabilityView } from '../../derive/findabilityProtocol';
import { summaryFix } from '../../editor/findability-fix';
import { applySplice } from '../../editor/quick-fix';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import type { WorkbenchStore } from '../../state/store';
import { Comparison, LookAlikes } from './parts';
import { AllTools, HardTools, RankingsTable } from './tables';
import './findability.css';

/** Writes the tool's proposed summary in the layer that declares it, as one undoable edit. */
function applyFix(store: WorkbenchStore, view: FindabilityView, tool: ToolFindability): void {
  const at = view.fixes.find((f) => f.tool === tool.name);
  const state = store.getState();
  const index = at ? state.doc.layers.findIndex((l) => l.name === at.layer) : -1;
  if (!at || index < 0) return;
  const text = state.layerEditor?.textOf(index) ?? state.doc.layers[index]?.text ?? '';
  const splice = summaryFix(text, tool.name, at.summary);
  if (!splice) return;
  if (!state.layerEditor?.applySplice(index, splice)) state.setLayerText(index, applySplice(text, splice));
}

function TaskSwitch() {
  const use = useWorkbench((s) => s.findabilityUseTasks);
  const set = useWorkbench((s) => s.setFindabilityUseTasks);
  const lines = useWorkbench((s) => s.labQuerySet.split('\n').filter((l) => l.trim() !== '').length);
  return (
    <label className="fnd-tasks" title="The search lab's query set, one {&quot;query&quot;, &quot;relevant&quot;} per line: each task asks for the tools it names">
      <input type="checkbox" checked={use} onChange={(e) => set(e.target.checked)} data-testid="fnd-use-tasks" />
      ask the search lab&apos;s query set as tasks ({lines} line{lines === 1 ? '' : 's'})
    </label>
  );
}

export function FindabilityPanel() {
  const store = useWorkbenchStore();
  const registry = useCommands();
  const baseline = useWorkbench((s) => s.findabilityBaseline);
  const revision = useWorkbench((s) => s.revision);
  const { data: view, isFetching, error, waiting, discoverable } = useFindability();
  const run = (id: string) => void registry.run(id, { store });
  if (waiting) {
    return (
      <div className="empty" data-testid="findability-panel">
        <p>
          {discoverable.toLocaleString('en-US')} discoverable tools: past {FINDABILITY_AUTO_LIMIT} the findability report waits to be asked for, so typing never waits
          behind it (it asks every tool by several queries under three rankings).
        </p>
        <button type="button" onClick={() => run('findability.large')} data-testid="fnd-compute">
          Compute it, and keep it up to date
        </button>
      </div>
    );
  }
  if (error) return <div className="empty" role="alert">The findability report failed: {error.message}</div>;
  if (!view) return <div className="empty" role="status">Asking every discoverable tool by its own words…</div>;
  const { report } = view;
  const declared = new Set(view.declarations.map((d) => d.tool));
  const active = report.rankings.find((r) => r.active);
  // The core's one count, the same a server's card reads (issue 24.8).
  const counts = atRiskCounts(report.tools);
  const actions = {
    declared: (tool: string) => declared.has(tool),
    reveal: (tool: string) => {
      const d = view.declarations.find((x) => x.tool === tool);
      if (d) store.getState().revealInLayer(d.layer, d.line, d.column, { focus: true });
    },
    fix: (tool: ToolFindability) => applyFix(store, view, tool),
  };
  return (
    <div className="fnd" data-testid="findability-panel">
      <div className="fnd-bar">
        <strong className="fnd-headline" data-testid="fnd-headline">
          findable in the top {report.limit}: {active?.findable ?? 0} of {report.tools.length}
        </strong>
        <span data-testid="fnd-counts">
          {AT_RISK_WORDS.map((w) => `${counts[w]} ${w}`).join(' · ')}
        </span>
        <span className="muted">
          under {active?.label ?? report.ranking}, the scenario&apos;s ranking{report.tasks > 0 ? `; ${report.tasks} tasks asked` : ''}
        </span>
        <TaskSwitch />
        <span className="spacer" />
        <button type="button" onClick={() => run('findability.pin')} title="Keep this report; later edits are compared with it" data-testid="fnd-pin">
          Pin as &quot;before&quot;
        </button>
        {baseline && (
          <button type="button" onClick={() => run('findability.clear')} data-testid="fnd-clear">
            Clear &quot;before&quot;
          </button>
        )}
        <Updating on={isFetching || view.revision !== revision} />
      </div>
      {view.taskErrors.length > 0 && (
        <ul className="fnd-errors" role="alert">
          {view.taskErrors.slice(0, 3).map((e) => <li key={e}>query set: {e}</li>)}
        </ul>
      )}
      {report.unknownTaskTools.length > 0 && (
        <p className="muted fnd-unknown">Tasks name tools that are not discoverable here: {report.unknownTaskTools.slice(0, 8).join(', ')}{report.unknownTaskTools.length > 8 ? ', …' : ''}</p>
      )}
      <div className="fnd-body" role="region" aria-label="Findability report" tabIndex={0}>
        {report.tools.length === 0 ? (
          <p className="empty">No discoverable tools in the base config: set <code>enable = &quot;discoverable&quot;</code> on some tools to see whether search_tools would find them.</p>
        ) : (
          <>
            {baseline && view.comparison && <Comparison label={baseline.label} comparison={view.comparison} />}
            <HardTools report={report} actions={actions} />
            <div className="fnd-top">
              <RankingsTable report={report} />
              <LookAlikes groups={report.lookAlikes} />
            </div>
            <AllTools report={report} />
          </>
        )}
      </div>
    </div>
  );
}
