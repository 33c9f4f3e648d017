// The review report: `tool-workbench report` on the conformance scenarios writes one self-contained
// HTML file that opens offline in Chromium (no request leaves the file), names every scenario, passes an
// axe scan and prints; the workbench saves the same report from the RFD view.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect } from '@playwright/test';
import type { Page } from '@playwright/test';
import { test } from './fixtures';

const run = promisify(execFile);
const CONFORMANCE = resolve('..', 'shared', 'conformance');

/** Opens a report file with the network off, and returns every request that was not the file itself. */
async function openOffline(page: Page, file: string): Promise<{ requests: string[]; errors: string[] }> {
  const url = pathToFileURL(file).href;
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.context().setOffline(true);
  await page.route('**/*', (route) => {
    if (route.request().url() !== url) requests.push(route.request().url());
    return route.request().url() === url ? route.continue() : route.abort();
  });
  await page.goto(url);
  return { requests, errors };
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

base('tool-workbench report on the conformance scenarios opens offline, names every scenario, passes axe and prints', async ({ page }, info) => {
  const files = (await readdir(CONFORMANCE)).filter((f) => f.endsWith('.toml')).map((f) => join(CONFORMANCE, f));
  const dir = await mkdtemp(join(tmpdir(), 'workbench-report-'));
  const out = join(dir, 'r.html');
  await base.step('write the report', async () => {
    const { stdout } = await run(process.execPath, ['node_modules/.bin/tool-workbench', 'report', ...files, '--out', out], { cwd: process.cwd() });
    expect(stdout).toMatch(/r\.html: 14 scenarios, \d+ passed, 0 failed; RFD 108: 28 of 28 rows agree/u);
  });
  const html = await readFile(out, 'utf8');
  await base.step('no http: or https: reference to another host', async () => {
    expect(html.match(/https?:[^\s"'<>)]*/gu) ?? []).toEqual([]);
  });
  const seen = await openOffline(page, out);
  await base.step('it opens offline with nothing fetched, and names every scenario', async () => {
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tool catalogue review: RFD 108');
    for (const f of files) {
      const name = /^name = "(.*)"$/mu.exec(await readFile(f, 'utf8'))?.[1] ?? '';
      await expect(page.getByRole('navigation', { name: 'Contents' }).getByRole('link', { name, exact: true })).toBeVisible();
      await expect(page.getByRole('heading', { level: 3, name, exact: true })).toBeAttached();
    }
    await expect(page.locator('#rfd table')).toHaveCount(6);
    await expect(page.locator('figure.chart svg').first()).toBeVisible();
    expect(seen.requests).toEqual([]);
    expect(seen.errors).toEqual([]);
  });
  await base.step('no serious accessibility violations', async () => {
    expect(await seriousViolations(page)).toEqual([]);
  });
  await base.step('it prints: print rules apply and a PDF comes out', async () => {
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('nav').evaluate((n) => getComputedStyle(n).breakAfter)).toBe('page');
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    await writeFile(info.outputPath('report.pdf'), pdf);
    await page.emulateMedia({ media: 'screen' });
    for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 768 }]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: info.outputPath(`report-${size.width}x${size.height}.png`) });
    }
  });
});

test('the workbench saves the same report from the RFD view', async ({ workbench, browser }) => {
  await workbench.open();
  await workbench.rfd.open();
  const download = await workbench.rfd.saveReport();
  expect(download.suggestedFilename()).toBe('demo-why-did-the-last-deploy-fail.review.html');
  const html = await readFile(await download.path(), 'utf8');
  expect(html).not.toMatch(/https?:/u);
  // Saved where a reviewer would, under its own name (a download's temporary path has no extension).
  const path = join(await mkdtemp(join(tmpdir(), 'workbench-saved-')), download.suggestedFilename());
  await writeFile(path, html);
  const page = await browser.newPage();
  const seen = await openOffline(page, path);
  await expect(page.getByRole('heading', { level: 3, name: 'Demo: why did the last deploy fail?' })).toBeVisible();
  await expect(page.locator('#rfd')).toContainText('28 of 28 rows agree');
  await expect(page.locator('table').filter({ hasText: 'offered, tokens' })).toContainText('prefix reused · below the 1,024-token minimum: 0 cached');
  // Each request priced in the provider's prompt-cache model, with a total in dollars.
  await expect(page.locator('table').filter({ hasText: 'prompt-cache model' }).locator('tfoot')).toContainText(/all requests.*\$\d+\.\d{4}/u);
  expect(seen.requests).toEqual([]);
  expect(seen.errors).toEqual([]);
  await page.close();
});
