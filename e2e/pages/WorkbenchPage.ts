// The root page object: navigation, the test hook, and the panels' page objects.
import { readFile } from 'node:fs/promises';
import { expect } from '@playwright/test';
import type { BrowserContext, Page } from '@playwright/test';
import type { LiveConnectionView, WorkbenchSnapshot } from '../../src/app/testHook';
import { SetsPage } from './SetsPage';
import { TimelinePage } from './TimelinePage';
import { LayersPage } from './LayersPage';
import { WorkspacePage } from './WorkspacePage';
import { SimulatorPage } from './SimulatorPage';
import { RequestsPage } from './RequestsPage';
import { ChartPage } from './ChartPage';
import { SearchLabPage } from './SearchLabPage';
import { QuestionsPage } from './QuestionsPage';
import { SharePage } from './SharePage';
import { ImportPage } from './ImportPage';
import { ServersPage } from './ServersPage';
import { HeaderPage } from './HeaderPage';
import { RfdPage } from './RfdPage';
import { GuidePage } from './GuidePage';
import { FindabilityPage } from './FindabilityPage';
import { BridgePage } from './BridgePage';
import { TasksPage } from './TasksPage';
import { HistoryPage } from './HistoryPage';
import { CostPage } from './CostPage';

/** Browser contexts in which the app has been opened: their storage may hold saved work. */
const visited = new WeakSet<BrowserContext>();

export class WorkbenchPage {
  constructor(readonly page: Page) {
    // A page of this context that loads anything (a share link, a second tab) may leave saved work.
    const context = page.context();
    if (!visited.has(context)) context.once('request', () => visited.add(context));
  }

  get layers(): LayersPage {
    return new LayersPage(this.page);
  }

  get timeline(): TimelinePage {
    return new TimelinePage(this.page);
  }

  get sets(): SetsPage {
    return new SetsPage(this.page);
  }

  get workspace(): WorkspacePage {
    return new WorkspacePage(this.page);
  }

  get simulator(): SimulatorPage {
    return new SimulatorPage(this.page);
  }

  get requests(): RequestsPage {
    return new RequestsPage(this.page);
  }

  get chart(): ChartPage {
    return new ChartPage(this.page);
  }

  get searchLab(): SearchLabPage {
    return new SearchLabPage(this.page);
  }

  get questions(): QuestionsPage {
    return new QuestionsPage(this.page);
  }

  get share(): SharePage {
    return new SharePage(this.page);
  }

  get importer(): ImportPage {
    return new ImportPage(this.page);
  }

  get servers(): ServersPage {
    return new ServersPage(this.page);
  }

  get header(): HeaderPage {
    return new HeaderPage(this.page);
  }

  get rfd(): RfdPage {
    return new RfdPage(this.page);
  }

  get guide(): GuidePage {
    return new GuidePage(this.page);
  }

  get findability(): FindabilityPage {
    return new FindabilityPage(this.page);
  }

  get bridge(): BridgePage {
    return new BridgePage(this.page);
  }

  get tasks(): TasksPage {
    return new TasksPage(this.page);
  }

  get cost(): CostPage {
    return new CostPage(this.page);
  }

  get history(): HistoryPage {
    return new HistoryPage(this.page);
  }

  /** Opens the app on a clean profile (no autosaved work) unless told to keep it. */
  async open(options: { keepSaved?: boolean } = {}): Promise<void> {
    // Playwright gives every test a new, empty browser context: a page that has never been
    // anywhere, alone in a context nothing has loaded the app in, has no saved work to clear, so
    // the app is booted once instead of twice (booting it was most of an open).
    const context = this.page.context();
    const fresh = this.page.url() === 'about:blank' && context.pages().length === 1 && !visited.has(context);
    visited.add(context);
    await this.page.goto('/');
    if (!options.keepSaved && !fresh) {
      await this.page.evaluate(async () => {
        await new Promise<void>((resolve) => {
          const req = indexedDB.deleteDatabase('tool-workbench');
          req.onsuccess = req.onerror = req.onblocked = () => resolve();
        });
        localStorage.clear();
      });
      await this.page.goto('/');
    }
    await this.page.waitForFunction(() => window.__workbench !== undefined);
    await this.page.getByTestId('check-status').filter({ hasText: 'passed' }).waitFor();
  }

  snapshot(): Promise<WorkbenchSnapshot> {
    return this.page.evaluate(() => {
      const hook = window.__workbench;
      if (!hook) throw new Error('no test hook');
      return hook.snapshot();
    });
  }

  loadScenario(text: string, fileName = 'scenario.toml'): Promise<boolean> {
    return this.page.evaluate(([t, f]) => window.__workbench?.loadScenario(t, f) ?? false, [text, fileName] as const);
  }

