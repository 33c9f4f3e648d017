// "Run on the server": a call to an MCP tool whose server is live runs for real.
// The arguments come from a form generated from the server's inputSchema (strings,
// numbers, booleans, enums, arrays, nested objects; anything else as JSON in place)
// or, with the raw-JSON switch, as one JSON object. A tool annotated destructive
// asks first. The real result is shown and recorded into the scenario step as the
// call's `result` (or `fail`), so `tool-workbench check` replays it offline.
import { useState } from 'react';
import type { Plain } from '../../core';
import type { RequestToolView } from '../../derive/labProtocol';
import { callRealTool } from '../../live/call';
import type { RealResult } from '../../live/call';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { callTool } from './actions';
import { fieldsOf, isDestructive, itemsOf, kindOf, missingRequired, numberFrom, withKey } from './schemaForm';
import type { Field, JsonObject } from './schemaForm';

function NumberInput({ label, kind, value, onChange }: { readonly label: string; readonly kind: 'number' | 'integer'; readonly value: unknown; readonly onChange: (v: unknown) => void }) {
  const [text, setText] = useState(typeof value === 'number' ? String(value) : '');
  const n = numberFrom(text, kind);
  return (
    <input
      className="mono"
      inputMode="decimal"
      aria-label={label}
      aria-invalid={n !== undefined && Number.isNaN(n)}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const v = numberFrom(e.target.value, kind);
        if (v === undefined || !Number.isNaN(v)) onChange(v);
      }}
      placeholder={kind}
    />
  );
}

function JsonInput({ label, value, onChange }: { readonly label: string; readonly value: unknown; readonly onChange: (v: unknown) => void }) {
  const [text, setText] = useState(value === undefined ? '' : JSON.stringify(value));
  let bad = false;
  try {
    if (text.trim() !== '') JSON.parse(text);
  } catch {
    bad = true;
  }
  return (
    <input
      className="mono"
      aria-label={`${label} (JSON)`}
      aria-invalid={bad}
      value={text}
      placeholder="JSON"
      onChange={(e) => {
        setText(e.target.value);
        try {
          onChange(e.target.value.trim() === '' ? undefined : (JSON.parse(e.target.value) as unknown));
        } catch {
          // Kept as typed until it parses.
        }
      }}
    />
  );
}

function Control({ label, schema, value, onChange }: { readonly label: string; readonly schema: JsonObject; readonly value: unknown; readonly onChange: (v: unknown) => void }) {
  const kind = kindOf(schema);
  switch (kind) {
    case 'string':
      return <input aria-label={label} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)} spellCheck={false} />;
    case 'number':
    case 'integer':
      return <NumberInput label={label} kind={kind} value={value} onChange={onChange} />;
    case 'boolean':
      return (
        <select aria-label={label} value={value === undefined ? '' : String(value)} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value === 'true')}>
          <option value="">(not given)</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
    case 'enum': {
      const options = (schema.enum as unknown[]) ?? [];
      const i = options.findIndex((o) => JSON.stringify(o) === JSON.stringify(value));
      return (
        <select aria-label={label} value={i < 0 ? '' : String(i)} onChange={(e) => onChange(e.target.value === '' ? undefined : options[Number(e.target.value)])}>
          <option value="">(not given)</option>
          {options.map((o, k) => (
            <option key={k} value={k}>
              {typeof o === 'string' ? o : JSON.stringify(o)}
            </option>
          ))}
        </select>
      );
    }
    case 'array': {
      const items = Array.isArray(value) ? value : [];
      const itemSchema = itemsOf(schema);
      return (
        <div className="run-array" role="group" aria-label={label}>
          {items.map((item, k) => (
            <div key={k} className="run-array-item">
              <Control label={`${label} ${k + 1}`} schema={itemSchema} value={item} onChange={(v) => onChange(items.map((x, j) => (j === k ? v : x)))} />
              <button type="button" onClick={() => onChange(items.filter((_, j) => j !== k))} aria-label={`Remove ${label} ${k + 1}`}>
                −
              </button>
            </div>
          ))}
          <button type="button" onClick={() => onChange([...items, kindOf(itemSchema) === 'object' ? {} : undefined].map((x) => x ?? ''))} aria-label={`Add an item to ${label}`}>
            + item
          </button>
        </div>
      );
    }
    case 'object':
      return <Fields schema={schema} values={typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : {}} onChange={(v) => onChange(Object.keys(v).length === 0 ? undefined : v)} legend={label} />;
    default:
      return <JsonInput label={label} value={value} onChange={onChange} />;
  }
}

