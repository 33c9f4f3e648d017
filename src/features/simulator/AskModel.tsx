// "Ask the model", beside acting as the model: the model's name, an optional key (sent once to the
// bridge, which keeps it in memory only; the page keeps nothing), and what each cycle of the model did.
import { useId, useState } from 'react';
import type { ProviderId } from '../../core/providers/types';
import { useQueryClient } from '@tanstack/react-query';
import { useDeriveClient } from '../../derive/queries';
import { bridgeApi } from '../../live/bridge';
import { useWorkbenchStore } from '../../state/context';
import { savedModelName, saveModelName } from '../../state/askModelName';
import { askBlockedReason, askModelTurn } from './askModel';
import type { AskedCycle, AskOutcome } from './askModel';

function cycleText(c: AskedCycle): string {
  if (c.calls.length === 0) return `reply: ${JSON.stringify(c.text)}`;
  return c.calls.map((k) => `${k.name}(${JSON.stringify(k.args)})${k.kind === 'simulated' ? ' [simulated result: edit it in the step]' : ' [run in the workbench]'}`).join(', ');
}

export function AskModelResult({ outcome }: { readonly outcome: AskOutcome }) {
  if (!outcome.ok) {
    return (
      <p className="sim-note" role="status" data-testid="sim-ask-note">
        Ask the model: {outcome.reason}
      </p>
    );
  }
  return (
    <div className="sim-decisions" data-testid="sim-ask-cycles">
      <p className="sim-note" role="status" data-testid="sim-ask-note">
        Your model on step {outcome.stepNo}: {outcome.cycles.length} request{outcome.cycles.length === 1 ? '' : 's'}; stopped: {outcome.stopped}
      </p>
      <ol>
        {outcome.cycles.map((c) => (
          <li key={c.cycle} data-kind={c.calls.length === 0 ? 'reply' : 'calls'}>
            <code>{cycleText(c)}</code>
            {c.usage && (
              <span className="sim-why">
                billed {c.usage.uncached} uncached + {c.usage.cacheRead} cache read + {c.usage.cacheWrite} cache write input, {c.usage.output} output tokens
              </span>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}

export function AskModelBar({ stepIndex, provider, onOutcome }: { readonly stepIndex: number | undefined; readonly provider: ProviderId; readonly onOutcome: (o: AskOutcome | undefined) => void }) {
  const store = useWorkbenchStore();
  const client = useDeriveClient();
  const queryClient = useQueryClient();
  // The name typed last for this provider, kept across a reload (the key never is).
  const [model, setModelState] = useState(() => savedModelName(provider));
  const setModel = (name: string) => {
    setModelState(name);
    saveModelName(provider, name.trim());
  };
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const whyId = useId();
  // Another provider picked in the header: its own name, as last typed for it.
  const [nameFor, setNameFor] = useState(provider);
  if (nameFor !== provider) {
    setNameFor(provider);
    setModelState(savedModelName(provider));
  }
  const why = askBlockedReason({ busy, stepIndex, model });
  const ask = async () => {
    if (stepIndex === undefined) return;
    setBusy(true);
    onOutcome(undefined);
    try {
      if (key.trim() !== '') {
        // The key goes to the bridge once and is cleared here: the page never keeps it.
        await bridgeApi.setModelKey({ provider, key });
        setKey('');
      }
      onOutcome(await askModelTurn(store, client, queryClient, stepIndex, model.trim(), bridgeApi.askModel));
    } catch (e) {
      onOutcome({ ok: false, reason: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="sim-ask"
      onSubmit={(e) => {
        e.preventDefault();
        void ask();
      }}
    >
      <label>
        {provider} model
        <input className="mono" data-testid="sim-model" value={model} onChange={(e) => setModel(e.target.value)} placeholder="e.g. claude-sonnet-4-5" spellCheck={false} />
      </label>
      <label>
        key
        <input type="password" autoComplete="off" data-testid="sim-model-key" value={key} onChange={(e) => setKey(e.target.value)} placeholder="optional" title="Optional: a key for this provider, sent once to the bridge and kept only in its memory; by default the bridge uses the key in npm start's environment" />
      </label>
      <button type="submit" disabled={busy || why !== undefined} aria-describedby={why !== undefined ? whyId : undefined} data-testid="sim-ask-model" title="Send this turn's rendered requests to your model through the local bridge; its tool calls become the turn's calls">
        {busy ? 'Asking…' : 'Ask the model'}
      </button>
      {why !== undefined && (
        <span id={whyId} className="sim-ask-why" data-testid="sim-ask-why">
          {why}
        </span>
      )}
    </form>
  );
}
