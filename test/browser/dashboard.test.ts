import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../platform/db.js';
import { openTestPglite, startTestServer, type TestServer } from '../helpers.js';
import { chromiumStatus, launchChromium } from './chromium.js';
import { controlsTabMisses, type DashboardPage, expectClean, openDashboard } from './dashboard-harness.js';

// The risk dashboard at / (issue 25 items 1 and 2, decision 0079) in headless Chromium, on the
// all-in-one server with the oracles running: every figure it shows is the graph's own.

const status = chromiumStatus();
if (!status.present) console.warn(`Dashboard browser test skipped: ${status.reason}`);

const ADMIN_KEY = 'dashboard-browser-admin-key-0123456789abcdef';
/** An active record of the shipped GLEIF snapshot, and its legal name there. */
const ACTIVE_LEI = '2138001KPMR6PD83HC08';
const ACTIVE_NAME = 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.';

/** Each payload sets window.__pwned (or opens a dialog) if it ever runs. */
const INJECTIONS = ['<script>window.__pwned = 1</script>', '"><img src=x onerror="window.__pwned = 1">', '</q></section><script>window.__pwned = 1; alert(1)</script>'];
/** The one console error a refused request leaves (the browser's own line for a 4xx answer); anything else fails. */
const REFUSED_REQUEST = /^Failed to load resource: the server responded with a status of 4\d\d/;

type Answer = { data?: Record<string, any>; errors?: Array<{ message: string; path?: string[]; extensions?: Record<string, any> }> };

