// The import dialog: sources (file picker, drop, paste, live server), the starting
// policy, the preview and what discovery saves.
import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

export class ImportPage {
  constructor(readonly page: Page) {}

  dialog(): Locator {
    return this.page.getByTestId('import-dialog');
  }

  async openFromServersTab(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Servers', exact: true }).click();
    await this.page.getByTestId('servers-import').click();
    await this.dialog().waitFor();
  }

  /**
   * Opens the dialog on its live-server tab from the Servers panel's "Connect a live server…", as a
   * user does; asked again if the dialog (a lazily loaded part) has not shown within a few seconds.
   */
  async openLiveFromServersTab(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Servers', exact: true }).click();
    await this.page.getByTestId('servers-connect-live').waitFor();
    await expect(async () => {
      if (!(await this.dialog().isVisible())) await this.page.getByTestId('servers-connect-live').click();
      await expect(this.page.getByTestId('import-url')).toBeVisible({ timeout: 5_000 });
    }).toPass({ timeout: 40_000 });
  }

  /** Picks a file through the dialog's "Choose a JSON file…" button (a real file chooser). */
  async chooseFile(file: string | { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
    await this.page.getByTestId('import-tab-file').click();
    const chooser = this.page.waitForEvent('filechooser');
    await this.page.getByTestId('import-choose-file').click();
    await (await chooser).setFiles(file);
  }

  /** Drops a JSON file on the page, as a user dragging it from the desktop would. */
  async dropFile(name: string, text: string): Promise<void> {
    const dataTransfer = await this.page.evaluateHandle(
      ([n, t]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([t], n, { type: 'application/json' }));
        return dt;
      },
      [name, text] as const,
    );
    await this.page.dispatchEvent('body', 'dragenter', { dataTransfer });
    await this.page.dispatchEvent('body', 'drop', { dataTransfer });
  }

  /** What the preview shows of each catalogue server itself (a snapshot's serverInfo, instructions, capabilities). */
  serverAbout(): Locator {
    return this.page.getByTestId('import-server-about');
  }

  async paste(text: string): Promise<void> {
    await this.page.getByTestId('import-tab-paste').click();
    await this.page.getByTestId('import-paste').fill(text);
  }

  async connect(url: string, timeoutSeconds?: number): Promise<void> {
    await this.page.getByTestId('import-tab-url').click();
    await this.page.getByTestId('import-url').fill(url);
    if (timeoutSeconds !== undefined) await this.page.getByTestId('import-timeout').fill(String(timeoutSeconds));
    await this.page.getByTestId('import-connect').click();
  }

  liveStatus(): Locator {
    return this.dialog().getByTestId('live-status');
  }

  cancelConnect(): Locator {
    return this.page.getByTestId('import-cancel-connect');
  }

  counts(): Locator {
    return this.page.getByTestId('import-counts');
  }

  errors(): Locator {
    return this.page.getByTestId('import-errors');
  }

  tool(name: string): Locator {
    return this.page.getByTestId('import-tools').locator(`li[data-tool="${name}"]`);
  }

  savings(): Locator {
    return this.dialog().getByTestId('savings');
  }

  async policy(kind: 'on' | 'discoverable' | 'per-server', keep?: number): Promise<void> {
    await this.page.getByTestId(`policy-${kind}`).check();
    if (keep !== undefined) await this.page.getByTestId('policy-keep').fill(String(keep));
  }

  async confirm(): Promise<void> {
    await this.page.getByTestId('import-confirm').click();
    await this.dialog().waitFor({ state: 'detached' });
  }

  async close(): Promise<void> {
    await this.dialog().getByRole('button', { name: 'Cancel', exact: true }).last().click();
    await this.dialog().waitFor({ state: 'detached' });
  }

  /** Said when a server's name is taken in the scenario and the import gives it another. */
  renamed(): Locator {
    return this.dialog().getByTestId('import-server-renamed');
  }

  /** Said when a live server lists no tools. */
  noTools(): Locator {
    return this.dialog().getByTestId('import-no-tools');
  }
}
