import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers.js';

/** The ownership chain and the widget as the all-in-one server mounts them, under {compliance_url} = /compliance. */
describe('ownership chain and sanctions widget in the all-in-one server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ subgraphs: ['compliance'] });
  });
  afterAll(async () => {
    await server.app.close();
  });

  it('POST /compliance/compliance/ubo-chain answers the chain, free, and errors in the compliance shape', async () => {
    const ok = await server.app.inject({ method: 'POST', url: '/compliance/compliance/ubo-chain', payload: { lei: '2138001KPMR6PD83HC08' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ lei: '2138001KPMR6PD83HC08', result: 'CLEAR', chain: [{ role: 'SUBJECT' }, { name: 'SHELL PLC', role: 'ULTIMATE_PARENT' }] });
    const bad = await server.app.inject({ method: 'POST', url: '/compliance/compliance/ubo-chain', payload: { lei: '2138001KPMR6PD83HC09' } });
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'CMP_ERR_INVALID_LEI']);
    const wrongType = await server.app.inject({ method: 'POST', url: '/compliance/compliance/ubo-chain', payload: { lei: 7 } });
    expect([wrongType.statusCode, Object.keys(wrongType.json()).sort()]).toEqual([400, ['code', 'error']]);
  });

  it('GET /compliance/widget/sanctions answers the HTML page with its own CSP', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/compliance/widget/sanctions?q=0x098B716B8Aaf21512996dC57EB0615e2383E2f96' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toMatch(/^default-src 'none';script-src 'none';style-src 'sha256-/);
    expect(response.body).toContain('<p id="verdict" class="verdict BLOCKED">BLOCKED</p>');
  });

  it('both are in the OpenAPI document of {compliance_url}', async () => {
    const { paths } = (await server.app.inject({ method: 'GET', url: '/compliance/openapi.json' })).json() as { paths: Record<string, unknown> };
    // Paths are listed under {compliance_url}, as the spec writes them.
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/compliance/ubo-chain', '/widget/sanctions']));
  });
});
