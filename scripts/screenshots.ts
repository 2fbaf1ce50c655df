// npm run screenshots: every view of the risk dashboard at 1280 and 390 px wide, written to
// docs/screenshots/<view>-<width>.png for the README. It starts the all-in-one server on the embedded
// defaults (PGlite, the embedded rail, the shipped data) in a temporary data folder, on loopback,
// issues an API key and an institution key there, makes one payment, and drives headless Chromium
// (Debian's /usr/bin/chromium through playwright-core) through each view as a person would.

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { getAddress } from 'viem';
import { buildServer, type BuiltServer } from '../gateway/server.js';
import { parseCommandLine } from '../platform/cli.js';
import { loadConfig } from '../platform/config.js';
import { launchChromium } from '../test/browser/chromium.js';

const USAGE = `usage: npm run screenshots
Starts the all-in-one server on its embedded defaults in a temporary data folder (deleted after), on a
loopback port, and writes every view of the risk dashboard at 1280 and 390 px wide to
docs/screenshots/<view>-<width>.png with headless Chromium (/usr/bin/chromium). Takes no options.`;

const OUTPUT = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
const WIDTHS = [1280, 390] as const;
/** An active record of the shipped GLEIF snapshot. */
const LEI = '2138001KPMR6PD83HC08';
const LEI_NAME = 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.';

interface Keys {
  apiKey: string;
  institutionKey: string;
}

async function post(base: string, path: string, body: unknown, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** A wallet registered under the LEI and one settled payment to it, so the vendor and payments views have something to show. */
async function seed(server: BuiltServer, base: string, adminKey: string): Promise<Keys> {
  const keys = server.platform!.access.keys;
  const apiKey = (await keys.create('api', 'screenshots', 100)).key;
  const institutionKey = (await keys.create('bearer', 'Screenshot Bank', 100)).key;
  const wallet = getAddress(`0x${randomBytes(20).toString('hex')}`);
  await post(base, '/compliance/register', { walletAddress: wallet, lei: LEI }, { authorization: `Bearer ${adminKey}` });
  await post(
    base,
    '/integration/payments/initiate',
    {
      tmsReference: 'TMS-2026-0001',
      amount: '1250.50',
      currency: 'USD',
      settlementAsset: 'USDC',
      creditor: { name: 'Shell Catalysts & Technologies Pte. Ltd.', lei: LEI, walletAddress: wallet, accountRef: 'ACC-001' },
      debtor: { name: 'Acme Treasury Ltd', walletAddress: getAddress(`0x${randomBytes(20).toString('hex')}`) },
      remittanceInfo: 'Invoice 2026-114',
    },
    { authorization: `Bearer ${institutionKey}` },
  );
  return { apiKey, institutionKey };
}

async function useApiKey(page: Page, apiKey: string): Promise<void> {
  await page.getByLabel('API key (paid parts)').fill(apiKey);
  await page.getByRole('button', { name: 'Use key' }).click();
}

/** Each view brought to the state a person would look at. */
const VIEWS: Record<string, (page: Page, keys: Keys) => Promise<void>> = {
  async overview(page, { apiKey }) {
    await page.locator('#overview-gate').waitFor();
    await useApiKey(page, apiKey);
    await page.getByRole('button', { name: /^Run with my API key/ }).click();
    await page.locator('#cascade[data-state="ready"]').waitFor();
  },
  async vendor(page, { apiKey }) {
    await page.getByLabel('Name, LEI or wallet address').fill(LEI);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: `Assess ${LEI_NAME}` }).click();
    await useApiKey(page, apiKey);
    await page.getByRole('button', { name: /^Run with my API key/ }).click();
    await page.locator('#vendor-vop[data-state="ready"]').waitFor();
  },
  async payments(page, { institutionKey }) {
    await page.getByLabel('Institution key').fill(institutionKey);
    await page.getByRole('button', { name: 'Show payments' }).click();
    await page.locator('#payments-list[data-state="ready"]').waitFor();
  },
  async oracles(page) {
    await page.locator('#feed-health[data-state="ready"]').waitFor();
  },
  async models(page, { apiKey }) {
    await page.locator('#contagion-origin option').first().waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Show the price of this run' }).click();
    await useApiKey(page, apiKey);
    await page.getByRole('button', { name: /^Run with my API key/ }).click();
    await page.locator('#cascade-layers[data-state="ready"]').waitFor();
  },
};

async function shoot(browser: Browser, base: string, keys: Keys): Promise<void> {
  mkdirSync(OUTPUT, { recursive: true });
  for (const width of WIDTHS) {
    for (const [view, prepare] of Object.entries(VIEWS)) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      // Nothing but this server: the dashboard works offline, and the screenshots prove it.
      await page.route('**/*', (route) => (new URL(route.request().url()).origin === base ? route.continue() : route.abort('blockedbyclient')));
      await page.goto(`${base}/#/${view}`);
      await prepare(page, keys);
      await page.waitForLoadState('networkidle');
      const file = join(OUTPUT, `${view}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(`wrote ${file}`);
      await context.close();
    }
  }
}

async function main(): Promise<void> {
  parseCommandLine({ usage: USAGE });
  const dataDir = mkdtempSync(join(tmpdir(), 'srg-screenshots-'));
  const adminKey = randomBytes(24).toString('hex');
  const server = await buildServer({ config: loadConfig({ DATA_DIR: join(dataDir, 'data'), LOG_LEVEL: 'warn', ADMIN_KEY: adminKey }) });
  let browser: Browser | undefined;
  try {
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    const keys = await seed(server, base, adminKey);
    // The stability oracle runs at start: wait for its first run so the overview has its score.
    for (let attempt = 0; attempt < 120; attempt += 1) {
      const answer = await post(base, '/graphql', { query: '{ stabilityReliability { asOf } }' }, {});
      if ((answer.data as { stabilityReliability?: unknown } | undefined)?.stabilityReliability) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    browser = await launchChromium();
    await shoot(browser, base, keys);
  } finally {
    await browser?.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
