// The controls of a form built from a JSON Schema (schemaForm.ts says which control
// each property gets): "Run on the server"'s arguments, and the form a server's
// elicitation asks the user to fill.
import { useState } from 'react';
import { choicesOf, fieldsOf, itemsOf, kindOf, numberFrom, withKey } from './schemaForm';
import type { Field, JsonObject } from './schemaForm';

function NumberInput({ label, kind, value, onChange }: { readonly label: string; readonly kind: 'number' | 'integer'; readonly value: unknown; readonly onChange: (v: unknown) => void }) {
  const [text, setText] = useState(typeof value === 'number' ? String(value) : '');
  // The value can change from outside (the call's JSON typed elsewhere): the field follows it, unless
  // it is what the field's own text already says ("1." stays "1." while the value is 1).
  const [seen, setSeen] = useState(value);
  if (!Object.is(seen, value)) {
    setSeen(value);
    if (!Object.is(numberFrom(text, kind), value)) setText(typeof value === 'number' ? String(value) : '');
  }
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

/** The typed text's value as canonical JSON, or undefined when it does not parse (or is empty). */
function jsonOf(text: string): string | undefined {
  try {
    return text.trim() === '' ? undefined : JSON.stringify(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function JsonInput({ label, value, onChange }: { readonly label: string; readonly value: unknown; readonly onChange: (v: unknown) => void }) {
  const [text, setText] = useState(value === undefined ? '' : JSON.stringify(value));
  // Follows a value changed from outside, unless the text typed here already says it.
  const [seen, setSeen] = useState(JSON.stringify(value));
  if (seen !== JSON.stringify(value)) {
    setSeen(JSON.stringify(value));
    if (JSON.stringify(value) !== jsonOf(text)) setText(value === undefined ? '' : JSON.stringify(value));
  }
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
      const choices = choicesOf(schema);
      const i = choices.findIndex((c) => JSON.stringify(c.value) === JSON.stringify(value));
      return (
        <select aria-label={label} value={i < 0 ? '' : String(i)} onChange={(e) => onChange(e.target.value === '' ? undefined : choices[Number(e.target.value)]?.value)}>
          <option value="">(not given)</option>
          {choices.map((c, k) => (
            <option key={k} value={k}>
              {c.label}
            </option>
          ))}
        </select>
      );
    }
    case 'multi': {
      const picked = Array.isArray(value) ? value : [];
      const has = (v: unknown) => picked.some((p) => JSON.stringify(p) === JSON.stringify(v));
      return (
        <div className="run-multi" role="group" aria-label={label}>
          {choicesOf(itemsOf(schema)).map((c, k) => (
            <label key={k}>
              <input
                type="checkbox"
                checked={has(c.value)}
                onChange={(e) => {
                  const next = e.target.checked ? [...picked, c.value] : picked.filter((p) => JSON.stringify(p) !== JSON.stringify(c.value));
                  onChange(next.length === 0 ? undefined : next);
                }}
              />{' '}
              {c.label}
            </label>
          ))}
        </div>
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

export function Fields({ schema, values, onChange, legend }: { readonly schema: JsonObject; readonly values: JsonObject; readonly onChange: (v: JsonObject) => void; readonly legend?: string }) {
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

