// Language features of TOML layers, registered once: completions and hovers
// from the config schema (schema-docs.ts, with the cursor's context from
// toml-context.ts), the "keep availability" quick fix, and folding by tables.
// Hover and completion markdown is untrusted: no HTML, no command links.
import { monaco } from './monaco';
import { TOML_LANGUAGE_ID } from './toml-language';
import { contextAt, tokenAt } from './toml-context';
import { headerCompletions, keyCompletions, keyHover, valueCompletions, valueHover } from './schema-docs';
import type { CompletionEntry, ServerInfo } from './schema-docs';
import { BOTH_KEYS_CODE, KEEP_AVAILABILITY_TITLE, keepAvailabilityFix } from './quick-fix';
import { FoldingScan, foldingRanges } from './folding';
import type { FoldRange } from './folding';

type Servers = () => readonly ServerInfo[];

const markdown = (value: string): monaco.IMarkdownString => ({ value, isTrusted: false, supportHtml: false });

function itemKind(e: CompletionEntry): monaco.languages.CompletionItemKind {
  const K = monaco.languages.CompletionItemKind;
  switch (e.kind) {
    case 'key':
      return K.Property;
    case 'value':
      return K.EnumMember;
    case 'table':
      return K.Module;
    case 'snippet':
      return K.Snippet;
  }
}

function markerCode(m: monaco.editor.IMarkerData): string | undefined {
  return typeof m.code === 'string' ? m.code : m.code?.value;
}

/** Above this many characters a layer's folding waits for a pause in the typing. */
export const FOLD_AFTER_PAUSE_CHARS = 256 * 1024;
/** The pause: longer than the gap between keystrokes of someone typing. */
const FOLD_PAUSE_MS = 750;

/**
 * Folding by tables and comment runs (folding.ts: one pass over the text, fewer regions in big
 * layers). Monaco asks again after every edit and cancels the question when the next edit comes;
 * in a catalogue layer the pass reads megabytes, so it waits for a pause in the typing (the folds
 * already shown move with the text meanwhile) instead of running per keystroke.
 */
async function foldTables(model: monaco.editor.ITextModel, token: monaco.CancellationToken): Promise<monaco.languages.FoldingRange[] | null> {
  if (model.getValueLength() > FOLD_AFTER_PAUSE_CHARS) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, FOLD_PAUSE_MS);
      token.onCancellationRequested(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    if (token.isCancellationRequested || model.isDisposed()) return null;
  }
  const K = monaco.languages.FoldingRangeKind;
  const ranges = model.getValueLength() > FOLD_AFTER_PAUSE_CHARS ? await foldInSlices(model, token) : foldingRanges(model.getValue());
  return ranges?.map((r) => ({ start: r.start, end: r.end, kind: r.kind === 'comment' ? K.Comment : K.Region })) ?? null;
}

/** Lines read and scanned in one task of a catalogue-sized layer's folding. */
const FOLD_SLICE_LINES = 20_000;

/**
 * A catalogue-sized layer's folding, a slice of lines at a time with the page's other work between the
 * slices: read and scanned whole it was one 57 ms task at 10,000 tools (225,000 lines), long enough to
 * be felt when it landed on a scroll. An edit meanwhile cancels the question (Monaco asks again).
 */
async function foldInSlices(model: monaco.editor.ITextModel, token: monaco.CancellationToken): Promise<FoldRange[] | null> {
  const scan = new FoldingScan();
  const lines = model.getLineCount();
  for (let from = 1; from <= lines; from += FOLD_SLICE_LINES) {
    if (from > 1) await new Promise((resolve) => setTimeout(resolve, 0));
    if (token.isCancellationRequested || model.isDisposed()) return null;
    const to = Math.min(lines, from + FOLD_SLICE_LINES - 1);
    scan.feed(model.getValueInRange({ startLineNumber: from, startColumn: 1, endLineNumber: to, endColumn: model.getLineMaxColumn(to) }));
  }
  return scan.finish();
}

let registered = false;

