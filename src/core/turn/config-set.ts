// `jp config set` steps (semantics 8.2): `--id` appends a delta on the conversation; without it the
// command edits a layer file, format-preserving, and the edit applies to every later position.
import { assignmentToDelta } from '../config/assign';
import type { CfgAssignment } from '../cli/parse';
import { editLayer } from '../config/edit';
import { loadLayer } from '../config/layer';
import { mergeConfigs } from '../config/merge';
import { EMPTY_CONFIG } from '../config/read';
import type { Origin, PartialConfig } from '../config/types';
import { nextDeltaNumber } from './conversation';
import type { Conversation } from './conversation';

/** `jp config set --id KEY=VALUE...`: one delta of every assignment; returns why not, if not. */
export function setConversationConfig(conv: Conversation, stepNo: number, command: string, assignments: readonly CfgAssignment[]): string | undefined {
  const deltaNumber = nextDeltaNumber(conv.engine);
  let delta: PartialConfig = EMPTY_CONFIG;
  for (const a of assignments) {
    const origin: Origin = { kind: 'delta', delta: deltaNumber, source: 'config-set', detail: `jp config set --id ${a.key}${a.json ? ':=' : '='}${a.value}` };
    const r = assignmentToDelta(a, origin);
    if (!r.ok) return r.error;
    delta = mergeConfigs(delta, r.delta);
  }
  const pos = conv.engine.applyDelta(delta, { sources: ['config-set'], detail: command, step: stepNo });
  if (pos) conv.entries.push({ kind: 'delta', step: stepNo, position: pos.index });
  return undefined;
}

/** `jp config set [--layer NAME] KEY=VALUE...`: edits the layer's text; an edit that leaves it invalid is refused. */
export function editLayerFile(conv: Conversation, stepNo: number, command: string, layerName: string, assignments: readonly CfgAssignment[]): string | undefined {
  const { layers } = conv;
  const at = layers.findIndex((l) => l.name === layerName);
  const current = layers[at];
  if (!current) return `no layer named \`${layerName}\` (layers: ${layers.map((l) => l.name).join(', ') || 'none'})`;
  const edited = editLayer(current.text, assignments);
  if (!edited.ok) return edited.error;
  const layer = { name: current.name, text: edited.text };
  const loadedLayer = loadLayer(layer);
  // Checked before the edit is kept: a refused edit leaves the conversation as it was, so a later edit of
  // another layer (which hands the engine every loaded layer) must not bring it in.
  const errors = loadedLayer.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) return `the edit leaves layer \`${layerName}\` invalid: ${errors[0]?.message ?? ''}`;
  conv.layers = layers.map((l, i) => (i === at ? layer : l));
  conv.loaded = conv.loaded.map((l, i) => (i === at ? loadedLayer : l));
  const pos = conv.engine.replaceLayers(conv.loaded, { kind: 'layer-edit', layer: layerName, detail: command, step: stepNo });
  conv.entries.push({ kind: 'layer-edit', step: stepNo, layer: layerName, position: pos.index });
  return undefined;
}
