// "Run on the server": a call to an MCP tool whose server is live runs for real.
// The arguments come from a form generated from the server's inputSchema (strings,
// numbers, booleans, enums, arrays, nested objects; anything else as JSON in place)
// or, with the raw-JSON switch, as one JSON object. Either way they are the simulated
// call's arguments text (one value, owned by Actions): what is typed in one shows in
// the other, and the form never rewrites a text it cannot show. A tool annotated destructive
// asks first. The real result is shown and recorded into the scenario step as the
// call's `result` (or `fail`), so `tool-workbench check` replays it offline.
import { useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { Plain } from '../../core';
import type { RequestToolView } from '../../derive/labProtocol';
import { currentAsks, subscribeAsks } from '../../live/asks';
import { callRealTool } from '../../live/call';
import type { CallProgress, RealResult } from '../../live/call';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { callTool } from './actions';
import { isDestructive, missingRequired } from './schemaForm';
import { formValuesOf, textOfForm } from './args';
import type { JsonObject } from './schemaForm';
import { AskForm } from './AskForm';
import type { AskedRecord } from './AskForm';
import { Fields } from './SchemaFields';

/**
 * `stepIndex`: the turn the simulator shows (the timeline's selected one), where the run is recorded.
 * `text`, `onText`: the call's arguments as typed, shared with the simulated call's JSON.
 */
export function RunOnServer({ tool, stepIndex, text, onText }: { readonly tool: RequestToolView; readonly stepIndex: number; readonly text: string; readonly onText: (text: string) => void }) {
  const store = useWorkbenchStore();
  const server = useWorkbench((s) => s.doc.servers.find((x) => x.name === tool.server));
  const endpoint = useWorkbench((s) => (tool.server !== undefined ? s.bridgeLinks.get(tool.server) : undefined)) ?? server?.url;
  const entry = server?.tools.find((t) => t.name === (tool.backendName ?? tool.name));
  const schema = (entry?.inputSchema ?? { type: 'object' }) as JsonObject;
  const destructive = isDestructive(entry?.annotations);
  const [raw, setRaw] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<RealResult | { error: string } | undefined>(undefined);
  const [progress, setProgress] = useState<CallProgress | undefined>(undefined);
  // The questions the server asked during the run in flight, and the answers, for the step.
  const asked = useRef<AskedRecord[]>([]);
  const asks = useSyncExternalStore(subscribeAsks, currentAsks).filter((a) => a.url === endpoint);
  // Parsed once per text: the form's controls compare what they are given with what they last saw.
  const args: JsonObject | undefined = useMemo(() => formValuesOf(text), [text]);
  if (!server || endpoint === undefined || server.status !== 'running') return null;
  let rawError: string | undefined;
  if (!args) {
    try {
      JSON.parse(text);
      rawError = 'the arguments must be a JSON object';
    } catch (e) {
      rawError = e instanceof Error ? e.message : String(e);
    }
  }
  const missing = args ? missingRequired(schema, args) : [];
  const run = () => {
    if (!args) return;
    if (destructive && !confirming) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    setBusy(true);
    setResult(undefined);
    setProgress(undefined);
    const sent = args;
    // What the server asks while it runs, and the user's answers, are recorded with the call.
    const decisions: AskedRecord[] = [];
    asked.current = decisions;
    void callRealTool(endpoint, tool.backendName ?? tool.name, sent, { onProgress: setProgress })
      .then((r) => {
        setResult(r);
        // Recorded as the scenario's call: replayed offline by check.
        callTool(store, stepIndex, tool.name, JSON.parse(JSON.stringify(sent)) as { [key: string]: Plain }, r.isError ? { fail: r.text || 'the tool failed' } : { result: r.text }, decisions);
      })
      .catch((e: unknown) => setResult({ error: e instanceof Error ? e.message : String(e) }))
      .finally(() => {
        setBusy(false);
        setProgress(undefined);
      });
  };
  return (
    <section className="run-on-server" aria-label={`Run ${tool.name} on ${server.name}`} data-testid="run-on-server">
      <div className="run-head">
        <strong>Run on the server</strong> <code>{server.name}</code> <span className="muted">(live) · {tool.backendName ?? tool.name}</span>
        {destructive && <span className="word destructive">destructive</span>}
        <label className="run-raw">
          <input
            type="checkbox"
            checked={raw}
            onChange={(e) => setRaw(e.target.checked)}
            data-testid="run-raw"
          />{' '}
          raw JSON
        </label>
      </div>
      {raw ? (
        <textarea className="mono" rows={4} aria-label="Arguments (JSON)" aria-invalid={rawError !== undefined} value={text} onChange={(e) => onText(e.target.value)} data-testid="run-raw-text" spellCheck={false} />
      ) : args ? (
        <Fields schema={schema} values={args} onChange={(v) => onText(textOfForm(v))} />
      ) : (
        <p className="muted" data-testid="run-args-unshown">
          The form shows the arguments once they are a JSON object; what is typed is kept as it is (fix it in the call&apos;s JSON, or switch to raw JSON).
        </p>
      )}
      {rawError && <p className="sim-error" role="alert" data-testid="run-args-error">{rawError}</p>}
      {missing.length > 0 && <p className="sim-warning">Required and not given: {missing.join(', ')} (the server decides).</p>}
      {confirming ? (
        <div className="run-confirm" role="alertdialog" aria-label="Confirm a destructive tool" data-testid="run-confirm">
          <span>
            <strong>{tool.backendName ?? tool.name}</strong> is annotated destructive: it may change or delete things on {server.name}. Run it for real?
          </span>
          <button type="button" className="primary" onClick={run} data-testid="run-confirm-yes">
            Run it
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" onClick={run} disabled={busy || args === undefined} data-testid="run-submit">
          {busy ? 'Running…' : `Run ${tool.backendName ?? tool.name} on ${server.name}`}
        </button>
      )}
      {busy && progress && (
        <div className="run-progress" role="status" data-testid="run-progress">
          <progress value={progress.progress} {...(progress.total !== undefined ? { max: progress.total } : {})} aria-label="Progress" />{' '}
          <span>
            {progress.total !== undefined ? `${progress.progress} of ${progress.total}` : `${progress.progress}`}
            {progress.message !== undefined ? `: ${progress.message}` : ''}
          </span>
        </div>
      )}
      {asks.map((a) => (
        <AskForm key={a.id} ask={a} onDecided={(r) => asked.current.push(r)} />
      ))}
      {result && (
        <div className={`run-result ${'error' in result || result.isError ? 'is-error' : ''}`} data-testid="run-result" role="status">
          {'error' in result ? `The call did not run: ${result.error}` : `${result.isError ? 'The tool failed (recorded as fail): ' : 'Result (recorded in the step): '}${result.text}`}
        </div>
      )}
    </section>
  );
}
