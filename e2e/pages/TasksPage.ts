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

  // The model A/B (issue 33 §1).

  async chooseModelAb(): Promise<void> {
    await this.page.getByTestId('tk-mode-ab').click();
    await this.ab().waitFor();
  }

  ab(): Locator {
    return this.page.getByTestId('tk-ab');
  }

  /** Fills the A/B's fields: the model, arm B's switches (`name` → value) and the budget ('' for none). */
  async setUpAb(model: string, switches: Readonly<Record<string, string>>, budget = ''): Promise<void> {
    await this.page.getByTestId('tk-ab-model').fill(model);
    for (const [name, value] of Object.entries(switches)) await this.page.getByTestId(`tk-ab-switch-${name}`).selectOption(value);
    await this.page.getByTestId('tk-ab-budget').fill(budget);
  }

  async estimateAb(): Promise<void> {
    await this.page.getByTestId('tk-ab-estimate').click();
  }

  abEstimateLine(): Locator {
    return this.page.getByTestId('tk-ab-estimate-line');
  }

  async sendAb(): Promise<void> {
    await this.page.getByTestId('tk-ab-send').click();
  }

  /** An arm's progress bar and its count of tasks played. */
  abProgress(arm: 'A' | 'B'): Locator {
    return this.page.getByTestId(`tk-ab-progress-${arm}`);
  }

  abSpent(): Locator {
    return this.page.getByTestId('tk-ab-spent');
  }

  async stopAb(): Promise<void> {
    await this.page.getByTestId('tk-ab-stop').click();
  }

  abStopButton(): Locator {
    return this.page.getByTestId('tk-ab-stop');
  }

  /** The A/B line, as the CLI prints it. */
  abLine(): Locator {
    return this.page.getByTestId('tk-ab-line');
  }

  abStopped(): Locator {
    return this.page.getByTestId('tk-ab-stopped');
  }

  abErrors(): Locator {
    return this.page.getByTestId('tk-ab-errors');
  }

  abError(): Locator {
    return this.page.getByTestId('tk-ab-error');
  }

  /** The discordant tasks met in `arm` only, one row each. */
  abOnly(arm: 'A' | 'B'): Locator {
    return this.page.getByTestId(`tk-ab-${arm.toLowerCase()}-only`).getByTestId('tk-ab-pair');
  }

  /** Opens the turn of `arm` from a pair's row. */
  async openAbTurn(row: Locator, arm: 'A' | 'B'): Promise<void> {
    await row.getByTestId(`tk-ab-open-${arm}`).click();
  }
}
