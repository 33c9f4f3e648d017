// The first screen's guidance: the guided tour, Help (the README's tour), the scenario's description
// and the sets' legend.
import { expect, type Locator, type Page } from '@playwright/test';

export class GuidePage {
  constructor(readonly page: Page) {}

  async startTour(): Promise<void> {
    await this.page.getByTestId('tour-button').click();
    await this.tour().waitFor();
  }

  tour(): Locator {
    return this.page.getByTestId('tour');
  }

  /** The title of the step the tour shows. */
  tourTitle(): Locator {
    return this.tour().locator('#tour-title');
  }

  /** What the step the tour shows says. */
  tourBody(): Locator {
    return this.tour().locator('#tour-body');
  }

  /** Steps through the tour with Next until the step titled `title` shows. */
  async tourTo(title: string): Promise<void> {
    for (let i = 0; i < 20 && (await this.tourTitle().innerText()) !== title; i++) await this.tour().getByTestId('tour-next').click();
    await expect(this.tourTitle()).toHaveText(title);
  }

  /** Steps through the whole tour with Next, reading each step's title, until it ends. */
  async tourTitles(): Promise<string[]> {
    const titles: string[] = [];
    for (let i = 0; i < 20 && (await this.tour().count()) > 0; i++) {
      titles.push(await this.tourTitle().innerText());
      await this.tour().getByTestId('tour-next').click();
    }
    await this.tour().waitFor({ state: 'detached' });
    return titles;
  }

  /** The 0-based step the tour shows. */
  async tourStep(): Promise<number> {
    return Number(await this.tour().getAttribute('data-step'));
  }

  async openHelp(): Promise<void> {
    await this.page.getByTestId('help-button').click();
    await this.help().waitFor();
  }

  help(): Locator {
    return this.page.getByTestId('help');
  }

  description(): Locator {
    return this.page.getByTestId('scenario-description');
  }

  legendToggle(): Locator {
    return this.page.getByTestId('sets-legend-toggle');
  }

  legend(): Locator {
    return this.page.getByTestId('sets-legend');
  }

  /** The first screen's plain paragraph: what the workbench is for, the three sets, what the demo shows. */
  welcome(): Locator {
    return this.page.getByRole('region', { name: 'What this workbench is for' });
  }

  async dismissWelcome(): Promise<void> {
    await this.welcome().getByRole('button', { name: 'Got it' }).click();
    await this.welcome().waitFor({ state: 'detached' });
  }

  /** The product's name in the header, as a user sees it. */
  brand(): Locator {
    return this.page.locator('header.header h1');
  }
}
