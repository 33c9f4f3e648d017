// The built app runs under its Content-Security-Policy (src/app/csp.ts, put in
// index.html by the build): scripts and workers from self only, no inline
// script, connections to self and loopback only. The whole suite fails on any
// violation (fixtures.ts); this spec checks the policy is there, drives the parts
// that load code or styles late (Monaco and its worker, the derive worker, the
// lazily loaded panels, the MCP client), and proves a violation is caught.
import type { Page } from '@playwright/test';
import { cspMetaContent } from '../src/app/csp';
import { test, expect } from './fixtures';

/** Violations the page saw, recorded by a listener installed before any script runs. */
async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
}

const violations = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

test('the app carries its policy and runs whole under it', async ({ workbench, page }) => {
  await recordViolations(page);
  await workbench.open();

  await test.step('the policy is the first thing in the head, exactly as src/app/csp.ts says', async () => {
    const meta = await page.evaluate(() => {
      const m = document.head.querySelector('meta[http-equiv="Content-Security-Policy"]');
      return { content: m?.getAttribute('content'), beforeScripts: m !== null && document.head.querySelector('script') !== null && (m.compareDocumentPosition(document.head.querySelector('script') as Node) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 };
    });
    expect(meta.content).toBe(cspMetaContent());
    expect(meta.beforeScripts).toBe(true);
    expect(meta.content).toContain("script-src 'self';");
    expect(meta.content).toContain("style-src 'self' 'unsafe-inline';");
    expect(meta.content).toContain("connect-src 'self' http://127.0.0.1:* http://localhost:*;");
    expect(meta.content).not.toContain('frame-ancestors');
  });

  await test.step('Monaco (its worker, its inline styles) and the derive worker work', async () => {
    await workbench.layers.waitForEditor();
    await workbench.layers.cursorToEnd();
    await workbench.layers.insert('\n# typed under the policy\n');
    await expect.poll(async () => (await workbench.snapshot()).layers[0]?.text).toContain('# typed under the policy');
    await expect(workbench.checkStatus()).toContainText('passed');
  });

  await test.step('the lazily loaded panels and the import dialog', async () => {
    await workbench.chart.open();
    await expect(workbench.chart.canvas()).toBeVisible();
    await workbench.servers.show();
    await workbench.runCommand('import.live');
    await expect(page.getByTestId('import-dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await workbench.share.link();
  });

  expect(await violations(page)).toEqual([]);
});

test('a violation is caught: an inline script and a connection off loopback are blocked and reported', async ({ workbench, page, consoleErrors }) => {
  await recordViolations(page);
  await workbench.open();
  const ran = await page.evaluate(async () => {
    const w = window as unknown as { __inlineRan?: boolean };
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true;';
    document.body.append(s);
    let fetched = 'sent';
    try {
      await fetch('http://127.0.0.2:9/mcp', { method: 'POST', body: '{}' });
    } catch {
      fetched = 'blocked';
    }
    return { inline: w.__inlineRan === true, fetched };
  });
  expect(ran).toEqual({ inline: false, fetched: 'blocked' });
  await expect.poll(() => violations(page)).toEqual(['script-src-elem inline', 'connect-src http://127.0.0.2:9/mcp']);
  // The fixture turned both into console errors (which would fail any other test); they are this test's point.
  const expected = consoleErrors.filter((e) => /Content Security Policy|CSP violation/u.test(e));
  expect(expected.length).toBeGreaterThanOrEqual(2);
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((e) => !expected.includes(e)));
});
