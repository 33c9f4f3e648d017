// The Cost dock tab: totals against all on, the break-even chart, the price table.
import type { Download, Locator, Page } from '@playwright/test';

export class CostPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Cost', exact: true }).click();
    await this.page.getByTestId('cost-panel').waitFor();
  }

  saving(): Locator {
    return this.page.getByTestId('cost-saving');
  }

  variant(id: string): Locator {
    return this.page.getByTestId(`cost-variant-${id}`);
  }

  breakEvenChart(): Locator {
    return this.page.getByTestId('breakeven-chart').locator('img');
  }

  async exportBreakEven(kind: 'svg' | 'png'): Promise<Download> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId(`breakeven-export-${kind}`).click()]);
    return download;
  }

  async openPrices(): Promise<void> {
    const table = this.page.getByTestId('price-table');
    if (!(await table.evaluate((el) => (el as HTMLDetailsElement).open))) await table.locator('summary').click();
  }

  price(provider: string, model: string, field: string): Locator {
    return this.page.getByTestId(`price-${provider}-${model}-${field}`);
  }
}
