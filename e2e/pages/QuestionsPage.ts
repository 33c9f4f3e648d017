// The open-questions panel.
import type { Locator, Page } from '@playwright/test';

export class QuestionsPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Open questions' }).click();
    await this.page.getByTestId('questions-panel').waitFor();
  }

  row(key: string): Locator {
    return this.page.locator(`[data-policy="${key}"]`);
  }

  /** Flips a two- or three-valued switch to `value`. */
  async flip(key: string, value: string): Promise<void> {
    const control = this.page.getByTestId(`policy-${key}`);
    if ((await control.evaluate((el) => el.tagName)) === 'SELECT') await control.selectOption(value);
    else await control.getByRole('radio', { name: new RegExp(`^${value}`) }).check();
  }

  diff(): Locator {
    return this.page.getByTestId('policy-diff');
  }

  diffRows(what: string | RegExp): Locator {
    return this.diff().locator('.q-change').filter({ hasText: what });
  }

  async undo(): Promise<void> {
    await this.page.getByTestId('policy-undo').click();
  }
}
