// The Tasks tab's commands: show it, run the task set with the chosen policy, open the model A/B,
// export the last run.
import type { Command } from '../../commands/registry';
import { exportRun } from './parts';
import { setAbState } from './abStore';
import { setTaskState, useTaskStore } from './taskStore';

function exportLast(kind: 'jsonl' | 'csv', show: (m: string) => void): void {
  const last = useTaskStore.getState().runs[0];
  if (!last) show('No task run to export yet: run a task set first.');
  else exportRun(last.run, kind);
}

export const tasksCommands: Command[] = [
  { id: 'dock.tasks', title: 'Show the task runs', shortcut: 'Alt+0', group: 'View', run: ({ store }) => store.getState().setDockTab('tasks') },
  {
    id: 'tasks.run',
    title: 'Tasks: run the task set with the chosen policy',
    group: 'Tasks',
    run: ({ store }) => {
      store.getState().setDockTab('tasks');
      setTaskState({ runRequested: true });
    },
  },
  {
    id: 'tasks.model-ab',
    title: 'Tasks: model A/B of policy switches on your model (through the bridge)',
    group: 'Tasks',
    run: ({ store }) => {
      store.getState().setDockTab('tasks');
      setAbState({ mode: 'ab' });
    },
  },
  { id: 'tasks.export-jsonl', title: 'Tasks: export the last run as JSONL', group: 'Tasks', run: ({ store }) => exportLast('jsonl', (m) => store.getState().showBanner('info', m)) },
  { id: 'tasks.export-csv', title: 'Tasks: export the last run as CSV', group: 'Tasks', run: ({ store }) => exportLast('csv', (m) => store.getState().showBanner('info', m)) },
];
