// The jp command field: adds a step or edits one. The command is checked by
// the core's parser as you type; an error stands under the field with the
// offending columns marked. Enter adds or saves, Escape cancels.
import { useId, useMemo } from 'react';
import type { Ref } from 'react';
import { parseCommand } from '../../core';

export const FIRST_QUERY = "jp q 'your first query'";

export interface CommandFieldProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** Called with a command the parser accepts. */
  readonly onSubmit: (command: string) => void;
  readonly onCancel: () => void;
  /** undefined: adding a new step; a number: editing that (1-based) step. */
  readonly editing: number | undefined;
  readonly inputRef: Ref<HTMLInputElement>;
}

export function commandError(value: string) {
  if (value.trim() === '') return undefined;
  const r = parseCommand(value);
  return r.ok ? undefined : r.error;
}

export function CommandField({ value, onChange, onSubmit, onCancel, editing, inputRef }: CommandFieldProps) {
  const id = useId();
  const error = useMemo(() => commandError(value), [value]);
  const label = editing === undefined ? 'New step (a jp command)' : `Edit step ${editing}`;
  // The columns are 1-based, end exclusive; an empty span (e.g. "missing value") marks the place after it.
  const start = error ? Math.max(0, Math.min(value.length, error.column - 1)) : 0;
  const end = error ? Math.max(start, Math.min(value.length, error.endColumn - 1)) : 0;
  return (
    <form
      className={`tl-field ${editing !== undefined ? 'editing' : ''}`}
      aria-label={editing === undefined ? 'Add a step' : `Edit step ${editing}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim() === '' || error) return;
        onSubmit(value.trim());
      }}
    >
      <div className="tl-field-row">
        <span className="tl-prompt" aria-hidden="true">$</span>
        <input
          ref={inputRef}
          className="mono"
          aria-label={label}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-err` : `${id}-hint`}
          placeholder={FIRST_QUERY}
          spellCheck={false}
          autoComplete="off"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              onCancel();
            }
          }}
        />
        <button type="submit" disabled={value.trim() === '' || error !== undefined}>
          {editing === undefined ? 'Add step' : 'Save'}
        </button>
        {editing !== undefined && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      {error ? (
        <div className="tl-field-error" id={`${id}-err`} role="alert" data-testid="command-error">
          <code className="tl-mirror" aria-hidden="true">
            {value.slice(0, start)}
            <mark className={end === start ? 'at' : ''}>{end === start ? ' ' : value.slice(start, end)}</mark>
            {value.slice(end)}
          </code>
          <span className="tl-field-msg">
            column {error.column}: {error.message}
          </span>
        </div>
      ) : (
        <div className="tl-field-hint" id={`${id}-hint`}>
          {editing === undefined ? 'Enter adds the step at the end · jp q … or jp config set …' : 'Enter saves · Escape cancels'}
        </div>
      )}
    </form>
  );
}
