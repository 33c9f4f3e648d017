// The timeline panel: rows of positions, the scrubber, the step field.
import type { Locator, Page } from '@playwright/test';

export class TimelinePage {
  readonly root: Locator;
  constructor(readonly page: Page) {
    this.root = page.getByRole('region', { name: 'Timeline' });
  }

  list(): Locator {
    return this.root.getByRole('listbox');
  }

  rows(): Locator {
    return this.list().getByRole('option');
  }

  /** A row by its index in TimelineView.entries. */
  row(entry: number): Locator {
    return this.list().locator(`[data-entry="${entry}"]`);
  }

  rowsOfKind(kind: string): Locator {
    return this.list().locator(`[data-kind="${kind}"]`);
  }

  selectedRow(): Locator {
    return this.list().locator('[aria-selected="true"]');
  }

  /** How far the row list is scrolled, in pixels (0: its start is shown). */
  scrollTop(): Promise<number> {
    return this.list().evaluate((el) => el.scrollTop);
  }

  async select(entry: number): Promise<void> {
    await this.row(entry).click();
  }

  scrubber(): Locator {
    return this.root.getByRole('slider', { name: 'Timeline position' });
  }

  async scrubTo(entry: number): Promise<void> {
    await this.scrubber().fill(String(entry));
  }

  /** Presses keys with the row list focused. */
  async press(...keys: string[]): Promise<void> {
    await this.list().focus();
    for (const k of keys) await this.page.keyboard.press(k);
  }

  commandField(): Locator {
    return this.root.getByRole('textbox', { name: /^(New step|Edit step)/u });
  }

  commandError(): Locator {
    return this.root.getByTestId('command-error');
  }

  async typeCommand(text: string): Promise<void> {
    const f = this.commandField();
    await f.click();
    await f.fill('');
    await f.pressSequentially(text, { delay: 5 });
  }

  async addStep(command: string): Promise<void> {
    await this.typeCommand(command);
    await this.commandField().press('Enter');
  }

  failMarks(): Locator {
    return this.list().getByTestId('expectation-fail');
  }

  passMarks(): Locator {
    return this.list().getByTestId('expectation-pass');
  }

  deletedBanner(): Locator {
    return this.root.getByTestId('step-deleted');
  }

  async undoDelete(): Promise<void> {
    await this.deletedBanner().getByRole('button', { name: 'Undo' }).click();
  }

  /** The rows that carry an expectation mark (✓ N or ✗ N). */
  rowsWithMarks(): Locator {
    return this.list().locator('.tl-row:has([data-testid^="expectation-"])');
  }

  /**
   * Where a row's first expectation mark shows its sign and count ("✓ 2", the text before its keys),
   * next to the box of the row's line, which clips what does not fit: the mark is seen only when that text
   * lies inside both the mark and the line.
   */
  async markPlacement(row: Locator): Promise<{ line: Box; mark: Box; count: Box; text: string }> {
    return row.evaluate((el) => {
      const line = el.querySelector('.tl-line');
      const mark = el.querySelector('[data-testid^="expectation-"]');
      if (!line || !mark) throw new Error('the row has no expectation mark');
      // The sign and the count are text nodes; the keys (of a single expectation) are an element after them.
      const nodes = [...mark.childNodes];
      const end = nodes.findIndex((n) => n.nodeType !== Node.TEXT_NODE);
      const range = document.createRange();
      range.setStart(mark, 0);
      range.setEnd(mark, end < 0 ? nodes.length : end);
      const box = (r: DOMRect) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
      return { line: box(line.getBoundingClientRect()), mark: box(mark.getBoundingClientRect()), count: box(range.getBoundingClientRect()), text: range.toString() };
    });
  }
}

export interface Box {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}
