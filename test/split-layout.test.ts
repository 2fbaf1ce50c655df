import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWalletClient, http } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { base as baseChain } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import { type PaymentRequirements, settleResponseFromHeader } from 'x402/types';
import { SUBGRAPH_NAMES } from '../gateway/subgraphs.js';
import { DEVELOPMENT_MNEMONIC } from '../platform/chain/embedded-chain.js';
import { dropSchema } from '../platform/db.js';
import { TEST_SIGNING_KEY } from './helpers.js';

const mainScript = fileURLToPath(new URL('../gateway/main.ts', import.meta.url));

interface RunningProcess {
  child: ChildProcess;
  base: string;
  /** Every line the process printed, stdout and stderr. */
  lines: string[];
}

/** Starts `main.ts serve <target>` as its own process on a free loopback port; resolves once it listens. */
function serve(target: string, environment: Record<string, string>): Promise<RunningProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', mainScript, 'serve', target], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: join(mkdtempSync(join(tmpdir(), `srg-split-${target.replaceAll(',', '-')}-`)), 'data'),
      QUOTE_SIGNING_KEY: TEST_SIGNING_KEY,
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const onLine = (chunk: Buffer) => {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        lines.push(line);
        const listening = /listening on (http:\/\/\S+)/.exec(line);
        if (listening?.[1]) resolve({ child, base: listening[1], lines });
      }
    };
    child.stdout.on('data', onLine);
    child.stderr.on('data', onLine);
    child.once('exit', (code) => reject(new Error(`${target} exited with ${code}: ${lines.join('\n')}`)));
  });
}

/** A loopback port free at the time of asking. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function stop(running: RunningProcess | undefined): Promise<void> {
  if (!running || running.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    running.child.once('exit', () => resolve());
    running.child.kill('SIGTERM');
  });
}

/** On CI (DATABASE_URL set) each subgraph process uses PostgreSQL in a schema of its own; PGlite otherwise. */
function databaseFor(name: string): Record<string, string> {
  const url = process.env.DATABASE_URL;
  return url ? { DATABASE_URL: url, DATABASE_SCHEMA: `t_split_${name}_${process.pid}` } : {};
}

describe('split layout: subgraphs and the gateway as separate processes on loopback', () => {
  // forecast alone in a process (the one this test stops); every other subgraph in another.
  const others = SUBGRAPH_NAMES.filter((name) => name !== 'forecast');
  let fees: RunningProcess;
  let forecast: RunningProcess;
  let gateway: RunningProcess;

  beforeAll(async () => {
    // The rail's accounts are secret by default (decision 0052): the payer below signs as account #1
    // from this test's process, so the rail is made from the public development mnemonic here.
    const rail = { EMBEDDED_CHAIN_MNEMONIC: DEVELOPMENT_MNEMONIC };
    // The reports in the other process reach forecast over HTTP, named in SERVICE_URLS: its port is chosen first.
    const forecastPort = await freePort();
    [fees, forecast] = await Promise.all([
      serve(others.join(','), { ...databaseFor('fees'), ...rail, SERVICE_URLS: `forecast=http://127.0.0.1:${forecastPort}` }),
      serve('forecast', { ...databaseFor('forecast'), PORT: String(forecastPort) }),
    ]);
    const urls = [...others.map((name) => `${name}=${fees.base}/subgraphs/${name}/graphql`), `forecast=${forecast.base}/subgraphs/forecast/graphql`];
    gateway = await serve('gateway', { SUBGRAPH_URLS: urls.join(',') });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([stop(fees), stop(forecast), stop(gateway)]);
    const url = process.env.DATABASE_URL;
    if (url) for (const name of ['fees', 'forecast']) await dropSchema(url, `t_split_${name}_${process.pid}`);
  });

  it('prints each step of its start before it listens', () => {
    const steps = fees.lines.filter((line) => line.startsWith('starting:'));
    expect(steps[0]).toBe('starting: loading the subgraphs and the supergraph');
    expect(steps.some((line) => /starting: (connecting to PostgreSQL|opening PGlite in .* and applying migrations)/.test(line))).toBe(true);
    expect(gateway.lines.join('\n')).toMatch(/gateway alone, no database/);
  });

  it('takes a payment for a priced field through the gateway: X-PAYMENT travels to the subgraph process, X-PAYMENT-RESPONSE comes back', async () => {
    const ask = (headers: Record<string, string>) =>
      fetch(`${gateway.base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query: '{ climateReport { reportType synthesis { riskLevel } } }' }),
      });
    const unpaid = await ask({});
    expect(unpaid.status).toBe(402);
    const { errors } = (await unpaid.json()) as { errors: Array<{ extensions: { code: string; accepts: PaymentRequirements[] } }> };
    expect(errors[0]?.extensions.code).toBe('GEN_ERR_PAYMENT_REQUIRED');
    // The payer signs offline and reads the chain through the subgraph process's /rpc, as an outside wallet would.
    const payer = createWalletClient({ account: mnemonicToAccount(DEVELOPMENT_MNEMONIC, { addressIndex: 1 }), chain: baseChain, transport: http(`${fees.base}/rpc`) });
    const paid = await ask({ 'x-payment': await createPaymentHeader(payer as never, 1, errors[0]!.extensions.accepts[0]!) });
    const answer = await paid.json();
    expect(answer, JSON.stringify(answer)).toMatchObject({ data: { climateReport: { reportType: 'climate' } } });
    expect(settleResponseFromHeader(String(paid.headers.get('x-payment-response')))).toMatchObject({ success: true, payer: payer.account.address });
  });

  it("finding: a stopped subgraph gave GEN_ERR_INTERNAL 500 with no log line; now the other subgraph's data, SUBGRAPH_UNAVAILABLE, no trace, a log line, and /health 503 naming it", async () => {
    const healthy = await fetch(`${gateway.base}/health`);
    expect(healthy.status).toBe(200);

    await stop(forecast);
    const response = await fetch(`${gateway.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'split-check-1' },
      body: JSON.stringify({ query: '{ feeQuote(input: { amountUsd: 10000, hasFx: true, esgScore: 75 }) { quoteId fees { total { bps } } } heatCheck { asOf } }' }),
    });
    const body = (await response.json()) as { data?: Record<string, unknown>; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
    expect(response.status).toBe(200);
    expect(body.data?.feeQuote).toMatchObject({ quoteId: expect.stringMatching(/^srq-/), fees: { total: { bps: 138.5 } } });
    expect(body.data?.heatCheck).toBeNull();
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]?.extensions?.code).toBe('SUBGRAPH_UNAVAILABLE');
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/stacktrace|127\.0\.0\.1|localhost|ECONNREFUSED|\.ts:/);

    // The gateway's log reaches this process through a pipe: wait for the line, do not race it.
    await vi.waitFor(() => {
      const logged = gateway.lines.filter((line) => line.includes('SUBGRAPH_UNAVAILABLE'));
      expect(logged.join('\n')).toContain('split-check-1');
    });

    const health = await fetch(`${gateway.base}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'degraded', down: ['subgraph forecast'] });
  });
});
