// Adding, editing and deleting steps from the timeline: the command field's text, the step being
// edited, and the last deletion (which can be undone).
import { useCallback, useRef, useState } from 'react';
import type { RefObject } from 'react';
import type { StepDoc } from '../../core';
import { useWorkbenchStore } from '../../state/context';
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
  const [field, setField] = useState('');
  const [editing, setEditing] = useState<number | undefined>(undefined);
  const [deleted, setDeleted] = useState<DeletedStep | undefined>(undefined);

  const startEdit = useCallback(
    (stepIndex: number) => {
      const s = store.getState().doc.steps[stepIndex];
      if (!s) return;
      setEditing(stepIndex);
      setField(s.command);
      requestAnimationFrame(() => fieldRef.current?.focus());
    },
    [store],
  );

  const cancelEdit = useCallback(() => {
    setEditing(undefined);
    setField('');
    listRef.current?.focus();
  }, [listRef]);

  const deleteStep = useCallback(
    (stepIndex: number) => {
      const s = store.getState().doc.steps[stepIndex];
      if (!s) return;
      store.getState().removeStep(stepIndex);
      setDeleted({ step: s, index: stepIndex });
      if (editing !== undefined) {
        setEditing(undefined);
        setField('');
      }
    },
    [store, editing],
  );

  const undoDelete = useCallback(() => {
    if (!deleted) return;
    store.getState().addStep(deleted.step, deleted.index);
    setDeleted(undefined);
  }, [deleted, store]);

  const dismissDeleted = useCallback(() => setDeleted(undefined), []);

  const submit = useCallback(
    (command: string) => {
      const st = store.getState();
      if (editing !== undefined) {
        const s = st.doc.steps[editing];
        if (s) st.updateStep(editing, { ...s, command });
        setEditing(undefined);
        setField('');
        listRef.current?.focus();
        return;
      }
      st.addStep({ command, cycles: [] });
      // The new step's rows are the last ones: select the end of the timeline.
      st.selectEntry(undefined);
      setField('');
    },
    [editing, store, listRef],
  );

  const startFirst = useCallback(() => {
    setEditing(undefined);
    setField(FIRST_QUERY);
    fieldRef.current?.focus();
  }, []);

  return { field, setField, fieldRef, editing, deleted, startEdit, cancelEdit, submit, deleteStep, undoDelete, dismissDeleted, startFirst };
}
