// The findability quick fix (issue 17): write the summary the core proposes for a hard-to-find
// tool ("add a summary", "add the words its tasks use"), as one format-preserving splice of the
// layer, the way `jp config set conversation.tools.NAME.summary=...` would. Pure.
import { editLayerSplice } from '../core/config/edit';
import type { Splice } from '../core/config/edit-primitives';

export const FINDABILITY_CODE = 'findability';

export function summaryFix(text: string, tool: string, summary: string): Splice | undefined {
  const r = editLayerSplice(text, { path: ['conversation', 'tools', tool, 'summary'], value: summary, json: false });
  return r.ok && (r.splice.insert !== '' || r.splice.start !== r.splice.end) ? r.splice : undefined;
}
