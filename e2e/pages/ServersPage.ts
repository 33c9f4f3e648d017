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

  /** The card's findability words, the tab's: "2 thinly described", "none at risk". */
  findabilityWords(name: string): Locator {
    return this.card(name).getByTestId('server-findability-words');
  }

  /** The card's line on what discovery saves for this server: "all on (JP today): N tools, … → offered now: …". */
  cardSavings(name: string): Locator {
    return this.card(name).getByTestId('server-savings');
  }

  /** The server's live tool list where it differs from the recorded one (what differs, the take button). */
  change(name: string): Locator {
    return this.card(name).getByTestId('server-change');
  }

  /** The card's "live list differs now: +2 / −1" beside the recorded tool count. */
  liveList(name: string): Locator {
    return this.card(name).getByTestId('live-list-now');
  }

  /** Writes the live list into the document (one undoable edit). */
  async takeLiveList(name: string): Promise<void> {
    await this.change(name).getByTestId('take-live-list').click();
  }

  /** The note that the live list is in the document now, with its Undo. */
  taken(name: string): Locator {
    return this.card(name).getByTestId('live-list-taken');
  }

  async undoTake(name: string): Promise<void> {
    await this.taken(name).getByTestId('undo-take-live-list').click();
  }

  savings(): Locator {
    return this.panel().getByTestId('savings');
  }

  undoImport(): Locator {
    return this.page.getByTestId('servers-undo-import');
  }
}
