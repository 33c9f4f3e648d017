// The turn simulator: it follows the timeline's selected turn. When that turn awaits the model, act as
// the model cycle by cycle (search, call a tool, describe tools, reply), or let the auto model play it
// and show each decision with its reason. Steps are added in the one step field, under the timeline.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { AutoAction } from '../../core';
import { useSelectedEntry, useTimeline, useTimelineWindow } from '../../derive/hooks';
import { stepRange } from '../../derive/spine';
import { useDeriveClient } from '../../derive/queries';
import { useCommands } from '../../commands/context';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { Actions } from './Actions';
import { AskModelBar, AskModelResult, ModelCallPanel } from './AskModel';
import type { ModelCallState } from './AskModel';
import type { AskOutcome } from './askModel';
import { autoTurn, recordStep } from './actions';
import { TurnLog } from './TurnLog';
import { followedStep, openTurn, requestOf, stepEntries } from './turn';
import './simulator.css';

function moveText(m: AutoAction): string {
  if (m.kind === 'search') return `search_tools(${JSON.stringify(m.query)}, limit ${m.limit})`;
  if (m.kind === 'call') return `${m.tool}(${JSON.stringify(m.args)})`;
  return `reply: ${JSON.stringify(m.text)}`;
}

interface Played {
  readonly stepNo: number;
  readonly moves: readonly AutoAction[];
  readonly stopped?: string;
}

