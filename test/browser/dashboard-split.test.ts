import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildServer, type BuiltServer } from '../../gateway/server.js';
import { SUBGRAPH_NAMES } from '../../gateway/subgraphs.js';
import type { DatabaseHandle } from '../../platform/db.js';
import { openTestPglite, startTestServer, testConfig, type TestServer } from '../helpers.js';
import { chromiumStatus, launchChromium } from './chromium.js';
import { type DashboardPage, expectClean, openDashboard } from './dashboard-harness.js';

// The dashboard on the gateway process (`serve gateway`) with one subgraph down: forecast's entry of
// SUBGRAPH_URLS points at a closed port. The overview shows what answered and a notice on the
// heat-check, which did not (decision 0079).

const status = chromiumStatus();
if (!status.present) console.warn(`Dashboard split-layout browser test skipped: ${status.reason}`);

async function listen(server: BuiltServer): Promise<string> {
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
}

/** A loopback port nobody listens on: opened, read and closed again. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe.skipIf(!status.present)('the dashboard on the gateway process, forecast down', () => {
  let database: DatabaseHandle;
  let subgraphs: TestServer;
  let gateway: BuiltServer;
  let gatewayBase: string;
  let browser: Browser;
  let dashboard: DashboardPage;

  beforeAll(async () => {
    database = await openTestPglite();
    const served = SUBGRAPH_NAMES.filter((name) => name !== 'forecast');
    subgraphs = await startTestServer({ database, subgraphs: served, gateway: false, environment: { ORACLE_SCHEDULER: 'true' } });
    const subgraphBase = await listen(subgraphs);
    const down = await closedPort();
    const urls = [...served.map((name) => `${name}=${subgraphBase}/subgraphs/${name}/graphql`), `forecast=http://127.0.0.1:${down}/subgraphs/forecast/graphql`];
    gateway = await buildServer({ config: testConfig({ SUBGRAPH_URLS: urls.join(',') }), subgraphs: [], gateway: true });
    gatewayBase = await listen(gateway);
    // The stability oracle's first run, seen through the gateway.
    await vi.waitFor(
      async () => {
        const response = await fetch(`${gatewayBase}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ stabilityReliability { asOf } }' }),
        });
        expect(((await response.json()) as { data?: { stabilityReliability?: unknown } }).data?.stabilityReliability).toBeTruthy();
      },
      { timeout: 30_000, interval: 250 },
    );
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await dashboard?.close();
    await browser?.close();
    await gateway?.close();
    await subgraphs?.close();
    await database?.close();
  });

  it('serves the dashboard at / on the gateway alone', async () => {
    const page = await gateway.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<main id="app">');
  });

  it('shows the stability part and the paid gate, and a notice naming the heat-check that did not answer', async () => {
    dashboard = await openDashboard(browser, gatewayBase, '#/overview');
    const { page } = dashboard;
    await page.locator('#heat-check[data-state="missing"]').waitFor();
    expect(await page.locator('#stability').getAttribute('data-state')).toBe('ready');
    expect(Number(await page.locator('[data-field="stabilityReliability.stability.currentScore"]').innerText())).toBeGreaterThan(0);
    expect(await page.locator('#overview-gate .price').innerText()).toBe('1.90 USDC');
    const notice = await page.locator('#heat-check .notice').innerText();
    expect(notice).toContain('Forecast heat-check is unavailable.');
    expect(notice).toContain('SUBGRAPH_UNAVAILABLE');
    // Still one request to /graphql, answered 200 with partial data: no console error.
    await expectClean(dashboard, expect);
  });
});
