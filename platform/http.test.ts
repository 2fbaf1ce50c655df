import { request as httpRequest } from 'node:http';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AppError } from './errors.js';
import { createHttpServer, httpRoutes, type HttpServer } from './http.js';
import { createLogger } from './log.js';

let app: HttpServer;
let seenContext: unknown;
let watchedSignal: AbortSignal | undefined;
let sawRequest: () => void = () => {};

beforeAll(async () => {
  app = createHttpServer({ logger: createLogger({ logLevel: 'silent' }), handlerTimeoutMs: 300 });
  await app.register(
    httpRoutes(async (service) => {
      service.errorShapes.register({ prefix: '/svc', body: (error) => ({ message: error.message }) });
      service.get('/svc/items/:id', { schema: { params: z.object({ id: z.string().max(12) }) } }, async (request) => {
        seenContext = request.requestContext;
        return { id: request.params.id };
      });
      service.post('/svc/items', { schema: { body: z.strictObject({ name: z.string().max(20) }) } }, async (request) => request.body);
      service.get('/svc/slow', async () => new Promise((resolve) => setTimeout(() => resolve({ late: true }), 2000)));
      service.get('/svc/watched', async (request) => {
        watchedSignal = request.requestContext.abandoned;
        sawRequest();
        return new Promise((resolve) => setTimeout(() => resolve({ late: true }), 250));
      });
      service.get('/svc/broken', async () => {
        throw new Error('/home/app/secret/path.ts: boom');
      });
      service.get('/svc/database-gone', async () => {
        throw new Error('Failed query: select 1', { cause: Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' }) });
      });
      service.get('/svc/refused', async () => {
        throw new AppError('GEN_ERR_NOT_FOUND', { message: 'x'.repeat(2000) });
      });
    }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
});

const inject = (options: InjectOptions) => app.inject(options);

describe('one error shape per service, for Fastify and Node errors too', () => {
  it('finding: wrong methods were 404; now 405 with Allow, in the service shape', async () => {
    const response = await inject({ method: 'DELETE', url: '/svc/items/abc' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.json()).toEqual({ message: 'DELETE is not allowed on /svc/items/abc; allowed: GET, HEAD' });
  });

  it('finding: 404s under a service prefix lacked its fields; now its shape, and the generic one elsewhere', async () => {
    expect((await inject({ method: 'GET', url: '/svc/nothing' })).json()).toEqual({ message: 'No route for GET /svc/nothing' });
    expect((await inject({ method: 'GET', url: '/elsewhere' })).json()).toEqual({ error: 'No route for GET /elsewhere', code: 'GEN_ERR_NOT_FOUND' });
  });

  it("finding: bad percent-encoding answered FST_ERR_BAD_URL in Fastify's shape; now 400 in the service shape", async () => {
    const response = await inject({ method: 'GET', url: '/svc/items/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'The URL holds an invalid percent-encoding.' });
    // Answered before any hook: the security headers are the server's all the same.
    expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('finding: an over-long path parameter answered 414 FST_ERR_MAX_PARAM_LENGTH; now 400 in the service shape', async () => {
    const response = await inject({ method: 'GET', url: `/svc/items/${'a'.repeat(300)}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/path parameter is longer than/);
    const validated = await inject({ method: 'GET', url: `/svc/items/${'a'.repeat(101)}` });
    expect(validated.statusCode).toBe(400);
    expect(validated.json().message).toMatch(/^Invalid params: id:/);
  });

  it('finding: an unknown body field said "a JSON object body is required"; now it is named', async () => {
    const response = await inject({ method: 'POST', url: '/svc/items', payload: { name: 'x', colour: 'red' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Invalid body: unknown field: "colour"' });
  });

  it('finding: a 1 MB argument was echoed in a 2 MB error; echoed input is cut', async () => {
    const field = 'k'.repeat(1_000_00);
    const response = await inject({ method: 'POST', url: '/svc/items', payload: { name: 'x', [field]: 1 } });
    expect(response.statusCode).toBe(400);
    expect(response.body.length).toBeLessThan(300);
    const long = await inject({ method: 'GET', url: '/svc/refused' });
    expect(long.json().message.length).toBeLessThanOrEqual(401);
  });

  it("finding: long headers got Node's own 431 body; now a JSON body in the generic shape", async () => {
    const address = app.server.address() as { port: number };
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port: address.port, path: '/svc/items/a', headers: { 'x-filler': 'f'.repeat(40_000) } }, (response) => {
        let text = '';
        response.on('data', (chunk) => (text += String(chunk)));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      });
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(431);
    expect(JSON.parse(body)).toEqual({ error: 'The request headers are too large.', code: 'GEN_ERR_HEADERS_TOO_LARGE' });
  });

  it('an unexpected error is a 500 without its message, path or stack', async () => {
    const response = await inject({ method: 'GET', url: '/svc/broken' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: 'Internal error; the failure was logged.' });
  });

  it('finding: requests had no timeout; a slow handler is answered 503 with Retry-After in the service shape', async () => {
    const response = await inject({ method: 'GET', url: '/svc/slow' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({ message: 'The request took too long to answer; retry later.' });
  });
});

describe('headers and request context', () => {
  it('finding: no security headers; now nosniff, frame denial and a CSP that loads nothing', async () => {
    const response = await inject({ method: 'GET', url: '/svc/items/abc' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it('gives every handler the request context and echoes a well-formed request id', async () => {
    const response = await inject({
      method: 'GET',
      url: '/svc/items/abc',
      headers: { 'x-request-id': 'req-42', authorization: 'Bearer t', 'x-agent-id': 'agent-7', cookie: 'not forwarded' },
    });
    expect(response.headers['x-request-id']).toBe('req-42');
    expect(seenContext).toMatchObject({ requestId: 'req-42', caller: { kind: 'anonymous' }, headers: { authorization: 'Bearer t', 'x-agent-id': 'agent-7' } });
    expect((seenContext as { headers: Record<string, string> }).headers).not.toHaveProperty('cookie');
    const unsafe = await inject({ method: 'GET', url: '/svc/items/abc', headers: { 'x-request-id': 'bad id\twith tab' } });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the request context knows when no one will read the answer', () => {
  it('aborts `abandoned` when the client disconnects before the answer, and not when the answer is delivered', async () => {
    const seen = new Promise<void>((resolve) => (sawRequest = resolve));
    const address = app.server.address() as { port: number };
    const client = httpRequest({ host: '127.0.0.1', port: address.port, path: '/svc/watched' });
    client.on('error', () => {});
    client.end();
    await seen;
    client.destroy();
    await vi.waitFor(() => expect(watchedSignal?.aborted).toBe(true));

    const delivered = await fetch(`http://127.0.0.1:${address.port}/svc/watched`);
    expect(delivered.status).toBe(200);
    await delivered.arrayBuffer();
    expect(watchedSignal?.aborted).toBe(false);
  });

  it('finding: an in-process call (inject, no socket) was marked abandoned once answered; it is not', async () => {
    const answered = await inject({ method: 'GET', url: '/svc/watched' });
    expect(answered.statusCode).toBe(200);
    // The response's close comes on the next tick after its end.
    await new Promise((resolve) => setImmediate(resolve));
    expect(watchedSignal?.aborted).toBe(false);
  });
});

describe('a dependency that did not answer, unwrapped by its caller', () => {
  it('is answered 503 with Retry-After in the service shape, never a 500 (the soak cut PostgreSQL under an API-key lookup)', async () => {
    const response = await app.inject({ method: 'GET', url: '/svc/database-gone' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({ message: 'A dependency is unavailable; retry later.' });
  });
});
