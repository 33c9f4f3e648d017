// The Servers tab: each MCP server's status and controls, tool-list changes, and
// what discovery saves.
import type { Locator, Page } from '@playwright/test';

export class ServersPage {
  constructor(readonly page: Page) {}

  async show(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Servers', exact: true }).click();
    await this.panel().waitFor();
  }

  panel(): Locator {
    return this.page.getByTestId('servers-panel');
  }

  card(name: string): Locator {
    return this.panel().locator(`li[data-server="${name}"]`);
  }

  status(name: string): Locator {
    return this.card(name).getByTestId('live-status');
  }

  /** The server's live state shown beside its recorded status ("server stopped now"), when the two differ. */
  liveNow(name: string): Locator {
    return this.card(name).getByTestId('live-now');
  }

  /** The status and tool count the document recorded for the server. */
  recorded(name: string): Locator {
    return this.card(name).getByTestId('server-counts');
  }

  /** The note on a server the document named and the user has not confirmed (it shows the URL). */
  unconfirmed(name: string): Locator {
    return this.card(name).getByTestId('server-unconfirmed');
  }

  button(name: string, testId: 'server-refetch' | 'server-reconnect' | 'server-disconnect' | 'server-connect' | 'server-cancel'): Locator {
    return this.card(name).getByTestId(testId);
  }

  /** The card's note on its tools search_tools may not find. */
  findabilityNote(name: string): Locator {
    return this.card(name).getByTestId('server-findability');
  }

  change(name: string): Locator {
    return this.card(name).getByTestId('server-change');
  }

  savings(): Locator {
    return this.panel().getByTestId('savings');
  }

  undoImport(): Locator {
    return this.page.getByTestId('servers-undo-import');
  }
}
