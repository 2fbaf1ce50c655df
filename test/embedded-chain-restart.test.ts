import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Address, createPublicClient, type Hash, http, parseEventLogs, type PublicClient, type TransactionReceipt } from 'viem';
import { base as baseChain } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlementRouterAbi } from '../contracts/artifacts/SettlementRouter.js';
import { freshWallet } from '../subgraphs/payments/integration/testing.js';
import { ACTIVE_LEI_ENTRY } from './fixtures/lei-entries.js';
import { TEST_SIGNING_KEY } from './helpers.js';
import { type ServerProcess, spawnServer } from './server-process.js';

// Issue 21, findings 4 and 5, through the real server as `npm start` runs it (gateway/main.ts, the
// embedded rail, PGlite in a temporary DATA_DIR, served from its worker thread: decision 0093):
// 1. payments settle while /rpc is flooded with the calls that froze the rail on 2f8be80 (infinite
//    loops through eth_estimateGas and eth_call, eth_getLogs over 2^64 blocks);
// 2. the process is killed with SIGKILL right after the last payment was answered, and started again
//    on the same folder: every SETTLED payment's transaction is on the chain, in the block it was
//    mined in, every SETTLED payment is still in the database as answered (an acknowledged write of
//    the database thread survives kill -9), and the rail goes on settling.

const keysScript = fileURLToPath(new URL('../platform/access/keys-cli.ts', import.meta.url));
const ADMIN_KEY = 'embedded-restart-admin-key-0123456789abcdef';

function environmentFor(dataDir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    QUOTE_SIGNING_KEY: TEST_SIGNING_KEY,
    ADMIN_KEY,
    // The flood comes from this one address: the rate limit is not what this test is about (test/embedded-rpc.test.ts).
    EMBEDDED_RPC_RATE_LIMIT: '1000000',
  };
}

/** The server on `dataDir`, as `npm start` runs it (given 180 s: restoring a long chain takes a while on a busy machine). */
const startServer = (dataDir: string) => spawnServer('the server', environmentFor(dataDir), 180_000);

function killNow(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.child.once('exit', () => resolve());
    server.child.kill('SIGKILL');
  });
}

/** An institution key made in the folder's PGlite before the server holds it (npm run keys). */
function createBearerKey(dataDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', keysScript, 'create', '--kind', 'bearer', '--label', 'restart test', '--limit', '100000'],
      { env: environmentFor(dataDir), encoding: 'utf8', timeout: 120_000 },
      (error, stdout, stderr) => {
        const key = /key \(shown once, store it now\): (\S+)/.exec(stdout)?.[1];
        if (error || !key) reject(new Error(`npm run keys failed: ${stderr}${stdout}`, { cause: error }));
        else resolve(key);
      },
    );
  });
}

interface PaymentAnswer {
  status: number;
  body: { railPaymentId?: string; status?: string; settlement?: { txHash?: string } } & Record<string, unknown>;
}

async function request(base: string, method: 'GET' | 'POST', path: string, headers: Record<string, string>, payload?: unknown): Promise<PaymentAnswer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, body: (await response.json()) as PaymentAnswer['body'] };
}

