// The local bridge as the page shows it: a workspace opened by its path, the "Start servers"
// confirmation, the workspace's servers and their status, the Servers panel's bridge controls,
// and "Run on the server" in the simulator.
import type { Locator, Page } from '@playwright/test';

export class BridgePage {
  constructor(readonly page: Page) {}

  /** Opens the address `tool-workbench serve` printed (the token rides in the fragment). */
  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.page.waitForFunction(() => window.__workbench !== undefined);
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

  async run(): Promise<string> {
    await this.runner().getByTestId('run-submit').click();
    const result = this.runner().getByTestId('run-result');
    await result.waitFor({ timeout: 30_000 });
    return (await result.textContent()) ?? '';
  }
}
