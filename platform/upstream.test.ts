import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InfrastructureError } from './errors.js';
import { createUpstream, type Injector } from './upstream.js';

// The two transports answer alike: the same routes in-process (inject) and over HTTP (SERVICE_URLS).

const app = Fastify();
app.post('/svc/echo', async (request) => ({ got: request.body, key: request.headers['x-internal-key'] ?? null }));
app.get('/svc/text', async (_request, reply) => reply.type('text/plain').send('plain'));
app.get('/svc/missing', async (_request, reply) => reply.code(404).send({ error: 'nope', code: 'X' }));
app.get('/svc/slow', async () => new Promise((resolve) => setTimeout(() => resolve({ late: true }), 500)));
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
