// The sets panel: counts, filters, search and the virtualized tool rows.
import type { Locator, Page } from '@playwright/test';

export class SetsPage {
  readonly root: Locator;
  constructor(readonly page: Page) {
    this.root = page.getByRole('region', { name: 'Sets' });
  }

  /** The rows in the DOM (the list is virtualized: only those near the viewport). */
  rows(): Locator {
    return this.root.locator('[data-tool]');
  }

  row(name: string): Locator {
    return this.root.locator(`[data-tool="${name.replace(/["\\]/gu, '\\$&')}"]`);
  }

  /** The live state of the tool's server beside the recorded one ("server stopped now"), when they differ. */
  liveNow(name: string): Locator {
    return this.row(name).getByTestId('live-now');
  }

  /** "server · status" of the tool's row: the server's real status (a live one's state now). */
  serverWord(name: string): Locator {
    return this.row(name).locator('.st-server');
  }

  availability(name: string): Locator {
    return this.row(name).locator('.badge').first();
  }

  chips(name: string): Locator {
    return this.row(name).getByRole('img');
  }

  counts(): Locator {
    return this.root.getByTestId('set-counts');
  }

  shown(): Locator {
    return this.root.getByTestId('sets-shown');
  }

  scroller(): Locator {
    return this.root.locator('.st-scroll');
  }

  /** Starts counting rows the list mounts as placeholders and tool rows it unmounts (see rowChurn). */
  async watchRows(): Promise<void> {
    await this.root.locator('.st-scroll').evaluate((list) => {
      const w = window as unknown as { __rowChurn: { pending: number; removed: number } };
      w.__rowChurn = { pending: 0, removed: 0 };
      new MutationObserver((records) => {
        for (const r of records) {
          for (const n of r.addedNodes) if (n instanceof HTMLElement && n.classList.contains('st-pending')) w.__rowChurn.pending++;
          for (const n of r.removedNodes) if (n instanceof HTMLElement && n.dataset.tool !== undefined) w.__rowChurn.removed++;
        }
      }).observe(list, { childList: true, subtree: true });
    });
  }

  /** Since watchRows: placeholder rows mounted, tool rows unmounted. */
  rowChurn(): Promise<{ pending: number; removed: number }> {
    return this.page.evaluate(() => (window as unknown as { __rowChurn: { pending: number; removed: number } }).__rowChurn);
  }

  async search(text: string): Promise<void> {
    await this.root.getByRole('searchbox', { name: /Search tools/u }).fill(text);
  }

  async toggleFilter(group: 'availability' | 'set' | 'kind', value: string): Promise<void> {
    await this.root.getByRole('group', { name: `Filter by ${group}` }).getByRole('button', { name: value, exact: true }).click();
  }

  async expand(name: string): Promise<void> {
    await this.row(name).getByRole('button', { expanded: false }).first().click();
  }

  updating(): Locator {
    return this.root.getByRole('status');
  }
}
