// The timeline's foot: the undo of a deleted step, the selected step's Edit and Delete, and the
// command field that adds or edits a step.
import { useEffect } from 'react';
import type { StepDoc } from '../../core';
import { CommandField } from './CommandField';
import type { StepEditor } from './useStepEditor';

/** How long the undo bar stays without being used. */
const UNDO_SHOWN_MS = 10_000;

export function StepActions({ editor, steps, currentStep }: { readonly editor: StepEditor; readonly steps: readonly StepDoc[]; readonly currentStep: number | undefined }) {
  const { deleted, editing } = editor;
  const selectedStep = currentStep !== undefined ? steps[currentStep] : undefined;
  const { dismissDeleted } = editor;
  // The bar goes away on its own, and the deletion is final then (the palette's undo too).
  useEffect(() => {
    if (!deleted) return undefined;
    const timer = setTimeout(dismissDeleted, UNDO_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [deleted, dismissDeleted]);
  return (
    <div className="tl-foot">
      {deleted && (
        <div className="tl-undo" role="status" data-testid="step-deleted">
          <span>Step {deleted.index + 1} deleted</span>
          <button type="button" onClick={editor.undoDelete}>
            Undo
          </button>
          <button type="button" aria-label="Dismiss" onClick={editor.dismissDeleted}>
            ✕
          </button>
        </div>
      )}
      {currentStep !== undefined && selectedStep && editing === undefined && (
        <div className="tl-actions" aria-label="Selected step">
          <span className="tl-actions-label">
            Step {currentStep + 1}
            <code title={selectedStep.command}>{selectedStep.command}</code>
          </span>
          <button type="button" onClick={() => editor.startEdit(currentStep)} title="Enter or F2 on the step row">
            Edit
          </button>
          <button type="button" className="tl-danger" onClick={() => editor.deleteStep(currentStep)} title="Delete on the step row">
            Delete
          </button>
        </div>
      )}
      <CommandField
        value={editor.field}
        onChange={editor.setField}
        onSubmit={editor.submit}
        onCancel={editing !== undefined ? editor.cancelEdit : () => editor.setField('')}
        editing={editing !== undefined ? editing + 1 : undefined}
        inputRef={editor.fieldRef}
      />
    </div>
  );
}
