// "Ask the model", beside acting as the model: the model's name, an optional key (sent once to the
// bridge, which keeps it in memory only; the page keeps nothing), the run's choice to let the model run
// tools whose `run` is `unattended`, the confirmation of each call of the model to a live server's tool
// (issue 33 §2), and what each cycle of the model did.
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { describeHidden, escapeHidden, hiddenIn } from '../../core';
import type { Plain } from '../../core';
import type { ProviderId } from '../../core/providers/types';
import { useQueryClient } from '@tanstack/react-query';
import { useDeriveClient } from '../../derive/queries';
import { currentAsks, subscribeAsks } from '../../live/asks';
import { bridgeApi } from '../../live/bridge';
import { callRealTool } from '../../live/call';
import { liveClient } from '../../live/queries';
import { useWorkbenchStore } from '../../state/context';
import type { WorkbenchStore } from '../../state/store';
import { savedModelName, saveModelName } from '../../state/askModelName';
import { askBlockedReason, askModelTurn } from './askModel';
import type { AskedCall, AskedCycle, AskOutcome, ServerCalls } from './askModel';
import { AskForm } from './AskForm';
import type { AskedRecord } from './AskForm';
import type { LiveTool } from './modelCalls';
import { isDestructive } from './schemaForm';

function serverText(k: AskedCall): string {
  const r = k.record;
  if (!r) return '';
  const on = k.server ?? '';
  if (r.how === 'refused') return ` [refused on ${on}: recorded as not run]`;
  if (r.how === 'failed') return ` [did not run on ${on}: recorded as a failure]`;
  const ran = r.how === 'unattended' ? `run unattended on ${on}` : `run on ${on} after your confirmation`;
  return ` [${ran}: ${'fail' in r.outcome ? 'it failed' : 'its result'} recorded in the step]`;
}

/** A cycle in words; what the model wrote is text, its hidden characters escaped (a bidi override must not turn a line around). */
function cycleText(c: AskedCycle): string {
  return escapeHidden(cycleWords(c));
}

function cycleWords(c: AskedCycle): string {
  if (c.calls.length === 0) return `reply: ${JSON.stringify(c.text)}`;
  return c.calls.map((k) => `${k.name}(${JSON.stringify(k.args)})${k.kind === 'simulated' ? ' [simulated result: edit it in the step]' : k.kind === 'server' ? serverText(k) : ' [run in the workbench]'}`).join(', ');
}

/** A call of the model to a live server's tool: waiting for the user's yes or no, or running. */
export type ModelCallState =
  | { readonly kind: 'confirm'; readonly target: LiveTool; readonly args: { readonly [key: string]: Plain }; readonly answer: (yes: boolean) => void; readonly earlier: readonly string[] }
  | { readonly kind: 'running'; readonly target: LiveTool; readonly args: { readonly [key: string]: Plain }; readonly onAsked: (r: AskedRecord) => void };

/** The endpoint of a scenario server the page has a live session with now (as Run on the server finds it). */
function liveEndpoint(store: WorkbenchStore, server: string): string | undefined {
  const s = store.getState();
  const doc = s.doc.servers.find((x) => x.name === server);
  if (doc?.status !== 'running') return undefined;
  const endpoint = s.bridgeLinks.get(server) ?? doc.url;
  return endpoint !== undefined && liveClient(endpoint) !== undefined ? endpoint : undefined;
}

/**
 * The question before the model's call runs, and the server's own questions while it runs. The tool's
 * name and arguments come from the model: shown as text, hidden characters escaped and named.
 */
