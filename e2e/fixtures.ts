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

/** A console error a test expects from now on: the browser's text, and the URL of the resource it names. */
type Expected = (text: string, url: string) => boolean;

// The console errors the running test said to expect (one test at a time runs in a worker).
const expected: Expected[] = [];

/**
 * From now on, console errors `match` accepts are expected and not collected: e.g. the browser's refused
 * requests to a bridge the test stopped. Saying so before the cause, rather than removing what was
 * logged by some moment, holds however late the browser reports them (the page's heartbeat, a retry).
 */
export function expectConsoleErrors(match: Expected): void {
  expected.push(match);
}

export const test = base.extend<Fixtures>({
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    expected.length = 0;
    page.on('console', (m) => {
      if (m.type() === 'error' && !expected.some((e) => e(m.text(), m.location().url))) errors.push(m.text());
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
