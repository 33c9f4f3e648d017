// The RFD view: RFD 108's tables as the engine computes them, and each row's "Open scenario".
import type { Download, Locator, Page } from '@playwright/test';

export class RfdPage {
  readonly root: Locator;
  constructor(readonly page: Page) {
    this.root = page.getByTestId('rfd-page');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('rfd-button').click();
    await this.summary().waitFor({ timeout: 60_000 });
  }

  summary(): Locator {
    return this.root.getByTestId('rfd-summary');
  }

  table(id: string): Locator {
    return this.root.locator(`[data-table="${id}"]`);
  }

  rows(): Locator {
    return this.root.locator('tbody tr[data-row]');
  }

  row(id: string): Locator {
    return this.root.locator(`tr[data-row="${id}"]`);
  }

  async openRow(id: string): Promise<void> {
    await this.row(id).getByTestId('rfd-open').click();
  }

  returnBanner(): Locator {
    return this.page.getByTestId('rfd-return-banner');
  }

  /** Back to the user's document: done when the banner goes, which it does once the document is back. */
  async backToMyDocument(): Promise<void> {
    await this.page.getByTestId('rfd-return').click();
    await this.returnBanner().waitFor({ state: 'hidden' });
  }

  async saveReport(): Promise<Download> {
    const wait = this.page.waitForEvent('download', { timeout: 60_000 });
    await this.root.getByTestId('rfd-save-report').click();
    return wait;
  }
}
