// Headless Chromium for browser tests: Debian's chromium package (/usr/bin/chromium, installed by
// .ci/run) driven by playwright-core, which downloads no browser of its own. A test file asks
// chromiumStatus() first: without the binary it skips with the reason, except on CI (CI set), where
// the binary must be there and its absence fails the test instead of hiding it.

import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export type ChromiumStatus = { present: true } | { present: false; reason: string };

export function chromiumStatus(environment: NodeJS.ProcessEnv = process.env): ChromiumStatus {
  if (existsSync(CHROMIUM_PATH)) return { present: true };
  if (environment.CI) throw new Error(`${CHROMIUM_PATH} is missing on CI: .ci/run installs Debian's chromium package (apt-get install -y chromium).`);
  return { present: false, reason: `${CHROMIUM_PATH} is not installed (apt-get install -y chromium); the browser tests are skipped outside CI.` };
}

/** A headless Chromium of its own (no sandbox: CI runs as root), closed by the caller. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], timeout: 30_000 });
}

export interface WatchedPage {
  page: Page;
  /** Messages of the dialogs the page opened (dismissed). */
  dialogs: string[];
  /** window.__pwned, which an injection payload of the tests sets if it ever runs. */
  pwned: () => Promise<unknown>;
}

/** Opens a URL and records what a script run would leave: dialogs, and window.__pwned after load. */
export async function openWatched(browser: Browser, url: string): Promise<WatchedPage> {
  const page = await browser.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, dialogs, pwned: () => page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned) };
}
