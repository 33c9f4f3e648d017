// Catalogue-sized models are tokenized where they are shown, never whole in the background.
//
// Monaco's default background tokenizer runs the language's tokenizer over every line of a model while
// the page is idle and keeps every line's tokens: for a 10,000-tool catalogue layer (225,000 lines) that
// was ~55 MB of kept tokens (an ArrayBuffer per line) and the garbage of computing them, and V8 grew the
// page's young generation to its largest for them (bench/ui-live.ts: the tab's memory as found 586 MB
// with it, 476 MB with no tokenization at all), all for lines nobody looks at. Here such a model has a
// background tokenizer that does nothing; the lines in view are tokenized by Monaco's viewport path
// (which starts from a state guessed from the lines above: TOML tables are unindented, so a table starts
// from the initial state; a view that opens inside a multi-line string shows its lines as TOML until the
// string's end), and after each edit the lines in view are tokenized again (Monaco refreshes them only
// when the lines in view change, so a line typed without scrolling stayed plain: the first attempt at
// this was backed out for that; and the lines first shown when the model is attached are reported to
// Monaco before this tokenizer exists, so they are refreshed here from the editors that show the model). Monaco's typing features skip auto-closing and language-aware
// indentation on a line whose state is not cheap to compute, rather than tokenizing up to it.
import { editor as monacoEditor } from 'monaco-editor/editor/editor.api';
import type { editor } from 'monaco-editor/editor/editor.api';
import { TokenizationRegistry } from 'monaco-editor/editor/common/languages';
import type { BackgroundTokenizer } from 'monaco-editor/editor/common/languages';
import { BACKGROUND_TOKENIZE_MAX_CHARS } from './toml-language';

/** After the view is attached, its lines are reported after a 50 ms debounce: refresh after it too. */
const AFTER_ATTACH_MS = 120;

/** Lines above and below those in view tokenized with them, so a short scroll finds them done. */
const MARGIN_LINES = 20;

interface TokenBackend {
  /** Tokenizes the lines (1-based, inclusive) as the viewport does: from a state guessed from the lines above. */
  refreshRange?(startLineNumber: number, endLineNumber: number): void;
}

/** The model's token backend (internal, untyped): the part that tokenizes the lines the views show. */
function backendOf(model: editor.ITextModel): TokenBackend | undefined {
  return (model as unknown as { tokenization?: { tokens?: { get?(): TokenBackend } } }).tokenization?.tokens?.get?.();
}

/** A background tokenizer that tokenizes nothing but, soon after each edit or attachment, the lines the model's editors show. */
function viewportOnly(model: editor.ITextModel): BackgroundTokenizer {
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let pending = false;
  const refresh = (): void => {
    pending = false;
    if (model.isDisposed()) return;
    const backend = backendOf(model);
    if (!backend?.refreshRange) return;
    const lineCount = model.getLineCount();
    for (const e of monacoEditor.getEditors()) {
      if (e.getModel() !== model) continue;
      for (const r of e.getVisibleRanges()) backend.refreshRange(Math.max(1, r.startLineNumber - MARGIN_LINES), Math.min(lineCount, r.endLineNumber + MARGIN_LINES));
    }
  };
  const after = (ms: number): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      refresh();
    }, ms);
    timers.add(t);
  };
  // Edits come a keystroke at a time: one refresh for those of a task.
  const soon = (): void => {
    if (pending) return;
    pending = true;
    after(0);
  };
  const subscriptions = [
    model.onDidChangeContent(soon),
    model.onDidChangeAttached(() => {
      soon();
      after(AFTER_ATTACH_MS);
    }),
  ];
  soon();
  after(AFTER_ATTACH_MS);
  return {
    dispose: () => {
      for (const s of subscriptions) s.dispose();
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
    requestTokens: () => undefined,
  };
}

/** Gives the language's models longer than BACKGROUND_TOKENIZE_MAX_CHARS the viewport-only tokenization. Call after its tokenizer is registered. */
export function tokenizeLargeModelsInView(languageId: string): void {
  const support = TokenizationRegistry.get(languageId);
  if (support) support.createBackgroundTokenizer = (model) => (model.getValueLength() > BACKGROUND_TOKENIZE_MAX_CHARS ? viewportOnly(model) : undefined);
}
