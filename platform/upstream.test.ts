import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InfrastructureError } from './errors.js';
import { createUpstream, type Injector } from './upstream.js';

// The two transports answer alike: the same routes in-process (inject) and over HTTP (SERVICE_URLS).

const app = Fastify();
app.post('/svc/echo', async (request) => ({ got: request.body, key: request.headers['x-internal-key'] ?? null }));
app.get('/svc/text', async (_request, reply) => reply.type('text/plain').send('plain'));
app.get('/svc/missing', async (_request, reply) => reply.code(404).send({ error: 'nope', code: 'X' }));
app.get('/svc/slow', async () => new Promise((resolve) => setTimeout(() => resolve({ late: true }), 500)));
const served = { fresh: 0, plain: 0, noStore: 0 };
app.get('/svc/fresh', async (_request, reply) => reply.header('cache-control', 'public, max-age=60').send({ served: ++served.fresh }));
app.get('/svc/plain', async () => ({ served: ++served.plain }));
app.get('/svc/no-store', async (_request, reply) => reply.header('cache-control', 'no-store').send({ served: ++served.noStore }));
let baseUrl: string;
let refused: Server;
let refusedUrl: string;

beforeAll(async () => {
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  refused = createServer();
  await new Promise<void>((resolve) => refused.listen(0, '127.0.0.1', resolve));
  refusedUrl = `http://127.0.0.1:${(refused.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => refused.close(() => resolve()));
});
afterAll(async () => {
  await app.close();
});

describe.each(['in-process', 'http'] as const)('%s transport', (layout) => {
  const upstream = () => {
    const made = createUpstream({ serviceUrls: layout === 'http' ? { svc: baseUrl } : {}, timeoutMs: 200 });
    if (layout === 'in-process') made.attach(app as unknown as Injector);
    return made.transport('svc');
  };

  it('sends JSON with the headers and parses JSON answers; other answers as text', async () => {
    const transport = upstream();
    const echoed = await transport({ method: 'POST', path: '/svc/echo', headers: { 'x-internal-key': 'k' }, body: { a: [1, 'é'] } });
    expect(echoed).toMatchObject({ status: 200, body: { got: { a: [1, 'é'] }, key: 'k' } });
    expect(echoed.headers['content-type']).toContain('application/json');
    expect((await transport({ method: 'GET', path: '/svc/text' })).body).toBe('plain');
    expect(await transport({ method: 'GET', path: '/svc/missing' })).toMatchObject({ status: 404, body: { error: 'nope', code: 'X' } });
  });

  it('answers a GET the service declared fresh (max-age) from memory until it is stale; nothing else', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const transport = upstream();
      const [before, plainBefore, noStoreBefore] = [served.fresh, served.plain, served.noStore];
      const first = await transport({ method: 'GET', path: '/svc/fresh' });
      vi.setSystemTime(Date.now() + 30_000);
      const again = await transport({ method: 'GET', path: '/svc/fresh' });
      expect(again.body).toEqual(first.body);
      expect(again.headers.age).toBe('30');
      expect(served.fresh).toBe(before + 1);
      // Stale after its 60 s: asked again.
      vi.setSystemTime(Date.now() + 31_000);
      expect((await transport({ method: 'GET', path: '/svc/fresh' })).body).toEqual({ served: before + 2 });
      // Without freshness, or with no-store, every call reaches the service.
      for (let call = 0; call < 2; call++) {
        await transport({ method: 'GET', path: '/svc/plain' });
        await transport({ method: 'GET', path: '/svc/no-store' });
      }
      expect([served.plain - plainBefore, served.noStore - noStoreBefore]).toEqual([2, 2]);
      // A request with a header of its own (a credential) is never answered from, nor kept in, the cache.
      const keyed = served.fresh;
      for (let call = 0; call < 2; call++) await transport({ method: 'GET', path: '/svc/fresh', headers: { 'x-internal-key': 'k' } });
      expect(served.fresh - keyed).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('bounds every call: a slow answer is an InfrastructureError naming the call', async () => {
    const failure = await upstream()({ method: 'GET', path: '/svc/slow' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InfrastructureError);
    expect((failure as InfrastructureError).operation).toBe('svc GET /svc/slow');
  });
});

it('a refused connection, and an in-process call before the server is attached, are InfrastructureErrors', async () => {
  const http = createUpstream({ serviceUrls: { svc: refusedUrl }, timeoutMs: 1000 }).transport('svc');
  await expect(http({ method: 'GET', path: '/svc/text' })).rejects.toBeInstanceOf(InfrastructureError);
  const unattached = createUpstream({ serviceUrls: {}, timeoutMs: 1000 }).transport('svc');
  await expect(unattached({ method: 'GET', path: '/svc/text' })).rejects.toThrow(/not mounted yet/);
});