function Fields({ schema, values, onChange, legend }: { readonly schema: JsonObject; readonly values: JsonObject; readonly onChange: (v: JsonObject) => void; readonly legend?: string }) {
  const fields: Field[] = fieldsOf(schema);
  if (fields.length === 0) return <p className="muted">no parameters</p>;
  return (
    <fieldset className="run-fields">
      {legend !== undefined && <legend>{legend}</legend>}
      {fields.map((f) => (
        <label key={f.name} className="run-field" title={f.description}>
          <span className="run-name">
            {f.name}
            {f.required && <span aria-label="required">*</span>}
          </span>
          <Control label={f.name} schema={f.schema} value={Object.hasOwn(values, f.name) ? values[f.name] : undefined} onChange={(v) => onChange(withKey(values, f.name, v))} />
          {f.description !== '' && <span className="muted run-desc">{f.description}</span>}
        </label>
      ))}
    </fieldset>
  );
}

/** `stepIndex`: the turn the simulator shows (the timeline's selected one), where the run is recorded. */
export function RunOnServer({ tool, stepIndex }: { readonly tool: RequestToolView; readonly stepIndex: number }) {
  const store = useWorkbenchStore();
  const server = useWorkbench((s) => s.doc.servers.find((x) => x.name === tool.server));
  const endpoint = useWorkbench((s) => (tool.server !== undefined ? s.bridgeLinks.get(tool.server) : undefined)) ?? server?.url;
  const entry = server?.tools.find((t) => t.name === (tool.backendName ?? tool.name));
  const schema = (entry?.inputSchema ?? { type: 'object' }) as JsonObject;
  const destructive = isDestructive(entry?.annotations);
  const [values, setValues] = useState<JsonObject>({});
  const [raw, setRaw] = useState(false);
  const [rawText, setRawText] = useState('{}');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<RealResult | { error: string } | undefined>(undefined);
  if (!server || endpoint === undefined || server.status !== 'running') return null;
  let args: JsonObject | undefined = values;
  let rawError: string | undefined;
  if (raw) {
    try {
      const parsed = JSON.parse(rawText) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) args = parsed as JsonObject;
      else {
        args = undefined;
        rawError = 'the arguments must be a JSON object';
      }
    } catch (e) {
      args = undefined;
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
    const sent = args;
    void callRealTool(endpoint, tool.backendName ?? tool.name, sent)
      .then((r) => {
        setResult(r);
        // Recorded as the scenario's call: replayed offline by check.
        callTool(store, stepIndex, tool.name, JSON.parse(JSON.stringify(sent)) as { [key: string]: Plain }, r.isError ? { fail: r.text || 'the tool failed' } : { result: r.text });
      })
      .catch((e: unknown) => setResult({ error: e instanceof Error ? e.message : String(e) }))
      .finally(() => setBusy(false));
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
            onChange={(e) => {
              if (e.target.checked) setRawText(JSON.stringify(values, null, 1));
              else if (args) setValues(args);
              setRaw(e.target.checked);
            }}
            data-testid="run-raw"
          />{' '}
          raw JSON
        </label>
      </div>
      {raw ? (
        <textarea className="mono" rows={4} aria-label="Arguments (JSON)" aria-invalid={rawError !== undefined} value={rawText} onChange={(e) => setRawText(e.target.value)} data-testid="run-raw-text" spellCheck={false} />
      ) : (
        <Fields schema={schema} values={values} onChange={setValues} />
      )}
      {rawError && <p className="sim-error" role="alert">{rawError}</p>}
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
      {result && (
        <div className={`run-result ${'error' in result || result.isError ? 'is-error' : ''}`} data-testid="run-result" role="status">
          {'error' in result ? `The call did not run: ${result.error}` : `${result.isError ? 'The tool failed (recorded as fail): ' : 'Result (recorded in the step): '}${result.text}`}
        </div>
      )}
    </section>
  );
}
