// Adding, editing and deleting steps from the timeline: the command field's text, the step being
// edited, and the last deletion (which can be undone). The field is the one place a step is added:
// not editing, it shows the store's draft (the simulator's auto model reads the same draft); editing
// a step, its own text.
import { useCallback, useRef, useState } from 'react';
import type { RefObject } from 'react';
import type { StepDoc } from '../../core';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { liveStepUndo } from '../../state/store';
import { FIRST_QUERY } from './CommandField';

export interface DeletedStep {
  readonly step: StepDoc;
  readonly index: number;
}

export interface StepEditor {
  /** The command field's text. */
  readonly field: string;
  readonly setField: (text: string) => void;
  readonly fieldRef: RefObject<HTMLInputElement | null>;
  /** The step (0-based) being edited, if one is. */
  readonly editing: number | undefined;
  readonly deleted: DeletedStep | undefined;
  readonly startEdit: (stepIndex: number) => void;
  readonly cancelEdit: () => void;
  /** Adds the field's command as a new step, or saves the step being edited. */
  readonly submit: (command: string) => void;
  readonly deleteStep: (stepIndex: number) => void;
  readonly undoDelete: () => void;
  readonly dismissDeleted: () => void;
  /** The empty timeline's offer: the field holds a first query, ready to run. */
  readonly startFirst: () => void;
}

/** `listRef`: where focus returns when an edit ends. */
export function useStepEditor(listRef: RefObject<HTMLDivElement | null>): StepEditor {
  const store = useWorkbenchStore();
  const fieldRef = useRef<HTMLInputElement>(null);
  const draft = useWorkbench((s) => s.stepDraft);
  const setDraft = useWorkbench((s) => s.setStepDraft);
  const [editText, setEditText] = useState('');
  const [editing, setEditing] = useState<number | undefined>(undefined);
  const field = editing !== undefined ? editText : draft;
  const setField = useCallback((v: string) => (editing !== undefined ? setEditText(v) : setDraft(v)), [editing, setDraft]);
  // The store keeps the deletion bound to its document's revision; a stale one is never offered.
  const deleted = useWorkbench(liveStepUndo);

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
  }, [listRef]);

  const deleteStep = useCallback(
    (stepIndex: number) => {
      const s = store.getState().doc.steps[stepIndex];
      if (!s) return;
      store.getState().deleteStep(stepIndex);
      if (editing !== undefined) {
        setEditing(undefined);
        setEditText('');
      }
    },
    [store, editing],
  );

  const undoDelete = useCallback(() => store.getState().undoStepDelete(), [store]);

  const dismissDeleted = useCallback(() => store.getState().dismissStepUndo(), [store]);

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
    [editing, store, listRef],
  );

  const startFirst = useCallback(() => {
    setEditing(undefined);
    setDraft(FIRST_QUERY);
    fieldRef.current?.focus();
  }, [setDraft]);

  return { field, setField, fieldRef, editing, deleted, startEdit, cancelEdit, submit, deleteStep, undoDelete, dismissDeleted, startFirst };
}
