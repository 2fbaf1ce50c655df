import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, it } from 'vitest';
import type { TestServer } from '../../test/helpers.js';
import { querySignal, startSignalServer } from './shared/testing.js';

let server: TestServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startSignalServer());
}, 120_000);
afterAll(async () => {
  await server?.close();
});
const out: Record<string, unknown> = {};
it('probes2', async () => {
  const { key: key5 } = await server.platform!.access.keys.create('api', 'review5', 5);
  const aliases = Array.from({ length: 10 }, (_, i) => `a${i}: contagion(origin:"fin.us_banking", magnitude:${10 + i}, epochs:12){ regime }`).join(' ');
  const r1 = await server.app.inject({ method: 'POST', url: '/subgraphs/intelligence/graphql', headers: { 'content-type': 'application/json', 'x-api-key': key5 }, payload: { query: `{ ${aliases} }` } });
  out['gql 10 aliases key limit 5'] = { status: r1.statusCode, rl: r1.headers['x-ratelimit-remaining'], body: r1.body.slice(0, 1500) };
  const r1b = await server.app.inject({ method: 'POST', url: '/subgraphs/intelligence/graphql', headers: { 'content-type': 'application/json', 'x-api-key': key5 }, payload: { query: `{ cascade { nervousSystem { systemicRiskScore } } }` } });
  out['gql after aliases'] = { status: r1b.statusCode, rl: r1b.headers['x-ratelimit-remaining'], body: r1b.body.slice(0, 300) };
  const many = Array.from({ length: 30 }, (_, i) => `a${i}: butterfly(origin:"geo.conflict", eventType:"x", magnitude:${50 + i}, horizonHours:720){ synthesis }`).join(' ');
  const t = Date.now();
  const r2 = await server.app.inject({ method: 'POST', url: '/subgraphs/intelligence/graphql', headers: { 'content-type': 'application/json', 'x-api-key': key }, payload: { query: `{ ${many} }` } });
  out['gql 30 aliases'] = { status: r2.statusCode, ms: Date.now() - t, rl: r2.headers['x-ratelimit-remaining'], body: r2.body.slice(0, 300) };
  const r3 = await querySignal(server, '{ butterfly(origin:"geo.conflict", eventType:"x", magnitude:1e400){ synthesis } }', key);
  out['gql 1e400'] = JSON.stringify(r3).slice(0, 400);
  const r3b = await querySignal(server, '{ butterfly(origin:"geo.conflict", eventType:"x", magnitude:"50"){ synthesis } }', key);
  out['gql magnitude string'] = JSON.stringify(r3b).slice(0, 400);
  const r3c = await querySignal(server, '{ contagion(origin:"fin.us_banking", magnitude:50, epochs:2.5){ regime } }', key);
  out['gql epochs 2.5'] = JSON.stringify(r3c).slice(0, 400);
  const r4 = await server.app.inject({ method: 'POST', url: '/v1/intelligence/butterfly', headers: { 'content-type': 'application/json', 'x-payment': 'garbage' }, payload: '{"origin":"nope","eventType":"x","magnitude":50}' });
  out['rest bad payment + bad body'] = { status: r4.statusCode, body: r4.body.slice(0, 300) };
  const r5 = await server.app.inject({ method: 'POST', url: '/v1/intelligence/butterfly', headers: { 'content-type': 'application/json', 'x-payment': 'garbage' }, payload: '{"origin":"geo.conflict","eventType":"x","magnitude":50}' });
  out['rest bad payment good body'] = { status: r5.statusCode, body: r5.body.slice(0, 300) };
  const r6 = await server.app.inject({ method: 'POST', url: '/v1/intelligence/butterfly', headers: { 'content-type': 'application/json', 'x-api-key': 'wrong' }, payload: '{"origin":"geo.conflict","eventType":"x","magnitude":50}' });
  out['rest wrong key'] = { status: r6.statusCode, body: r6.body.slice(0, 300) };
  const wk = await server.app.inject({ method: 'GET', url: '/.well-known/x402' });
  out['well-known'] = { status: wk.statusCode, body: wk.body.replace(/"description":"[^"]*"/g, '').slice(0, 4000) };
  const par = await Promise.all(Array.from({ length: 5 }, () => server.app.inject({ method: 'GET', url: '/v1/intelligence/ledger?limit=1', headers: { 'x-api-key': key } })));
  out['ledger parallel'] = par.map((r) => ({ s: r.statusCode, sweep: (r.json() as any).sweep, calls: (r.json() as any).overall?.calls }));
  const p48 = await Promise.all(Array.from({ length: 3 }, () => server.app.inject({ method: 'GET', url: '/intelligence/48h-call', headers: { 'x-api-key': key } })));
  out['48h parallel'] = p48.map((r) => ({ s: r.statusCode, id: (r.json() as any).call?.id, hit: r.headers['x-rail-cache-hit'] }));
  // advance clock beyond horizon and sweep
  const clock = server.clock as any;
  out['clock api'] = Object.keys(clock).join(',');
  if (typeof clock.advance === 'function') {
    clock.advance(20 * 24 * 3600 * 1000);
    const r = await server.app.inject({ method: 'GET', url: '/v1/intelligence/ledger?limit=20', headers: { 'x-api-key': key } });
    const b = r.json() as any;
    out['ledger after 20d'] = { sweep: b.sweep, overall: { calls: b.overall.calls, resolved: b.overall.resolved, void: b.overall.void, brier: b.overall.brierScore }, calls: b.calls.map((c: any) => [c.id, c.status, c.probability, c.resolution?.reason?.slice(0, 120)]) };
  }
  writeFileSync('/tmp/review/out2.json', JSON.stringify(out, null, 1));
}, 600_000);
