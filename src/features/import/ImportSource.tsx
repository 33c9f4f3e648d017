// Where the catalogue comes from: a JSON file (picker or drop), pasted JSON, or a live MCP server.
import { useRef } from 'react';
import type { Dispatch, ReactNode } from 'react';
import { formatBytes } from '../../components/Measures';
import { LiveStatusLine } from '../../components/LiveStatus';
import type { LiveStatus } from '../../live/queries';
import { cancelLive } from '../../live/queries';
import type { ImportAction, ImportForm } from './importForm';

export function FileSource({ file, onPick }: { readonly file: ImportForm['file']; readonly onPick: (f: File | undefined) => void }) {
  const pickRef = useRef<HTMLInputElement>(null);
  return (
    <div className="row">
      <button type="button" onClick={() => pickRef.current?.click()} autoFocus data-testid="import-choose-file">
        Choose a JSON file…
      </button>
      <input
        ref={pickRef}
        type="file"
        accept=".json,application/json"
        className="sr-only"
        aria-label="Catalogue file"
        data-testid="import-file-input"
        tabIndex={-1}
        onChange={(e) => {
          onPick(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      {file ? (
        <span data-testid="import-file-name">
          <code>{file.name}</code> · {formatBytes(new TextEncoder().encode(file.text).length)}
        </span>
      ) : (
        <span className="muted">a tools/list reply ({'{"tools": [...]}'}) or a multi-server catalogue; or drop a .json file anywhere on the page</span>
      )}
    </div>
  );
}

export function PasteSource({ text, dispatch }: { readonly text: string; readonly dispatch: Dispatch<ImportAction> }) {
  return (
    <textarea
      className="import-paste"
      aria-label="Paste a tools/list reply"
      placeholder='{"tools": [{"name": "list_issues", "description": "…", "inputSchema": {"type": "object", "properties": {}}}]}'
      value={text}
      onChange={(e) => dispatch({ type: 'paste-typed', text: e.target.value })}
      spellCheck={false}
      autoFocus
      data-testid="import-paste"
    />
  );
}

export interface LiveSourceProps {
  readonly form: ImportForm;
  readonly dispatch: Dispatch<ImportAction>;
  readonly status: LiveStatus;
  readonly info: Parameters<typeof LiveStatusLine>[0]['info'];
  readonly tools: Parameters<typeof LiveStatusLine>[0]['tools'];
  readonly timeoutMs: number;
  /** Connect to the URL typed: a new one is tried, the one tried already is asked again. */
  readonly onConnect: (url: string) => void;
  /** Connect waits (the bridge is reaching the server, or its headers do not read). */
  readonly busy?: boolean;
  /** The route's fields (through the bridge or from the page), between the URL and Connect. */
  readonly children?: ReactNode;
}

export function LiveSource({ form, dispatch, status, info, tools, timeoutMs, onConnect, busy = false, children }: LiveSourceProps) {
  const { url, liveUrl } = form;
  const connecting = status.kind === 'connecting';
  const again = liveUrl !== undefined && liveUrl === url.trim() && !connecting;
  return (
    <form
      className="row live-form"
      onSubmit={(e) => {
        e.preventDefault();
        onConnect(url.trim());
      }}
    >
      <label>
        Streamable HTTP URL
        <input type="url" value={url} onChange={(e) => dispatch({ type: 'url-typed', url: e.target.value })} size={34} required autoFocus data-testid="import-url" spellCheck={false} />
      </label>
      <label>
        timeout
        <input
          type="number"
          min={1}
          max={300}
          value={form.timeoutSec}
          onChange={(e) => dispatch({ type: 'timeout-typed', value: e.target.value })}
          style={{ width: '5em' }}
          aria-label="Timeout in seconds"
          data-testid="import-timeout"
        />
        s
      </label>
      {/* How the server is reached (through the bridge, with headers) is chosen before Connect. */}
      {children}
      <button type="submit" disabled={connecting || busy} data-testid="import-connect">
        {again ? 'Connect again' : 'Connect'}
      </button>
      {connecting && liveUrl !== undefined && (
        <button type="button" onClick={() => cancelLive(liveUrl)} data-testid="import-cancel-connect">
          Cancel connecting
        </button>
      )}
      <LiveStatusLine status={status} info={info} tools={tools} timeoutMs={timeoutMs} />
    </form>
  );
}
