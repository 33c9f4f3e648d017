// Recent documents (every document a replacement set aside) and the banner a tab
// shows when another tab saved the document.
import type { Locator, Page } from '@playwright/test';

export class HistoryPage {
  constructor(readonly page: Page) {}

  button(): Locator {
    return this.page.getByTestId('recent-button');
  }

  dialog(): Locator {
    return this.page.getByTestId('recent-documents');
  }

  async open(): Promise<void> {
    await this.button().click();
    await this.dialog().waitFor();
  }

  entries(): Locator {
    return this.dialog().getByTestId('recent-entry');
  }

  /** The titles listed, newest first. */
  async titles(): Promise<string[]> {
    return this.entries().evaluateAll((els) => els.map((e) => e.getAttribute('data-title') ?? ''));
  }

  /** The first (newest) entry of that title. */
  entry(title: string): Locator {
    return this.dialog().locator(`[data-testid="recent-entry"][data-title="${title.replace(/"/gu, '\\"')}"]`).first();
  }

  async restore(title: string): Promise<void> {
    await this.entry(title).getByTestId('recent-restore').click();
    await this.dialog().waitFor({ state: 'detached' });
  }

  /** Restores through the command palette, typing part of the entry's command title. */
  async restoreFromPalette(title: string): Promise<void> {
    await this.page.keyboard.press('Control+k');
    await this.page.getByRole('combobox', { name: 'Command' }).fill(`Restore recent document “${title}”`);
    await this.page.getByRole('listbox', { name: 'Commands' }).getByRole('option').first().waitFor();
    await this.page.keyboard.press('Enter');
  }

  conflict(): Locator {
    return this.page.getByTestId('tab-conflict');
  }

  reloadTheirs(): Locator {
    return this.page.getByTestId('tab-reload-theirs');
  }

  keepMine(): Locator {
    return this.page.getByTestId('tab-keep-mine');
  }
}
