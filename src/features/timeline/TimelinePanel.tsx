// The conversation as the core's positions, top to bottom: the spine of the
// screen. Selecting a row drives the sets panel, the request inspector and the
// chart cursor; ↑/↓ (j/k, Home/End) and the scrubber move. Steps are added,
// edited and deleted here, the jp command checked as you type.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useSelectedEntry, useTimeline } from '../../derive/hooks';
import type { EntryView, ExpectationView, TimelineView } from '../../derive/protocol';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { useCommands } from '../../commands/context';
import type { StepDoc } from '../../core';
import { CommandField, FIRST_QUERY } from './CommandField';
import { KIND_ICON, expectationMarks, expectationsByEntry, firstPromotionEntry, moveSelection, nextProblem, rowText, sourceMarks } from './rows';
import './timeline.css';
import { Updating } from '../../components/Updating';

interface Deleted {
  readonly step: StepDoc;
  readonly index: number;
}

/** The step (0-based index into doc.steps) a row belongs to. */
function stepIndexOf(e: EntryView | undefined): number | undefined {
  return e?.step !== undefined ? e.step - 1 : undefined;
}

/**
 * Opens a freshly loaded document (boot, file open, demo) on the first
 * promotion, so the idea is visible at a glance; edits never move the selection.
 */
function useSelectOnLoad(view: TimelineView | undefined, revision: number) {
  const store = useWorkbenchStore();
  const pending = useRef(true);
  useEffect(
    () =>
      store.subscribe((s, prev) => {
        // Only a replaced document changes both its layers and its steps at once.
        if (s.doc !== prev.doc && s.doc.layers !== prev.doc.layers && s.doc.steps !== prev.doc.steps) pending.current = true;
      }),
    [store],
  );
  useEffect(() => {
    if (!pending.current || !view || view.revision !== revision) return;
    pending.current = false;
    if (store.getState().selectedEntry !== undefined) return;
    const p = firstPromotionEntry(view);
    if (p !== undefined) store.getState().selectEntry(p);
  }, [view, revision, store]);
}