export function registerTomlProviders(servers: Servers): void {
  if (registered) return;
  registered = true;

  monaco.languages.registerCompletionItemProvider(TOML_LANGUAGE_ID, {
    triggerCharacters: ['.', '"', "'", '[', ' ', '{', ','],
    provideCompletionItems(model, position, context) {
      const line = position.lineNumber;
      const ctx = contextAt((n) => model.getLineContent(n), line, position.column);
      const trigger = context.triggerCharacter;
      if (trigger === ' ' || trigger === ',' || trigger === '{') {
        // Only right after `=` (a value) or inside an inline table (a key) do these open the list.
        const ok = (ctx.kind === 'value' && ctx.prefix === '' && ctx.quote === undefined) || (ctx.kind === 'key' && ctx.prefix === '' && trigger !== ' ');
        if (!ok) return { suggestions: [] };
      }
      let entries: CompletionEntry[] = [];
      let start = position.column;
      let end = position.column;
      const full = model.getLineContent(line);
      if (ctx.kind === 'header') {
        entries = headerCompletions(ctx.segments, ctx.array, servers());
        start = ctx.startColumn;
        end = ctx.endColumn;
      } else if (ctx.kind === 'key') {
        entries = keyCompletions(ctx.parent, servers());
        start = ctx.startColumn;
        end = ctx.endColumn;
      } else if (ctx.kind === 'value') {
        entries = valueCompletions(ctx.path, ctx.quote !== undefined, servers());
        start = ctx.startColumn;
        end = ctx.endColumn;
      }
      const suggestions = entries.map((e): monaco.languages.CompletionItem => {
        let replaceEnd = Math.max(end, position.column);
        // A header snippet ends the header itself: take an auto-closed `]` with it.
        if (ctx.kind === 'header' && e.insertText.includes(']')) {
          const rest = full.slice(replaceEnd - 1);
          const m = /^\s*\]\]?/u.exec(rest);
          if (m) replaceEnd += m[0].length;
        }
        return {
          label: e.label,
          kind: itemKind(e),
          insertText: e.insertText,
          ...(e.snippet ? { insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet } : {}),
          detail: e.detail,
          documentation: markdown(e.doc),
          ...(e.filterText ? { filterText: e.filterText } : {}),
          ...(e.sortText ? { sortText: e.sortText } : {}),
          ...(e.preselect ? { preselect: true } : {}),
          ...(e.deprecated ? { tags: [monaco.languages.CompletionItemTag.Deprecated] } : {}),
          ...(e.retrigger ? { command: { id: 'editor.action.triggerSuggest', title: 'Suggest' } } : {}),
          range: {
            insert: new monaco.Range(line, start, line, position.column),
            replace: new monaco.Range(line, start, line, replaceEnd),
          },
        };
      });
      return { suggestions };
    },
  });

  monaco.languages.registerHoverProvider(TOML_LANGUAGE_ID, {
    provideHover(model, position) {
      const line = position.lineNumber;
      const t = tokenAt((n) => model.getLineContent(n), line, position.column);
      if (!t) return null;
      const md = t.role === 'value' ? valueHover(t.path, t.text, t.valueKind ?? 'other', servers()) : keyHover(t.path, servers());
      if (!md) return null;
      return { range: new monaco.Range(line, t.startColumn, line, t.endColumn), contents: [markdown(md)] };
    },
  });

  monaco.languages.registerCodeActionProvider(
    TOML_LANGUAGE_ID,
    {
      provideCodeActions(model, _range, context) {
        const markers = context.markers.filter((m) => markerCode(m) === BOTH_KEYS_CODE);
        if (markers.length === 0) return { actions: [], dispose() {} };
        const text = model.getValue();
        const seen = new Set<string>();
        const actions: monaco.languages.CodeAction[] = [];
        for (const m of markers) {
          const offset = model.getOffsetAt({ lineNumber: m.startLineNumber, column: m.startColumn });
          const fix = keepAvailabilityFix(text, offset);
          if (!fix) continue;
          const key = `${fix.start}:${fix.end}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const a = model.getPositionAt(fix.start);
          const b = model.getPositionAt(fix.end);
          actions.push({
            title: KEEP_AVAILABILITY_TITLE,
            kind: 'quickfix',
            isPreferred: true,
            diagnostics: [m],
            edit: {
              edits: [
                {
                  resource: model.uri,
                  versionId: model.getVersionId(),
                  textEdit: { range: new monaco.Range(a.lineNumber, a.column, b.lineNumber, b.column), text: fix.insert },
                },
              ],
            },
          });
        }
        return { actions, dispose() {} };
      },
    },
    { providedCodeActionKinds: ['quickfix'] },
  );

  monaco.languages.registerFoldingRangeProvider(TOML_LANGUAGE_ID, {
    provideFoldingRanges: (model, _context, token) => foldTables(model, token),
  });
}
