// A live server's question while "Run on the server" runs its tool: an elicitation
// is a form built from the schema the server sent, started from its defaults; a
// sampling request shows the conversation and takes the reply the user writes in
// place of a model. Either can be declined. The decision goes to the server at once
// and is recorded with the call in the step (`asked`).
import { useEffect, useRef, useState } from 'react';
import type { Plain } from '../../core';
import { answerAsk } from '../../live/asks';
import type { Answer, Ask } from '../../live/asks';
import { defaultsOf, missingRequired } from './schemaForm';
import type { JsonObject } from './schemaForm';
import { Fields } from './SchemaFields';

/** What the step records of one question and its answer. */
export type AskedRecord = { [key: string]: Plain };

function record(ask: Ask, answer: Answer): AskedRecord {
  const base: AskedRecord = ask.body.kind === 'elicitation' ? { kind: 'elicitation', message: ask.body.message } : { kind: 'sampling' };
  if (answer.action !== 'accept') return { ...base, action: answer.action };
  if (ask.body.kind === 'sampling') return { ...base, action: 'accept', reply: answer.text ?? '' };
  return { ...base, action: 'accept', content: JSON.parse(JSON.stringify(answer.content ?? {})) as Plain };
}

export function AskForm({ ask, onDecided }: { readonly ask: Ask; readonly onDecided: (r: AskedRecord) => void }) {
  const schema = ask.body.kind === 'elicitation' ? (ask.body.requestedSchema as JsonObject) : {};
  const [values, setValues] = useState<JsonObject>(() => defaultsOf(schema));
  const [text, setText] = useState('');
  const form = useRef<HTMLFormElement>(null);
  // A question arrives while the user looks elsewhere (the form sits low in the dock): bring it into view, its first field focused.
  useEffect(() => {
    form.current?.scrollIntoView({ block: 'nearest' });
    form.current?.querySelector<HTMLElement>('input, select, textarea')?.focus({ preventScroll: true });
  }, []);
  const decide = (answer: Answer) => {
    onDecided(record(ask, answer));
    answerAsk(ask.id, answer);
  };
  const missing = ask.body.kind === 'elicitation' ? missingRequired(schema, values) : [];
  return (
    <form
      ref={form}
      className="run-ask"
      aria-label={ask.body.kind === 'elicitation' ? 'The server asks' : 'The server asks for a model reply'}
      data-testid="run-ask"
      data-kind={ask.body.kind}
      onSubmit={(e) => {
        e.preventDefault();
        decide(ask.body.kind === 'elicitation' ? { action: 'accept', content: values } : { action: 'accept', text });
      }}
    >
      {ask.body.kind === 'elicitation' ? (
        <>
          <p>
            <strong>The server asks:</strong> <span data-testid="run-ask-message">{ask.body.message}</span>
          </p>
          <Fields schema={schema} values={values} onChange={setValues} />
          {missing.length > 0 && <p className="sim-warning">Required: {missing.join(', ')}.</p>}
        </>
      ) : (
        <>
          <p>
            <strong>The server asks for a model’s reply</strong> (sampling){ask.body.maxTokens !== undefined ? `, at most ${ask.body.maxTokens} tokens` : ''}. You answer in the model’s place.
          </p>
          {ask.body.systemPrompt !== undefined && <p className="muted">System: {ask.body.systemPrompt}</p>}
          <ol className="run-ask-messages">
            {ask.body.messages.map((m, i) => (
              <li key={i}>
                <span className="muted">{m.role}:</span> {m.text}
              </li>
            ))}
          </ol>
          <textarea rows={3} aria-label="Reply" value={text} onChange={(e) => setText(e.target.value)} data-testid="run-ask-reply" />
        </>
      )}
      <div className="run-ask-actions">
        <button type="submit" className="primary" disabled={missing.length > 0} data-testid="run-ask-accept">
          {ask.body.kind === 'elicitation' ? 'Send the answer' : 'Send the reply'}
        </button>
        <button type="button" onClick={() => decide({ action: 'decline' })} data-testid="run-ask-decline">
          Decline
        </button>
      </div>
    </form>
  );
}
