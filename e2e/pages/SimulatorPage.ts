// The turn simulator: the jp prompt, the model's actions, and the turn's log.
import type { Locator, Page } from '@playwright/test';

export class SimulatorPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Simulator' }).click();
    await this.page.getByTestId('sim-auto').waitFor();
  }

  /** The one step field (under the timeline): the simulator has no prompt of its own. */
  prompt(): Locator {
    return this.page.getByRole('region', { name: 'Timeline' }).getByRole('textbox', { name: /^New step/u });
  }

  promptError(): Locator {
    return this.page.getByRole('region', { name: 'Timeline' }).getByTestId('command-error');
  }

  addStepButton(): Locator {
    return this.page.getByRole('region', { name: 'Timeline' }).getByRole('button', { name: 'Add step' });
  }

  /** Types a jp command in the step field and presses Enter. */
  async addStep(command: string): Promise<void> {
    await this.prompt().fill(command);
    await this.prompt().press('Enter');
  }

  async search(query: string, limit?: number): Promise<void> {
    await this.page.getByTestId('sim-mode-search').check();
    await this.page.getByTestId('sim-search-query').fill(query);
    if (limit !== undefined) await this.page.getByTestId('sim-search-limit').fill(String(limit));
    await this.page.getByTestId('sim-search-submit').click();
  }

  /** The turn log's search_tools results (each a recorded call). */
  searchResults(): Locator {
    return this.page.getByTestId('sim-log').getByTestId('sim-search-result');
  }

  /** The turn log's row of a recorded call of `tool` (its data-call-status says ok or error). */
  callRow(tool: string): Locator {
    return this.page.getByTestId('sim-log').locator(`.sim-call[data-tool="${tool}"]`);
  }

  /** The live state shown beside recorded calls and searches ("fs: server stopped now"); never part of the record. */
  liveNow(): Locator {
    return this.page.getByTestId('sim-log').getByTestId('live-now');
  }

  /** The simulated call's arguments (JSON), shared with the "Run on the server" form. */
  callArgs(): Locator {
    return this.page.getByTestId('sim-args');
  }

  async callTool(tool: string, args: unknown): Promise<void> {
    await this.page.getByTestId('sim-mode-call').check();
    await this.page.getByTestId('sim-tool').fill(tool);
    await this.page.getByTestId('sim-args').fill(JSON.stringify(args));
    await this.page.getByTestId('sim-call-submit').click();
  }

  async describeTools(names: string[]): Promise<void> {
    await this.page.getByTestId('sim-mode-describe').check();
    await this.page.getByTestId('sim-describe').fill(names.join(', '));
    await this.page.getByTestId('sim-describe-submit').click();
  }

  async reply(text: string): Promise<void> {
    await this.page.getByTestId('sim-mode-reply').check();
    await this.page.getByTestId('sim-reply').fill(text);
    await this.page.getByTestId('sim-reply-submit').click();
  }

  async autoModel(): Promise<void> {
    await this.page.getByTestId('sim-auto').click();
    await this.note().filter({ hasText: 'Auto model' }).waitFor({ timeout: 30_000 });
  }

  /** "Ask the model": the turn played by the user's model through the bridge (a key typed here goes to the bridge only). */
  async askModel(model: string, key?: string): Promise<void> {
    await this.page.getByTestId('sim-model').fill(model);
    if (key !== undefined) await this.page.getByTestId('sim-model-key').fill(key);
    await this.page.getByTestId('sim-ask-model').click();
    await this.askNote().waitFor({ timeout: 30_000 });
  }

  /**
   * "Ask the model" without waiting for its end: a call to a live server's tool stops the run at its
   * confirmation (issue 33). `unattended`: tick "let the model run tools whose run is unattended" first.
   */
  async startAskModel(model: string, { unattended = false }: { unattended?: boolean } = {}): Promise<void> {
    await this.page.getByTestId('sim-model').fill(model);
    if (unattended) await this.unattendedChoice().check();
    await this.page.getByTestId('sim-ask-model').click();
  }

  /** The run's choice: let the model run tools whose `run` is `unattended` without the question. */
  unattendedChoice(): Locator {
    return this.page.getByTestId('sim-model-unattended');
  }

  /** The question before the model's call of a live server's tool runs: the tool, its server, the arguments. */
  modelCallConfirm(): Locator {
    return this.page.getByTestId('model-call-confirm');
  }

  modelCallArgs(): Locator {
    return this.modelCallConfirm().getByTestId('model-call-args');
  }

  /** The model's call while it runs on its server, with the server's questions (forms) in it. */
  modelCallRunning(): Locator {
    return this.page.getByTestId('model-call-running');
  }

  async confirmModelCall(): Promise<void> {
    await this.modelCallConfirm().getByRole('button', { name: 'Run it', exact: true }).click();
  }

  async refuseModelCall(): Promise<void> {
    await this.modelCallConfirm().getByRole('button', { name: "Don't run it", exact: true }).click();
  }

  /** The model name field of "Ask the model" (kept across a reload). */
  modelField(): Locator {
    return this.page.getByTestId('sim-model');
  }

  askButton(): Locator {
    return this.page.getByTestId('sim-ask-model');
  }

  /** Why "Ask the model" cannot be pressed, as text beside it (absent when it can). */
  askWhy(): Locator {
    return this.page.getByTestId('sim-ask-why');
  }

  askNote(): Locator {
    return this.page.getByTestId('sim-ask-note');
  }

  /** What each request of the model's turn did. */
  askCycles(): Locator {
    return this.page.getByTestId('sim-ask-cycles').locator('li');
  }

  async recordExpectations(): Promise<void> {
    await this.page.getByTestId('sim-record').click();
    await this.note().filter({ hasText: 'Recorded' }).waitFor();
  }

  note(): Locator {
    return this.page.getByTestId('sim-note');
  }

  /** The auto model's decisions, each with its reason. */
  decisions(): Locator {
    return this.page.getByTestId('sim-auto-moves').locator('li');
  }

  /** "Step N <command> · ..." : the step the simulator follows. */
  following(): Locator {
    return this.page.getByTestId('sim-following');
  }

  log(): Locator {
    return this.page.getByTestId('sim-log');
  }

  /** The last search result table of the log. */
  lastSearch(): Locator {
    return this.page.getByTestId('sim-search-result').last();
  }

  /** The tools shown joining the offered set in the log's requests. */
  joined(): Locator {
    return this.page.getByTestId('sim-joined');
  }

  openTurn(): Locator {
    return this.page.getByTestId('sim-open');
  }

  /** Why the model's actions are disabled: the followed step did not start (no request to answer). */
  blocked(): Locator {
    return this.page.getByTestId('sim-blocked');
  }

  /** The model's actions (the response's modes and the auto model), as buttons and radios. */
  actionControls(): Locator {
    return this.page.getByRole('radiogroup', { name: "The model's response" }).getByRole('radio').or(this.page.getByTestId('sim-auto')).or(this.page.getByTestId('sim-ask-model'));
  }
}
