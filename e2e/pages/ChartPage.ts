// The cost chart.
import type { Download, Locator, Page } from '@playwright/test';

export class ChartPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Cost chart' }).click();
    await this.root().waitFor();
  }

  root(): Locator {
    return this.page.getByTestId('cost-chart');
  }

  canvas(): Locator {
    return this.root().locator('canvas');
  }

  readout(): Locator {
    return this.page.getByTestId('chart-readout');
  }

  async seriesCount(): Promise<number> {
    return Number(await this.root().getAttribute('data-series'));
  }

  async pointCount(): Promise<number> {
    return Number(await this.root().getAttribute('data-points'));
  }

  /** Shown beside the tokens unit: an estimate, with which tokenizer. */
  tokenBasis(): Locator {
    return this.page.getByTestId('chart-token-basis');
  }

  async useTokens(): Promise<void> {
    await this.page.getByTestId('chart-unit-tokens').check();
  }

  async exportSvg(): Promise<Download> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId('chart-export-svg').click()]);
    return download;
  }

  async exportPng(): Promise<Download> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId('chart-export-png').click()]);
    return download;
  }
}
