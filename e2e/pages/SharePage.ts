// Sharing: the link, the download, and the banner after opening a link.
import type { Download, Locator, Page } from '@playwright/test';

export class SharePage {
  constructor(readonly page: Page) {}

  /** Opens the share popover and returns the link it shows. */
  async link(): Promise<string> {
    await this.page.getByTestId('share-button').click();
    const url = await this.page.getByTestId('share-url').inputValue();
    await this.page.keyboard.press('Escape');
    return url;
  }

  async download(): Promise<Download> {
    await this.page.getByTestId('share-button').click();
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId('share-download').click()]);
    await this.page.keyboard.press('Escape');
    return download;
  }

  sharedBanner(): Locator {
    return this.page.getByTestId('shared-banner');
  }

  async restorePrevious(): Promise<void> {
    await this.page.getByTestId('shared-restore').click();
  }
}
