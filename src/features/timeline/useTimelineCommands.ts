// The timeline's actions as commands (palette, tests): they read the navigation and the step editor
// of the latest render. The undo of a step deletion is a command source (commands.ts): offered only
// while there is a deletion to undo.
import { useEffect, useRef } from 'react';
import { useCommands } from '../../commands/context';
import type { TimelineView } from '../../derive/protocol';
import { useDeriveClient } from '../../derive/queries';
import { nextProblem } from './rows';
import type { StepEditor } from './useStepEditor';
import type { TimelineNavigation } from './useTimelineNavigation';

export function useTimelineCommands(view: TimelineView | undefined, nav: TimelineNavigation, editor: StepEditor): void {
  const latest = useRef({ view, nav, editor });
  latest.current = { view, nav, editor };
  const registry = useCommands();
  const client = useDeriveClient();
  useEffect(() => {
    const a = () => latest.current;
    const onStep = (run: (editor: StepEditor, step: number) => void) => () => {
      const { nav: n, editor: ed } = a();
      if (n.currentStep !== undefined) run(ed, n.currentStep);
    };
    registry.register(
      { id: 'timeline.next', title: 'Timeline: next position', group: 'Timeline', run: () => void a().nav.move('ArrowDown') },
      { id: 'timeline.previous', title: 'Timeline: previous position', group: 'Timeline', run: () => void a().nav.move('ArrowUp') },
      { id: 'timeline.first', title: 'Timeline: first position (base config)', group: 'Timeline', run: () => void a().nav.move('Home') },
      { id: 'timeline.last', title: 'Timeline: last position', group: 'Timeline', run: () => void a().nav.move('End') },
      {
        id: 'timeline.nextProblem',
        title: 'Timeline: next failed expectation or step error',
        group: 'Timeline',
        run: async ({ store }) => {
          const { view: v, nav: n } = a();
          if (!v) return;
          // Refused requests are problems too: the worker reads every request's findings, on this key only.
          const next = nextProblem(await client.call('problemRows', { revision: v.revision }), n.selected ?? -1);
          if (next !== undefined) store.getState().selectEntry(next);
        },
      },
      { id: 'timeline.addStep', title: 'Add a step (the jp command field under the timeline)', shortcut: 'Alt+P', group: 'Timeline', run: () => a().editor.fieldRef.current?.focus() },
      {
        id: 'check.firstProblem',
        title: 'Go to the first failing row (the pass/fail count)',
        group: 'Timeline',
        run: ({ store }) => {
          const first = a().view?.problemEntries[0];
          if (first === undefined) return;
          store.getState().selectEntry(first);
          a().nav.listRef.current?.focus();
        },
      },
      { id: 'timeline.editStep', title: 'Timeline: edit the selected step', group: 'Timeline', run: onStep((ed, s) => ed.startEdit(s)) },
      { id: 'timeline.deleteStep', title: 'Timeline: delete the selected step', group: 'Timeline', run: onStep((ed, s) => ed.deleteStep(s)) },
    );
  }, [registry, client]);
}