/** Calls that held the rail's node on 2f8be80, sent over and over by `workers` clients until stopped. */
function floodRpc(base: string, workers: number): { stop(): Promise<number> } {
  let stopped = false;
  let answered = 0;
  const calls = [
    { method: 'eth_estimateGas', params: [{ data: '0x5b600056' }] },
    { method: 'eth_call', params: [{ data: '0x5b600056', gas: '0xffffff' }, 'latest'] },
    { method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0xffffffffffffffff' }] },
  ];
  const worker = async (index: number) => {
    for (let turn = index; !stopped; turn += 1) {
      const call = calls[turn % calls.length]!;
      await fetch(`${base}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: turn, ...call }), signal: AbortSignal.timeout(60_000) })
        .then((response) => response.text())
        .then(
          () => (answered += 1),
          () => undefined,
        );
    }
  };
  const running = Promise.all(Array.from({ length: workers }, (_, index) => worker(index)));
  return {
    async stop() {
      stopped = true;
      await running;
      return answered;
    },
  };
}

describe('the embedded rail under a flooded /rpc and across kill -9 (issue 21, findings 4 and 5)', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'srg-restart-')), 'data');
  let server: ServerProcess | undefined;
  let bearer: Record<string, string>;
  let creditor: Address;
  /** Every payment answered SETTLED, with its receipt as read before the kill. */
  const settled: Array<{ railPaymentId: string; txHash: Hash; receipt: TransactionReceipt }> = [];

  const rpcOf = (running: ServerProcess) => createPublicClient({ chain: baseChain, transport: http(`${running.base}/rpc`, { timeout: 30_000, retryCount: 0 }) }) as PublicClient;

  beforeAll(async () => {
    bearer = { authorization: `Bearer ${await createBearerKey(dataDir)}` };
    server = await startServer(dataDir);
    creditor = freshWallet();
    const registered = await request(server.base, 'POST', '/compliance/register', { authorization: `Bearer ${ADMIN_KEY}` }, { walletAddress: creditor, lei: ACTIVE_LEI_ENTRY.lei });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  }, 400_000);

  afterAll(async () => {
    await killNow(server);
  }, 30_000);

  function payment(amount: string) {
    return {
      tmsReference: `TMS-RESTART-${randomBytes(6).toString('hex')}`,
      amount,
      currency: 'USD',
      creditor: { name: ACTIVE_LEI_ENTRY.legalName, lei: ACTIVE_LEI_ENTRY.lei, walletAddress: creditor },
      debtor: { name: 'Acme Treasury Ltd', walletAddress: freshWallet() },
    };
  }

  async function pay(running: ServerProcess, amounts: string[]): Promise<PaymentAnswer[]> {
    return Promise.all(amounts.map((amount) => request(running.base, 'POST', '/integration/payments/initiate', bearer, payment(amount))));
  }

  async function keepSettled(running: ServerProcess, answers: PaymentAnswer[]): Promise<void> {
    const rpc = rpcOf(running);
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.status, JSON.stringify(answer.body)).toBe('SETTLED');
      const txHash = answer.body.settlement!.txHash as Hash;
      settled.push({ railPaymentId: answer.body.railPaymentId!, txHash, receipt: await rpc.getTransactionReceipt({ hash: txHash }) });
    }
  }

  it('finding 4: payments settle while /rpc is flooded with infinite loops and 2^64-block eth_getLogs calls, and such a call is refused with a JSON-RPC error', async () => {
    await keepSettled(server!, await pay(server!, ['10.00', '11.25', '12.50']));
    const flood = floodRpc(server!.base, 4);
    const duringFlood: PaymentAnswer[] = [];
    try {
      // One alone, then three at once, while the flood goes on.
      duringFlood.push(...(await pay(server!, ['20.00'])));
      duringFlood.push(...(await pay(server!, ['21.00', '22.00', '23.00'])));
    } finally {
      expect(await flood.stop()).toBeGreaterThan(0);
    }
    // Read through /rpc once the flood is over: an outside reader waits its turn like any other.
    await keepSettled(server!, duringFlood);
    const huge = await fetch(`${server!.base}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0xffffffffffffffff' }] }),
    });
    expect(await huge.json()).toMatchObject({ id: 1, error: { code: -32005 } });
  }, 300_000);

  it("finding 5: after kill -9 and a start on the same DATA_DIR, every SETTLED payment's transaction is on the chain in its block, and the rail goes on", async () => {
    // The last payments are answered, and the process is killed at once.
    await keepSettled(server!, await pay(server!, ['30.00', '31.00']));
    const rpcBefore = rpcOf(server!);
    const headBefore = await rpcBefore.getBlock();
    await killNow(server);
    server = await startServer(dataDir);

    const rpc = rpcOf(server);
    expect(settled.length).toBeGreaterThanOrEqual(9);
    expect((await rpc.getBlock({ blockNumber: headBefore.number })).hash).toBe(headBefore.hash);
    for (const { railPaymentId, txHash, receipt } of settled) {
      const found = await rpc.getTransactionReceipt({ hash: txHash });
      expect({ blockNumber: found.blockNumber, blockHash: found.blockHash, status: found.status }).toEqual({ blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, status: 'success' });
      expect(parseEventLogs({ abi: settlementRouterAbi, eventName: 'Settled', logs: found.logs }).some((event) => event.args.payee === creditor)).toBe(true);
      const stored = await request(server.base, 'GET', `/integration/payments/${railPaymentId}`, bearer);
      expect(stored.body).toMatchObject({ status: 'SETTLED', settlement: { txHash } });
    }

    // The rail goes on: the treasury's next nonce, a new block after the restored head.
    const [after] = await pay(server, ['40.00']);
    expect(after!.body.status, JSON.stringify(after!.body)).toBe('SETTLED');
    const next = await rpc.getTransactionReceipt({ hash: after!.body.settlement!.txHash as Hash });
    expect(next.blockNumber).toBeGreaterThan(headBefore.number);
  }, 400_000);
});
