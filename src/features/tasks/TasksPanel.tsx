// The Tasks tab (issue 15, RFD 108 phase 5): a task set run against the document's design, each task
// one more turn on a scratch copy, in the derive worker. Summary, filters, the virtualized table, a
// task's turn, and the last two runs side by side.
import { useEffect, useMemo } from 'react';
import { useTimeline } from '../../derive/hooks';
import { useDeriveClient } from '../../derive/queries';
import { runTaskSet } from './runner';
import { ModelAb } from './ModelAb';
import { setAbState, useAbStore } from './abStore';
import { RunComparison, RunSummary, TaskSetBar } from './parts';
import { TaskTable } from './TaskTable';
import { TaskTurn } from './TaskTurn';
import { setTaskState, useTaskStore } from './taskStore';
import './tasks.css';

export function TasksPanel() {
  const client = useDeriveClient();
  const { data: view } = useTimeline();
  const progress = useTaskStore((s) => s.progress);
  const runs = useTaskStore((s) => s.runs);
  const hidden = useTaskStore((s) => s.hidden);
  const selected = useTaskStore((s) => s.selected);
  const error = useTaskStore((s) => s.error);
  const taskErrors = useTaskStore((s) => s.taskErrors);
  const requested = useTaskStore((s) => s.runRequested);
  const revision = view && view.scenarioErrors.length === 0 ? view.revision : undefined;
  const run = () => {
    if (revision === undefined) setTaskState({ error: 'The scenario has errors; fix them before running tasks.' });
    else void runTaskSet(client, revision);
  };
  useEffect(() => {
    if (!requested || revision === undefined) return;
    setTaskState({ runRequested: false });
    void runTaskSet(client, revision);
  }, [requested, revision, client]);
  const mode = useAbStore((s) => s.mode);
  const current = runs[0];
  const rows = useMemo(() => (current ? current.run.results.filter((r) => !hidden.has(r.outcome)) : []), [current, hidden]);
  const open = selected !== undefined ? current?.run.results[selected] : undefined;
  return (
    <div className="tk" data-testid="tasks-panel">
      <div className="tk-modes" role="group" aria-label="What plays the tasks">
        <button type="button" aria-pressed={mode === 'policies'} data-testid="tk-mode-policies" onClick={() => setAbState({ mode: 'policies' })} title="Each task played by a simulated policy, in the worker: nothing is sent">
          Simulated policies
        </button>
        <button type="button" aria-pressed={mode === 'ab'} data-testid="tk-mode-ab" onClick={() => setAbState({ mode: 'ab' })} title="Each task played by your model in two arms of policy switches, through the bridge, with McNemar's exact test">
          Model A/B
        </button>
      </div>
      <TaskSetBar onRun={run} running={progress !== undefined} policyControls={mode === 'policies'} />
      {mode === 'ab' ? (
        <div className="tk-body">
          <ModelAb revision={revision} />
        </div>
      ) : (
        <>
          {error ? <p className="tk-error" role="alert">{error}</p> : null}
          {taskErrors.length > 0 ? (
            <p className="tk-error" role="alert" data-testid="tk-task-errors">
              {taskErrors.length} line{taskErrors.length === 1 ? '' : 's'} left out: {taskErrors.slice(0, 3).join('; ')}{taskErrors.length > 3 ? '…' : ''}
            </p>
          ) : null}
          {progress ? (
            <p className="tk-progress" role="status" data-testid="tk-progress">
              Running {progress.done.toLocaleString('en-US')} of {progress.total.toLocaleString('en-US')} tasks in the worker…
              <progress max={progress.total} value={progress.done} aria-label="Tasks run" />
            </p>
          ) : null}
          <div className="tk-body">
            {current ? (
              <>
                <RunSummary finished={current} />
                {runs[1] ? <RunComparison before={runs[1]} after={current} onOpen={(i) => setTaskState({ selected: i })} /> : null}
                <div className="tk-split">
                  <TaskTable rows={rows} selected={selected} onOpen={(i) => setTaskState({ selected: i })} />
                  {open ? <TaskTurn run={current.id} result={open} onClose={() => setTaskState({ selected: undefined })} /> : null}
                </div>
              </>
            ) : !progress ? (
              <div className="empty">
                Load a task set and run it: each task is played as one more <code>jp q</code> turn at the end of this scenario, on a scratch copy, by the policy you choose.
              </div>
            ) : null}
          </div>
        </>
      )}
    </div>
  );
}