  /** Opens the command palette (Ctrl+K) and types `query`; the titles it offers for it. */
  async paletteOffers(query: string): Promise<string[]> {
    await this.page.keyboard.press('Control+k');
    await this.page.getByRole('combobox', { name: 'Command' }).fill(query);
    // Read once the list is filtered: every entry names the query, or it says nothing matches.
    await this.page.waitForFunction((q) => {
      const items = [...document.querySelectorAll('#palette-list li')].map((li) => (li.textContent ?? '').toLowerCase());
      return items.length > 0 && items.every((t) => t.includes(q) || t === 'no command matches.');
    }, query.toLowerCase());
    return this.page.getByRole('listbox', { name: 'Commands' }).getByRole('option').allTextContents();
  }

  /** Runs the palette's first offer for `query` (as a user would: type, Enter). */
  async runFromPalette(query: string): Promise<void> {
    await this.page.keyboard.press('Control+k');
    await this.page.getByRole('combobox', { name: 'Command' }).fill(query);
    await this.page.getByRole('listbox', { name: 'Commands' }).getByRole('option').first().waitFor();
    await this.page.keyboard.press('Enter');
  }

  async closePalette(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.page.getByRole('dialog', { name: 'Command palette' }).waitFor({ state: 'detached' });
  }

  runCommand(id: string): Promise<void> {
    return this.page.evaluate((c) => window.__workbench?.runCommand(c), id);
  }

  flushAutosave(): Promise<void> {
    return this.page.evaluate(() => window.__workbench?.flushAutosave());
  }

  /** The live connection queries of these URLs (src/app/testHook.ts): for proofs that nothing was sent. */
  liveConnections(urls: readonly string[]): Promise<LiveConnectionView[]> {
    return this.page.evaluate((u) => window.__workbench?.liveConnections(u) ?? [], urls);
  }

  banner() {
    return this.page.getByTestId('banner');
  }

  /** Opens a scenario file as a user would: Ctrl+O, then the file chooser. */
  async openScenarioFile(name: string, bytes: Uint8Array): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.page.locator('body').press('Control+o');
    await (await chooser).setFiles({ name, mimeType: 'application/toml', buffer: Buffer.from(bytes) });
  }

  /** Saves the scenario file as a user would (Ctrl+S): its text, as downloaded. */
  async saveScenarioFile(): Promise<string> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.locator('body').press('Control+s')]);
    return readFile(await download.path(), 'utf8');
  }

  /** Drops one file on the page, as a user dragging it from the desktop would. */
  async dropFile(name: string, bytes: Uint8Array, type = 'application/octet-stream'): Promise<void> {
    const dataTransfer = await this.page.evaluateHandle(
      ([n, b, t]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(b)], n, { type: t }));
        return dt;
      },
      [name, [...bytes], type] as const,
    );
    await this.page.dispatchEvent('body', 'dragenter', { dataTransfer });
    await this.page.dispatchEvent('body', 'drop', { dataTransfer });
  }

  checkStatus() {
    return this.page.getByTestId('check-status');
  }

  /** A tab of the bottom dock (Simulator, Workspace, …). */
  dockTab(name: string) {
    return this.page.getByRole('tablist', { name: 'Dock tabs' }).getByRole('tab', { name, exact: true });
  }

  /**
   * Puts the keyboard focus on the top of the page, the header's first field, as a user who clicks into
   * it or tabs in from the address bar starts, and waits until it holds the focus. A Tab with nothing
   * focused starts from no known place: Chromium (150) moves its sequential focus starting point to any
   * element scrolled into view, and the timeline scrolls its selected row into view once the
   * derivation selects it, so on a fresh page the first Tab landed in the timeline (issue 35).
   */
  async focusTop(): Promise<void> {
    const first = this.header.root.getByRole('textbox', { name: 'Scenario name' });
    await first.focus();
    await expect(first, 'the keyboard starts from the top of the page').toBeFocused();
  }

  /**
   * Where the keyboard focus is: the region of the screen holding it (header, Layers, Timeline, Sets,
   * Dock, or "page" for none of them), and whether it is in the layer editor.
   */
  focusRegion(): Promise<{ region: string; inEditor: boolean }> {
    return this.page.evaluate(() => {
      const a = document.activeElement;
      const region = a?.closest('header.header, [aria-label="Layers"], [aria-label="Timeline"], [aria-label="Sets"], [aria-label="Dock"], [aria-label="What this workbench is for"]');
      return {
        region: region ? (region.tagName === 'HEADER' ? 'header' : (region.getAttribute('aria-label') ?? 'page')) : 'page',
        inEditor: a?.closest('[aria-label="Layers"] .monaco-editor') != null,
      };
    });
  }
}
