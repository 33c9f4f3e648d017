// The Tasks tab's model A/B (issue 33 §1): the task set played by the user's model in two arms, A the
// scenario as written and B the same with the policy switches chosen here (the switches `--ab` takes),
// through the bridge. An estimate of both arms comes first and nothing is sent before "Send"; then a
// progress bar per arm with the money spent, the CLI's A/B line, the discordant tasks, and each task's
// turn in either arm. Untrusted text (requests, replies, errors) renders as text only.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { DEFAULT_POLICY, OUTCOME_LABELS, POLICY_CHOICES } from '../../core';
import type { Outcome, Policy } from '../../core';
import { AB_SWITCH_NAMES, isMet } from '../../core/tasks/ab';
import type { AbPair, Arm } from '../../core/tasks/ab';
import { useDeriveClient } from '../../derive/queries';
import { bridgeApi, bridgeInfoQuery, isBridgeInfo } from '../../live/bridge';
import { useWorkbench } from '../../state/context';
import { savedModelName, saveModelName } from '../../state/askModelName';
import { abParams, estimateAb, runAb, switchWords } from './abRunner';
import { setAbState, useAbStore } from './abStore';
import { useTaskStore } from './taskStore';
import { TaskTurn } from './TaskTurn';

const SWITCH_ORDER = AB_SWITCH_NAMES.map(([name]) => name);
const usd = (n: number): string => `$${n.toFixed(n < 1 ? 4 : 2)}`;
const ARM_A = 'the scenario as written';

function SwitchPickers({ policy, disabled }: { readonly policy: Policy; readonly disabled: boolean }) {
  const switches = useAbStore((s) => s.switches);
  return (
    <fieldset className="tk-ab-switches" data-testid="tk-ab-switches">
      <legend>Arm B sets</legend>
      {AB_SWITCH_NAMES.map(([name, key]) => {
        const current = policy[key] ?? DEFAULT_POLICY[key];
        const choices = (POLICY_CHOICES[key] as readonly unknown[]).filter((c) => c !== current);
        return (
          <label key={name} title={`[policy] ${key} in arm B; arm A keeps the scenario's ${String(current)}`}>
            {name}{' '}
            <select data-testid={`tk-ab-switch-${name}`} disabled={disabled} value={switches[name] ?? ''} onChange={(e) => setAbState({ switches: { ...switches, [name]: e.target.value }, estimate: undefined })}>
              <option value="">as A ({String(current)})</option>
              {choices.map((c) => <option key={String(c)} value={String(c)}>{String(c)}</option>)}
            </select>
          </label>
        );
      })}
    </fieldset>
  );
}

function ArmProgress({ arm, words, done, total }: { readonly arm: Arm; readonly words: string; readonly done: number; readonly total: number }) {
  return (
    <div className="tk-ab-arm" data-testid={`tk-ab-progress-${arm}`}>
      <span className="tk-ab-armname">arm {arm}</span> <span className="tk-ab-words" title={words}>{words}</span>
      <progress max={total} value={done} aria-label={`Arm ${arm}: tasks played`} />
      <span className="num">{done} of {total} tasks</span>
    </div>
  );
}

function PairRow({ pair, onOpen }: { readonly pair: AbPair; readonly onOpen: (arm: Arm, index: number) => void }) {
  const o = (x: Outcome | undefined): string => (x ? OUTCOME_LABELS[x] : 'not asked');
  return (
    <li data-testid="tk-ab-pair" data-task={pair.task + 1}>
      <span className="num">{pair.task + 1}.</span> <span className="tk-ab-query">{pair.query}</span>{' '}
      <span className="tk-note">A {o(pair.a)}, B {o(pair.b)}{pair.complete ? '' : ' (no complete pair)'}</span>{' '}
      {(['A', 'B'] as const).map((arm) => (
        <button key={arm} type="button" className="link" data-testid={`tk-ab-open-${arm}`} disabled={(arm === 'A' ? pair.a : pair.b) === undefined} onClick={() => onOpen(arm, pair.task)}>
          {arm}'s turn
        </button>
      ))}
    </li>
  );
}

