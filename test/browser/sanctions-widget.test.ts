import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpServer } from '../../platform/http.js';
import { createLogger } from '../../platform/log.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { chromiumStatus, launchChromium, openWatched } from './chromium.js';

const status = chromiumStatus();
if (!status.present) console.warn(`Sanctions widget browser test skipped: ${status.reason}`);

/** Each payload sets window.__pwned (or opens a dialog) if it ever runs. */
const INJECTIONS = [
  '<script>window.__pwned = 1</script>',
  '"><img src=x onerror="window.__pwned = 1">',
  '\'><svg onload="window.__pwned = 1">',
  '</q></section><script>window.__pwned = 1; alert(1)</script>',
  '<iframe srcdoc="<script>parent.__pwned = 1</script>"></iframe>',
];

describe.skipIf(!status.present)('the sanctions widget in headless Chromium', () => {
  let server: TestServer;
  let control: HttpServer;
  let browser: Browser;
  let base: string;
  let controlBase: string;

  beforeAll(async () => {
    // The all-in-one server with the compliance subgraph, listening on a port of its own.
    server = await startTestServer({ subgraphs: ['compliance'] });
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    // The control: a page that echoes q unescaped and without a CSP, as a broken widget would.
    // The detector below must see its script run, or it proves nothing about the real page.
    control = createHttpServer({ logger: createLogger({ logLevel: 'silent' }) });
    await control.register(async (scoped) => {
      scoped.get('/control/unescaped', { helmet: false }, async (request, reply) =>
        reply.type('text/html; charset=utf-8').send(`<!doctype html><html><body><p id="query">${String((request.query as Record<string, unknown>).q)}</p></body></html>`),
      );
    });
    await control.listen({ host: '127.0.0.1', port: 0 });
    controlBase = `http://127.0.0.1:${(control.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await control?.close();
    await server?.app.close();
  });

  const open = (path: string, origin = base) => openWatched(browser, `${origin}${path}`);

  it('shows the verdict a person reads: BLOCKED for a wallet on the SDN list, with its signal', async () => {
    const { page } = await open('/compliance/widget/sanctions?q=0x098B716B8Aaf21512996dC57EB0615e2383E2f96');
    expect(await page.locator('#verdict').innerText()).toBe('BLOCKED');
    expect(await page.locator('#summary').innerText()).toBe('On the OFAC SDN list: do not proceed.');
    expect(await page.locator('#signals li').first().innerText()).toMatch(/^ETH address listed for .+ \(OFAC uid 27307; /);
    await page.close();
  });

  it('the form works under its CSP: typing a name and pressing Screen shows FLAGGED for a review-band match', async () => {
    const { page } = await open('/compliance/widget/sanctions');
    expect(await page.locator('#verdict').count()).toBe(0);
    await page.getByLabel('Wallet address or entity name').fill('Roni Trading LLC');
    await Promise.all([page.waitForURL(/q=Roni\+Trading\+LLC/), page.getByRole('button', { name: 'Screen' }).click()]);
    expect(await page.locator('#verdict').innerText()).toBe('FLAGGED');
    expect(await page.locator('#query').innerText()).toBe('Roni Trading LLC');
    await page.close();
  });

  it('the control page runs an injected script, so the detector works', async () => {
    const { page, pwned } = await open(`/control/unescaped?q=${encodeURIComponent(INJECTIONS[0]!)}`, controlBase);
    expect(await pwned()).toBe(1);
    await page.close();
  });

  it.each(INJECTIONS)('an injected %j is shown as text and never runs', async (injection) => {
    const { page, dialogs, pwned } = await open(`/compliance/widget/sanctions?q=${encodeURIComponent(injection)}`);
    expect(await pwned()).toBeUndefined();
    expect(dialogs).toEqual([]);
    // What a person sees: the input as typed, in the text and in the box, and a verdict.
    expect(await page.locator('#query').innerText()).toBe(injection.trim());
    expect(await page.locator('#q').inputValue()).toBe(injection.trim());
    expect(['APPROVED', 'FLAGGED', 'BLOCKED']).toContain(await page.locator('#verdict').innerText());
    // No element of the input was made: the page has its own elements only.
    expect(await page.locator('script, img, svg, iframe').count()).toBe(0);
    await page.close();
  });

  it('unicode input comes back as typed', async () => {
    const text = 'Ｖｌａｄｉｍｉｒ Ｐｕｔｉｎ — Müller & Söhne 😀';
    const { page } = await open(`/compliance/widget/sanctions?q=${encodeURIComponent(text)}`);
    expect(await page.locator('#query').innerText()).toBe(text);
    expect(await page.locator('#verdict').innerText()).toMatch(/^(APPROVED|FLAGGED|BLOCKED)$/);
    await page.close();
  });
});
