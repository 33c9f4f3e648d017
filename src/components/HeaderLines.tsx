// The headers a user adds for an HTTP MCP server reached through the local bridge
// (Authorization, an API key): one `Name: value` a line. Their values go to the
// bridge only, which keeps them: the field says so, and it is never saved. The values
// are drawn as dots until the user asks to see them (a shared screen or a screenshot
// should not show a key); browsers without text-security show them as typed.
import { useId, useState } from 'react';
import './header-lines.css';

export function HeaderLines({ value, onChange, error, testId }: { readonly value: string; readonly onChange: (text: string) => void; readonly error?: string; readonly testId: string }) {
  const hint = useId();
  const [shown, setShown] = useState(false);
  return (
    <div className="header-lines">
      <label>
        headers
        <textarea
          className={shown ? 'mono' : 'mono masked'}
          rows={2}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder="Authorization: Bearer …"
          aria-describedby={hint}
          aria-invalid={error !== undefined}
          data-testid={testId}
          spellCheck={false}
          autoComplete="off"
        />
      </label>
      <span id={hint} className="muted header-lines-hint">
        one <code>Name: value</code> a line; sent by the bridge only, kept there, never saved
      </span>
      <label className="header-lines-show">
        <input type="checkbox" checked={shown} onChange={(e) => setShown(e.target.checked)} data-testid={`${testId}-show`} /> show what is typed
      </label>
      {error !== undefined && (
        <p className="header-lines-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
