import { test, expect } from './fixtures';
import type { WorkbenchPage } from './pages/WorkbenchPage';

/** The sets row of a tool at the selected position, once the derivation has it. */
async function row(workbench: WorkbenchPage, name: string) {
  const snap = await workbench.snapshot();
  return snap.sets.rows.find((r) => r.name === name);
}

async function layerText(workbench: WorkbenchPage, name: string): Promise<string | undefined> {
  return (await workbench.snapshot()).layers.find((l) => l.name === name)?.text;
}

test.describe('layer editors', () => {
  // Opening the app derives the demo first; on a loaded machine that alone takes a while.
  test.describe.configure({ timeout: 90_000 });

  test.beforeEach(async ({ workbench }) => {
    await workbench.open();
    await workbench.layers.waitForEditor();
  });

  test('typing a tool into a layer shows it in the right set', async ({ workbench }) => {
    const layers = workbench.layers;
    await test.step('type a discoverable tool at the end of the workspace layer', async () => {
      await layers.select('workspace');
      await layers.cursorToEnd();
      await layers.insert('\n[conversation.tools.probe_tool]\nsource = "local"\nenable = "discoverable"\nsummary = "A probe."\n');
    });
    await test.step('the sets put it in permitted and searchable, not offered', async () => {
      await expect.poll(() => row(workbench, 'probe_tool')).toMatchObject({ availability: 'discoverable', permitted: true, searchable: true, offered: false });
    });
    await test.step('turn it on: it moves to offered', async () => {
      const text = (await layers.value()) ?? '';
      const line = text.split('\n').lastIndexOf('enable = "discoverable"') + 1;
      await layers.setCursor(line, 11);
      await layers.page.keyboard.press('Shift+End');
      await layers.insert('on"');
      await expect.poll(() => row(workbench, 'probe_tool')).toMatchObject({ availability: 'on', offered: true, searchable: false });
    });
    await test.step('the store holds exactly what the editor shows', async () => {
      expect(await layerText(workbench, 'workspace')).toBe(await layers.value());
    });
  });

  test('a diagnostic marker appears, and the quick fix clears it', async ({ workbench, page }) => {
    const layers = workbench.layers;
    let line = 0;
    await test.step('write state beside availability', async () => {
      await layers.select('workspace');
      await layers.cursorToEnd();
      await layers.insert('\n[conversation.tools.legacy_tool]\nsource = "local"\nenable = { state = false, availability = "on" }\n');
      const text = (await layers.value()) ?? '';
      line = text.split('\n').findIndex((l) => l.startsWith('enable = { state')) + 1;
    });
    await test.step('a marker with the core\'s message, and an error count on the tab', async () => {
      await expect.poll(async () => (await layers.markers()).find((m) => m.code === 'enable-both-keys')).toMatchObject({ severity: 'error', startLineNumber: line, message: expect.stringContaining('keep `availability`') });
      await expect(layers.errorCount('workspace')).toHaveText('1');
      await expect(layers.tab('workspace')).toHaveAccessibleName('workspace, 1 error');
      await expect(layers.editor().locator('.squiggly-error')).toHaveCount(1);
    });
    await test.step('the marker stays on the layer while another layer is shown', async () => {
      await layers.select('user');
      // (The demo's layer also carries findability notes, severity information, at hard-to-find tools.)
      expect((await layers.markers(1)).map((m) => m.code).filter((c) => c !== 'findability')).toEqual(['enable-both-keys']);
      expect(await layers.markers(0)).toEqual([]);
      await layers.select('workspace');
    });
    await test.step('Ctrl+. offers "keep availability"; Enter applies it', async () => {
      await layers.focusEditor();
      await layers.setCursor(line, 13);
      await page.keyboard.press('Control+.');
      await expect(layers.quickFixes().filter({ hasText: 'Keep availability (remove the legacy state)' })).toHaveCount(1);
      await page.keyboard.press('Enter');
    });
    await test.step('the marker is gone and the table has one key', async () => {
      await expect.poll(async () => (await layers.value())?.split('\n')[line - 1]).toBe('enable = { availability = "on" }');
      await expect.poll(async () => (await layers.markers()).filter((m) => m.code === 'enable-both-keys')).toEqual([]);
      await expect(layers.errorCount('workspace')).toHaveCount(0);
      await expect.poll(() => row(workbench, 'legacy_tool')).toMatchObject({ availability: 'on' });
    });
    await test.step('the fix was one undoable edit', async () => {
      await page.keyboard.press('Control+z');
      await expect.poll(async () => (await layers.value())?.split('\n')[line - 1]).toBe('enable = { state = false, availability = "on" }');
    });
  });

  test('completions after `enable = `, and hovers with the semantics', async ({ workbench, page }) => {
    const layers = workbench.layers;
    await layers.select('workspace');
    await test.step('typing `enable = ` in a tool table opens the enable values', async () => {
      await layers.cursorToEnd();
      await layers.insert('\n[conversation.tools.completion_probe]\n');
      await page.keyboard.type('enable = ');
      await expect(layers.suggestWidget()).toBeVisible();
      const labels = await layers.suggestionLabels();
      for (const l of ['"on"', '"off"', '"discoverable"', '"explicit"', '"always"', 'true', 'false', '{ availability, allow_toggle }']) expect(labels).toContain(l);
    });
    await test.step('the details say what each shorthand expands to; Enter inserts it', async () => {
      await page.keyboard.type('disc');
      await expect(layers.suggestWidget().locator('.monaco-list-row.focused')).toContainText('"discoverable"');
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await layers.value())?.trimEnd().split('\n').pop()).toBe('enable = "discoverable"');
    });
    await test.step('keys are completed from the schema', async () => {
      await page.keyboard.press('Enter');
      await page.keyboard.type('sou');
      await expect(layers.suggestWidget()).toBeVisible();
      expect(await layers.suggestionLabels()).toContain('source');
      await page.keyboard.press('Escape');
    });
    await test.step('hovering "discoverable" explains its expansion and the table form', async () => {
      const text = (await layers.value()) ?? '';
      const line = text.split('\n').lastIndexOf('enable = "discoverable"') + 1;
      await layers.hover(line, 14);
      const hover = layers.hoverWidget();
      await expect(hover).toContainText('{ availability = "discoverable", allow_toggle = "any" }');
      await expect(hover).toContainText("keeps [conversation.tools.'*']'s allow_toggle");
      await expect(hover).toContainText('explicit withholds the tool until the user names it');
    });
  });

  test('setting availability through the store lands as one undoable edit', async ({ workbench, page }) => {
    const layers = workbench.layers;
    const before = (await layerText(workbench, 'workspace')) ?? '';
    await test.step('git_status is on', async () => {
      await expect.poll(() => row(workbench, 'git_status')).toMatchObject({ availability: 'on' });
    });
    await test.step('setToolAvailability edits the layer that decides it, in place', async () => {
      const r = await layers.setToolAvailability('git_status', 'off');
      expect(r).toMatchObject({ ok: true, layer: 'workspace', changed: true });
      await expect(layers.tab('workspace')).toHaveAttribute('aria-selected', 'true');
      const after = (await layerText(workbench, 'workspace')) ?? '';
      expect(after).toBe(before.replace('[conversation.tools.git_status]\nsource = "local"\nenable = "on"', '[conversation.tools.git_status]\nsource = "local"\nenable = { availability = "off", allow_toggle = "any" }'));
      expect(await layers.value()).toBe(after);
      await expect.poll(() => row(workbench, 'git_status')).toMatchObject({ availability: 'off', permitted: false });
    });
    await test.step('Ctrl+Z in the editor restores the text in one step', async () => {
      await layers.focusEditor();
      await page.keyboard.press('Control+z');
      await expect.poll(() => layerText(workbench, 'workspace')).toBe(before);
      await expect.poll(() => row(workbench, 'git_status')).toMatchObject({ availability: 'on' });
    });
  });

  test('a layer gets its editor model when its tab is first shown, with the store\'s text and its markers', async ({ workbench, page }) => {
    const layers = workbench.layers;
    const modelled = () => page.evaluate(() => window.__layerEditor?.modelled() ?? []);
    const second = '[conversation.tools.late_tool]\nsource = "local"\nenable = { state = false, availability = "on" }\n';
    const text = `name = "Lazy models"\n\n[[layers]]\nname = "first"\ntext = '''\n[conversation.tools.solo]\nsource = "local"\nenable = "on"\n'''\n\n[[layers]]\nname = "second"\ntext = '''\n${second}'''\n`;
    await test.step('opened, only the shown layer (the first) has a model; the other\'s error is known', async () => {
      expect(await workbench.loadScenario(text, 'lazy.toml')).toBe(true);
      await expect(layers.tabs()).toHaveText(['first', /^second/]);
      await expect(layers.errorCount('second')).toHaveText('1');
      expect(await page.evaluate(() => window.__layerEditor?.shownIndex())).toBe(0);
      expect(await modelled()).toEqual([0]);
    });
    await test.step('shown, it has the store\'s text and the marker of the diagnostic that came before it', async () => {
      await layers.select('second');
      expect(await modelled()).toEqual([0, 1]);
      expect(await layers.value()).toBe(second);
      expect((await layers.markers()).map((m) => [m.code, m.startLineNumber])).toEqual([['enable-both-keys', 3]]);
    });
    await test.step('typing in it reaches the store', async () => {
      await layers.cursorToEnd();
      await layers.insert('# typed after the first show');
      await expect.poll(() => layerText(workbench, 'second')).toBe(`${second}# typed after the first show`);
      expect(await layers.value()).toBe(await layerText(workbench, 'second'));
    });
  });

  test('tabs: quick switches lose nothing; rename and reorder keep each layer\'s undo history', async ({ workbench, page }) => {
    const layers = workbench.layers;
    await test.step('type in two layers, switching between them quickly', async () => {
      await layers.select('user');
      await layers.cursorToEnd();
      await layers.insert('\n# typed in user');
      await layers.tab('workspace').click();
      await layers.cursorToEnd();
      await layers.insert('\n# typed in workspace');
      await layers.tab('user').click();
      await layers.tab('workspace').click();
      await layers.tab('user').click();
      await expect.poll(() => layerText(workbench, 'user')).toContain('# typed in user');
      expect(await layerText(workbench, 'workspace')).toContain('# typed in workspace');
      expect((await layers.value(0))?.endsWith('# typed in user')).toBe(true);
    });
    await test.step('the cursor stays where it was while the store round-trips', async () => {
      await layers.focusEditor();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('!');
      await expect.poll(() => layerText(workbench, 'user')).toContain('# typed in user!');
      const text = (await layers.value()) ?? '';
      const lines = text.split('\n');
      expect(await layers.cursor()).toEqual({ lineNumber: lines.length, column: (lines[lines.length - 1] ?? '').length + 1 });
    });
    const ids = await layers.layerIds();
    await test.step('F2 renames the tab; Alt+→ moves it up in precedence', async () => {
      await layers.tab('user').focus();
      await page.keyboard.press('F2');
      const field = layers.panel().getByRole('textbox', { name: 'Layer name' });
      await field.fill('workspace');
      await expect(layers.panel().getByRole('alert')).toContainText('already a layer named workspace');
      await field.fill('global');
      await page.keyboard.press('Enter');
      await expect(layers.tab('global')).toBeFocused();
      await page.keyboard.press('Alt+ArrowRight');
      await expect(layers.tabs()).toHaveText(['workspace', 'global']);
      await expect(layers.tab('global')).toBeFocused();
      expect(await layers.layerIds()).toEqual([ids[1], ids[0]]);
    });
    await test.step('the moved, renamed layer still undoes its own typing', async () => {
      await layers.tab('global').click();
      await layers.focusEditor();
      await page.keyboard.press('Control+z');
      await expect.poll(() => layerText(workbench, 'global')).toMatch(/# typed in user$/u);
      expect(await layerText(workbench, 'workspace')).toContain('# typed in workspace');
    });
  });

  test('a new layer shows the commented example; the tokenizer reads TOML', async ({ workbench }) => {
    const layers = workbench.layers;
    await test.step('add a layer', async () => {
      await layers.panel().getByRole('button', { name: 'Add a layer' }).click();
      await expect(layers.tabs()).toHaveCount(3);
      await expect(layers.tab('layer')).toHaveAttribute('aria-selected', 'true');
      await expect.poll(() => layers.value()).toContain('# [conversation.tools.fs_read_file]');
    });
    await test.step('token types', async () => {
      const lines = await layers.tokenize(
        ["[conversation.tools.'*'] # c", 'enable = { availability = "discoverable", allow_toggle = \'never\' }', 'n = 0x1F', 'd = 1979-05-27T07:32:00Z', 's = """', 'a "b" \\u00e9', '"""', 'xs = [1, true, "t\\n"]'].join('\n'),
      );
      const types = (i: number) => (lines[i] ?? []).map(([, t]) => t).filter((t) => t !== '');
      expect(types(0)).toEqual(expect.arrayContaining(['delimiter.table.toml', 'type.table.toml', 'type.table.defaults.toml', 'comment.toml']));
      expect(types(1)).toEqual(expect.arrayContaining(['key.toml', 'delimiter.toml', 'delimiter.curly.toml', 'string.toml']));
      expect(types(2)).toContain('number.hex.toml');
      expect(types(3)).toContain('number.date.toml');
      expect(types(5)).toEqual(['string.toml', 'string.escape.toml']);
      expect(types(7)).toEqual(expect.arrayContaining(['number.toml', 'keyword.toml', 'string.escape.toml', 'delimiter.square.toml']));
    });
    await test.step('a provenance link reveals a layer line', async () => {
      expect(await layers.revealInLayer('workspace', 5)).toBe(true);
      await expect(layers.tab('workspace')).toHaveAttribute('aria-selected', 'true');
      await expect(layers.editor().locator('.layer-reveal-line')).toHaveCount(1);
      expect(await layers.cursor()).toEqual({ lineNumber: 5, column: 1 });
    });
  });

  test('commands: the palette key works inside the editor, and the tool at the cursor can be set', async ({ workbench, page }) => {
    const layers = workbench.layers;
    await layers.select('workspace');
    await test.step('Ctrl+K in the editor opens the command palette (no Monaco chord left waiting)', async () => {
      await layers.focusEditor();
      await page.keyboard.press('Control+k');
      const palette = page.getByRole('dialog', { name: 'Command palette' });
      await expect(palette).toBeVisible();
      await page.keyboard.type('tool at the cursor to off');
      await expect(palette.getByRole('option', { name: /set the availability of the tool at the cursor to off/u })).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(palette).toBeHidden();
    });
    await test.step('with the cursor in git_status\'s table, the command edits git_status', async () => {
      const text = (await layers.value()) ?? '';
      const line = text.split('\n').indexOf('[conversation.tools.git_status]') + 2;
      await layers.setCursor(line, 1);
      await workbench.runCommand('layer.setAvailability.off');
      await expect.poll(() => row(workbench, 'git_status')).toMatchObject({ availability: 'off' });
    });
  });

  test('opening another scenario replaces the layers and their undo histories', async ({ workbench, page }) => {
    const layers = workbench.layers;
    const other = 'name = "Other"\n\n[[layers]]\nname = "only"\ntext = \'\'\'\n[conversation.tools.solo]\nsource = "local"\nenable = "on"\n\'\'\'\n';
    expect(await workbench.loadScenario(other, 'other.toml')).toBe(true);
    await expect(layers.tabs()).toHaveText(['only']);
    await expect.poll(() => layers.value()).toBe('[conversation.tools.solo]\nsource = "local"\nenable = "on"\n');
    await layers.focusEditor();
    await page.keyboard.press('Control+z');
    expect(await layers.value()).toBe('[conversation.tools.solo]\nsource = "local"\nenable = "on"\n');
    await expect.poll(() => row(workbench, 'solo')).toMatchObject({ availability: 'on', offered: true });
  });

  test('screenshots of the layers panel', async ({ workbench, page }) => {
    await workbench.layers.select('workspace');
    await workbench.layers.cursorToEnd();
    await workbench.layers.insert('\n[conversation.tools.shot]\nenable = { state = false, availability = "on" }\n');
    await expect(workbench.layers.errorCount('workspace')).toBeVisible();
    for (const [width, height] of [
      [1440, 900],
      [1024, 768],
    ] as const) {
      await page.setViewportSize({ width, height });
      // Two frames: the resized layout is painted (a fixed pause only guessed at it).
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: `test-results/layers-${width}x${height}.png` });
      await workbench.layers.panel().screenshot({ path: `test-results/layers-panel-${width}x${height}.png` });
    }
  });
});
