// The findability tab: the headline, the rankings side by side, the hard-to-find tools, the
// look-alike groups and the before/after comparison.
import type { Locator, Page } from '@playwright/test';

export class FindabilityPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Findability' }).click();
    await this.panel().waitFor();
  }

  panel(): Locator {
    return this.page.getByTestId('findability-panel');
  }

  headline(): Locator {
    return this.page.getByTestId('fnd-headline');
  }

  rankings(): Locator {
    return this.page.getByTestId('fnd-rankings').locator('tbody tr');
  }

  /** "N hard to find · N thinly described · N unreachable". */
  counts(): Locator {
    return this.page.getByTestId('fnd-counts');
  }

  hardTool(name: string): Locator {
    return this.page.getByTestId('fnd-hard').locator(`tr[data-tool="${name}"]`);
  }

  /** The heading of the tools at risk: "At risk (N): …". */
  hardCaption(): Locator {
    return this.page.getByTestId('fnd-hard').locator('caption');
  }

  hardTools(): Locator {
    return this.page.getByTestId('fnd-hard').locator('tbody tr');
  }

  /** The findability words of one server's tools at risk, as the table's badges say them. */
  async wordsOfServer(server: string): Promise<string[]> {
    return this.hardTools().filter({ has: this.page.locator('.fnd-server', { hasText: new RegExp(`^server ${server}$`, 'u') }) }).locator('[data-word]').allTextContents();
  }

  groups(): Locator {
    return this.page.getByTestId('fnd-group');
  }

  /** The look-alike group holding a tool. */
  groupOf(tool: string): Locator {
    return this.groups().filter({ has: this.page.locator('code', { hasText: new RegExp(`^${tool}$`, 'u') }) });
  }

  async pinBefore(): Promise<void> {
    await this.page.getByTestId('fnd-pin').click();
  }

  comparison(): Locator {
    return this.page.getByTestId('fnd-compare');
  }

  async fix(tool: string): Promise<void> {
    await this.hardTool(tool).getByTestId('fnd-fix').click();
  }
}
