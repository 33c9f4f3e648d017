// The workbench's built-in commands. Features add their own through the same registry.
import { CommandRegistry } from '../commands/registry';
import { pickScenarioFile, saveScenario } from '../features/files/files';
import { workspaceCommands } from '../features/workspace/open';
import { importCommands } from '../features/import/commands';
import { serversCommands } from '../features/servers/commands';
import { findabilityCommands } from '../features/findability/commands';
import { tasksCommands } from '../features/tasks/commands';
import { bridgeCommands } from '../features/bridge/commands';
import { costCommands } from '../features/cost/commands';
import { shareCommands } from '../features/share/share';
import { historyCommands, recentDocumentCommands } from '../features/history/commands';
import { stepUndoCommands } from '../features/timeline/commands';
import { scenarioDocFromText } from '../core';
import { focusPanel } from './panelFocus';
import demoText from './demo-scenario.toml?raw';

export function demoDoc() {
  const parsed = scenarioDocFromText(demoText);
  if (!parsed.ok) throw new Error(`the built-in demo scenario does not parse: ${parsed.errors[0]?.message ?? ''}`);
  return parsed.doc;
}

export function createCommands(): CommandRegistry {
  return new CommandRegistry()
    .register(...workspaceCommands)
    .register(...importCommands, ...serversCommands, ...findabilityCommands, ...bridgeCommands, ...costCommands, ...tasksCommands)
    .register(...shareCommands)
    .register(...historyCommands)
    .registerSource(recentDocumentCommands)
    .registerSource(stepUndoCommands)
    .register(
    { id: 'palette.open', title: 'Open the command palette', shortcut: 'Mod+K', run: ({ store }) => store.getState().setPaletteOpen(true) },
    { id: 'file.open', title: 'Open a scenario file…', shortcut: 'Mod+O', group: 'File', run: ({ store }) => pickScenarioFile(store) },
    { id: 'file.save', title: 'Save the scenario file', shortcut: 'Mod+S', group: 'File', run: ({ store }) => saveScenario(store) },
    {
      id: 'file.demo',
      title: 'Load the demo scenario',
      group: 'File',
      run: ({ store }) => {
        store.getState().replaceDoc(demoDoc(), { kind: 'demo' });
      },
    },
    { id: 'focus.nextPanel', title: 'Move the focus to the next panel', shortcut: 'F6', group: 'View', run: () => focusPanel(1) },
    { id: 'focus.previousPanel', title: 'Move the focus to the previous panel', shortcut: 'Shift+F6', group: 'View', run: () => focusPanel(-1) },
    { id: 'layer.add', title: 'Add a layer', group: 'Layers', run: ({ store }) => store.getState().addLayer() },
    { id: 'dock.simulator', title: 'Show the simulator', shortcut: 'Alt+1', group: 'View', run: ({ store }) => store.getState().setDockTab('simulator') },
    { id: 'dock.requests', title: 'Show the request inspector', shortcut: 'Alt+2', group: 'View', run: ({ store }) => store.getState().setDockTab('requests') },
    { id: 'dock.chart', title: 'Show the cost chart', shortcut: 'Alt+3', group: 'View', run: ({ store }) => store.getState().setDockTab('chart') },
    { id: 'dock.search', title: 'Show the search lab', shortcut: 'Alt+4', group: 'View', run: ({ store }) => store.getState().setDockTab('search') },
    { id: 'dock.questions', title: 'Show the open questions', shortcut: 'Alt+5', group: 'View', run: ({ store }) => store.getState().setDockTab('questions') },
  );
}
