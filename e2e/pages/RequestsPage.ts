// The request inspector.
import type { Locator, Page } from '@playwright/test';
import { TimelinePage } from './TimelinePage';

export class RequestsPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Request inspector' }).click();
    await this.root().waitFor();
  }

  root(): Locator {
    return this.page.getByTestId('request-inspector');
  }

  title(): Locator {
    return this.page.getByTestId('request-title');
  }

  cacheWord(): Locator {
    return this.page.getByTestId('request-cache').locator('[data-cache]');
  }

  difference(): Locator {
    return this.page.getByTestId('cache-difference');
  }

  directiveBlocks(): Locator {
    return this.page.getByTestId('directive-blocks').locator('li');
  }

  cost(): Locator {
    return this.page.getByTestId('request-cost');
  }

  /** The provider-rule findings of the shown request (or the "accepted" line when it has none). */
  findings(): Locator {
    return this.page.getByTestId('request-findings');
  }

  /** What the token figures are: an estimate, with which tokenizer. */
  tokenBasis(): Locator {
    return this.page.getByTestId('request-token-basis');
  }

  body(): Locator {
    return this.page.getByTestId('request-body');
  }

  async next(): Promise<void> {
    await this.page.getByRole('button', { name: 'Next request' }).click();
  }

  async previous(): Promise<void> {
    await this.page.getByRole('button', { name: 'Previous request' }).click();
  }

  /** Selects the timeline row of request `id` (0-based) with the timeline's scrubber. */
  async select(id: number): Promise<void> {
    const entry = await this.page.evaluate(async (rid) => {
      const snap = await window.__workbench?.snapshot();
      return snap?.timeline.entries.find((e) => e.kind === 'request' && e.request === rid)?.index;
    }, id);
    if (entry === undefined) throw new Error(`no request ${id}`);
    await new TimelinePage(this.page).scrubTo(entry);
    await this.page.locator(`[data-testid="request-inspector"][data-request="${id}"]`).waitFor();
  }
}
