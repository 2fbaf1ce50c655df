import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpServer } from '../platform/http.js';
import { createLogger } from '../platform/log.js';
import { registerWebApp } from './serve.js';

const EXPECTED_CSP = "default-src 'none';script-src 'self';style-src 'self';img-src 'self' data:;font-src 'self' data:;connect-src 'self';base-uri 'none';form-action 'none';frame-ancestors 'none'";

describe('a web app bundled in memory and served with a strict CSP (web/serve.ts)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'web-app-'));
  const entry = join(folder, 'main.ts');
  const logLines: string[] = [];
  let app: HttpServer;
  // Unique names: the bundles are memoised per name for the process, and a vitest worker runs several files.
  const name = `fixture-${process.pid}`;

  beforeAll(async () => {
    writeFileSync(join(folder, 'style.css'), 'main { color: rgb(1, 2, 3); }\n');
    writeFileSync(entry, "import './style.css';\ndocument.querySelector('#app')!.textContent = 'first build';\n");
    app = createHttpServer({ logger: createLogger({ logLevel: 'info', destination: { write: (line: string) => void logLines.push(line) } }) });
    registerWebApp(app, { name, entry, title: 'Fixture <app>', description: 'A "fixture"', pagePaths: ['/fixture', '/fixture/other'] });
    registerWebApp(app, { name: `${name}-broken`, entry: join(folder, 'missing.ts'), title: 'Broken', pagePaths: ['/broken'] });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const page = (url: string) => app.inject({ method: 'GET', url });

  it('serves the HTML shell at each page path with the exact CSP, naming the hashed script and stylesheet', async () => {
    const response = await page('/fixture');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe(EXPECTED_CSP);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<html lang="en">');
    expect(response.body).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(response.body).toContain('<title>Fixture &#60;app&#62;</title>');
    expect(response.body).toContain('<meta name="description" content="A &#34;fixture&#34;">');
    expect(response.body).toMatch(new RegExp(`<script type="module" src="/web/${name}/main-[A-Z0-9]{8}\\.js"></script>`));
    expect(response.body).toMatch(new RegExp(`<link rel="stylesheet" href="/web/${name}/main-[A-Z0-9]{8}\\.css">`));
    expect(response.body).toContain('<main id="app"><noscript>');
    // No inline script or style: the only script element names a file, and no style element or attribute.
    expect(response.body.match(/<script/g)).toHaveLength(1);
    expect(response.body).not.toMatch(/<style|style=/);
    expect((await page('/fixture/other')).body).toBe(response.body);
  });

  it('serves the hashed files with their content type, immutable caching and the same CSP', async () => {
    const shell = (await page('/fixture')).body;
    const script = /src="([^"]+\.js)"/.exec(shell)![1]!;
    const stylesheet = /href="([^"]+\.css)"/.exec(shell)![1]!;
    const js = await page(script);
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['content-security-policy']).toBe(EXPECTED_CSP);
    expect(js.body).toContain('first build');
    const css = await page(stylesheet);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toContain('color:#010203');
  });

  it('builds once: a second request after the source changed serves the first build', async () => {
    const before = (await page('/fixture')).body;
    writeFileSync(entry, "document.querySelector('#app')!.textContent = 'second build';\n");
    const after = (await page('/fixture')).body;
    expect(after).toBe(before);
    const script = /src="([^"]+\.js)"/.exec(after)![1]!;
    expect((await page(script)).body).toContain('first build');
  });

  it('answers 404 in the platform shape for a file the bundle does not have', async () => {
    const response = await page(`/web/${name}/main-AAAAAAAA.js`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: `No file main-AAAAAAAA.js in the ${name} web app.`, code: 'GEN_ERR_NOT_FOUND' });
  });

  it('answers 503 in the platform shape when the build fails, and logs why', async () => {
    const response = await page('/broken');
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({ error: `The ${name}-broken web app could not be built; see the server log.`, code: 'GEN_ERR_UNAVAILABLE' });
    const logged = logLines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: unknown }).find((line) => line.msg.includes(`${name}-broken`));
    expect(logged?.level).toBe(50);
    expect(JSON.stringify(logged?.err)).toContain('missing.ts');
  });
});
