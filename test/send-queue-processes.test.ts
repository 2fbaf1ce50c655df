import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inArray } from 'drizzle-orm';
import { createPublicClient, createWalletClient, type Hex, http, parseTransaction, type PublicClient, recoverTransactionAddress, toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { base as baseChain } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import { type PaymentRequirements, settleResponseFromHeader } from 'x402/types';
import { payments } from '../drizzle/schema.js';
import { contractsFromBanner } from '../gateway/cluster/cluster.js';
import { createApiKeys } from '../platform/access/api-keys.js';
import { DEVELOPMENT_MNEMONIC } from '../platform/chain/embedded-chain.js';
import { systemClock } from '../platform/clock.js';
import { type DatabaseHandle, dropSchema, openDatabase } from '../platform/db.js';
import { randomIds } from '../platform/ids.js';
import { freshWallet } from '../subgraphs/payments/integration/testing.js';
import { ACTIVE_LEI_ENTRY } from './fixtures/lei-entries.js';
import { TEST_SIGNING_KEY } from './helpers.js';
import { type ServerProcess, spawnServer, stopServer } from './server-process.js';

// Issue 26 acceptance point: no two sends with one nonce under concurrent x402 settlements and
// payments across two processes (decision 0087). Process A holds the embedded chain (public
// development mnemonic); processes B and C run on RPC_URL = A's /rpc through a recording proxy,
// on one PostgreSQL schema, with the SAME RAIL_SETTLER_KEY (account #7): it settles their x402
// payments (PAY_TO set) and their payments (the treasury on RPC_URL). Every eth_sendRawTransaction
// the two make is recorded with the node's answer.

const databaseUrl = process.env.DATABASE_URL;
const ADMIN_KEY = 'send-queue-processes-admin-key-0123456789abcd';
const INTERNAL_KEY = 'send-queue-processes-internal-key-0123456789';
const WEBHOOK_SIGNING_KEY = 'send-queue-processes-webhook-key-01234567890';
/** Of each kind, half at B and half at C, all at once. */
const EACH_KIND = 8;
const CLIMATE = '/reports/report/climate';
const settler = mnemonicToAccount(DEVELOPMENT_MNEMONIC, { addressIndex: 7 });
const payTo = mnemonicToAccount(DEVELOPMENT_MNEMONIC, { addressIndex: 9 }).address;

function startServer(label: string, environment: Record<string, string>): Promise<ServerProcess> {
  return spawnServer(
    label,
    {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: join(mkdtempSync(join(tmpdir(), `srg-sendq-${label}-`)), 'data'),
      QUOTE_SIGNING_KEY: TEST_SIGNING_KEY,
      WEBHOOK_SIGNING_KEY,
      ADMIN_KEY,
      INTERNAL_KEY,
      ...environment,
    },
    180_000,
  );
}

interface RecordedSend {
  raw: Hex;
  /** The node's error message; undefined when it took the transaction. */
  error: string | undefined;
}

interface JsonRpcCall {
  id?: unknown;
  method?: string;
  params?: unknown[];
}

/** A proxy at /rpc in front of A's /rpc that records every eth_sendRawTransaction and the node's answer to it. */
async function recordingProxy(target: string): Promise<{ url: string; sends: RecordedSend[]; server: Server }> {
  const sends: RecordedSend[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const upstream = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-internal-key': String(request.headers['x-internal-key'] ?? '') },
          body,
          signal: AbortSignal.timeout(60_000),
        });
        const answer = await upstream.text();
        recordSends(body, answer, sends);
        response.writeHead(upstream.status, { 'content-type': 'application/json' }).end(answer);
      } catch (error) {
        response.writeHead(502).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`, sends, server };
}

function recordSends(body: string, answer: string, sends: RecordedSend[]): void {
  const calls = [JSON.parse(body) as JsonRpcCall | JsonRpcCall[]].flat();
  const replies = [JSON.parse(answer) as { id?: unknown; error?: { message?: string } } | Array<{ id?: unknown; error?: { message?: string } }>].flat();
  for (const call of calls.filter((one) => one.method === 'eth_sendRawTransaction')) {
    const reply = replies.find((one) => one.id === call.id);
    sends.push({ raw: call.params?.[0] as Hex, error: reply?.error ? (reply.error.message ?? 'error') : undefined });
  }
}

describe.runIf(databaseUrl)('one settling key on two processes: x402 settlements and payments at once never send two transactions with one nonce', () => {
  const schemaName = `t_sendq_${process.pid}_${Date.now().toString(36)}`;
  let handle: DatabaseHandle;
  let a: ServerProcess | undefined;
  const replicas: ServerProcess[] = [];
  let proxy: Awaited<ReturnType<typeof recordingProxy>> | undefined;
  let chain: PublicClient;
  let bearer: Record<string, string>;

  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl: databaseUrl!, schemaName, poolSize: 2 });
    const database = { DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: schemaName };
    a = await startServer('a', {
      ...database,
      EMBEDDED_CHAIN_MNEMONIC: DEVELOPMENT_MNEMONIC,
      // B and C reach A's /rpc from one address, many calls at once.
      EMBEDDED_RPC_RATE_LIMIT: '100000',
      EMBEDDED_RPC_QUEUE_SIZE: '256',
      EMBEDDED_RPC_TIMEOUT_MS: '30000',
    });
    const rail = contractsFromBanner(a.lines);
    proxy = await recordingProxy(`${a.base}/rpc`);
    const replica = {
      ...database,
      RPC_URL: proxy.url,
      RPC_TIMEOUT_MS: '20000',
      DATABASE_STATEMENT_TIMEOUT_MS: '15000',
      CONTRACT_TOKEN: rail.token,
      CONTRACT_ROUTER: rail.router,
      RAIL_SETTLER_KEY: toHex(settler.getHdKey().privateKey!),
      PAY_TO: payTo,
    };
    replicas.push(...(await Promise.all([startServer('b', replica), startServer('c', replica)])));
    chain = createPublicClient({ chain: baseChain, transport: http(`${a.base}/rpc`, { timeout: 30_000 }) }) as PublicClient;
    const keys = createApiKeys({ db: handle.db, clock: systemClock, ids: randomIds });
    bearer = { authorization: `Bearer ${(await keys.create('bearer', 'treasury desk', 10_000)).key}` };
  }, 420_000);

  afterAll(async () => {
    await Promise.all([...replicas.map(stopServer), stopServer(a)]);
    proxy?.server.close();
    await handle?.close();
    if (databaseUrl) await dropSchema(databaseUrl, schemaName);
  }, 60_000);

  async function post(base: string, path: string, headers: Record<string, string>, payload: unknown) {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(120_000),
    });
    return { status: response.status, body: (await response.json()) as { status?: string; railPaymentId?: string } & Record<string, unknown> };
  }

  async function paidReport(base: string, header: string) {
    const response = await fetch(`${base}${CLIMATE}`, { headers: { 'x-payment': header }, signal: AbortSignal.timeout(120_000) });
    const answer = await response.text();
    return { status: response.status, answer, settlement: response.headers.get('x-payment-response') };
  }

  it(`${EACH_KIND} x402 payments and ${EACH_KIND} payments at once, half at each process: all settled, every send taken, the key's nonces distinct and gap-free`, async () => {
    const [b, c] = replicas as [ServerProcess, ServerProcess];
    // 1. What is signed and registered before: a creditor, and one authorization per x402 call (payers #1..#5, two each).
    const creditor = freshWallet();
    const registered = await post(a!.base, '/compliance/register', { authorization: `Bearer ${ADMIN_KEY}` }, { walletAddress: creditor, lei: ACTIVE_LEI_ENTRY.lei });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const { accepts } = (await (await fetch(`${b.base}${CLIMATE}`)).json()) as { accepts: PaymentRequirements[] };
    const payer = (index: number) => createWalletClient({ account: mnemonicToAccount(DEVELOPMENT_MNEMONIC, { addressIndex: index }), chain: baseChain, transport: http(`${a!.base}/rpc`) });
    const headers = await Promise.all(Array.from({ length: EACH_KIND }, (_, index) => createPaymentHeader(payer(1 + (index % 5)) as never, 1, accepts[0]!)));
    const firstNonce = await chain.getTransactionCount({ address: settler.address });
    const at = (index: number) => (index % 2 === 0 ? b : c).base;
    const tmsReferences = Array.from({ length: EACH_KIND + 2 }, () => `TMS-SENDQ-${randomBytes(6).toString('hex')}`);
    const initiate = (index: number) =>
      post(at(index), '/integration/payments/initiate', bearer, {
        tmsReference: tmsReferences[index],
        amount: '1.25',
        currency: 'USD',
        creditor: { name: ACTIVE_LEI_ENTRY.legalName, lei: ACTIVE_LEI_ENTRY.lei, walletAddress: creditor },
        debtor: { name: 'Acme Treasury Ltd', walletAddress: freshWallet() },
      });
    // 2. One payment at each process first, one after the other: each process's first use of the
    //    rail and the database (lazy starts, the router's allowance) is not timed against the burst.
    const warmUp = [await initiate(EACH_KIND), await initiate(EACH_KIND + 1)];

    // 3. Everything else at once, alternately at B and C.
    const [reports, burst] = await Promise.all([
      Promise.all(headers.map((header, index) => paidReport(at(index), header))),
      Promise.all(Array.from({ length: EACH_KIND }, (_, index) => initiate(index))),
    ]);
    const initiated = [...warmUp, ...burst];

    // 4. No send refused (for its nonce or anything else), and the key's transactions the node took
    //    hold distinct nonces from the account's count before the run to its count now, none missing.
    const sends = proxy!.sends;
    expect(sends.filter((send) => send.error !== undefined).map((send) => send.error)).toEqual([]);
    const fromSettler: number[] = [];
    for (const send of sends) {
      if ((await recoverTransactionAddress({ serializedTransaction: send.raw as never })) === settler.address) fromSettler.push(parseTransaction(send.raw).nonce!);
    }
    const lastNonce = await chain.getTransactionCount({ address: settler.address });
    expect(fromSettler.toSorted((x, y) => x - y)).toEqual(Array.from({ length: lastNonce - firstNonce }, (_, index) => firstNonce + index));
    expect(fromSettler.length).toBeGreaterThanOrEqual(EACH_KIND + 1);
    // 5. Every x402 call answered and settled; every payment SETTLED.
    for (const report of reports) {
      expect(report.status, report.answer.slice(0, 400)).toBe(200);
      expect(settleResponseFromHeader(String(report.settlement))).toMatchObject({ success: true });
    }
    for (const answer of initiated) expect(answer.body.status, JSON.stringify(answer.body)).toBe('SETTLED');
    const rows = await handle.db.select({ status: payments.status }).from(payments).where(inArray(payments.tmsReference, tmsReferences));
    expect(rows.map((row) => row.status)).toEqual(tmsReferences.map(() => 'SETTLED'));
  }, 300_000);
});
