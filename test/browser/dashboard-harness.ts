// What every dashboard browser test watches: requests leaving the server's origin (blocked and
// recorded), console errors, uncaught page errors, Content-Security-Policy violations, dialogs and
// window.__pwned (set by an injection payload if it ever runs).

import type { Browser, Page } from 'playwright-core';

export interface DashboardPage {
  page: Page;
  /** Requests to anywhere but the server under test: blocked, and listed here. */
  outside: string[];
  consoleErrors: string[];
  pageErrors: string[];
  dialogs: string[];
  cspViolations(): Promise<string[]>;
  pwned(): Promise<unknown>;
  close(): Promise<void>;
}

export async function openDashboard(browser: Browser, base: string, hash: string, width = 1280): Promise<DashboardPage> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const origin = new URL(base).origin;
  const outside: string[] = [];
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  const dialogs: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) return route.continue();
    outside.push(url);
    return route.abort('blockedbyclient');
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  // Runs before the page's own scripts (through the DevTools protocol, outside the page's CSP).
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  await page.goto(`${base}/${hash}`, { waitUntil: 'load' });
  return {
    page,
    outside,
    consoleErrors,
    pageErrors,
    dialogs,
    cspViolations: () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations),
    pwned: () => page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned),
    close: () => context.close(),
  };
}

/** Nothing left the origin, nothing broke, nothing the CSP refused. */
export async function expectClean(opened: DashboardPage, expect: (value: unknown) => { toEqual(expected: unknown): void }): Promise<void> {
  expect({ outside: opened.outside, consoleErrors: opened.consoleErrors, pageErrors: opened.pageErrors, csp: await opened.cspViolations(), dialogs: opened.dialogs }).toEqual({
    outside: [],
    consoleErrors: [],
    pageErrors: [],
    csp: [],
    dialogs: [],
  });
}

/**
 * Presses Tab from the top of the page until focus comes round again and answers the controls it
 * never reached: every visible link, button, input, select, summary and tabindex-0 element of the page
 * (what a closed details holds is hidden, and focusable only once it is opened).
 */
export async function controlsTabMisses(page: Page): Promise<string[]> {
  const total = await page.evaluate(() => {
    const controls = Array.from(document.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), summary, [tabindex="0"]')).filter((element) =>
      element.checkVisibility(),
    );
    controls.forEach((element, index) => element.setAttribute('data-tab-probe', String(index)));
    (document.activeElement as HTMLElement | null)?.blur();
    return controls.length;
  });
  const reached = new Set<string>();
  for (let press = 0; press < total + 10; press += 1) {
    await page.keyboard.press('Tab');
    const probe = await page.evaluate(() => document.activeElement?.getAttribute('data-tab-probe') ?? null);
    if (probe !== null) reached.add(probe);
  }
  return page.evaluate(
    (seen) =>
      Array.from(document.querySelectorAll<HTMLElement>('[data-tab-probe]'))
        .filter((element) => !seen.includes(element.getAttribute('data-tab-probe')!))
        .map((element) => `${element.tagName.toLowerCase()}#${element.id} ${element.textContent?.trim().slice(0, 40) ?? ''}`),
    [...reached],
  );
}
