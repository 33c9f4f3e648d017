// The timeline's commands that come and go with the state: the palette offers the undo of a step
// deletion only while the document still accepts it (liveStepUndo), never as a command doing nothing.
import type { CommandSource } from '../../commands/registry';
import { liveStepUndo } from '../../state/store';

export const stepUndoCommands: CommandSource = ({ store }) => {
  const undo = liveStepUndo(store.getState());
  if (!undo) return [];
  return [
    {
      id: 'timeline.undoDelete',
      title: `Timeline: undo the step deletion (step ${undo.index + 1})`,
      group: 'Timeline',
      run: ({ store: s }) => s.getState().undoStepDelete(),
    },
  ];
};
