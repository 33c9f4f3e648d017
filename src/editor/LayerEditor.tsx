// The Monaco editor of the layers panel (lazy: this module and Monaco load after
// the first paint). One editor instance shows the selected layer's model; the
// models, their link to the store and the markers live in the session
// (session.ts), which outlives this component.
import { useEffect, useMemo, useRef, useState } from 'react';
import { focusBeside } from './focus';
import { useCommands } from '../commands/context';
import { matchesShortcut } from '../commands/registry';
import { useTimeline } from '../derive/hooks';
import { useFindability } from '../derive/findabilityHooks';
import { registerFindabilityActions, setFindabilityFixes } from './findability-actions';
import { useWorkbench, useWorkbenchStore } from '../state/context';
import { applySystemTheme, BASE_EDITOR_OPTIONS, monaco, setUpMonaco } from './monaco';
import { registerTomlProviders } from './providers';
import { serverInfos } from './schema-docs';
import { sessionFor } from './session';
import { installEditorTestHook } from './testing';
import './editor.css';

export interface LayerEditorProps {
  /** The selected layer. */
  readonly index: number;
  /** The id of the tab that labels this editor. */
  readonly labelledBy?: string;
}

const HIGHLIGHT_MS = 2000;

/**
 * What Tab does in the editor now: `indent` (Monaco's default), `leave` (Esc was pressed: the next Tab
 * or Shift+Tab leaves the editor, once), or `move` (tab-focus mode, Ctrl+M: Tab always moves focus).
 */
type TabKey = 'indent' | 'leave' | 'move';

const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta']);

const KEYS_TEXT: Record<TabKey, string> = {
  indent: 'Tab indents · Esc then Tab leaves · Ctrl+M: Tab moves focus',
  leave: 'Tab now leaves the editor · Shift+Tab: backwards',
  move: 'Tab moves focus · Ctrl+M: Tab indents again',
};

/** One line of fixed height whatever it says: a change of mode must not resize the editor under the cursor. */
function KeysLine({ mode }: { readonly mode: TabKey }) {
  return (
    <p className="layer-editor-keys" data-testid="layer-editor-keys" data-mode={mode} aria-live="polite" title={KEYS_TEXT[mode]}>
      {KEYS_TEXT[mode]}
    </p>
  );
}

