// The Tasks tab (issue 15): a task set in, a policy, the run's summary and table, a task's turn, the
// comparison of two runs and the exports.
import type { Download, Locator, Page } from '@playwright/test';

export class TasksPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Tasks' }).click();
    await this.panel().waitFor();
  }

  panel(): Locator {
    return this.page.getByTestId('tasks-panel');
  }

  async loadFile(path: string): Promise<void> {
    await this.page.getByTestId('tk-file').setInputFiles(path);
  }

  async paste(text: string): Promise<void> {
    await this.page.getByTestId('tk-input').fill(text);
  }

  async choosePolicy(policy: string): Promise<void> {
    await this.page.getByTestId('tk-policy').selectOption(policy);
  }

  async run(): Promise<void> {
    await this.page.getByTestId('tk-run').click();
  }

  summary(): Locator {
    return this.page.getByTestId('tk-summary');
  }

  /** The two ratios of a run, each with its denominator. */
  rate(): Locator {
    return this.page.getByTestId('tk-rate');
  }

  /** The filter chip of an outcome; its count is the run's. */
  filter(outcome: string): Locator {
    return this.page.getByTestId(`tk-filter-${outcome}`);
  }

  rows(): Locator {
    return this.page.getByTestId('tk-row');
  }

  turn(): Locator {
    return this.page.getByTestId('tk-turn');
  }

  comparison(): Locator {
    return this.page.getByTestId('tk-compare');
  }

  async export(kind: 'jsonl' | 'csv'): Promise<Download> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId(`tk-export-${kind}`).click()]);
    return download;
  }
}