function Decisions({ played }: { readonly played: Played }) {
  return (
    <div className="sim-decisions" data-testid="sim-auto-moves">
      <p className="sim-note" role="status" data-testid="sim-note">
        Auto model on step {played.stepNo}: {played.moves.map((m) => (m.kind === 'search' ? `search_tools("${m.query}")` : m.kind === 'call' ? `${m.tool}(…)` : 'reply')).join(' → ')}
        {played.stopped ? ` (stopped: ${played.stopped})` : ''}
      </p>
      <ol>
        {played.moves.map((m, i) => (
          <li key={i} data-kind={m.kind}>
            <code>{moveText(m)}</code>
            <span className="sim-why">because {m.why}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

export function SimulatorPanel() {
  const store = useWorkbenchStore();
  const client = useDeriveClient();
  const queryClient = useQueryClient();
  const registry = useCommands();
  // The steps, not the document: typing in a layer re-renders nothing here until its derivation answers.
  const steps = useWorkbench((s) => s.doc.steps);
  const { data: view } = useTimeline();
  const selected = useSelectedEntry(view);
  const [busy, setBusy] = useState(false);
  const [played, setPlayed] = useState<Played | undefined>(undefined);
  const [note, setNote] = useState<string | undefined>(undefined);
  const [asked, setAsked] = useState<AskOutcome | undefined>(undefined);
  const [modelCall, setModelCall] = useState<ModelCallState | undefined>(undefined);
  const provider = useWorkbench((s) => s.doc.policy.provider);
  // The store's own selection, not the view's resolved one: while the derivation of a just-added step is
  // still running, the view's last row is the previous step's, and following it would act on that step.
  const selection = useWorkbench((s) => s.selectedEntry);
  const stepNo = followedStep(view, selection === undefined ? undefined : selected, steps.length);
  const step = steps[stepNo - 1];
  const open = stepNo > 0 ? openTurn({ steps }, stepNo - 1) : undefined;
  const reqId = open && view ? requestOf(view, stepNo, open.cycle) : undefined;
  // The followed step's rows (a window of the timeline: a turn's few rows, with their requests' facts).
  const range = view && stepNo > 0 ? stepRange(view, stepNo) : undefined;
  const { data: window } = useTimelineWindow(range?.from ?? 0, range ? range.to - range.from : 0, range !== undefined);
  // While a new revision's window comes, the log keeps the previous one's rows on screen (else it would
  // empty and refill at each keystroke); what the actions read is the current revision's only.
  const shown = window && range ? stepEntries(window.rows, stepNo) : [];
  const rows = window && window.revision === view?.revision ? shown : [];
  const request = reqId !== undefined ? rows.find((r) => r.request?.id === reqId)?.request : undefined;
  // A jp q that failed at its start (a directive refused, a tool not found) sent no request: there is
  // nothing for the model to answer, so its actions are disabled and the step's own error says why.
  const startError = open ? rows.find((r) => r.entry.kind === 'step')?.entry.error : undefined;
  const blocked = startError !== undefined;

  const runAuto = async () => {
    setBusy(true);
    setNote(undefined);
    // The previous run's decisions go as this one starts (they may be another document's).
    setPlayed(undefined);
    try {
      // The step as the store holds it at the click: a step added just before (Enter in the step field)
      // may not have re-rendered this panel yet, and the render's stepNo would still be the one before.
      const now = store.getState();
      const current = followedStep(view, now.selectedEntry === undefined ? undefined : selected, now.doc.steps.length);
      const r = await autoTurn(store, client, current > 0 ? current - 1 : undefined);
      if (!r.ok) {
        setPlayed(undefined);
        setNote(r.reason);
      } else setPlayed({ stepNo: r.stepIndex + 1, moves: r.moves, ...(r.stopped !== undefined ? { stopped: r.stopped } : {}) });
    } catch (e) {
      setNote(`Auto model stopped: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const record = async () => {
    const n = await recordStep(store, client, queryClient, stepNo - 1);
    setNote(`Recorded ${n} expectations on step ${stepNo}: the saved scenario now checks what is shown here.`);
  };

  return (
    <div className="sim">
      <div className="sim-bar">
        <span className="sim-following" data-testid="sim-following">
          {step ? (
            <>
              Step {stepNo} <code>{step.command}</code>
              {blocked ? (
                <span className="sim-failed"> · did not start</span>
              ) : open ? (
                <span className="sim-awaits"> · cycle {open.cycle} awaits the model</span>
              ) : (
                <span className="muted"> · not awaiting the model</span>
              )}
            </>
          ) : (
            'No steps yet.'
          )}
        </span>
        <button type="button" onClick={() => void runAuto()} disabled={busy || blocked} data-testid="sim-auto" title={blocked ? `Step ${stepNo} did not start, so no request awaits the model` : 'Play this turn (or the jp q typed in the step field) with the deterministic auto model; each decision shows its reason'}>
          {busy ? 'Auto model…' : 'Auto model'}
        </button>
        <button type="button" onClick={() => void record()} disabled={!step} data-testid="sim-record" title="Write the results shown for this step as its expectations">
          Record expectations
        </button>
        <AskModelBar stepIndex={open && !blocked ? open.stepIndex : undefined} provider={provider} onOutcome={setAsked} onCall={setModelCall} />
      </div>
      {modelCall && <ModelCallPanel state={modelCall} />}
      {(played || note || asked) && (
        <div className="sim-notes">
          {asked && <AskModelResult outcome={asked} />}
          {played && <Decisions played={played} />}
          {note && (
            <p className="sim-note" role="status" data-testid="sim-note">
              {note}
            </p>
          )}
        </div>
      )}
      <div className="sim-body">
        <div className="sim-left" role="region" aria-label="The model's response" tabIndex={0}>
          {open && blocked ? (
            <div className="sim-blocked">
              <p className="sim-error" role="status" data-testid="sim-blocked">
                Step {stepNo} did not start: {startError}. JP stops before it sends any request, so there is no request for the model to answer: its actions are
                disabled, and the sets stay as they were before the command. Edit the step under the timeline to try again.
              </p>
              <fieldset disabled className="sim-blocked-actions" aria-label="The model's actions (disabled: no request)">
                <Actions key={open.stepIndex} open={open} request={undefined} blocked />
              </fieldset>
            </div>
          ) : open ? (
            // Keyed by the turn, not the cycle: a real run on a server records a call (the next cycle
            // opens) and its result must stay on screen; following another turn starts afresh. While a
            // call of the model waits on its question or runs, the hand-made actions wait too: the
            // model's calls are written to this cycle once all have run, over anything added meanwhile.
            <fieldset className="sim-actions-lock" disabled={modelCall !== undefined} data-testid="sim-actions-lock">
              <Actions key={open.stepIndex} open={open} request={request} />
            </fieldset>
          ) : (
            <div className="sim-closed" data-testid="sim-closed">
              <p className="muted">{steps.length === 0 ? 'No steps yet.' : `Step ${stepNo} is not awaiting the model.`} Add a step with the jp command field under the timeline, then act as the model here, or press Auto model.</p>
              <button type="button" onClick={() => void registry.run('timeline.addStep', { store })} data-testid="sim-new-step">
                Type a new step…
              </button>
            </div>
          )}
        </div>
        <div className="sim-right" role="region" aria-label="The step, as derived" tabIndex={0}>
          {view && stepNo > 0 ? <TurnLog rows={shown} open={open !== undefined} /> : <p className="muted">The selected step&apos;s requests, calls and results appear here.</p>}
        </div>
      </div>
    </div>
  );
}
