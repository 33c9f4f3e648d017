// The Workspace dock tab (issue 7): open a JP workspace folder or zip, pick a persona, read the
// counts and problems, make discoverable and read its saving; and the workspace tabs of the layers
// panel.
import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

export class WorkspacePage {
  readonly root: Locator;
  constructor(readonly page: Page) {
    this.root = page.getByTestId('workspace-panel');
  }

  /** Shows the Workspace dock tab. */
  async show(): Promise<void> {
    await this.page.getByRole('tablist', { name: 'Dock tabs' }).getByRole('tab', { name: 'Workspace' }).click();
    await this.root.waitFor();
  }

  /** Opens a folder through the `<input webkitdirectory>` fallback (the directory picker needs a user). */
  async openFolder(path: string): Promise<void> {
    await this.show();
    await this.root.getByTestId('workspace-folder-input').setInputFiles(path);
    await this.loaded();
  }

  async openZip(name: string, buffer: Buffer): Promise<void> {
    await this.chooseZip(name, buffer);
    await this.loaded();
  }

  /** Picks a .zip without waiting for it to load (it may be refused). */
  async chooseZip(name: string, buffer: Buffer): Promise<void> {
    await this.show();
    await this.root.getByTestId('workspace-zip-input').setInputFiles({ name, mimeType: 'application/zip', buffer });
  }

  /** Drops a .zip on the page as a file manager would (a DataTransfer with the file). */
  async dropZip(name: string, bytes: Uint8Array): Promise<void> {
    await this.page.evaluate(
      ([n, b]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(b)], n, { type: 'application/zip' }));
        document.body.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true }));
        document.body.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
        document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      [name, [...bytes]] as const,
    );
  }

  /** Waits for the folder's counts (the derivation with the workspace). */
  async loaded(): Promise<void> {
    await this.counts().waitFor();
  }

  persona(): Locator {
    return this.root.getByTestId('workspace-persona');
  }

  async pickPersona(name: string | undefined): Promise<void> {
    await this.persona().selectOption(name ?? '');
  }

  /** "(describe_tools and search_tools included)": the builtins the "on" count holds. */
  onBuiltins(): Locator {
    return this.counts().getByTestId('workspace-on-builtins');
  }

  counts(): Locator {
    return this.root.getByTestId('workspace-counts');
  }

  count(which: 'on' | 'offered' | 'permitted' | 'discoverable'): Locator {
    return this.counts().locator(`[data-count="${which}"]`);
  }

  problems(): Locator {
    return this.root.getByTestId('workspace-diagnostics');
  }

  problemFor(file: string): Locator {
    return this.problems().locator(`li[data-layer="${file.replace(/["\\]/gu, '\\$&')}"]`);
  }

  keepInput(): Locator {
    return this.root.getByRole('spinbutton', { name: 'Tools to keep on' });
  }

  makeDiscoverableButton(): Locator {
    return this.root.getByTestId('make-discoverable');
  }

  applied(): Locator {
    return this.root.getByTestId('discoverable-applied');
  }

  /** "dev has 37 tools at on: the 10 it uses most stay on, …". */
  summary(): Locator {
    return this.root.getByTestId('discoverable-summary');
  }

  /** The heading of the ranking behind make discoverable: "The ranking of N tools: …". */
  rankingSummary(): Locator {
    return this.root.locator('.ws-ranking summary');
  }

  saving(): Locator {
    return this.root.getByTestId('discoverable-saving');
  }

  savingRows(): Locator {
    return this.saving().locator('tbody tr');
  }

  /** The offered bytes before and after of each request in the saving table. */
  async savingFigures(): Promise<{ request: number; before: number; after: number }[]> {
    return this.savingRows().evaluateAll((rows) =>
      rows.map((r) => ({
        request: Number(r.getAttribute('data-request')),
        before: Number(r.getAttribute('data-before-bytes')),
        after: Number(r.getAttribute('data-after-bytes')),
      })),
    );
  }

  // ---- the workspace tabs in the layers panel ----

  tabs(): Locator {
    return this.page.getByRole('group', { name: 'Workspace files (read-only unless edited)' });
  }

  tab(path: string): Locator {
    return this.tabs().locator(`[data-workspace-file="${path.replace(/["\\]/gu, '\\$&')}"]`);
  }

  async openFile(path: string): Promise<void> {
    await this.tabs().getByRole('combobox', { name: 'Open a workspace file' }).selectOption(path);
  }

  file(): Locator {
    return this.page.getByTestId('workspace-file');
  }

  fileMode(): Locator {
    return this.file().getByTestId('workspace-file-mode');
  }

  fileButton(name: 'Edit' | 'Done editing' | 'Download' | 'Revert'): Locator {
    return this.file().getByRole('button', { name, exact: true });
  }

  editor(): Locator {
    return this.page.getByTestId('workspace-file-editor');
  }

  /**
   * Puts the cursor in the shown file, as a click on its text does, and waits until the editor holds the
   * focus (Monaco marks its box `focused`). Clicks the editor's own box, not `.view-lines` (as
   * LayersPage.focusEditor does): that element is as tall as the whole file, so the middle of it lay on
   * the file's head above the editor; Playwright then retried with a scrollIntoView, which scrolls
   * Monaco's overflow:hidden container from under Monaco's drawing, and the click landed beside every
   * drawn line, focused nothing, and the edit typed next went to the page (the flake, 5 runs in 8 at a
   * load of 11).
   */
  async focusFile(): Promise<void> {
    await this.editor().locator('.monaco-editor').click();
    await expect(this.editor().locator('.monaco-editor.focused'), 'the click put the cursor in the workspace file').toHaveCount(1);
  }

  // ---- the two routes to a folder: by its path (through the bridge) and the browser's picker ----

  /** The path field (served by the bridge): the route that can start the workspace's servers. */
  pathField(): Locator {
    return this.root.getByTestId('workspace-path');
  }

  /** Why the path comes first (served by the bridge). */
  pathReason(): Locator {
    return this.root.getByTestId('workspace-path-why');
  }

  pickerButton(): Locator {
    return this.root.getByRole('button', { name: /^Open folder…/u });
  }

  /** What the browser's picker cannot do, said where it is offered. */
  pickerLimits(): Locator {
    return this.root.getByTestId('workspace-picker-limits');
  }

  /** Said when the open folder is the one the bridge opened by its path (after a reload too, issue 34.5). */
  openedByPath(): Locator {
    return this.root.getByTestId('workspace-opened-by-path');
  }

  /** Said without the bridge's servers list: served without a bridge (npm start), or a tab with no session of it. */
  needsBridge(): Locator {
    return this.root.getByTestId('workspace-needs-bridge');
  }

  /** Said when a folder opened with the picker declares servers that only its path could start. */
  pickedNote(): Locator {
    return this.root.getByTestId('workspace-picked-not-started');
  }
}
