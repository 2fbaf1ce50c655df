import Fastify from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { afterEach, describe, expect, it } from 'vitest';
import { addSecurityHeaders } from './security-headers.js';

const SERVER_WIDE = { contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"] } } };

// helmet itself, counted: its middleware must be built per route, never per request.
const built = { count: 0 };
const countedHelmet = (options: HelmetOptions) => {
  built.count += 1;
  return helmet(options);
};

function server() {
  const app = Fastify();
  addSecurityHeaders(app, SERVER_WIDE, countedHelmet);
  app.get('/plain', async () => ({ ok: true }));
  app.get('/framed', { helmet: { contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'self'"], frameAncestors: ['*'] } }, frameguard: false } }, async () => 'framed');
  app.get('/bare', { helmet: false }, async () => 'bare');
  return app;
}

describe('addSecurityHeaders', () => {
  let app: ReturnType<typeof server> | undefined;
  afterEach(async () => {
    await app?.close();
    built.count = 0;
  });

  it("gives every answer the server's headers, an unknown path's 404 included", async () => {
    app = server();
    for (const url of ['/plain', '/nowhere']) {
      const { headers } = await app.inject({ url });
      expect(headers['content-security-policy']).toBe("default-src 'none'");
      expect(headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    }
  });

  it("merges a route's own options over the server's, header by header, and leaves out a route that says false", async () => {
    app = server();
    const framed = await app.inject({ url: '/framed' });
    expect(framed.headers['content-security-policy']).toBe("default-src 'self';frame-ancestors *");
    expect(framed.headers['x-frame-options']).toBeUndefined();
    expect(framed.headers['x-content-type-options']).toBe('nosniff');
    const bare = await app.inject({ url: '/bare' });
    expect(bare.headers['content-security-policy']).toBeUndefined();
    expect(bare.headers['x-content-type-options']).toBeUndefined();
  });

  it('builds each middleware once, when its route is added, not per request', async () => {
    app = server();
    await app.ready();
    const afterRoutes = built.count;
    expect(afterRoutes).toBe(3); // the server's, and /framed's for GET and for the HEAD route Fastify adds
    await Promise.all(Array.from({ length: 20 }, (_, index) => app!.inject({ url: ['/plain', '/framed', '/bare', '/nowhere'][index % 4]! })));
    expect(built.count).toBe(afterRoutes);
  });

  it('runs helmet per request for a route whose CSP has a nonce function, so each answer gets its own', async () => {
    app = Fastify();
    addSecurityHeaders(app, SERVER_WIDE, countedHelmet);
    let nonce = 0;
    const nonced: HelmetOptions = { contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], scriptSrc: [() => `'nonce-${(nonce += 1)}'`] } } };
    app.get('/nonced', { helmet: nonced }, async () => 'nonced');
    const first = await app.inject({ url: '/nonced' });
    const second = await app.inject({ url: '/nonced' });
    expect(first.headers['content-security-policy']).not.toBe(second.headers['content-security-policy']);
    expect(second.headers['content-security-policy']).toBe(`default-src 'none';script-src 'nonce-${nonce}'`);
    expect(second.headers['x-content-type-options']).toBe('nosniff');
  });
});
