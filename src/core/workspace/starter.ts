// The steps a new scenario around an opened workspace starts with. A turn that calls tools the
// workspace does not configure only shows red errors the user must delete (issue 24.4), so the
// worked example (JP's own failing-test turn) is offered only to a workspace that has every tool it
// calls; any other workspace starts with no steps and the timeline's "first step" offer.
import { loadLayer } from '../config/layer';
import type { StepDoc } from '../scenario/doc';

/** JP's own worked example: a developer fixing a failing test. */
export const JP_DEMO_STEP: StepDoc = {
  command: "jp q 'Fix the failing test in jp_config'",
  cycles: [
    { calls: [{ tool: 'cargo_test', args: { package: 'jp_config' }, result: 'test merge::tests::persona_after_workspace ... FAILED' }] },
    { calls: [{ tool: 'fs_read_file', args: { path: 'crates/jp_config/src/merge.rs' }, result: 'pub fn merge(...) { ... }' }] },
    { calls: [], reply: 'The persona was merged before the workspace; fixed the order and the test passes.' },
  ],
};

/** Every tool name a `[conversation.tools.NAME]` table of any of the files configures (`*` aside). */
export function workspaceToolNames(files: Readonly<Record<string, string>>): Set<string> {
  const names = new Set<string>();
  for (const [path, text] of Object.entries(files)) {
    if (!path.endsWith('.toml')) continue;
    for (const name of loadLayer({ name: path, text }).config.tools.keys()) if (name !== '*') names.add(name);
  }
  return names;
}

/** The steps of a new scenario around the workspace: the worked example when its tools are all there, else none. */
export function workspaceStarterSteps(files: Readonly<Record<string, string>>): StepDoc[] {
  const names = workspaceToolNames(files);
  const calls = JP_DEMO_STEP.cycles.flatMap((c) => c.calls.map((call) => call.tool));
  // A copy each time: the document that holds it is the user's to edit.
  return calls.every((tool) => names.has(tool)) ? [JSON.parse(JSON.stringify(JP_DEMO_STEP)) as StepDoc] : [];
}
