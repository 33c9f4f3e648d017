// Tool names the chosen provider refuses, reported at each tool's declaration in its layer (the
// editor puts the marker there). Severity is the provider's: an error where a request offering the
// tool is refused, a warning where it only loses something. They carry the code `provider-rule`: a
// provider finding never fails a check unless the scenario expects it (design: docs/scenario-format.md
// "provider_warnings"), because the layer itself is valid JP config.
import type { Layer } from '../config/layer';
import { positioned } from '../config/layer';
import { LineIndex } from '../config/toml-ast';
import type { Diagnostic } from '../config/types';
import { checkToolName } from '../providers/rules';
import type { ProviderId } from '../providers/types';
import type { ToolState } from '../stream/engine';

export const PROVIDER_RULE = 'provider-rule';

/** `indexes`: line indexes of the layers by name, shared by callers that ask tool by tool. */
export function providerNameDiagnostics(states: Iterable<ToolState>, layers: readonly Layer[], provider: ProviderId, indexes = new Map<string, LineIndex>()): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const st of states) {
    const found = checkToolName(provider, st.name);
    if (found.length === 0) continue;
    const d = st.config.declared;
    const text = d.kind === 'layer' ? layers.find((l) => l.name === d.layer)?.text : undefined;
    for (const f of found) {
      const message = f.message;
      if (d.kind === 'layer' && text !== undefined) {
        let index = indexes.get(d.layer);
        if (!index) {
          index = new LineIndex(text);
          indexes.set(d.layer, index);
        }
        out.push(positioned(d.layer, index, f.severity, message, d.span, PROVIDER_RULE));
      } else out.push({ severity: f.severity, message, code: PROVIDER_RULE });
    }
  }
  return out;
}
