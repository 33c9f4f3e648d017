// The code action behind findability diagnostics: the worker sends, with each diagnostic, the
// summary that would help (FindabilityFixView); the editor keeps the newest list here and offers
// it at the marker's line as a quick fix (Ctrl+. or the lightbulb).
import type { FindabilityFixView } from '../derive/findabilityProtocol';
import { monaco } from './monaco';
import { FINDABILITY_CODE, summaryFix } from './findability-fix';
import { TOML_LANGUAGE_ID } from './toml-language';

const fixes = new Map<string, FindabilityFixView>();
const key = (layer: string, line: number) => `${layer}\u0000${line}`;
let layerOfModel: (model: monaco.editor.ITextModel) => string | undefined = () => undefined;
let registered = false;

export function setFindabilityFixes(list: readonly FindabilityFixView[]): void {
  fixes.clear();
  for (const f of list) fixes.set(key(f.layer, f.line), f);
}

/** Registers the provider once; `layerOf` names the layer a model holds. */
export function registerFindabilityActions(layerOf: (model: monaco.editor.ITextModel) => string | undefined): void {
  layerOfModel = layerOf;
  if (registered) return;
  registered = true;
  monaco.languages.registerCodeActionProvider(
    TOML_LANGUAGE_ID,
    {
      provideCodeActions(model, _range, context) {
        const layer = layerOfModel(model);
        const actions: monaco.languages.CodeAction[] = [];
        for (const m of context.markers) {
          const code = typeof m.code === 'string' ? m.code : m.code?.value;
          const fix = layer !== undefined && code === FINDABILITY_CODE ? fixes.get(key(layer, m.startLineNumber)) : undefined;
          const splice = fix ? summaryFix(model.getValue(), fix.tool, fix.summary) : undefined;
          if (!fix || !splice) continue;
          const a = model.getPositionAt(splice.start);
          const b = model.getPositionAt(splice.end);
          actions.push({
            title: fix.title,
            kind: 'quickfix',
            isPreferred: true,
            diagnostics: [m],
            edit: { edits: [{ resource: model.uri, versionId: model.getVersionId(), textEdit: { range: new monaco.Range(a.lineNumber, a.column, b.lineNumber, b.column), text: splice.insert } }] },
          });
        }
        return { actions, dispose() {} };
      },
    },
    { providedCodeActionKinds: ['quickfix'] },
  );
}
