import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildServer, type BuiltServer } from '../gateway/server.js';
import { dropSchema } from '../platform/db.js';
import { startTcpProxy, type TcpProxy } from '../platform/testing/tcp-proxy.js';
import { sharedTestDatabase, testConfig } from './helpers.js';

async function listen(server: BuiltServer): Promise<string> {
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}`;
}

/** A request that must be answered: a socket error or no answer at all within `boundMs` fails the test. */
async function answered(url: string, boundMs: number): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(boundMs) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('graceful shutdown', () => {
  it('finding: SIGTERM under load reset connections; in-flight requests now finish before the server stops', async () => {
    const server = await buildServer({ config: testConfig(), database: await sharedTestDatabase(), subgraphs: ['fees'], gateway: false });
    // 1. Hold every request inside the server until all 40 are in flight.
    let arrived = 0;
    let releaseAll: () => void = () => {};
    const gate = new Promise<void>((resolve) => (releaseAll = resolve));
    const allArrived = new Promise<void>((resolve) => {
      server.app.addHook('preHandler', async () => {
        arrived += 1;
        if (arrived === 40) resolve();
        await gate;
      });
    });
    const base = await listen(server);
    const requests = Array.from({ length: 40 }, (_, index) => answered(`${base}/stability/quote?amountUsd=${100 + index}`, 20_000));
    await allArrived;
    // 2. Stop while they are in flight, then let them go on.
    const closing = server.close();
    releaseAll();
    const results = await Promise.all(requests);
    await closing;
    expect(results.map((result) => result.status)).toEqual(Array.from({ length: 40 }, () => 200));
    expect(new Set(results.map((result) => result.body.quoteId)).size).toBe(40);
  });
});

const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)('PostgreSQL faults under load', () => {
  const schemaName = `t_faults_${process.pid}_${Date.now().toString(36)}`;
  let proxy: TcpProxy;
  let server: BuiltServer;
  let base: string;

  beforeAll(async () => {
    const target = new URL(databaseUrl ?? '');
    proxy = await startTcpProxy(Number(target.port || 5432), target.hostname);
    target.host = `127.0.0.1:${proxy.port}`;
    server = await buildServer({
      config: testConfig({
        DATABASE_URL: target.toString(),
        DATABASE_SCHEMA: schemaName,
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
        DATABASE_STATEMENT_TIMEOUT_MS: '1500',
        REQUEST_TIMEOUT_MS: '4000',
      }),
      subgraphs: ['fees'],
      gateway: false,
    });
    base = await listen(server);
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    if (databaseUrl) await dropSchema(databaseUrl, schemaName);
  });

  const quote = (amount: number) => answered(`${base}/stability/quote?amountUsd=${amount}`, 15_000);
  /** A ledger read: the one quote path that still needs the database on its way. */
  const lookup = async (quoteId: string) => {
    const response = await fetch(`${base}/subgraphs/fees/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query ($id: ID!) { quote(quoteId: $id) { quoteId } }', variables: { id: quoteId } }),
      signal: AbortSignal.timeout(15_000),
    });
    return { status: response.status, body: (await response.json()) as { data?: { quote: unknown }; errors?: Array<{ extensions?: { code?: string } }> } };
  };
  const storedIds = async (quoteIds: string[]) => {
    const direct = postgres(databaseUrl ?? '', { max: 1, onnotice: () => {} });
    try {
      const rows = await direct.unsafe(`select quote_id from "${schemaName}".fee_quotes where quote_id = any($1)`, [quoteIds]);
      return rows.map((row) => String(row.quote_id)).sort();
    } finally {
      await direct.end({ timeout: 5 });
    }
  };

  it('finding: killed connections hung quotes for 30 s while /health said ok; quotes answer without the database, /health turns 503 and back, nothing acknowledged is lost', async () => {
    // 1. Load with the connections cut under it twice (as pg_terminate_backend does): quotes need no database.
    const wave = Array.from({ length: 60 }, (_, index) => quote(1000 + index));
    setTimeout(() => proxy.resetConnections(), 5);
    setTimeout(() => proxy.resetConnections(), 40);
    const first = await Promise.all(wave);
    expect(first.map((result) => result.status)).toEqual(first.map(() => 200));

    // 2. The server is down: quotes are still issued (their ledger rows wait in the queue), a ledger
    //    read answers 503-coded within its bound, /health names the database.
    await proxy.stop();
    const during = await Promise.all(Array.from({ length: 10 }, (_, index) => quote(2000 + index)));
    expect(during.map((result) => result.status)).toEqual(during.map(() => 200));
    const read = await lookup(String(first[0]?.body.quoteId));
    expect(read.body.data).toEqual({ quote: null });
    expect(read.body.errors?.[0]?.extensions?.code).toBe('GEN_ERR_UNAVAILABLE');
    const healthDown = await answered(`${base}/health`, 15_000);
    expect(healthDown.status).toBe(503);
    expect(healthDown.body.down).toContain('database');

    // 3. Back up: the queue's retry writes the backlog, which clears "writes failing"; /health recovers.
    await proxy.start();
    await vi.waitFor(async () => expect((await answered(`${base}/health`, 15_000)).status).toBe(200), { timeout: 15_000, interval: 250 });
    const after = await Promise.all(Array.from({ length: 10 }, (_, index) => quote(3000 + index)));
    expect(after.map((result) => result.status)).toEqual(after.map(() => 200));

    // 4. Every quote acknowledged with 200, before, during and after the outage, reaches the table.
    const acknowledged = [...first, ...during, ...after].map((result) => String(result.body.quoteId)).sort();
    await vi.waitFor(async () => expect(await storedIds(acknowledged)).toEqual(acknowledged), { timeout: 15_000, interval: 250 });
    expect((await lookup(acknowledged[0]!)).body).toEqual({ data: { quote: { quoteId: acknowledged[0] } } });
  });
});
