// Playwright fixtures (tldraw's pattern): every test gets a fresh workbench page
// object, fails on console errors (a Content-Security-Policy violation is one),
// and proves no request leaves localhost.
import { test as base, expect } from '@playwright/test';
import { WorkbenchPage } from './pages/WorkbenchPage';

interface Fixtures {
  workbench: WorkbenchPage;
  /** Console errors and page errors seen during the test. */
  consoleErrors: string[];
  /** Requests to anything but the loopback preview server. */
  foreignRequests: string[];
}

const LOCAL = /^(https?|wss?):\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//u;

export const test = base.extend<Fixtures>({
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    // The built app runs under a Content-Security-Policy (src/app/csp.ts): any violation, in any
    // test, is reported as a console error and fails it.
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(`CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
      });
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await use(errors);
  },
  foreignRequests: async ({ page }, use) => {
    const foreign: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (LOCAL.test(url) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      foreign.push(url);
      return route.abort();
    });
    await use(foreign);
  },
  workbench: async ({ page, consoleErrors, foreignRequests }, use) => {
    const wb = new WorkbenchPage(page);
    await use(wb);
    expect(consoleErrors, 'console errors').toEqual([]);
    expect(foreignRequests, 'requests that left localhost').toEqual([]);
  },
});

export { expect };
