import { chromium } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const p = await b.newPage({ viewport: { width: 1440, height: 900 } });
p.on('console', (m) => console.log('console', m.type(), m.text()));
await p.goto('http://127.0.0.1:4273/');
await p.evaluate(async () => { await new Promise((r) => { const q = indexedDB.deleteDatabase('tool-workbench'); q.onsuccess = q.onerror = q.onblocked = () => r(); }); localStorage.clear(); });
await p.goto('http://127.0.0.1:4273/');
await p.getByTestId('check-status').filter({ hasText: 'passed' }).waitFor();
await p.getByRole('tablist', { name: 'Dock tabs' }).getByRole('tab', { name: 'Workspace' }).click();
const zip = zipSync({
    'proj/.jp/config.toml': strToU8('extends = ["a.toml", "gone.toml", "tools/*.toml", "none/**/*.toml"]\n'),
    'proj/.jp/a.toml': strToU8('extends = ["b.toml"]\n'),
    'proj/.jp/b.toml': strToU8('# closes the loop\nextends = ["a.toml"]\n'),
    'proj/.jp/tools/bad.toml': strToU8('[conversation.tools.broken]\nsource = "local"\nenable = \n'),
    'proj/.jp/tools/good.toml': strToU8('[conversation.tools.good_tool]\nsource = "local"\nsummary = "Works."\nenable = true\n'),
});
await p.getByTestId('workspace-zip-input').setInputFiles({ name: 'proj.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
await p.getByTestId('workspace-diagnostics').waitFor();
const d = await p.evaluate(async () => (await window.__workbench.snapshot()).timeline.workspace.diagnostics);
console.log(JSON.stringify(d, null, 1));
await p.locator('li[data-layer="tools/bad.toml"] button').click();
await p.getByTestId('workspace-file-editor').locator('.view-lines').waitFor();
await p.waitForTimeout(1500);
console.log(await p.getByTestId('workspace-file-editor').getAttribute('data-markers'), await p.locator('.squiggly-error').count(), await p.getByTestId('workspace-file-editor').locator('.view-overlays').innerHTML());
console.log(await p.evaluate(() => { const m = window.__m; const models = m.editor.getModels().map(x => x.uri.toString()); const mk = m.editor.getModelMarkers({}).map(x => [x.owner, x.resource.toString(), x.startLineNumber, x.startColumn, x.endLineNumber, x.endColumn]); const ed = m.editor.getEditors().map(e => [e.getModel()?.uri.toString(), e.getModel()?.getAllDecorations().map(d => d.options.className).join(',')]); return JSON.stringify({models, mk, ed}); }));
await p.evaluate(() => { const m = window.__m; const model = m.editor.getModels()[1]; m.editor.setModelMarkers(model, 'probe', [{severity: 8, message: 'x', startLineNumber: 3, startColumn: 1, endLineNumber: 3, endColumn: 7}]); });
await p.waitForTimeout(500);
console.log('after word marker', await p.locator('.squiggly-error').count());
console.log(await p.getByTestId('workspace-file-editor').locator('.view-overlays').innerHTML());
await p.screenshot({ path: '/tmp/ws-shots/bad.png' });
await b.close();
