// Issue 12 in the browser: every file the page reads is decoded as strict UTF-8. A file with a
// byte that is not UTF-8 (here Latin-1's é, 0xE9) is refused with the line and column of that
// byte, and the work stays as it was: before, `File.text()` turned it into U+FFFD and opened a
// document nobody wrote.
import { strToU8, zipSync } from 'fflate';
import { test, expect } from './fixtures';

/** Latin-1 bytes for text: é is one byte, 0xE9, which no UTF-8 text holds alone. */
const latin1 = (text: string): Uint8Array => new Uint8Array([...text].map((c) => c.charCodeAt(0) & 0xff));

const SCENARIO = latin1('name = "Café"\n[[layers]]\nname = "workspace"\ntext = \'\'\'\n[conversation.tools.grep]\nsource = "local"\nsummary = "Recherche rapide (résumé)"\n\'\'\'\n');
const NOT_UTF8 = /not UTF-8: byte 0xE9 at byte offset \d+ does not form a character; save the file as UTF-8/u;

test('a scenario file that is not UTF-8 is refused at its line and column, opened or dropped', async ({ workbench }) => {
  await workbench.open();
  const before = await workbench.snapshot();

  await test.step('Ctrl+O', async () => {
    await workbench.openScenarioFile('cafe.toml', SCENARIO);
    await expect(workbench.banner()).toContainText('Could not open cafe.toml: 1:12: not UTF-8: byte 0xE9');
    await expect(workbench.banner()).toContainText('Your current work is unchanged.');
  });

  await test.step('dropped on the page', async () => {
    await workbench.dropFile('dropped.toml', SCENARIO);
    await expect(workbench.banner()).toContainText('Could not open dropped.toml: 1:12: not UTF-8');
  });

  await test.step('the same file as UTF-8 opens', async () => {
    await workbench.dropFile('utf8.toml', strToU8(new TextDecoder('latin1').decode(SCENARIO)));
    await expect(workbench.banner()).toContainText('Opened utf8.toml.');
    expect((await workbench.snapshot()).doc.name).toBe('Café');
  });

  await workbench.page.screenshot({ path: '/tmp/decode-banner.png' });
  expect(before.doc.name).not.toBe('Café');
});

test('a catalogue, a workspace zip and a query set that are not UTF-8 are refused the same way', async ({ workbench }) => {
  await workbench.open();
  const before = await workbench.snapshot();

  await test.step('an MCP catalogue dropped on the page', async () => {
    await workbench.dropFile('latin1.json', latin1('{"tools": [\n  {"name": "caf\u00e9", "inputSchema": {"type": "object"}}\n]}'), 'application/json');
    const imp = workbench.importer;
    await expect(imp.errors()).toContainText('Refused: nothing was imported, and your scenario is unchanged.');
    await expect(imp.errors()).toContainText('latin1.json:2:16:');
    await expect(imp.errors()).toContainText(NOT_UTF8);
    await imp.close();
  });

  await test.step('a workspace zip with a Latin-1 config.toml', async () => {
    const zip = zipSync({ 'proj/.jp/config.toml': latin1('# caf\u00e9\n'), 'proj/.jp/a.toml': strToU8('') });
    await workbench.workspace.chooseZip('proj.zip', Buffer.from(zip));
    await expect(workbench.banner()).toContainText('Could not open the workspace: proj/.jp/config.toml:1:6: not UTF-8: byte 0xE9');
    await expect(workbench.banner()).toContainText('Your current work is unchanged.');
  });

  await test.step('a query set in the search lab', async () => {
    const lab = workbench.searchLab;
    await lab.open();
    await lab.showQuerySet();
    await lab.querySet().fill('{"query": "kept", "relevant": []}');
    await lab.loadQuerySet(latin1('{"query": "r\u00e9sum\u00e9", "relevant": []}\n'), 'latin1.jsonl');
    await expect(lab.fileError()).toContainText('Could not load latin1.jsonl: 1:13:');
    await expect(lab.fileError()).toContainText(NOT_UTF8);
    await expect(lab.querySet()).toHaveValue('{"query": "kept", "relevant": []}');
  });

  const after = await workbench.snapshot();
  expect(after.doc).toEqual(before.doc);
});
