// The layers panel: its tabs, the Monaco editor (driven by keyboard, read
// through window.__layerEditor), and the layer actions (window.__workbenchLayers).
import type { Locator, Page } from '@playwright/test';
import type { EditOutcome } from '../../src/state/editsSlice';
import type { MarkerView } from '../../src/editor/testing';

export class LayersPage {
  constructor(readonly page: Page) {}

  panel(): Locator {
    return this.page.getByRole('region', { name: 'Layers' });
  }

  tabs(): Locator {
    return this.panel().getByRole('tab');
  }

  /** The tab of a layer (its accessible name starts with the layer's name, then its problem count). */
  tab(name: string): Locator {
    return this.panel().locator(`[role="tab"][data-layer="${name}"]`);
  }

  errorCount(name: string): Locator {
    return this.tab(name).getByTestId('layer-error-count');
  }

  editor(): Locator {
    return this.panel().locator('.monaco-editor');
  }

  async waitForEditor(): Promise<void> {
    await this.page.waitForFunction(() => window.__layerEditor !== undefined && window.__workbenchLayers?.editorLoaded() === true);
  }

  async select(name: string): Promise<void> {
    await this.tab(name).click();
    await this.page.waitForFunction((n) => {
      const i = window.__workbenchLayers?.selectedLayer();
      return i !== undefined && document.querySelector(`[role="tab"][data-layer="${n}"]`)?.getAttribute('aria-selected') === 'true' && window.__layerEditor?.shownIndex() === i;
    }, name);
  }

  /** Focuses the editor (Monaco 0.57 has no textarea in Chromium: click the lines). */
  async focusEditor(): Promise<void> {
    await this.editor().locator('.view-lines').click();
  }

  async setCursor(line: number, column: number): Promise<void> {
    await this.page.evaluate(([l, c]) => window.__layerEditor?.setCursor(l, c), [line, column] as const);
  }

  /** Puts the cursor at the end of the shown layer. */
  async cursorToEnd(): Promise<void> {
    await this.focusEditor();
    await this.page.keyboard.press('Control+End');
  }

  /** Inserts text at the cursor as one input (no auto-closing or auto-indent on the way). */
  async insert(text: string): Promise<void> {
    await this.page.keyboard.insertText(text);
  }

  value(index?: number): Promise<string | undefined> {
    return this.page.evaluate((i) => window.__layerEditor?.value(i), index);
  }

  markers(index?: number): Promise<MarkerView[]> {
    return this.page.evaluate((i) => window.__layerEditor?.markers(i) ?? [], index);
  }

  cursor(): Promise<{ lineNumber: number; column: number } | undefined> {
    return this.page.evaluate(() => window.__layerEditor?.cursor());
  }

  tokenize(text: string): Promise<[number, string][][]> {
    return this.page.evaluate((t) => window.__layerEditor?.tokenize(t) ?? [], text);
  }

  /** Moves the mouse over the character at (line, column) of the shown layer. */
  async hover(line: number, column: number): Promise<void> {
    const p = await this.page.evaluate(([l, c]) => window.__layerEditor?.pointAt(l, c), [line, column] as const);
    if (!p) throw new Error(`no point at ${line}:${column}`);
    await this.page.mouse.move(p.x, p.y - 30);
    await this.page.mouse.move(p.x, p.y, { steps: 4 });
  }

  hoverWidget(): Locator {
    return this.page.locator('.monaco-hover:not(.hidden)').filter({ has: this.page.locator('.hover-contents, .markdown-hover') });
  }

  suggestWidget(): Locator {
    return this.page.locator('.suggest-widget.visible');
  }

  suggestionLabels(): Promise<string[]> {
    return this.suggestWidget().locator('.monaco-list-row .label-name').allTextContents();
  }

  /** The entries of the quick-fix menu (Ctrl+.). */
  quickFixes(): Locator {
    return this.page.locator('.action-widget .monaco-list-row.action');
  }

  setToolAvailability(tool: string, availability: 'on' | 'off' | 'discoverable'): Promise<EditOutcome | undefined> {
    return this.page.evaluate(([t, a]) => window.__workbenchLayers?.setToolAvailability(t, a), [tool, availability] as const);
  }

  revealInLayer(layer: string, line: number, column = 1): Promise<boolean | undefined> {
    return this.page.evaluate(([l, n, c]) => window.__workbenchLayers?.revealInLayer(l, n, c), [layer, line, column] as const);
  }

  layerIds(): Promise<readonly string[]> {
    return this.page.evaluate(() => window.__workbenchLayers?.layerIds() ?? []);
  }

  /** The line under the editor that says what Tab does now (indent, or move focus) and how to leave. */
  keysLine(): Locator {
    return this.panel().getByTestId('layer-editor-keys');
  }

  /** Whether the keyboard focus is inside the layer editor. */
  editorHasFocus(): Promise<boolean> {
    return this.page.evaluate(() => document.activeElement?.closest('.monaco-editor') !== null && document.activeElement?.closest('[aria-label="Layers"]') !== null);
  }
}