function Finished() {
  const finished = useAbStore((s) => s.finished);
  const open = useAbStore((s) => s.open);
  const turnRef = useRef<HTMLDivElement>(null);
  // The dock is short: a turn opened below the lists is brought into view, or it reads as nothing happening.
  useEffect(() => {
    if (open) turnRef.current?.scrollIntoView({ block: 'nearest' });
  }, [open]);
  if (!finished) return null;
  const { view, switches, run, total } = finished;
  const onOpen = (arm: Arm, index: number) => setAbState({ open: { arm, index } });
  const discordant = view.ab.pairs.filter((p) => p.complete && isMet(p.a) !== isMet(p.b));
  const aOnly = discordant.filter((p) => isMet(p.a));
  const bOnly = discordant.filter((p) => isMet(p.b));
  const result = open ? view.arms[open.arm].results.find((r) => r.index === open.index) : undefined;
  return (
    <div className="tk-ab-finished">
      <p className="tk-ab-line" data-testid="tk-ab-line">{view.line}</p>
      {view.stoppedNote ? <p className="tk-note" data-testid="tk-ab-stopped">{view.stoppedNote}</p> : null}
      {view.errors.length > 0 ? (
        <ul className="tk-error" role="alert" data-testid="tk-ab-errors">
          {view.errors.slice(0, 20).map((e) => <li key={e}>{e}</li>)}
          {view.errors.length > 20 ? <li>… and {view.errors.length - 20} more</li> : null}
        </ul>
      ) : null}
      <p className="tk-note" data-testid="tk-ab-arms">
        arm A ({ARM_A}): {view.arms.A.summary}; billed {usd(view.arms.A.usd)}
        <br />
        arm B ({switches}): {view.arms.B.summary}; billed {usd(view.arms.B.usd)}
      </p>
      <div className="tk-split">
        <div className="tk-ab-lists">
          {([['A', aOnly], ['B', bOnly]] as const).map(([arm, pairs]) => (
            <section key={arm} className="tk-ab-discordant" data-testid={`tk-ab-${arm.toLowerCase()}-only`} aria-label={`Met in ${arm} only`}>
              <h4>Met in {arm} only: {pairs.length}</h4>
              {pairs.length === 0 ? <p className="tk-note">None.</p> : <ol>{pairs.map((p) => <PairRow key={p.task} pair={p} onOpen={onOpen} />)}</ol>}
            </section>
          ))}
          <details className="tk-ab-all" data-testid="tk-ab-all">
            <summary>Every task, both arms ({view.ab.pairs.length} of {total})</summary>
            <ol>{view.ab.pairs.map((p) => <PairRow key={p.task} pair={p} onOpen={onOpen} />)}</ol>
          </details>
        </div>
        {open && result ? (
          <div className="tk-ab-turn" ref={turnRef}>
            <TaskTurn run={run} result={result} arm={{ arm: open.arm, words: open.arm === 'A' ? ARM_A : switches }} onClose={() => setAbState({ open: undefined })} />
          </div>
        ) : null}
      </div>
    </div>
  );
}

