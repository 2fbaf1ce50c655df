import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../platform/testing/tcp-proxy.js';
import { startTestServer, type TestServer } from './helpers.js';

// Finding 10 (decision 0054): with REDIS_URL set, every request with a key is counted in Redis; while
// Redis is down each is answered 503, so /health must read down and name it.

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function health(server: TestServer) {
  const response = await server.app.inject({ method: 'GET', url: '/health' });
  return { status: response.statusCode, body: response.json() as { status: string; down: string[]; checks: Record<string, { status: string; reason?: string }> } };
}

describe('/health with REDIS_URL at a closed port', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ subgraphs: ['intelligence'], gateway: false, environment: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` } });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('finding 10: /health said ok while every keyed request answered 503; it answers 503 naming redis', async () => {
    const key = (await server.platform!.access.keys.create('api', 'health test', 1000)).key;
    const keyed = await server.app.inject({ method: 'GET', url: '/reports/report/climate', headers: { 'x-api-key': key } });
    expect(keyed.statusCode).toBe(503);
    const { status, body } = await health(server);
    expect(status).toBe(503);
    expect(body.status).toBe('degraded');
    expect(body.down).toEqual(['redis']);
    expect(body.checks.redis).toEqual({ status: 'down', reason: 'ping Redis failed' });
    expect(body.checks.database).toEqual({ status: 'up' });
    // The reason is one line of ours: no address, port or driver text reaches the caller.
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|stack/);
  });
});

describe('/health follows Redis down and back (through a proxy that refuses connections)', () => {
  let server: TestServer;
  let proxy: TcpProxy;
  beforeAll(async () => {
    proxy = await startTcpProxy(6379);
    server = await startTestServer({ subgraphs: ['intelligence'], gateway: false, environment: { REDIS_URL: `redis://127.0.0.1:${proxy.port}` } });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
  });

  it('reads redis up, then down while it is unreachable, then up again', async () => {
    expect(await health(server)).toMatchObject({ status: 200, body: { status: 'ok', down: [], checks: { redis: { status: 'up' } } } });
    await proxy.stop();
    expect(await health(server)).toMatchObject({ status: 503, body: { down: ['redis'] } });
    await proxy.start();
    // The client reconnects in the background (backing off up to 2 s).
    await vi.waitFor(async () => expect(await health(server)).toMatchObject({ status: 200, body: { down: [] } }), { timeout: 15_000, interval: 200 });
  });
});
