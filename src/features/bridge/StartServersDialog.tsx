// "Start servers": the one question before the bridge runs anything. It shows
// every command line exactly as it will run, its working directory, and the
// names (never the values) of the environment variables it is given. The plan
// was computed by the bridge from the workspace's files on disk; the page only
// says yes to it. Nothing in it can be disguised: each word is isolated from its
// neighbours' text direction, every invisible, bidi or control character is shown
// as its escape (`\u202E`) and named in a warning, and such a plan starts only
// after a second, explicit confirmation (the bridge refuses it otherwise).
import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { describeHidden } from '../../core';
import type { HiddenInPlan } from '../../live/bridge';
import { startConfirmed } from '../../live/bridgeSession';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { CommandWords, Visible } from '../../components/Visible';
import './bridge.css';

function HiddenWarning({ hidden }: { readonly hidden: readonly HiddenInPlan[] }) {
  return (
    <div className="bridge-hidden" role="alert" data-testid="planned-hidden">
      <strong>Hidden characters.</strong> These commands contain characters that are invisible or reorder the text around them, so what a command seems to say may not
      be what runs. Each is shown escaped and marked:
      <ul>
        {hidden.map((h) => (
          <li key={`${h.server} ${h.where}`}>
            <code>
              <Visible text={h.server} />
            </code>
            , {h.where}: {describeHidden(h.chars)}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function StartServersDialog() {
  const store = useWorkbenchStore();
  const queryClient = useQueryClient();
  const plan = useWorkbench((s) => s.bridgeConfirm);
  const [busy, setBusy] = useState(false);
  // A plan with hidden characters: the first Start asks again, with the characters named.
  const [asking, setAsking] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  const cancelAgain = useRef<HTMLButtonElement>(null);
  // Focus lands on Cancel: starting processes takes a deliberate click.
  useEffect(() => {
    setAsking(false);
    cancel.current?.focus();
  }, [plan?.planId]);
  useEffect(() => {
    if (asking) cancelAgain.current?.focus();
  }, [asking]);
  if (!plan) return null;
  const close = () => store.getState().setBridgeConfirm(undefined);
  // What the bridge already runs with the same command is left as it is: only the others start.
  const running = new Set(plan.running ?? []);
  const n = plan.servers.filter((s) => !running.has(s.name)).length;
  const hidden = plan.hidden.length > 0;
  const start = () => {
    if (hidden && !asking) {
      setAsking(true);
      return;
    }
    setBusy(true);
    void startConfirmed(store, queryClient, hidden)
      .catch((e: unknown) => store.getState().showBanner('error', `The bridge could not start the servers: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => setBusy(false));
  };
  return (
    <div className="bridge-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="bridge-dialog" role="dialog" aria-modal="true" aria-labelledby="bridge-confirm-title" data-testid="start-servers-dialog" onKeyDown={(e) => e.key === 'Escape' && close()}>
        <h2 id="bridge-confirm-title">Start {n} MCP server{n === 1 ? '' : 's'} on this machine?</h2>
        <p className="muted">
          From <code>{plan.jpDir}</code>
          {plan.persona !== undefined && (
            <>
              {' '}with persona <code>{plan.persona}</code>
            </>
          )}
          . Each command runs with your permissions, as JP would run it; the bridge prints it on its terminal. Environment variables are given by name from the
          terminal that ran <code>npm start</code>; their values are never shown or saved.
        </p>
        {hidden && <HiddenWarning hidden={plan.hidden} />}
        {plan.servers.length === 0 ? (
          <p data-testid="start-servers-none">This workspace declares no server that can start.</p>
        ) : (
          <ol className="bridge-plan">
            {plan.servers.map((s) => (
              <li key={s.name} data-testid="planned-server" data-server={s.name} className={running.has(s.name) ? 'planned-is-running' : undefined}>
                <div>
                  <strong>
                    <Visible text={s.name} />
                  </strong>{' '}
                  {s.optional ? <span className="word optional">optional</span> : <span className="word required">required</span>}
                  {running.has(s.name) && (
                    <span className="muted" data-testid="planned-running">
                      {' '}
                      already runs in the bridge with this command: left as it is, not started again
                    </span>
                  )}
                  {!s.jpStarts && (
                    <span className="muted" data-testid="planned-not-jp">
                      {' '}
                      JP would not start it (no tool names it yet): started only to list its tools
                    </span>
                  )}
                </div>
                <dl>
                  <dt>command</dt>
                  <dd>
                    <code className="bridge-command" data-testid="planned-command">
                      <CommandWords words={[s.command, ...s.arguments]} />
                    </code>
                  </dd>
                  <dt>in</dt>
                  <dd>
                    <code data-testid="planned-cwd">
                      <Visible text={s.cwd} />
                    </code>
                  </dd>
                  <dt>environment</dt>
                  <dd data-testid="planned-variables">{s.variables.length === 0 ? <span className="muted">inherited, nothing added</span> : s.variables.map((v) => (
                          <code key={v} className="bridge-var">
                            <Visible text={v} />
                          </code>
                        ))}</dd>
                </dl>
              </li>
            ))}
          </ol>
        )}
        {plan.notStarted.length > 0 && (
          <ul className="bridge-not-started" aria-label="Servers JP would not start" data-testid="start-servers-not-started">
            {plan.notStarted.map((x) => (
              <li key={x.server}>
                <code>
                  <Visible text={x.server} />
                </code>{' '}
                is not started, as JP would not start it: <Visible text={x.reason} />
              </li>
            ))}
          </ul>
        )}
        {plan.problems.length > 0 && (
          <ul className="bridge-problems" aria-label="Servers that cannot start">
            {plan.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
        {asking ? (
          <div className="bridge-actions bridge-again" role="alertdialog" aria-label="Confirm hidden characters" data-testid="start-servers-again">
            <span>
              Run {n === 1 ? 'this command' : 'these commands'} with the hidden characters marked above, exactly as escaped? A command a workspace did not mean to
              hide would not need them.
            </span>
            <button type="button" ref={cancelAgain} onClick={close} data-testid="start-servers-cancel-again">
              Cancel
            </button>
            <button type="button" className="primary bridge-danger" disabled={busy} onClick={start} data-testid="start-servers-confirm-hidden">
              {busy ? 'Starting…' : 'Start with hidden characters'}
            </button>
          </div>
        ) : (
          <div className="bridge-actions">
            <button type="button" ref={cancel} onClick={close} data-testid="start-servers-cancel">
              Cancel
            </button>
            <button type="button" className="primary" disabled={busy || n === 0} onClick={start} data-testid="start-servers-confirm">
              {busy ? 'Starting…' : `Start ${n} server${n === 1 ? '' : 's'}${hidden ? '…' : ''}`}
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
