// Bounded decoding in the import dialog: pasted JSON with a schema nested 100,000
// levels deep gets a clear sentence, never "Maximum call stack size exceeded", and
// the document is untouched.
import { test, expect } from './fixtures';

test('pasted JSON with a schema nested 20,000 levels deep gets a clear message', async ({ workbench, page }) => {
  await workbench.open();
  const before = await workbench.snapshot();
  let schema = '{"type":"string"}';
  for (let i = 0; i < 20_000; i++) schema = `{"type":"object","properties":{"a":${schema}}}`;
  await workbench.runCommand('import.paste');
  await workbench.importer.paste(`{"tools":[{"name":"deep_tool","description":"Deep.","inputSchema":${schema}}]}`);
  await expect(workbench.importer.errors()).toContainText(/nests? (its JSON more than|deeper than) 100 levels/u, { timeout: 30_000 });
  await expect(workbench.importer.errors()).not.toContainText('Maximum call stack');
  await expect(page.getByTestId('import-confirm')).toBeDisabled();
  await workbench.importer.close();
  expect((await workbench.snapshot()).doc).toEqual(before.doc);
});