export function ModelAb({ revision }: { readonly revision: number | undefined }) {
  const client = useDeriveClient();
  const { data: info } = useQuery(bridgeInfoQuery);
  const provider = useWorkbench((s) => s.doc.policy.provider);
  const policy = useWorkbench((s) => s.doc.policy);
  const tasks = useTaskStore((s) => s.text);
  const { switches, budget, estimate, estimating, progress, stopRequested, error, finished } = useAbStore();
  const [model, setModelState] = useState(() => savedModelName(provider));
  const [nameFor, setNameFor] = useState(provider);
  if (nameFor !== provider) {
    setNameFor(provider);
    setModelState(savedModelName(provider));
  }
  const setModel = (name: string) => {
    setModelState(name);
    saveModelName(provider, name.trim());
    setAbState({ estimate: undefined });
  };
  if (!isBridgeInfo(info)) {
    return (
      <div className="tk-ab" data-testid="tk-ab">
        <p className="tk-note" data-testid="tk-ab-no-bridge">
          {info === undefined ? (
            'Looking for the bridge…'
          ) : (
            <>
              A model A/B sends the task set to your model through the local bridge: open the workbench with <code>npm start</code> (or <code>tool-workbench serve</code>).{'missing' in info ? ` Here: ${info.missing}.` : ''}
            </>
          )}
        </p>
      </div>
    );
  }
  const words = switchWords(switches, SWITCH_ORDER);
  const onEstimate = () => {
    const p = abParams({ revision, tasks, provider, model, switches: words, budget });
    if ('error' in p) setAbState({ error: p.error, estimate: undefined });
    else void estimateAb(client, p);
  };
  // An estimate is for one revision of the document: after an edit it must be made again.
  const shown = estimate && estimate.params.revision === revision ? estimate : undefined;
  const busy = progress !== undefined;
  return (
    <div className="tk-ab" data-testid="tk-ab">
      <form className="tk-controls tk-ab-bar" onSubmit={(e) => { e.preventDefault(); onEstimate(); }}>
        <label>
          {provider} model{' '}
          <input className="mono" data-testid="tk-ab-model" value={model} onChange={(e) => setModel(e.target.value)} placeholder="e.g. claude-haiku-4-5" spellCheck={false} disabled={busy} />
        </label>
        <SwitchPickers policy={policy} disabled={busy} />
        <label title="Stop sending once the money billed by both arms reaches this (as --max-usd); the test is then on the complete pairs">
          stop at ${' '}
          <input className="tk-ab-budget" data-testid="tk-ab-budget" value={budget} inputMode="decimal" placeholder="no cap" onChange={(e) => setAbState({ budget: e.target.value, estimate: undefined })} disabled={busy} />
        </label>
        <button type="submit" data-testid="tk-ab-estimate" disabled={busy || estimating}>{estimating ? 'Estimating…' : 'Estimate'}</button>
      </form>
      {progress ? (
        <div className="tk-ab-progress" role="status" data-testid="tk-ab-progress">
          <ArmProgress arm="A" words={ARM_A} done={progress.progress.A} total={progress.progress.total} />
          <ArmProgress arm="B" words={progress.switches} done={progress.progress.B} total={progress.progress.total} />
          <div className="tk-ab-spentrow">
            <span data-testid="tk-ab-spent">spent {progress.exact ? usd(progress.progress.spent) : 'unpriced (no price row for this model)'}</span>
            <button type="button" data-testid="tk-ab-stop" disabled={stopRequested} onClick={() => setAbState({ stopRequested: true })} title="Send nothing more: the pairs both arms finished are kept, and the test is on those">
              {stopRequested ? 'Stopping after this request…' : 'Stop'}
            </button>
          </div>
        </div>
      ) : null}
      {shown || progress || finished ? null : <p className="tk-note">Arm A is the scenario as written; arm B the same with the switches above. Both arms play every task with the same model, each request sent through the bridge with the key it holds for {provider}; nothing is sent before you confirm the estimate.</p>}
      {error ? <p className="tk-error" role="alert" data-testid="tk-ab-error">{error}</p> : null}
      {shown ? (
        <div className="tk-ab-confirm" data-testid="tk-ab-confirm">
          <p data-testid="tk-ab-estimate-line">{shown.view.line}</p>
          {shown.view.taskErrors.length > 0 ? <p className="tk-error">{shown.view.taskErrors.length} line{shown.view.taskErrors.length === 1 ? '' : 's'} of the task set left out: {shown.view.taskErrors.slice(0, 3).join('; ')}</p> : null}
          <button type="button" className="primary" data-testid="tk-ab-send" onClick={() => void runAb(client, bridgeApi.askModel)}>
            Send about {shown.view.requests} requests
          </button>{' '}
          <button type="button" onClick={() => setAbState({ estimate: undefined })}>Cancel</button>
        </div>
      ) : null}
      <Finished />
    </div>
  );
}
