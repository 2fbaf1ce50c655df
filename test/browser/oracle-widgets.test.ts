import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../platform/db.js';
import { openTestPglite, startTestServer, type TestServer } from '../helpers.js';
import { chromiumStatus, launchChromium, openWatched } from './chromium.js';

const status = chromiumStatus();
if (!status.present) console.warn(`Oracle widgets browser test skipped: ${status.reason}`);

/** An LEI of the shipped GLEIF snapshot (ISSUED). */
const ACTIVE_LEI = '2138001KPMR6PD83HC08';
/** Each payload sets window.__pwned (or opens a dialog) if it ever runs. */
const INJECTIONS = ['<script>window.__pwned = 1</script>', '"><img src=x onerror="window.__pwned = 1">', '</q></section><script>window.__pwned = 1; alert(1)</script>'];

describe.skipIf(!status.present)('the oracle widgets in headless Chromium (decision 0034)', () => {
  let server: TestServer;
  let database: DatabaseHandle;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    // A database of its own: the oracle runs it records would otherwise reach the later tests of the worker's shared PGlite.
    database = await openTestPglite();
    server = await startTestServer({ database, subgraphs: ['compliance', 'fees'], environment: { ORACLE_SCHEDULER: 'true' } });
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.app.close();
    await database?.close();
  });

  const open = (path: string) => openWatched(browser, `${base}${path}`);

  it('the corridors widget shows a badge per USD corridor and the oracle band', async () => {
    const { page } = await open('/stability/widget/corridors');
    const rows = await page.locator('#corridors tbody tr').all();
    expect(rows).toHaveLength(21);
    const eur = page.locator('tr[data-corridor="USD/EUR"]');
    expect(await eur.locator('.badge').innerText()).toMatch(/^(OPTIMAL|CAUTION|ADVERSE)$/);
    expect(await page.locator('#oracle').innerText()).toMatch(/^Stability oracle: (stable|caution|unstable) \(score \d+(\.\d)?\)\.$/);
    await page.close();
  });

  it("the ESG widget shows an LEI's score with its E, S and G breakdown", async () => {
    const { page } = await open(`/esg/widget/esg?q=${ACTIVE_LEI}`);
    expect(await page.locator('#score').innerText()).toMatch(/^\d+(\.\d)? \/ 100$/);
    expect(await page.locator('#breakdown li').allInnerTexts()).toEqual([expect.stringMatching(/^Environmental \d/), expect.stringMatching(/^Social \d/), expect.stringMatching(/^Governance \d/)]);
    expect(await page.locator('#entity').innerText()).toContain(ACTIVE_LEI);
    await page.close();
  });

  it('a company name finds its LEI in the registry and shows the same breakdown', async () => {
    const { page } = await open(`/esg/widget/esg?q=${encodeURIComponent('Ubisecure Oy')}`);
    expect(await page.locator('#matched').innerText()).toBe('Found by name: Ubisecure Oy');
    expect(await page.locator('#breakdown li').count()).toBe(3);
    await page.close();
  });

  it.each(INJECTIONS)('shows %s as text and never runs it', async (payload) => {
    const { page, dialogs, pwned } = await open(`/esg/widget/esg?q=${encodeURIComponent(payload)}`);
    expect(await pwned()).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(await page.locator('input[name="q"]').inputValue()).toBe(payload);
    expect(await page.locator('#error').innerText()).toContain('LEI');
    await page.close();
  });
});
