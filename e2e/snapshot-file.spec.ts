// A snapshot file (what `tool-workbench snapshot` and the page write) in the import dialog: the page
// shows what the file holds of each server itself: serverInfo's title, version, description, website
// and icons (counted, never fetched), the capabilities and the instructions, all as text.
import { test, expect } from './fixtures';
import { snapshotCatalogue } from '../src/core/import/snapshot';

const SCREENS = process.env.WORKBENCH_SCREENS ?? '/tmp/wb-screens';

test('the import preview shows what a snapshot file holds of each server', async ({ workbench, page }) => {
  const imp = workbench.importer;
  const snap = snapshotCatalogue('snapshot of demo', 'Taken by tool-workbench snapshot.', [
    {
      name: 'rich',
      serverInfo: { name: 'rich', version: '3.1.4', title: 'Rich Server', description: 'Says everything about itself.', icons: [{ src: 'https://example.invalid/rich.png' }], websiteUrl: 'https://example.invalid/rich', 'x-vendor': 'acme' },
      protocolVersion: '2025-11-25',
      instructions: 'Call plain before fancy. <img src=x onerror="document.title=1">',
      capabilities: { tools: { listChanged: true }, logging: {} },
      tools: [
        { name: 'plain', inputSchema: { type: 'object' } },
        { name: 'fancy', description: 'Has extras.', inputSchema: { type: 'object' }, 'x-cost': 3 },
      ],
    },
  ]);
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('example.invalid')) requests.push(r.url());
  });
  await workbench.open();
  await imp.openFromServersTab();
  await imp.chooseFile({ name: 'snapshot.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(snap.value)) });
  const about = imp.serverAbout();
  await expect(about).toHaveCount(1);
  await expect(about.getByTestId('about-server')).toHaveText('Rich Server (rich) 3.1.4');
  await expect(about.getByTestId('about-description')).toHaveText('Says everything about itself.');
  await expect(about.getByTestId('about-website')).toHaveText('https://example.invalid/rich');
  await expect(about).toContainText('1 (not loaded)');
  await expect(about).toContainText('x-vendor');
  await expect(about).toContainText('2025-11-25');
  await expect(about.getByTestId('about-capabilities')).toHaveText('tools, logging');
  await expect(about.getByTestId('about-instructions')).toHaveText('Call plain before fancy. <img src=x onerror="document.title=1">');
  await expect(about.locator('img')).toHaveCount(0);
  await expect(imp.counts()).toContainText('2 tools');
  await page.screenshot({ path: `${SCREENS}/snapshot-import-about.png` });
  expect(requests).toEqual([]);
});