export default function LayerEditor({ index, labelledBy }: LayerEditorProps) {
  const store = useWorkbenchStore();
  const commands = useCommands();
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const [tabKey, setTabKey] = useState<TabKey>('indent');
  // Read by the key listener, which is installed once with the editor.
  const tabKeyRef = useRef<TabKey>('indent');
  tabKeyRef.current = tabKey;
  const layers = useWorkbench((s) => s.doc.layers);
  const reveal = useWorkbench((s) => s.revealRequest);
  const { data: timeline } = useTimeline();
  const { data: findability } = useFindability();
  // The core's diagnostics, then findability's notes at hard-to-find tools (severity information).
  const diagnostics = useMemo(
    () => (timeline ? (findability && findability.diagnostics.length > 0 ? [...timeline.diagnostics, ...findability.diagnostics] : timeline.diagnostics) : undefined),
    [timeline, findability],
  );

  useEffect(() => {
    if (!host.current) return;
    setUpMonaco();
    registerTomlProviders(() => serverInfos(store.getState().doc.servers));
    const session = sessionFor(store);
    registerFindabilityActions((model) => store.getState().doc.layers[session.indexOfModel(model)]?.name);
    const ed = monaco.editor.create(host.current, {
      ...BASE_EDITOR_OPTIONS,
      tabSize: 2,
      insertSpaces: true,
      folding: true,
      showFoldingControls: 'mouseover',
      quickSuggestions: { other: true, strings: true, comments: false },
      // The suggest list waits for a pause in typing, not 10 ms (Monaco's default): asked on every
      // character, its work (the widget built the first time, ~13 ms) ran before the keystroke's new
      // counts could render, and typing on past it is not slowed by lists nobody reads.
      quickSuggestionsDelay: 120,
      suggestOnTriggerCharacters: true,
      suggest: { showWords: false, preview: false },
      lightbulb: { enabled: monaco.editor.ShowLightbulbIconMode.OnCode },
      hover: { delay: 350 },
      ariaLabel: 'Layer editor (TOML)',
    });
    editorRef.current = ed;
    session.editor = ed;
    store.getState().attachLayerEditor(session.bridge);
    const uninstall = installEditorTestHook(session);
    const focus = ed.onDidFocusEditorText(applySystemTheme);
    // Ctrl/⌘+K is the workbench's command palette; in Monaco it starts chords. The palette wins,
    // before Monaco sees the key (so no chord is left waiting).
    const palette = commands.get('palette.open');
    const node = host.current;
    // The keyboard's way out (WCAG 2.1.2): Ctrl+M toggles Monaco's tab-focus mode; Esc then Tab leaves
    // once. Esc still reaches Monaco first (it closes a suggestion or the find widget).
    const onKey = (e: KeyboardEvent) => {
      if (palette?.shortcut && matchesShortcut(e, palette.shortcut)) {
        e.preventDefault();
        e.stopPropagation();
        void palette.run({ store });
        return;
      }
      const mode = tabKeyRef.current;
      if (e.key.toLowerCase() === 'm' && e.ctrlKey && !e.altKey && !e.metaKey && !e.shiftKey) {
        e.preventDefault();
        e.stopPropagation();
        setTabKey(mode === 'move' ? 'indent' : 'move');
        return;
      }
      if (mode === 'move' || MODIFIERS.has(e.key)) return;
      if (e.key === 'Escape') {
        setTabKey('leave');
        return;
      }
      if (e.key === 'Tab' && mode === 'leave' && !e.ctrlKey && !e.altKey && !e.metaKey) {
        e.preventDefault();
        e.stopPropagation();
        setTabKey('indent');
        focusBeside(node, e.shiftKey ? 'before' : 'after');
        return;
      }
      if (mode === 'leave') setTabKey('indent');
    };
    const blur = ed.onDidBlurEditorWidget(() => {
      if (tabKeyRef.current === 'leave') setTabKey('indent');
    });
    node.addEventListener('keydown', onKey, true);
    return () => {
      node.removeEventListener('keydown', onKey, true);
      blur.dispose();
      focus.dispose();
      uninstall();
      store.getState().detachLayerEditor(session.bridge);
      if (session.editor === ed) session.editor = undefined;
      ed.dispose();
      editorRef.current = null;
    };
  }, [store, commands]);

  useEffect(() => {
    editorRef.current?.updateOptions({ tabFocusMode: tabKey === 'move' });
  }, [tabKey]);

  // The selected layer (and a layer list that changed under it).
  useEffect(() => {
    sessionFor(store).show(index);
  }, [store, index, layers]);

  useEffect(() => {
    if (diagnostics) sessionFor(store).setDiagnostics(diagnostics);
  }, [store, diagnostics]);

  useEffect(() => setFindabilityFixes(findability?.fixes ?? []), [findability]);

  // A line another panel asked to see (provenance links, edits from the sets panel).
  const highlight = useRef<{ clear(): void } | undefined>(undefined);
  useEffect(() => {
    const ed = editorRef.current;
    if (!reveal || !ed) return;
    const session = sessionFor(store);
    session.show(reveal.index);
    const model = ed.getModel();
    if (!model || session.indexOfModel(model) !== reveal.index) return;
    const line = Math.min(reveal.line, model.getLineCount());
    const column = Math.min(reveal.column, model.getLineMaxColumn(line));
    ed.setPosition({ lineNumber: line, column });
    ed.revealLineInCenterIfOutsideViewport(line, monaco.editor.ScrollType.Smooth);
    highlight.current?.clear();
    const deco = ed.createDecorationsCollection([
      { range: new monaco.Range(line, 1, line, 1), options: { isWholeLine: true, className: 'layer-reveal-line', linesDecorationsClassName: 'layer-reveal-gutter' } },
    ]);
    const timer = window.setTimeout(() => deco.clear(), HIGHLIGHT_MS);
    highlight.current = {
      clear() {
        window.clearTimeout(timer);
        deco.clear();
      },
    };
    if (reveal.focus) ed.focus();
    store.getState().consumeReveal(reveal.seq);
  }, [store, reveal]);
  useEffect(() => () => highlight.current?.clear(), []);

  return (
    <div className="layer-editor">
      <div ref={host} className="layer-editor-host" data-testid="layer-editor" aria-labelledby={labelledBy} />
      <KeysLine mode={tabKey} />
    </div>
  );
}
