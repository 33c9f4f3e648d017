// The search lab.
import type { Locator, Page } from '@playwright/test';

export class SearchLabPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Search lab' }).click();
    await this.page.getByTestId('search-lab').waitFor();
  }

  async query(text: string, limit?: number): Promise<void> {
    if (limit !== undefined) await this.page.getByTestId('lab-limit').fill(String(limit));
    await this.page.getByTestId('lab-query').fill(text);
  }

  ranking(id: 'substring' | 'bm25'): Locator {
    return this.page.getByTestId(`lab-ranking-${id}`);
  }

  hits(id: 'substring' | 'bm25'): Locator {
    return this.ranking(id).locator('tbody tr');
  }

  async loadQuerySet(jsonl: string | Uint8Array, name = 'queries.jsonl'): Promise<void> {
    await this.page.getByTestId('lab-queryset-file').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(jsonl) });
  }

  /** The query-set column is laid out only once a set is loaded or pasted: "Paste one" opens it empty. */
  async showQuerySet(): Promise<void> {
    if (await this.querySet().isVisible()) return;
    await this.page.getByTestId('search-lab').getByRole('button', { name: 'Paste one' }).click();
    await this.querySet().waitFor();
  }

  querySet(): Locator {
    return this.page.getByTestId('lab-queryset');
  }

  fileError(): Locator {
    return this.page.getByTestId('lab-queryset-file-error');
  }

  evaluation(): Locator {
    return this.page.getByTestId('lab-eval');
  }

  mrr(id: 'substring' | 'bm25'): Locator {
    return this.page.getByTestId(`lab-mrr-${id}`);
  }

  misses(id: 'substring' | 'bm25'): Locator {
    return this.page.getByTestId(`lab-misses-${id}`).locator('li');
  }
}
