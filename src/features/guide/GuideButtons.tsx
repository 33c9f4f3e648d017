// The header's Tour and Help buttons, their commands, and the tour and help themselves.
import { useEffect, useState } from 'react';
import { useCommands } from '../../commands/context';
import { useWorkbench } from '../../state/context';
import { Help } from './Help';
import { Tour } from './Tour';

export function GuideButtons() {
  const registry = useCommands();
  const setTourStep = useWorkbench((s) => s.setTourStep);
  const touring = useWorkbench((s) => s.tourStep !== undefined);
  const [help, setHelp] = useState(false);
  useEffect(() => {
    registry.register(
      { id: 'guide.tour', title: 'Start the guided tour (← → to step, Esc to end)', group: 'Help', run: ({ store }) => store.getState().setTourStep(0) },
      { id: 'guide.help', title: "Help: the README's tour", shortcut: 'F1', group: 'Help', run: () => setHelp(true) },
    );
  }, [registry]);
  return (
    <>
      <button type="button" onClick={() => setTourStep(touring ? undefined : 0)} aria-pressed={touring} data-testid="tour-button" title="A guided tour of the first screen, stepped with the keyboard">
        Tour
      </button>
      <button type="button" onClick={() => setHelp(true)} aria-label="Help: the README's tour" title="Help: the README's tour (F1)" data-testid="help-button">
        ?
      </button>
      {help && <Help onClose={() => setHelp(false)} />}
      <Tour />
    </>
  );
}
