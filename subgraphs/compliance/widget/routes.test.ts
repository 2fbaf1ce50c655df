import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import { createHttpServer, httpRoutes, type HttpServer } from '../../../platform/http.js';
import { createLogger } from '../../../platform/log.js';
import { TEST_NOW } from '../../../test/helpers.js';
import { shippedUboData } from '../ownership/service.js';
import { COMPLIANCE_PREFIX, complianceErrorShape } from '../shared/error-shape.js';
import { WIDGET_CSP_DIRECTIVES } from './render.js';
import { widgetRoutes } from './routes.js';

/** The widget as the compliance plugin mounts it, on the shipped SDN list. */
async function buildWidgetTestApp(): Promise<HttpServer> {
  const data = shippedUboData();
  const app = createHttpServer({ logger: createLogger({ logLevel: 'silent' }), clock: new ManualClock(TEST_NOW) });
  await app.register(
    httpRoutes(async (scoped) => {
      scoped.errorShapes.register(complianceErrorShape);
      await scoped.register(widgetRoutes({ sanctions: () => data.sanctions, listAsOf: () => data.sources.sanctions.asOf, now: () => new Date(TEST_NOW) }));
    }),
  );
  await app.ready();
  return app;
}

const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' autofocus onfocus=alert(1) x='",
  '</q></section><script>alert(1)</script>',
  '<svg/onload=alert(1)>',
  '&lt;script&gt; &amp; &#x3c;',
  'Ｖｌａｄｉｍｉｒ Ｐｕｔｉｎ \u202Egnp.exe 😀',
];

describe('GET /compliance/widget/sanctions', () => {
  let app: HttpServer;
  beforeAll(async () => {
    app = await buildWidgetTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  const get = async (query: string) => {
    const response = await app.inject({ method: 'GET', url: `${COMPLIANCE_PREFIX}/widget/sanctions${query}` });
    return { status: response.statusCode, html: response.body, headers: response.headers };
  };
  const verdictOf = (html: string) => /<p id="verdict" class="verdict (\w+)">(\w+)<\/p>/.exec(html)?.slice(1);

  it('without a query: the empty form, HTML, no verdict', async () => {
    const { status, html, headers } = await get('');
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(html).toContain('<input id="q" name="q" type="search" value maxlength="200" required autocomplete="off"/>');
    expect(html).not.toContain('id="verdict"');
    // TEST_NOW is years after 2023-12-28: the page says the list is stale (decision 0055).
    expect(html).toContain('OFAC SDN list as of 2023-12-28 (older than 30 days: refresh it). Names match at 0.70 or above; 0.95 or above blocks.');
    expect((await get('?q=%20%20')).html).not.toContain('id="verdict"');
  });

  it('sends a Content-Security-Policy with no script source, the stylesheet by hash, and framing allowed', async () => {
    const { headers, html } = await get('?q=Maria%20Cantwell');
    const csp = String(headers['content-security-policy']);
    expect(csp.split(';').map((directive) => directive.trim())).toEqual([
      "default-src 'none'",
      "script-src 'none'",
      `style-src ${WIDGET_CSP_DIRECTIVES.styleSrc[0]}`,
      "img-src 'none'",
      "form-action 'self'",
      "base-uri 'none'",
      'frame-ancestors *',
    ]);
    expect(csp).not.toContain('unsafe-inline');
    expect(headers['x-frame-options']).toBeUndefined();
    expect(html).not.toMatch(/<script/i);
  });

  it.each([
    ['a wallet on the SDN digital-currency list', '0x098B716B8Aaf21512996dC57EB0615e2383E2f96', 'BLOCKED', 'ETH address listed for'],
    [
      'an exact SDN entity name',
      'VTB Capital Holdings Closed Joint Stock Company',
      'BLOCKED',
      'Match 1.00: VTB CAPITAL HOLDINGS CLOSED JOINT STOCK COMPANY, entity (OFAC uid 18729; UKRAINE-EO13662, RUSSIA-EO14024)',
    ],
    ['a name in the review band', 'Roni Trading LLC', 'FLAGGED', 'Possible match 0.94: RONIN MANAGEMENT B.V. as &quot;RONIN TRADING&quot; (aka), entity (OFAC uid 42978;'],
    ['a clean name', 'Maria Cantwell', 'APPROVED', 'No match on the OFAC SDN list.'],
    ['an unlisted address', '0x0000000000000000000000000000000000000001', 'APPROVED', 'Screened as a wallet address'],
  ])('%s: %s', async (_label, query, verdict, text) => {
    const { status, html } = await get(`?q=${encodeURIComponent(query)}`);
    expect(status).toBe(200);
    expect(verdictOf(html)).toEqual([verdict, verdict]);
    expect(html).toContain(`data-verdict="${verdict}"`);
    expect(html).toContain(text);
  });

  it('a query with NUL is refused 400 in the page (the platform input rule, decision 0053), not echoed', async () => {
    const { status, html, headers } = await get('?q=Acme%00Ltd');
    expect(status).toBe(400);
    expect(headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html).toContain('The query is refused: q: must not contain NUL (U+0000).');
    expect(html).not.toContain('Acme');
  });

  it.each(HOSTILE)('hostile input %j is escaped in the text and in the value attribute', async (input) => {
    const { status, html } = await get(`?q=${encodeURIComponent(input)}`);
    expect(status).toBe(200);
    const trimmed = input.trim();
    // The renderer escapes &, < and " in text and in attribute values alike: no tag of the input
    // opens, and the value attribute cannot be closed (the browser test shows nothing runs).
    const escaped = trimmed.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;');
    expect(html).toContain(`<q id="query">${escaped}</q>`);
    expect(html).toContain(`<input id="q" name="q" type="search" value="${escaped}" maxlength="200"`);
    expect(html).not.toMatch(/<(script|img|svg)/i);
    expect(html.match(/<input /g)).toHaveLength(1);
  });

  it.each([
    ['a query over 200 characters', `?q=${'a'.repeat(201)}`, 'The query is longer than 200 characters.'],
    ['q twice', '?q=a&q=b', 'Give one query: q once, a wallet address or an entity name.'],
  ])('%s: 400, the message in the page', async (_label, query, message) => {
    const { status, html, headers } = await get(query);
    expect(status).toBe(400);
    expect(headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html).toContain(`<p id="error" class="error" role="alert">${message}</p>`);
    expect(html).not.toContain('id="verdict"');
  });

  it('a huge query string is refused before any screening', async () => {
    const { status } = await get(`?q=${'<script>'.repeat(20_000)}`);
    expect([400, 414]).toContain(status);
  });

  it('a __proto__ parameter is ignored: the empty form', async () => {
    const { status, html } = await get('?__proto__=x&constructor=y');
    expect(status).toBe(200);
    expect(html).not.toContain('id="verdict"');
  });
});
