// The conversation as the core's positions, top to bottom: the spine of the
// screen. Selecting a row drives the sets panel, the request inspector and the
// chart cursor; ↑/↓ (j/k, Home/End) and the scrubber move. Steps are added,
// edited and deleted here, the jp command checked as you type.
//
// The panel composes: useTimelineNavigation (the selection and its keys), TimelineList (the rows),
// useStepEditor and StepActions (adding, editing, deleting, undo), useTimelineCommands (the palette).
import { useCallback } from 'react';
import type { KeyboardEvent } from 'react';
import { useBehind, useTimeline, useTimelineRow } from '../../derive/hooks';
import type { TimelineView } from '../../derive/protocol';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { useCommands } from '../../commands/context';
import { Updating } from '../../components/Updating';
import { rowText } from './rows';
import { StepActions } from './StepActions';
import { TimelineList } from './TimelineList';
import { useStepEditor } from './useStepEditor';
import { useTimelineCommands } from './useTimelineCommands';
import { useTimelineNavigation } from './useTimelineNavigation';
import type { TimelineNavigation } from './useTimelineNavigation';
import './timeline.css';

/** The check's one count (the header shows the same); a failure leads to the first failing row. */
function Summary({ view }: { readonly view: TimelineView }) {
  const store = useWorkbenchStore();
  const registry = useCommands();
  const { passed, failed } = view;
  return (
    <span className="tl-summary" data-testid="timeline-summary">
      {passed + failed > 0 && <span className="pass">{passed} ✓ passed</span>}
      {failed > 0 && (
        <>
          {' · '}
          <button type="button" className="tl-fail-link" onClick={() => void registry.run('check.firstProblem', { store })} title="Go to the first failing row">
            {failed} ✗ failed
          </button>
        </>
      )}
    </span>
  );
}

function Scrubber({ nav }: { readonly nav: TimelineNavigation }) {
  const { count, current } = nav;
  const selectedRow = nav.selected ?? 0;
  const { data: row } = useTimelineRow(nav.selected);
  const selectedText = row ? rowText(row.entry, row.request).text : '';
  return (
    <div className="tl-scrub">
      <input
        type="range"
        min={0}
        max={Math.max(0, count - 1)}
        step={1}
        value={selectedRow}
        aria-label="Timeline position"
        aria-valuetext={`row ${selectedRow + 1} of ${count}: ${selectedText}`}
        onChange={(e) => nav.select(Number(e.target.value))}
        disabled={count <= 1}
      />
      <span className="tl-pos" data-testid="timeline-position">
        position {current?.position ?? 0}
      </span>
    </div>
  );
}

/** Its own component: the panel does not re-render as each keystroke's derivation starts and ends. */
function TimelineUpdating({ revision }: { readonly revision: number }) {
  return <Updating on={useBehind(revision)} />;
}

export function TimelinePanel() {
  const { data: view } = useTimeline();
  const steps = useWorkbench((s) => s.doc.steps);
  const nav = useTimelineNavigation(view);
  const editor = useStepEditor(nav.listRef);
  useTimelineCommands(view, nav, editor);

  // On a step row, Enter or F2 edits the step and Delete (or Backspace) deletes it.
  const { move, current, currentStep } = nav;
  const { deleteStep, startEdit } = editor;
  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLDivElement>) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (move(e.key)) {
        e.preventDefault();
        return;
      }
      if (current?.kind !== 'step' || currentStep === undefined) return;
      if (e.key === 'Delete' || e.key === 'Backspace') {
        e.preventDefault();
        deleteStep(currentStep);
      } else if (e.key === 'Enter' || e.key === 'F2') {
        e.preventDefault();
        startEdit(currentStep);
      }
    },
    [move, current, currentStep, deleteStep, startEdit],
  );

  if (!view) {
    return (
      <section className="panel timeline" aria-label="Timeline">
        <div className="panel-head">
          <h2>Timeline</h2>
        </div>
        <div className="empty">Deriving…</div>
      </section>
    );
  }

  return (
    <section className="panel timeline" aria-label="Timeline">
      <div className="panel-head">
        <h2 id="tl-title">Timeline</h2>
        <Summary view={view} />
        <span className="spacer" />
        <TimelineUpdating revision={view.revision} />
      </div>
      <Scrubber nav={nav} />
      {view.scenarioErrors.length > 0 && (
        <div className="tl-scenario-errors" role="alert">
          {view.scenarioErrors.map((m, i) => (
            <div key={i}>{m}</div>
          ))}
        </div>
      )}
      <TimelineList
        view={view}
        selected={nav.selected}
        editing={editor.editing}
        empty={steps.length === 0}
        listRef={nav.listRef}
        scroll={nav.scroll}
        onSelect={nav.select}
        onEditStep={editor.startEdit}
        onKeyDown={onKeyDown}
        onStartFirst={editor.startFirst}
      />
      <StepActions editor={editor} steps={steps} currentStep={nav.currentStep} />
    </section>
  );
}