export function ModelCallPanel({ state }: { readonly state: ModelCallState }) {
  const { target } = state;
  const shown = escapeHidden(JSON.stringify(state.args, null, 2), '\n');
  const hidden = hiddenIn(target.name + JSON.stringify(state.args));
  const asks = useSyncExternalStore(subscribeAsks, currentAsks).filter((a) => a.url === target.endpoint);
  // The question takes the focus (not its Run button: a key pressed for something else must not run it).
  const box = useRef<HTMLDivElement>(null);
  const asking = state.kind === 'confirm';
  useEffect(() => {
    if (!asking) return;
    box.current?.scrollIntoView({ block: 'nearest' });
    box.current?.focus({ preventScroll: true });
  }, [asking, target]);
  const head = (
    <>
      Your model calls <strong data-testid="model-call-tool">{escapeHidden(target.tool)}</strong> on <code>{target.server}</code> <span className="muted">(run = &quot;{target.run ?? 'not set'}&quot;)</span>
      {target.destructive && <span className="word destructive">destructive</span>}
    </>
  );
  if (state.kind === 'running') {
    return (
      <div className="run-on-server sim-model-call" role="status" data-testid="model-call-running">
        <p>{head}: running…</p>
        {asks.map((a) => (
          <AskForm key={a.id} ask={a} onDecided={state.onAsked} />
        ))}
      </div>
    );
  }
  return (
    <div ref={box} tabIndex={-1} className="run-on-server sim-model-call" role="alertdialog" aria-label={`Confirm your model's call of ${target.tool}`} data-testid="model-call-confirm">
      <p>
        {head}
        {target.destructive ? `: annotated destructive, it may change or delete things on ${target.server}.` : '.'} Run it for real with these arguments?
      </p>
      <pre className="run-result" data-testid="model-call-args">{shown}</pre>
      {state.earlier.length > 0 && (
        <div className="muted" data-testid="model-call-earlier">
          Already run for the model in this run:
          <ul>
            {state.earlier.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </div>
      )}
      {hidden.length > 0 && (
        <p className="sim-warning" role="alert" data-testid="model-call-hidden">
          The call holds hidden characters, shown escaped: {describeHidden(hidden)}.
        </p>
      )}
      <div className="run-confirm">
        <button type="button" className="primary" onClick={() => state.answer(true)} data-testid="model-call-run">
          Run it
        </button>
        <button type="button" onClick={() => state.answer(false)} data-testid="model-call-refuse">
          Don&apos;t run it
        </button>
        <span className="muted">Either way the step records it, and the model reads the result or the refusal next.</span>
      </div>
    </div>
  );
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

export function AskModelBar({ stepIndex, provider, onOutcome, onCall }: { readonly stepIndex: number | undefined; readonly provider: ProviderId; readonly onOutcome: (o: AskOutcome | undefined) => void; readonly onCall: (c: ModelCallState | undefined) => void }) {
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
  // This run's choice only: unticked again once the run ends, so no later run inherits it unseen.
  const [unattended, setUnattended] = useState(false);
  // A confirmation left open when the panel goes away is a refusal: the run must not hang, nor run it.
  const pending = useRef<((yes: boolean) => void) | undefined>(undefined);
  useEffect(() => () => pending.current?.(false), []);
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
      // What ran on a server earlier in this run, named in the next question (a call asked after one
      // that ran unattended would otherwise hide that the other ran).
      const earlier: string[] = [];
      const servers: ServerCalls = {
        unattended,
        endpointOf: (server) => liveEndpoint(store, server),
        destructive: (server, tool) => isDestructive(store.getState().doc.servers.find((x) => x.name === server)?.tools.find((t) => t.name === tool)?.annotations),
        confirm: (target, args) =>
          new Promise<boolean>((resolve) => {
            const answer = (yes: boolean) => {
              pending.current = undefined;
              onCall(undefined);
              resolve(yes);
            };
            pending.current = answer;
            onCall({ kind: 'confirm', target, args, answer, earlier: [...earlier] });
          }),
        run: async (target, args) => {
          // What the server asks while it runs, and the user's answers, are recorded with the call.
          const asked: AskedRecord[] = [];
          onCall({ kind: 'running', target, args, onAsked: (r) => asked.push(r) });
          try {
            const r = await callRealTool(target.endpoint, target.tool, { ...args });
            const first = r.text.replace(/\s+/gu, ' ').trim();
            earlier.push(`${target.tool} on ${target.server}${r.isError ? ' (failed)' : ''}: ${escapeHidden(first.length > 120 ? `${first.slice(0, 119)}…` : first)}`);
            return { text: r.text, isError: r.isError, asked };
          } finally {
            onCall(undefined);
          }
        },
      };
      // With no live server at all, the run never reads the request's tools (thousands of rows at scale).
      const anyLive = store.getState().doc.servers.some((x) => liveEndpoint(store, x.name) !== undefined);
      onOutcome(await askModelTurn(store, client, queryClient, stepIndex, model.trim(), bridgeApi.askModel, undefined, anyLive ? servers : undefined));
    } catch (e) {
      onOutcome({ ok: false, reason: e instanceof Error ? e.message : String(e) });
    } finally {
      pending.current?.(false);
      onCall(undefined);
      setUnattended(false);
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
      <label className="sim-ask-unattended" title="For this run only: a call of the model to a live server's tool whose run is &quot;unattended&quot; runs without the question; every other call to a live server is asked first. Unticked again when the run ends.">
        <input type="checkbox" checked={unattended} disabled={busy} onChange={(e) => setUnattended(e.target.checked)} data-testid="sim-model-unattended" />
        let the model run tools whose <code>run</code> is <code>unattended</code>
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
