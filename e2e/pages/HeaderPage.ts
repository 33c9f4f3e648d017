// The header: its controls, the check's count (a link to the first failing row when something fails),
// and the boxes of its items, to prove it stays on one row.
import type { Locator, Page } from '@playwright/test';

export interface ItemBox {
  readonly name: string;
  readonly top: number;
  readonly bottom: number;
  readonly left: number;
  readonly right: number;
}

export class HeaderPage {
  readonly root: Locator;
  constructor(readonly page: Page) {
    this.root = page.locator('header.header');
  }

  status(): Locator {
    return this.page.getByTestId('check-status');
  }

  /** The count as a link, present when something fails. */
  failureLink(): Locator {
    return this.page.getByTestId('check-status-link');
  }

  async setProvider(provider: string): Promise<void> {
    await this.root.getByLabel('Provider').selectOption(provider);
  }

  async setRanking(ranking: string): Promise<void> {
    await this.root.getByLabel('Ranking').selectOption(ranking);
  }

  switches(): Locator {
    return this.root.getByRole('button', { name: /^Policy switches/u });
  }

  /** The visible items of the header, with their boxes (visually hidden ones left out). */
  async itemBoxes(): Promise<ItemBox[]> {
    return this.root.evaluate((header) =>
      [...header.children]
        .map((el) => {
          const r = el.getBoundingClientRect();
          return { name: (el.getAttribute('aria-label') ?? el.textContent ?? el.tagName).trim().slice(0, 40), top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height };
        })
        .filter((b) => b.width > 1 && b.height > 1)
        .map(({ name, top, bottom, left, right }) => ({ name, top, bottom, left, right })),
    );
  }

  async box(): Promise<{ height: number; width: number }> {
    const b = await this.root.boundingBox();
    return { height: b?.height ?? 0, width: b?.width ?? 0 };
  }
}
