// A task run driven from the page: start it in the worker, then ask for a few tasks at a time, so
// the worker answers derivations (typing) between chunks and the page shows progress as it goes.
import type { DeriveClient } from '../../derive/client';
import { useTaskStore, setTaskState } from './taskStore';
import type { FinishedRun } from './taskStore';

/** Tasks per worker call: a few hundred milliseconds of worker time on a 200-tool catalogue. */
const CHUNK = 10;

export async function runTaskSet(client: DeriveClient, revision: number): Promise<void> {
  const { text, settings, progress } = useTaskStore.getState();
  if (progress) return;
  if (text.trim() === '') {
    setTaskState({ error: 'Load, drop or paste a task set first: {"query": "...", "relevant": ["tool", ...]} per line.' });
    return;
  }
  setTaskState({ error: undefined, selected: undefined });
  try {
    const started = await client.call('tasksStart', { revision, tasks: text, settings });
    setTaskState({ taskErrors: started.taskErrors, progress: { run: started.run, done: 0, total: started.total, results: [] } });
    if (started.total === 0) {
      setTaskState({ progress: undefined, error: 'The task set has no task that could be read.' });
      return;
    }
    for (;;) {
      const chunk = await client.call('tasksNext', { run: started.run, count: CHUNK });
      const now = useTaskStore.getState().progress;
      if (!now || now.run !== started.run) return;
      const results = [...now.results, ...chunk.results];
      setTaskState({ progress: { ...now, done: chunk.done, results } });
      if (chunk.finished) {
        const s = settings;
        const label = `${s.policy}, categories ${s.categories ? 'in the prompt' : 'off'}, limit ${s.limit}, revision ${revision}`;
        const finished: FinishedRun = { id: started.run, run: { ...chunk.finished, results }, label };
        setTaskState({ progress: undefined, runs: [finished, ...useTaskStore.getState().runs].slice(0, 2) });
        return;
      }
    }
  } catch (e) {
    setTaskState({ progress: undefined, error: `The run stopped: ${e instanceof Error ? e.message : String(e)}` });
  }
}

export function cancelTaskRun(): void {
  setTaskState({ progress: undefined });
}
