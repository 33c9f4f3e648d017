// The local bridge as the page shows it: a workspace opened by its path, the "Start servers"
// confirmation, the workspace's servers and their status, the Servers panel's bridge controls,
// "Run on the server" in the simulator, the Servers panel's "Reach an HTTP server through the
// bridge" form, a bridged server's controls and log, and "Save snapshot".
import { expect } from '@playwright/test';
import type { Download, Locator, Page } from '@playwright/test';

export class BridgePage {
  constructor(readonly page: Page) {}

  /** Opens the address `tool-workbench serve` printed (a one-time code rides in the fragment; the page trades it for a session). */
  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.page.waitForFunction(() => window.__workbench !== undefined);
  }

  /** The session token this tab traded the code for (kept in sessionStorage, for this tab only). */
  async sessionToken(): Promise<string> {
    const handle = await this.page.waitForFunction(() => sessionStorage.getItem('tool-workbench.bridge-session'));
    return (await handle.jsonValue()) as string;
  }

  async openWorkspace(path: string): Promise<void> {
    await this.page.getByRole('tablist', { name: 'Dock tabs' }).getByRole('tab', { name: 'Workspace' }).click();
    await this.page.getByTestId('workspace-path').fill(path);
    await this.page.getByTestId('workspace-path-open').click();
    await this.page.getByTestId('workspace-counts').waitFor();
  }

  workspaceServer(name: string): Locator {
    return this.page.locator(`[data-testid="workspace-server"][data-server="${name}"]`);
  }

  async askToStart(): Promise<Locator> {
    await this.page.getByTestId('workspace-start-servers').click();
    const dialog = this.page.getByRole('dialog', { name: /Start \d+ MCP server/u });
    await dialog.waitFor();
    return dialog;
  }

  /**
   * Presses "Start servers…" when the bridge may already run them: the dialog opens only for servers
   * that do not run yet (issue 34.5); a banner says which already run.
   */
  async pressStart(): Promise<void> {
    await this.page.getByTestId('workspace-start-servers').click();
  }

  /** What the bridge itself runs (`GET /bridge/servers` with this tab's session): the truth the panels follow. */
  async listed(): Promise<{ name: string; status: string; pid?: number; from?: string }[]> {
    const token = await this.sessionToken();
    return this.page.evaluate(async (t) => {
      const r = await fetch('/bridge/servers', { headers: { authorization: `Bearer ${t}` } });
      return ((await r.json()) as { servers: { name: string; status: string; pid?: number; from?: string }[] }).servers;
    }, token);
  }

  async confirmStart(): Promise<void> {
    await this.page.getByTestId('start-servers-confirm').click();
    await this.page.getByTestId('start-servers-dialog').waitFor({ state: 'detached' });
  }

  async stopServers(): Promise<void> {
    await this.page.getByTestId('workspace-stop-servers').click();
  }

  runner(): Locator {
    return this.page.getByTestId('run-on-server');
  }

  /** Picks a tool in the simulator's call mode; its "Run on the server" form appears when the server is live. */
  async pickTool(name: string): Promise<void> {
    await this.page.getByTestId('sim-mode-call').check();
    await this.page.getByTestId('sim-tool').fill(name);
    await this.runner().waitFor();
  }

  field(label: string): Locator {
    return this.runner().getByLabel(label, { exact: true });
  }

  /** The form's raw-JSON view of the arguments (the same text as the simulated call's). */
  async rawArgs(): Promise<Locator> {
    await this.runner().getByTestId('run-raw').check();
    return this.runner().getByTestId('run-raw-text');
  }

  /** Said in place of the form while the arguments typed are not a JSON object. */
  argsUnshown(): Locator {
    return this.runner().getByTestId('run-args-unshown');
  }

  async run(): Promise<string> {
    await this.runner().getByTestId('run-submit').click();
    const result = this.runner().getByTestId('run-result');
    await result.waitFor({ timeout: 30_000 });
    return (await result.textContent()) ?? '';
  }

  /**
   * The Servers panel's "Reach an HTTP server through the bridge…": one flow in the import dialog that
   * connects through the bridge (headers stay in it), lists the server's tools and imports them.
   */
  async reachHttp(url: string, options: { readonly name?: string; readonly headers?: string } = {}): Promise<void> {
    await this.fillHttp(url, options);
    await this.submitHttp(options);
  }

  /** Opens the flow from the Servers panel and fills it, without connecting. */
  async fillHttp(url: string, options: { readonly headers?: string } = {}): Promise<void> {
    await this.page.getByRole('tab', { name: 'Servers', exact: true }).click();
    await this.page.getByTestId('bridge-http-open').click();
    const form = this.httpForm();
    await form.getByTestId('import-url').fill(url);
    if (options.headers !== undefined) await form.getByTestId('import-headers').fill(options.headers);
  }

  /** Connects: the bridge reaches the server and its tools are listed, ready to import. */
  async connectHttp(): Promise<void> {
    const form = this.httpForm();
    await form.getByTestId('import-connect').click();
    await expect(form.getByTestId('import-confirm')).toBeEnabled({ timeout: 30_000 });
  }

  /** Connects, then imports what it listed (under `name`, if given); the dialog closes. */
  async submitHttp(options: { readonly name?: string } = {}): Promise<void> {
    await this.connectHttp();
    await this.importHttp(options);
  }

  async importHttp(options: { readonly name?: string } = {}): Promise<void> {
    const form = this.httpForm();
    if (options.name !== undefined) await form.getByTestId('import-server-name').first().fill(options.name);
    await expect(form.getByTestId('import-confirm')).toBeEnabled({ timeout: 30_000 });
    await form.getByTestId('import-confirm').click();
    await form.waitFor({ state: 'detached', timeout: 30_000 });
  }

  /** The flow's dialog (the import dialog on its live-server tab, connecting through the bridge). */
  httpForm(): Locator {
    return this.page.getByTestId('import-dialog');
  }

  /** A scenario server's bridge controls in the Servers panel. */
  controls(server: string): Locator {
    return this.page.getByTestId('servers-panel').locator(`li[data-server="${server}"]`).getByTestId('bridge-controls');
  }

  status(server: string): Locator {
    return this.controls(server).getByTestId('bridge-status');
  }

  /** Which capabilities the bridge declares to the server: JP's client's, or forwarding to the page (issue 34.3). */
  forwarding(server: string): Locator {
    return this.controls(server).getByTestId('bridge-forwarding');
  }

  forwardingState(server: string): Locator {
    return this.forwarding(server).getByTestId('bridge-forwarding-state');
  }

  /** Switches forwarding (the bridge reconnects the server) and waits for the card to say the new state. */
  async setForwarding(server: string, on: boolean): Promise<void> {
    const box = this.forwarding(server);
    if ((await box.getAttribute('data-forwarding')) === (on ? 'page' : 'jp')) return;
    await box.getByTestId('bridge-forwarding-switch').click();
    await expect(box).toHaveAttribute('data-forwarding', on ? 'page' : 'jp', { timeout: 30_000 });
  }

  /** The note naming the tools forwarding adds, each marked "not offered to JP". */
  notOffered(server: string): Locator {
    return this.forwarding(server).getByTestId('bridge-not-offered');
  }

  notOfferedTools(server: string): Locator {
    return this.notOffered(server).getByTestId('not-offered-tool');
  }

  /** Opens the server's log (the bridge's record of its messages) and returns it. */
  async log(server: string): Promise<Locator> {
    const toggle = this.controls(server).getByTestId('bridge-log-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const log = this.controls(server).getByTestId('bridge-log');
    await log.waitFor();
    return log;
  }

  /** "Save snapshot (.json)" in the Servers panel's bridge bar: the file it downloads. */
  async saveSnapshot(): Promise<Download> {
    await this.page.getByRole('tab', { name: 'Servers', exact: true }).click();
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId('bridge-snapshot').click()]);
    return download;
  }
}