export function TimelinePanel() {
  const { data: view, isFetching } = useTimeline();
  const revision = useWorkbench((s) => s.revision);
  const steps = useWorkbench((s) => s.doc.steps);
  const store = useWorkbenchStore();
  const selected = useSelectedEntry(view);
  const select = useWorkbench((s) => s.selectEntry);
  const listRef = useRef<HTMLDivElement>(null);
  const fieldRef = useRef<HTMLInputElement>(null);
  // The one place a step is added (the simulator's auto model reads the same draft): not editing, the
  // field shows the store's draft; editing a step, its own text.
  const draft = useWorkbench((s) => s.stepDraft);
  const setDraft = useWorkbench((s) => s.setStepDraft);
  const [editText, setEditText] = useState('');
  const [editing, setEditing] = useState<number | undefined>(undefined);
  const field = editing !== undefined ? editText : draft;
  const setField = useCallback((v: string) => (editing !== undefined ? setEditText(v) : setDraft(v)), [editing, setDraft]);
  const [deleted, setDeleted] = useState<Deleted | undefined>(undefined);
  useSelectOnLoad(view, revision);

  const marks = useMemo<Map<number, ExpectationView[]>>(() => (view ? expectationsByEntry(view) : new Map()), [view]);
  const count = view?.entries.length ?? 0;
  const current = view && selected !== undefined ? view.entries[selected] : undefined;
  const currentStep = stepIndexOf(current);

  // Scroll the selected row into view when the selection moves (or its row first appears), not on every
  // derivation: scrollIntoView forces a layout, and typing derives on every keystroke.
  const scrolledTo = useRef<number | undefined>(undefined);
  const hasView = view !== undefined;
  useEffect(() => {
    if (selected === undefined || !hasView || scrolledTo.current === selected) return;
    const row = listRef.current?.querySelector(`[data-entry="${selected}"]`);
    if (!row) return;
    scrolledTo.current = selected;
    row.scrollIntoView({ block: 'nearest' });
  }, [selected, hasView, count]);

  const move = useCallback(
    (key: string) => {
      const n = moveSelection(key, selected ?? 0, count);
      if (n !== undefined) select(n);
      return n !== undefined;
    },
    [selected, count, select],
  );

  const startEdit = useCallback(
    (stepIndex: number) => {
      const s = store.getState().doc.steps[stepIndex];
      if (!s) return;
      setEditing(stepIndex);
      setEditText(s.command);
      requestAnimationFrame(() => fieldRef.current?.focus());
    },
    [store],
  );

  const cancelEdit = useCallback(() => {
    setEditing(undefined);
    setEditText('');
    listRef.current?.focus();
  }, []);

  const deleteStep = useCallback(
    (stepIndex: number) => {
      const s = store.getState().doc.steps[stepIndex];
      if (!s) return;
      store.getState().removeStep(stepIndex);
      setDeleted({ step: s, index: stepIndex });
      if (editing !== undefined) {
        setEditing(undefined);
        setEditText('');
      }
    },
    [store, editing],
  );

  const undoDelete = useCallback(() => {
    if (!deleted) return;
    store.getState().addStep(deleted.step, deleted.index);
    setDeleted(undefined);
  }, [deleted, store]);

  const submit = useCallback(
    (command: string) => {
      const st = store.getState();
      if (editing !== undefined) {
        const s = st.doc.steps[editing];
        if (s) st.updateStep(editing, { ...s, command });
        setEditing(undefined);
        setEditText('');
        listRef.current?.focus();
        return;
      }
      st.addStep({ command, cycles: [] });
      // The new step's rows are the last ones: select the end of the timeline.
      st.selectEntry(undefined);
      st.setStepDraft('');
    },
    [editing, store],
  );

  // Every action is a command too (palette, tests).
  const actions = useRef({ move, startEdit, deleteStep, undoDelete, currentStep, view, selected });
  actions.current = { move, startEdit, deleteStep, undoDelete, currentStep, view, selected };
  const registry = useCommands();
  useEffect(() => {
    const a = () => actions.current;
    registry.register(
      { id: 'timeline.next', title: 'Timeline: next position', group: 'Timeline', run: () => void a().move('ArrowDown') },
      { id: 'timeline.previous', title: 'Timeline: previous position', group: 'Timeline', run: () => void a().move('ArrowUp') },
      { id: 'timeline.first', title: 'Timeline: first position (base config)', group: 'Timeline', run: () => void a().move('Home') },
      { id: 'timeline.last', title: 'Timeline: last position', group: 'Timeline', run: () => void a().move('End') },
      {
        id: 'timeline.nextProblem',
        title: 'Timeline: next failed expectation or step error',
        group: 'Timeline',
        run: ({ store: s }) => {
          const { view: v, selected: cur } = a();
          const n = v ? nextProblem(v, cur ?? -1) : undefined;
          if (n !== undefined) s.getState().selectEntry(n);
        },
      },
      { id: 'timeline.addStep', title: 'Add a step (the jp command field under the timeline)', shortcut: 'Alt+P', group: 'Timeline', run: () => fieldRef.current?.focus() },
      {
        id: 'check.firstProblem',
        title: 'Go to the first failing row (the pass/fail count)',
        group: 'Timeline',
        run: ({ store: s }) => {
          const first = a().view?.problemEntries[0];
          if (first === undefined) return;
          s.getState().selectEntry(first);
          listRef.current?.focus();
        },
      },
      {
        id: 'timeline.editStep',
        title: 'Timeline: edit the selected step',
        group: 'Timeline',
        run: () => {
          const s = a().currentStep;
          if (s !== undefined) a().startEdit(s);
        },
      },
      {
        id: 'timeline.deleteStep',
        title: 'Timeline: delete the selected step',
        group: 'Timeline',
        run: () => {
          const s = a().currentStep;
          if (s !== undefined) a().deleteStep(s);
        },
      },
      { id: 'timeline.undoDelete', title: 'Timeline: undo the step deletion', group: 'Timeline', run: () => a().undoDelete() },
    );
  }, [registry]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (move(e.key)) {
      e.preventDefault();
      return;
    }
    if (current?.kind === 'step' && currentStep !== undefined) {
      if (e.key === 'Delete' || e.key === 'Backspace') {
        e.preventDefault();
        deleteStep(currentStep);
      } else if (e.key === 'Enter' || e.key === 'F2') {
        e.preventDefault();
        startEdit(currentStep);
      }
    }
  };

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

  const updating = isFetching || view.revision !== revision;
  const { passed, failed } = view;
  const selectedRow = selected ?? 0;
  const selectedText = current ? rowText(current, view.requests).text : '';

  return (
    <section className="panel timeline" aria-label="Timeline">
      <div className="panel-head">
        <h2 id="tl-title">Timeline</h2>
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
        <span className="spacer" />
        <Updating on={updating} />
      </div>
      <div className="tl-scrub">
        <input
          type="range"
          min={0}
          max={Math.max(0, count - 1)}
          step={1}
          value={selectedRow}
          aria-label="Timeline position"
          aria-valuetext={`row ${selectedRow + 1} of ${count}: ${selectedText}`}
          onChange={(e) => select(Number(e.target.value))}
          disabled={count <= 1}
        />
        <span className="tl-pos" data-testid="timeline-position">
          position {current?.position ?? 0}
        </span>
      </div>
      {view.scenarioErrors.length > 0 && (
        <div className="tl-scenario-errors" role="alert">
          {view.scenarioErrors.map((m, i) => (
            <div key={i}>{m}</div>
          ))}
        </div>
      )}
      <div
        ref={listRef}
        className="panel-body tl-list"
        role="listbox"
        aria-labelledby="tl-title"
        aria-activedescendant={selected !== undefined ? `tl-row-${selected}` : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        {view.entries.map((e) => {
          const t = rowText(e, view.requests);
          const ex = marks.get(e.index) ?? [];
          const fails = ex.some((x) => !x.pass);
          const isEditing = e.kind === 'step' && editing !== undefined && e.step === editing + 1;
          return (
            <div
              key={e.index}
              id={`tl-row-${e.index}`}
              data-entry={e.index}
              data-kind={e.kind}
              role="option"
              aria-selected={e.index === selected}
              className={`tl-row kind-${e.kind} ${e.error ? 'has-error' : ''} ${fails ? 'has-fail' : ''} ${isEditing ? 'is-editing' : ''}`}
              style={{ paddingLeft: 4 + e.depth * 12 }}
              title={t.title}
              onClick={() => {
                select(e.index);
                listRef.current?.focus();
              }}
              onDoubleClick={() => {
                const s = stepIndexOf(e);
                if (e.kind === 'step' && s !== undefined) startEdit(s);
              }}
            >
              <div className="tl-line">
                {e.kind !== 'delta' && e.kind !== 'layer-edit' && (
                  <span className="tl-icon" aria-hidden="true">
                    {KIND_ICON[e.kind]}
                  </span>
                )}
                {sourceMarks(e.sources).map((m) => (
                  <span key={m.source} className={`tl-src tl-src-${m.source}`}>
                    <span aria-hidden="true">{m.icon}</span> {m.word}
                  </span>
                ))}
                <span className={`tl-text ${e.kind === 'step' ? 'mono' : ''}`}>
                  {t.text}
                  {t.suffix && <span className="tl-suffix"> {t.suffix}</span>}
                </span>
                {t.facts.map((f, i) => (
                  <span key={i} className={`tl-fact ${f.tone ?? ''} ${f.optional ? `optional-${f.optional}` : ''}`} title={f.title}>
                    {f.text}
                  </span>
                ))}
                {expectationMarks(ex).map((m) => (
                  <span key={String(m.pass)} className={`xmark ${m.pass ? 'pass' : 'fail'}`} role="img" aria-label={m.text} title={m.title} data-testid={m.pass ? 'expectation-pass' : 'expectation-fail'}>
                    {m.pass ? '✓' : '✗'} {m.count}
                    {m.count === 1 && <span className="xkeys">{m.keys}</span>}
                  </span>
                ))}
                {isEditing && <span className="tl-fact">editing…</span>}
              </div>
              {e.kind === 'step' && e.error && <div className="tl-error">{e.error}</div>}
            </div>
          );
        })}
        {steps.length === 0 && (
          <div className="tl-empty">
            <p>No steps yet. Each step is one jp command line, run in order against the layers.</p>
            <button
              type="button"
              onClick={() => {
                setEditing(undefined);
                setDraft(FIRST_QUERY);
                fieldRef.current?.focus();
              }}
            >
              Start with <code>{FIRST_QUERY}</code>
            </button>
          </div>
        )}
      </div>
      <div className="tl-foot">
        {deleted && (
          <div className="tl-undo" role="status" data-testid="step-deleted">
            <span>Step {deleted.index + 1} deleted</span>
            <button type="button" onClick={undoDelete}>
              Undo
            </button>
            <button type="button" aria-label="Dismiss" onClick={() => setDeleted(undefined)}>
              ✕
            </button>
          </div>
        )}
        {currentStep !== undefined && steps[currentStep] && editing === undefined && (
          <div className="tl-actions" aria-label="Selected step">
            <span className="tl-actions-label">
              Step {currentStep + 1}
              <code title={steps[currentStep]?.command}>{steps[currentStep]?.command}</code>
            </span>
            <button type="button" onClick={() => startEdit(currentStep)} title="Enter or F2 on the step row">
              Edit
            </button>
            <button type="button" className="tl-danger" onClick={() => deleteStep(currentStep)} title="Delete on the step row">
              Delete
            </button>
          </div>
        )}
        <CommandField
          value={field}
          onChange={setField}
          onSubmit={submit}
          onCancel={editing !== undefined ? cancelEdit : () => setDraft('')}
          editing={editing !== undefined ? editing + 1 : undefined}
          inputRef={fieldRef}
        />
      </div>
    </section>
  );
}