describe.skipIf(!status.present)('the risk dashboard in headless Chromium', () => {
  let database: DatabaseHandle;
  let server: TestServer;
  let browser: Browser;
  let base: string;
  let apiKey: string;
  let wallet: string;
  let institutionKey: string;
  let callbacks: Server;
  let callbackUrl: string;
  const opened: DashboardPage[] = [];

  const ask = async (query: string, headers: Record<string, string> = {}, variables: Record<string, unknown> = {}): Promise<Answer> =>
    (await server.app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload: { query, variables } })).json();

  const open = async (hash: string, width = 1280) => {
    const page = await openDashboard(browser, base, hash, width);
    opened.push(page);
    return page;
  };

  /** The figure a part shows for a GraphQL field, as a number. */
  const figure = async (dashboard: DashboardPage, field: string) => Number((await dashboard.page.locator(`[data-field="${field}"]`).first().innerText()).replaceAll(',', ''));
  /** The dashboard rounds figures to one decimal. */
  const oneDecimal = (value: number) => Math.round(value * 10) / 10;

  const useApiKey = async (dashboard: DashboardPage) => {
    await dashboard.page.getByLabel('API key (paid parts)').fill(apiKey);
    await dashboard.page.getByRole('button', { name: 'Use key' }).click();
    await dashboard.page.getByText('A key is set for this browser tab').waitFor();
  };

  beforeAll(async () => {
    // A database of its own: the oracle runs it records would otherwise reach other tests of the worker.
    database = await openTestPglite();
    // The payment's callback goes to a receiver of this test on loopback (allowed for the test only).
    callbacks = createServer((_request, response) => response.writeHead(200).end('ok'));
    await new Promise<void>((resolve) => callbacks.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(callbacks.address() as AddressInfo).port}/payment-callback`;
    server = await startTestServer({ database, environment: { ORACLE_SCHEDULER: 'true', ADMIN_KEY, CALLBACK_ALLOW_PRIVATE_TARGETS: 'true' } });
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    apiKey = (await server.platform!.access.keys.create('api', 'dashboard browser test', 1000)).key;
    institutionKey = (await server.platform!.access.keys.create('bearer', 'Dashboard Test Bank', 1000)).key;
    wallet = getAddress(`0x${randomBytes(20).toString('hex')}`);
    const registered = await server.app.inject({ method: 'POST', url: '/compliance/register', headers: { authorization: `Bearer ${ADMIN_KEY}` }, payload: { walletAddress: wallet, lei: ACTIVE_LEI } });
    expect(registered.statusCode).toBe(201);
    // The stability oracle's first run: before it, its parts answer FEE_ERR_ORACLE_NOT_READY.
    await vi.waitFor(async () => expect((await ask('{ stabilityReliability { asOf } }')).data?.stabilityReliability).toBeTruthy(), { timeout: 30_000, interval: 250 });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    for (const page of opened) await page.close();
    await browser?.close();
    await server?.close();
    await database?.close();
    await new Promise((resolve) => callbacks?.close(resolve));
  });

  it('serves / as a shell of hashed files under a strict CSP, from this server only', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(page.body).toMatch(/<script type="module" src="\/web\/dashboard\/main-[A-Z0-9]+\.js"><\/script>/);
    expect(page.body).not.toMatch(/<script>|style=|https?:\/\//);
  });

  it('overview without a key: the stability score and the heat-check as the graph gives them, the paid signals with their price', async () => {
    const dashboard = await open('#/overview');
    await dashboard.page.locator('#stability[data-state="ready"]').waitFor();
    const expected = await ask(
      '{ stabilityReliability { stability { currentScore } dataQuality asOf } stabilityHistory { overall } heatCheck { commodities { symbol status } } riskDashboard { id } }',
    );
    expect(await figure(dashboard, 'stabilityReliability.stability.currentScore')).toBe(oneDecimal(expected.data!.stabilityReliability.stability.currentScore));
    expect(await dashboard.page.locator('[data-field="stabilityHistory.overall"]').innerText()).toBe(expected.data!.stabilityHistory[0].overall);
    expect(await dashboard.page.locator('#stability .provenance').innerText()).toContain(expected.data!.stabilityReliability.dataQuality);
    const cells = dashboard.page.locator('#heat-check .heat-cell');
    expect(await cells.count()).toBe(11);
    for (const { symbol, status: heat } of expected.data!.heatCheck.commodities) expect(await dashboard.page.locator(`.heat-cell[data-symbol="${symbol}"] .heat-status`).innerText()).toBe(heat);
    // The shipped forecast snapshot is old: its inputs are marked stale with their date.
    expect(await dashboard.page.locator('#heat-check .badge.stale').innerText()).toMatch(/^stale: as of \d{4}-\d{2}-\d{2}$/);
    // The price is the server's: riskDashboard refused unpaid names 1900000 base units.
    const price = expected.errors!.find((error) => error.path?.[0] === 'riskDashboard')!.extensions!.accepts[0].maxAmountRequired;
    expect(price).toBe('1900000');
    expect(await dashboard.page.locator('#overview-gate .price').innerText()).toBe('1.90 USDC');
    await expectClean(dashboard, expect);
  });

  it('overview with an API key: every paid signal with its regime, data quality and as-of, stale ones marked; the key kept in sessionStorage only', async () => {
    const dashboard = await open('#/overview');
    await dashboard.page.locator('#overview-gate').waitFor();
    await useApiKey(dashboard);
    await dashboard.page.getByRole('button', { name: 'Run with my API key (1.90 USDC)' }).click();
    await dashboard.page.locator('#cascade[data-state="ready"]').waitFor();
    const expected = await ask('{ macroStress { stressIndex regime asOf stale } supplyChain { gscpiZScore regime } cascade { nervousSystem { overallStatus systemicRiskScore } } }', {
      'x-api-key': apiKey,
    });
    expect(await figure(dashboard, 'macroStress.stressIndex')).toBe(oneDecimal(expected.data!.macroStress.stressIndex));
    expect(await figure(dashboard, 'cascade.nervousSystem.systemicRiskScore')).toBe(oneDecimal(expected.data!.cascade.nervousSystem.systemicRiskScore));
    expect(await figure(dashboard, 'supplyChain.gscpiZScore')).toBe(Math.round(expected.data!.supplyChain.gscpiZScore * 100) / 100);
    expect((await dashboard.page.locator('#macroStress .regime-value').innerText()).toUpperCase().replaceAll(' ', '_')).toBe(expected.data!.macroStress.regime);
    expect(expected.data!.macroStress.stale).toBe(true);
    expect(await dashboard.page.locator('#macroStress .badge.stale').innerText()).toBe(`stale: as of ${expected.data!.macroStress.asOf}`);
    for (const part of ['stability', 'heat-check', 'macroStress', 'commodityStress', 'currencyStress', 'sovereignDebt', 'supplyChain', 'cascade']) {
      expect(await dashboard.page.locator(`#${part}`).getAttribute('data-state'), part).toBe('ready');
      expect(await dashboard.page.locator(`#${part} .quality`).count(), part).toBe(1);
    }
    const stored = await dashboard.page.evaluate(() => ({ session: sessionStorage.getItem('rail-dashboard.api-key'), local: localStorage.length, cookie: document.cookie }));
    expect(stored).toEqual({ session: apiKey, local: 0, cookie: '' });
    await expectClean(dashboard, expect);
  });

  it('vendor by LEI: all five parts for the shipped GLEIF record, VoP after paying with the key, the ownership chain drawn as a tree', async () => {
    const dashboard = await open('#/vendor');
    const { page } = dashboard;
    await page.getByLabel('Name, LEI or wallet address').fill(ACTIVE_LEI);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: `Assess ${ACTIVE_NAME}` }).click();
    await page.locator('#vop-gate .price').waitFor();
    expect(await page.locator('#vop-gate .price').innerText()).toBe('0.075 USDC');
    await useApiKey(dashboard);
    await page.getByRole('button', { name: 'Run with my API key (0.075 USDC)' }).click();
    await page.locator('#vendor-vop[data-state="ready"]').waitFor();
    for (const part of ['vendor-risk', 'vendor-vop', 'vendor-esg', 'vendor-pep', 'vendor-ownership', 'vendor-fee'])
      expect(await page.locator(`#${part}`).getAttribute('data-state'), part).toBe('ready');
    const expected = await ask(
      'query($lei: String!) { vendorAssessment(name: "x", lei: $lei) { riskTier esg { score } legalEntity { ownershipChain { result chain { lei } } paymentFee(amountUsd: 10000) { fees { total { bps } } } } } }',
      {},
      { lei: ACTIVE_LEI },
    );
    const view = expected.data!.vendorAssessment;
    expect(await page.locator('[data-field="vendorAssessment.vop.result"]').innerText()).toBe('LEI_MATCH');
    expect(await figure(dashboard, 'vendorAssessment.esg.score')).toBe(oneDecimal(view.esg.score));
    expect(await page.locator('[data-field="legalEntity.ownershipChain.result"]').innerText()).toBe(view.legalEntity.ownershipChain.result);
    expect(await page.locator('#vendor-ownership svg .tree-node').count()).toBe(view.legalEntity.ownershipChain.chain.length);
    expect(await figure(dashboard, 'legalEntity.paymentFee.fees.total.bps')).toBe(Math.round(view.legalEntity.paymentFee.fees.total.bps * 100) / 100);
    expect(await page.locator('[data-field="vendorAssessment.riskTier"]').innerText()).toBe(view.riskTier);
    await expectClean(dashboard, expect);
  });

  it('vendor by an SDN name: BLOCKED, HIGH, sanctions match', async () => {
    const dashboard = await open('#/vendor');
    const { page } = dashboard;
    await page.getByLabel('Name, LEI or wallet address').fill('Banco Nacional de Cuba');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Assess the name “Banco Nacional de Cuba” as entered' }).click();
    await page.locator('#vendor-risk[data-state="ready"]').waitFor();
    expect(await page.locator('[data-field="vendorAssessment.compliance.verdict"]').innerText()).toBe('BLOCKED');
    expect(await page.locator('[data-field="vendorAssessment.riskTier"]').innerText()).toBe('HIGH');
    expect(await page.locator('#vendor-risk').innerText()).toContain('sanctions match');
    await expectClean(dashboard, expect);
  });

  it('oracles: the score history as a chart with its figures in a table, ESG scores, oracle runs and feed health', async () => {
    const dashboard = await open('#/oracles');
    const { page } = dashboard;
    await page.locator('#feed-health[data-state="ready"]').waitFor();
    const expected = await ask('{ stabilityHistory { stabilityScore overall } railEsgScore { scores { average } } }');
    expect(await page.locator('#stability-history canvas').count()).toBeGreaterThan(0);
    expect(await page.locator('#stability-history table tbody tr').count()).toBe(expected.data!.stabilityHistory.length);
    expect(await page.locator('#stability-chart .chart-canvas').getAttribute('aria-label')).toContain(`(${expected.data!.stabilityHistory[0].overall})`);
    expect(await figure(dashboard, 'railEsgScore.scores.average')).toBe(oneDecimal(expected.data!.railEsgScore.scores.average));
    expect(await page.locator('#oracle-runs tbody tr').count()).toBe(2);
    expect(await page.locator('#feed-health tbody tr').count()).toBeGreaterThan(2);
    await expectClean(dashboard, expect);
  });

  it('models: the price of a contagion run and the cascade, then the curves and the seven-layer ladder', async () => {
    const dashboard = await open('#/models');
    const { page } = dashboard;
    const nodes = (await ask('{ contagionNodes { nodes { id } } }')).data!.contagionNodes.nodes as Array<{ id: string }>;
    await page.locator(`#contagion-origin option[value="${nodes[1]!.id}"]`).waitFor({ state: 'attached' });
    await page.getByLabel('Origin of the shock').selectOption(nodes[1]!.id);
    await page.getByRole('button', { name: 'Show the price of this run' }).click();
    // contagion 0.75 + cascade 0.75 USDC.
    await page.locator('#models-gate .price').waitFor();
    expect(await page.locator('#models-gate .price').innerText()).toBe('1.50 USDC');
    await useApiKey(dashboard);
    await page.getByRole('button', { name: 'Run with my API key (1.50 USDC)' }).click();
    await page.locator('#contagion[data-state="ready"]').waitFor();
    const expected = await ask(`{ contagion(origin: "${nodes[1]!.id}", magnitude: 50, epochs: 8) { summary { peakSystemR } epochs { epoch } } }`, { 'x-api-key': apiKey });
    expect(await figure(dashboard, 'contagion.summary.peakSystemR')).toBe(Math.round(expected.data!.contagion.summary.peakSystemR * 100) / 100);
    expect(await page.locator('#contagion table tbody tr').count()).toBe(expected.data!.contagion.epochs.length);
    expect(await page.locator('#cascade-layers .rung').count()).toBe(7);
    await expectClean(dashboard, expect);
  });

  it.each(['overview', 'vendor', 'payments', 'oracles', 'models'])('keyboard: Tab reaches every control of the %s view; the nav links are real links', async (view) => {
    const dashboard = await open(`#/${view}`);
    await dashboard.page.locator('h2').waitFor();
    await dashboard.page.waitForLoadState('networkidle');
    expect(await controlsTabMisses(dashboard.page)).toEqual([]);
    const nav = await dashboard.page.locator('nav a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(nav).toEqual(['#/overview', '#/vendor', '#/payments', '#/oracles', '#/models', '/graphql']);
    // Enter on a focused link changes the view.
    await dashboard.page.locator('nav a[href="#/oracles"]').focus();
    await dashboard.page.keyboard.press('Enter');
    await dashboard.page.locator('#oracles-title').waitFor();
    await expectClean(dashboard, expect);
  });

  it.each(['overview', 'vendor', 'payments', 'oracles', 'models'])('the %s view fits 390 px: no sideways scrolling, headings in order', async (view) => {
    const dashboard = await open(`#/${view}`, 390);
    await dashboard.page.locator('h2').waitFor();
    await dashboard.page.waitForLoadState('networkidle');
    expect(await dashboard.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const levels = await dashboard.page.locator('h1, h2, h3, h4').evaluateAll((headings) => headings.map((heading) => Number(heading.tagName.slice(1))));
    expect(levels[0]).toBe(1);
    for (let index = 1; index < levels.length; index += 1) expect(levels[index]! - levels[index - 1]!).toBeLessThanOrEqual(1);
    await expectClean(dashboard, expect);
  });

  it('vendor by name: the LEI search finds the registry record and offers it for assessment', async () => {
    const dashboard = await open('#/vendor');
    const { page } = dashboard;
    await page.getByLabel('Name, LEI or wallet address').fill('Shell Catalysts & Technologies');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: `Assess ${ACTIVE_NAME}` }).waitFor();
    const expected = await ask('{ leiSearch(name: "Shell Catalysts & Technologies") { matches { lei legalName } } }');
    expect(await page.locator('#vendor-candidates li').count()).toBe(expected.data!.leiSearch.matches.length + 1);
    expect(await page.locator('#vendor-candidates').innerText()).toContain(`LEI ${ACTIVE_LEI}`);
    await expectClean(dashboard, expect);
  });

  it('payments: a payment just made, with its status, settlement transaction and delivered callback, for the institution key entered', async () => {
    const initiated = await server.app.inject({
      method: 'POST',
      url: '/integration/payments/initiate',
      headers: { authorization: `Bearer ${institutionKey}` },
      payload: {
        tmsReference: `DASH-${randomBytes(6).toString('hex')}`,
        amount: '1250.50',
        currency: 'USD',
        settlementAsset: 'USDC',
        creditor: { name: 'Shell Catalysts & Technologies Pte. Ltd.', lei: ACTIVE_LEI, walletAddress: wallet, accountRef: 'ACC-001' },
        debtor: { name: 'Acme Treasury Ltd', walletAddress: getAddress(`0x${randomBytes(20).toString('hex')}`) },
        remittanceInfo: 'Invoice 2026-114',
        callbackUrl,
      },
    });
    expect(initiated.statusCode, initiated.body).toBe(200);
    const payment = initiated.json() as { railPaymentId: string; tmsReference: string; status: string; settlement: { txHash: string } };
    expect(payment.status).toBe('SETTLED');
    // The callback is delivered behind the request (the outbox): wait for the graph to say so.
    await vi.waitFor(
      async () => {
        const answer = await ask('query($id: ID!) { payment(railPaymentId: $id) { callback { status } } }', { authorization: `Bearer ${institutionKey}` }, { id: payment.railPaymentId });
        expect(answer.data?.payment?.callback?.status, JSON.stringify(answer)).toBe('DELIVERED');
      },
      { timeout: 20_000, interval: 250 },
    );

    const dashboard = await open('#/payments');
    const { page } = dashboard;
    await page.getByLabel('Institution key').fill(institutionKey);
    await page.getByRole('button', { name: 'Show payments' }).click();
    const row = page.locator(`tr[data-payment="${payment.railPaymentId}"]`);
    await row.waitFor();
    expect(await row.locator('th').innerText()).toContain(payment.tmsReference);
    expect(await row.locator('.badge').innerText()).toBe('SETTLED');
    expect(await row.locator('.hash').innerText()).toBe(payment.settlement.txHash);
    expect(await row.locator('td').last().innerText()).toMatch(/^DELIVERED after 1 attempt\(s\), last HTTP 200, delivered /);
    // Only this institution's payments: the same view with another institution's key does not list it.
    const stranger = (await server.platform!.access.keys.create('bearer', 'Another Bank', 10)).key;
    await page.getByLabel('Institution key').fill(stranger);
    await page.getByRole('button', { name: 'Show payments' }).click();
    await page.getByText('No payments for this institution with these filters.').waitFor();
    // The institution key is never stored.
    expect(await page.evaluate(() => ({ session: Object.keys(sessionStorage), local: localStorage.length }))).toEqual({ session: [], local: 0 });
    await expectClean(dashboard, expect);
  });

  describe.each(INJECTIONS)('hostile input %s', (payload) => {
    const expectNeverRan = async (dashboard: DashboardPage) => {
      expect(await dashboard.pwned()).toBeUndefined();
      expect(dashboard.dialogs).toEqual([]);
      expect(dashboard.pageErrors).toEqual([]);
      expect(dashboard.outside).toEqual([]);
      expect(await dashboard.cspViolations()).toEqual([]);
      expect(dashboard.consoleErrors.filter((line) => !REFUSED_REQUEST.test(line))).toEqual([]);
    };

    it('in the vendor search, country and amount: shown as text, never run', async () => {
      const dashboard = await open('#/vendor');
      const { page } = dashboard;
      await page.getByLabel('Country (ISO code, optional)').fill(payload);
      await page.getByLabel('Payment amount (USD)').fill(payload);
      await page.getByRole('button', { name: 'Search' }).click();
      const problems = await page.locator('#vendor-problems').innerText();
      expect(problems).toContain(`Country "${payload}"`);
      expect(problems).toContain(`Amount "${payload}"`);
      await page.getByLabel('Country (ISO code, optional)').fill('');
      await page.getByLabel('Payment amount (USD)').fill('1000');
      await page.getByLabel('Name, LEI or wallet address').fill(payload);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('button', { name: `Assess the name “${payload}” as entered` }).click();
      await page.locator('#vendor-risk[data-state="ready"]').waitFor();
      expect(await page.locator('#assessment-title').innerText()).toBe(`Assessment of ${payload}`);
      await expectNeverRan(dashboard);
    });

    it('as the API key and the institution key: refused by the server, the notice shown, nothing run', async () => {
      const dashboard = await open('#/overview');
      const { page } = dashboard;
      await page.locator('#overview-gate').waitFor();
      await page.getByLabel('API key (paid parts)').fill(payload);
      await page.getByRole('button', { name: 'Use key' }).click();
      await page.getByRole('button', { name: 'Run with my API key (1.90 USDC)' }).click();
      await page.locator('#macroStress[data-state="missing"]').waitFor();
      // Refused: unknown key (401), or, for the payload with spaces, no key taken at all (payment required).
      expect(await page.locator('#macroStress .code').innerText()).toMatch(/^Code: GEN_ERR_(UNAUTHORIZED|PAYMENT_REQUIRED)$/);
      await page.locator('nav a[href="#/payments"]').click();
      await page.getByLabel('Institution key').fill(payload);
      await page.getByLabel('How many (1 to 100)').fill(payload);
      await page.getByRole('button', { name: 'Show payments' }).click();
      expect(await page.locator('.problems').innerText()).toBe(`How many "${payload}" is not a whole number from 1 to 100.`);
      await page.getByLabel('How many (1 to 100)').fill('5');
      await page.getByRole('button', { name: 'Show payments' }).click();
      await page.locator('#payments-list[data-state="missing"]').waitFor();
      expect(await page.locator('#payments-list .notice').innerText()).toContain('GEN_ERR_UNAUTHORIZED');
      await expectNeverRan(dashboard);
    });

    it('in the contagion magnitude and weeks: shown as text, nothing sent', async () => {
      const dashboard = await open('#/models');
      const { page } = dashboard;
      await page.locator('#contagion-origin option').first().waitFor({ state: 'attached' });
      await page.getByLabel('Magnitude (1 to 100)').fill(payload);
      await page.getByRole('button', { name: 'Show the price of this run' }).click();
      expect(await page.locator('.problems').innerText()).toBe(`Magnitude "${payload}" is not a number from 1 to 100.`);
      await page.getByLabel('Magnitude (1 to 100)').fill('50');
      await page.getByLabel('Weeks (1 to 12)').fill(payload);
      await page.getByRole('button', { name: 'Show the price of this run' }).click();
      expect(await page.locator('.problems').innerText()).toBe(`Weeks "${payload}" is not a whole number from 1 to 12.`);
      await expectNeverRan(dashboard);
    });
  });
});
