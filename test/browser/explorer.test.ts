import type { AddressInfo } from 'node:net';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, startTestServer, type TestServer } from '../helpers.js';
import { chromiumStatus, launchChromium } from './chromium.js';

const status = chromiumStatus();
if (!status.present) console.warn(`Explorer browser test skipped: ${status.reason}`);

const EXPECTED_CSP = "default-src 'none';script-src 'self';style-src 'self';img-src 'self' data:;font-src 'self' data:;connect-src 'self';base-uri 'none';form-action 'none';frame-ancestors 'none'";
/** What Chromium sends when it navigates. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';
/** The explorer's default query (web/explorer/main.tsx), a free field. */
const DEFAULT_QUERY = '{ heatCheck { asOf dataQuality commodities { symbol status signal } } }';

interface Explorer {
  page: Page;
  consoleErrors: string[];
  offsite: string[];
  graphqlPosts: Request[];
  violations(): Promise<string[]>;
  response(): Promise<string>;
}

describe.skipIf(!status.present)('the GraphQL explorer in headless Chromium, offline (decision 0078)', () => {
  let server: TestServer;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    server = await startTestServer();
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens the explorer with every request off 127.0.0.1 blocked and recorded, and waits for its schema. */
  async function openExplorer(path: string): Promise<Explorer> {
    const page = await browser.newPage();
    const offsite: string[] = [];
    await page.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === '127.0.0.1') return route.continue();
      offsite.push(url.href);
      return route.abort('blockedbyclient');
    });
    // Injected by the browser's debugging protocol, not by the page: the CSP does not apply to it.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __violations: string[] }).__violations = seen;
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    const graphqlPosts: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/graphql') graphqlPosts.push(request);
    });
    const schema = page.waitForResponse((response) => response.request().method() === 'POST' && (response.request().postData() ?? '').includes('IntrospectionQuery'));
    await page.goto(`${base}${path}`, { waitUntil: 'load' });
    expect((await schema).status()).toBe(200);
    await page.locator('.graphiql-query-editor .CodeMirror').waitFor();
    return {
      page,
      consoleErrors,
      offsite,
      graphqlPosts,
      violations: () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
      // CodeMirror draws only the visible lines: the whole text comes from the editor itself.
      response: () => page.evaluate(() => (document.querySelector('.graphiql-response .CodeMirror') as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue()),
    };
  }

  async function expectClean(explorer: Explorer): Promise<void> {
    expect(explorer.consoleErrors).toEqual([]);
    expect(await explorer.violations()).toEqual([]);
    expect(explorer.offsite).toEqual([]);
  }

  it('a browser GET /graphql gets the explorer page under the strict CSP; GET and POST queries are answered as before', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/graphql', headers: { accept: BROWSER_ACCEPT } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(EXPECTED_CSP);
    expect(page.body).toMatch(/<script type="module" src="\/web\/explorer\/main-[A-Z0-9]{8}\.js"><\/script>/);
    expect(page.body).not.toMatch(/https?:\/\//);
    const explorerPage = await server.app.inject({ method: 'GET', url: '/explorer' });
    expect(explorerPage.body).toBe(page.body);

    const expected = await graphql(server, '{ __typename }');
    expect(expected).toEqual({ data: { __typename: 'Query' } });
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html']) {
      const get = await server.app.inject({ method: 'GET', url: '/graphql?query=%7B__typename%7D', headers: { 'apollo-require-preflight': 'true', ...(accept ? { accept } : {}) } });
      expect(get.headers['content-type'], String(accept)).toMatch(/^application\/(graphql-response\+)?json/);
      expect(get.json(), String(accept)).toEqual(expected);
    }
  });

  it.each(['/graphql', '/explorer'])('at %s it loads offline, introspects, runs the default heatCheck with the run button and shows the answer', async (path) => {
    const explorer = await openExplorer(path);
    const { page } = explorer;
    expect(await page.locator('#explorer-note').innerText()).toContain('Paid fields cost money.');
    expect(await page.locator('#explorer-note').innerText()).toContain('X-API-Key');
    await page.getByRole('button', { name: 'Execute query (Ctrl-Enter)' }).click();
    const expected = await graphql(server, DEFAULT_QUERY);
    expect((expected.data as { heatCheck: { commodities: unknown[] } }).heatCheck.commodities).toHaveLength(11);
    await expect.poll(async () => JSON.parse((await explorer.response()) || 'null'), { timeout: 15_000 }).toEqual(expected);
    // The prefilled "X-API-Key": "" is an example: no key is sent until one is written.
    const run = explorer.graphqlPosts.at(-1)!;
    expect(run.postDataJSON().query).toContain('heatCheck');
    expect(await run.headerValue('x-api-key')).toBeNull();
    await expectClean(explorer);
    await page.close();
  });

  it('a query typed at the keyboard runs with Ctrl-Enter', async () => {
    const explorer = await openExplorer('/explorer');
    const { page } = explorer;
    await page.locator('.graphiql-query-editor .CodeMirror').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    // CodeMirror closes each bracket it opens and types over it when the closing one is typed.
    await page.keyboard.type('{ heatCheck { asOf commodities { symbol status } } }');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Enter');
    const expected = await graphql(server, '{ heatCheck { asOf commodities { symbol status } } }');
    await expect.poll(async () => JSON.parse((await explorer.response()) || 'null'), { timeout: 15_000 }).toEqual(expected);
    await expectClean(explorer);
    await page.close();
  });

  it('the API key written in Headers is sent, and kept in sessionStorage, never in localStorage', async () => {
    const explorer = await openExplorer('/explorer');
    const { page } = explorer;
    await page.locator('.graphiql-editor-tool .CodeMirror').last().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('{"X-API-Key": "srk_explorer_test_key"');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => explorer.graphqlPosts.filter((request) => request.postDataJSON().query?.includes('heatCheck')).length, { timeout: 15_000 }).toBe(1);
    const run = explorer.graphqlPosts.find((request) => request.postDataJSON().query?.includes('heatCheck'))!;
    expect(await run.headerValue('x-api-key')).toBe('srk_explorer_test_key');
    // GraphiQL writes its tabs a moment after an edit (debounced).
    const keyInSession = () => page.evaluate(() => Object.values(sessionStorage).some((value) => value.includes('srk_explorer_test_key')));
    await expect.poll(keyInSession, { timeout: 5_000 }).toBe(true);
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
    // Another tab is another session: the key is not there.
    const other = await openExplorer('/explorer');
    expect(await other.page.evaluate(() => Object.values(sessionStorage).some((value) => value.includes('srk_explorer_test_key')))).toBe(false);
    await expectClean(explorer);
    await other.page.close();
    await page.close();
  });

  it('Tab reaches the query editor and the run button, and leaves the editor again', async () => {
    const explorer = await openExplorer('/graphql');
    const { page } = explorer;
    const reached: string[] = [];
    for (let press = 0; press < 40 && !reached.includes('Execute query (Ctrl-Enter)'); press += 1) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName ?? ''));
    }
    const editor = reached.indexOf('GraphQL query; Ctrl-Enter runs it');
    expect(editor).toBeGreaterThan(-1);
    expect(reached.indexOf('Execute query (Ctrl-Enter)')).toBe(editor + 1);
    await page.keyboard.press('Enter');
    await expect.poll(async () => JSON.parse((await explorer.response()) || 'null')?.data?.heatCheck?.commodities?.length, { timeout: 15_000 }).toBe(11);
    await expectClean(explorer);
    await page.close();
  });
});
