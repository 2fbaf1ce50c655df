import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/helpers.js';

describe('the oracle widgets over HTTP (decision 0034)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ subgraphs: ['compliance', 'fees'] });
  });
  afterAll(() => server.close());
  const get = (url: string) => server.app.inject({ method: 'GET', url });

  it('corridors: HTML with a badge per corridor, no script allowed by its CSP', async () => {
    const response = await get('/stability/widget/corridors');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain("script-src 'none'");
    expect(response.body.match(/data-corridor="USD\/[A-Z]{3}"/g)).toHaveLength(21);
    expect(response.body).not.toContain('<script');
  });

  it("ESG: an LEI's score and breakdown; a company found by name; hostile text escaped in a 404; a lower-case LEI normalised", async () => {
    const ok = await get('/esg/widget/esg?q=2138001KPMR6PD83HC08');
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toMatch(/id="score" class="score">\d+(\.\d)? \/ 100</);
    const byName = await get(`/esg/widget/esg?q=${encodeURIComponent('ubisecure oy')}`);
    expect(byName.statusCode).toBe(200);
    expect(byName.body).toContain('Ubisecure Oy (LEI <q>529900T8BM49AURSDO55</q>)');
    expect(byName.body).toContain('Found by name: <q>Ubisecure Oy</q>');
    const hostile = await get(`/esg/widget/esg?q=${encodeURIComponent('<script>alert(1)</script>')}`);
    expect(hostile.statusCode).toBe(404);
    expect(hostile.body).toContain('value="&lt;script>alert(1)&lt;/script>"');
    expect(hostile.body).not.toContain('<script>alert');
    expect((await get('/esg/widget/esg?q=529900t8bm49aursdo55')).body).toContain('Ubisecure Oy (LEI <q>529900T8BM49AURSDO55</q>)');
    expect((await get(`/esg/widget/esg?q=${'x'.repeat(201)}`)).statusCode).toBe(400);
    expect((await get('/esg/widget/esg')).statusCode).toBe(200);
  });
});
