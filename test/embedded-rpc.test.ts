import { BaseError, ContractFunctionRevertedError, createPublicClient, createWalletClient, encodeErrorResult, encodeFunctionData, http, numberToHex, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { railUSDAbi } from '../contracts/artifacts/RailUSD.js';
import { settlementRouterAbi } from '../contracts/artifacts/SettlementRouter.js';
import { ownerWallet } from '../subgraphs/payments/agent/testing.js';
import { freshWallet } from '../subgraphs/payments/integration/testing.js';
import { startTestServer, type TestServer } from './helpers.js';

describe('POST /rpc: the embedded chain for outside wallets', () => {
  let server: TestServer;
  let url: string;
  beforeAll(async () => {
    server = await startTestServer({ subgraphs: ['fees'], gateway: false });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}/rpc`;
  }, 30_000);
  afterAll(async () => {
    await server.close();
  });

  const call = async (body: unknown) => (await server.app.inject({ method: 'POST', url: '/rpc', payload: body as object })).json();

  it("answers the standard methods as Base and refuses the node's control and signing methods", async () => {
    expect(await call({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).toEqual({ jsonrpc: '2.0', id: 1, result: '0x2105' });
    for (const method of ['hardhat_setBalance', 'evm_mine', 'eth_sendTransaction', 'eth_sign', 'eth_accounts']) {
      expect(await call({ jsonrpc: '2.0', id: 2, method, params: [] })).toMatchObject({ id: 2, error: { code: -32601 } });
    }
    expect(await call({ id: 3, method: 'eth_chainId' })).toMatchObject({ id: null, error: { code: -32600 } });
    expect(
      await call([
        { jsonrpc: '2.0', id: 'a', method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 'b', method: 'net_version' },
      ]),
    ).toEqual([
      { jsonrpc: '2.0', id: 'a', result: '0x2105' },
      { jsonrpc: '2.0', id: 'b', result: '8453' },
    ]);
  });

  it('answers a revert as a node does: code 3 and the contract error in its data, which viem decodes', async () => {
    const { contracts, embedded } = await server.platform!.chain.connect();
    const from = embedded!.accounts[7]!.address;
    const args = [contracts.token!, from, 1n, false, 0n, 0n, ''] as const;
    const data = encodeFunctionData({ abi: settlementRouterAbi, functionName: 'settle', args });
    const answer = await call({ jsonrpc: '2.0', id: 4, method: 'eth_estimateGas', params: [{ from, to: contracts.router!, data }] });
    expect(answer).toMatchObject({ id: 4, error: { code: 3, data: encodeErrorResult({ abi: settlementRouterAbi, errorName: 'EmptyQuoteId' }) } });
    const reader = createPublicClient({ chain: base, transport: http(url) });
    const refusal = await reader.estimateContractGas({ address: contracts.router!, abi: settlementRouterAbi, functionName: 'settle', args, account: from }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BaseError);
    const reverted = (refusal as BaseError).walk((cause) => cause instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
    expect(reverted?.data?.errorName).toBe('EmptyQuoteId');
  });

  it('lets a wallet in another client sign and send a token transfer that lands on chain', async () => {
    const rail = await server.platform!.chain.connect();
    const { contracts } = rail;
    // An outside wallet: the rail's own (development) accounts send here only with X-Internal-Key.
    const payer = await ownerWallet(rail, '5');
    const payee = freshWallet();
    const transport = http(url);
    const wallet = createWalletClient({ account: payer, chain: base, transport });
    const reader = createPublicClient({ chain: base, transport });
    const before = await reader.readContract({ address: contracts.token!, abi: railUSDAbi, functionName: 'balanceOf', args: [payee] });
    const hash = await wallet.writeContract({ address: contracts.token!, abi: railUSDAbi, functionName: 'transfer', args: [payee, parseUnits('3', 6)] });
    expect((await reader.waitForTransactionReceipt({ hash })).status).toBe('success');
    const after = await reader.readContract({ address: contracts.token!, abi: railUSDAbi, functionName: 'balanceOf', args: [payee] });
    expect(after - before).toBe(parseUnits('3', 6));
  });
});

/**
 * Init code that loops `count` times (26 gas a turn) and stops:
 * PUSH3 count; JUMPDEST; PUSH1 1; SWAP1; SUB; DUP1; PUSH1 4; JUMPI; STOP.
 */
const countedLoop = (count: number) => `0x62${count.toString(16).padStart(6, '0')}5b600190038060045700`;
/** JUMPDEST; PUSH1 0; JUMP: never ends. */
const INFINITE_LOOP = '0x5b600056';

describe("POST /rpc is bounded: one caller cannot hold the rail's node (decision 0051)", () => {
  let server: TestServer;
  const GAS_CAP = 1_000_000;
  const RPC_INTERNAL_KEY = 'embedded-rpc-test-internal-key-0123456789ab';
  beforeAll(async () => {
    server = await startTestServer({
      subgraphs: ['fees'],
      gateway: false,
      // A long EMBEDDED_RPC_TIMEOUT_MS: what is asserted is what the caps answer, on however busy a machine.
      environment: {
        EMBEDDED_RPC_GAS_CAP: String(GAS_CAP),
        EMBEDDED_RPC_MAX_BLOCK_RANGE: '5',
        EMBEDDED_RPC_RATE_LIMIT: '30',
        EMBEDDED_RPC_QUEUE_SIZE: '2',
        EMBEDDED_RPC_TIMEOUT_MS: '60000',
        INTERNAL_KEY: RPC_INTERNAL_KEY,
      },
    });
  }, 30_000);
  afterAll(async () => {
    await server.close();
  });

  let client = 0;
  /** Each test its own client address: the rate limit counts per address. */
  const fromNewClient = () => {
    client += 1;
    const remoteAddress = `10.0.0.${client}`;
    return async (body: unknown) => {
      const response = await server.app.inject({ method: 'POST', url: '/rpc', payload: body as object, remoteAddress });
      return { status: response.statusCode, headers: response.headers, body: response.json() };
    };
  };

  it('finding 4: eth_getLogs from block 0 to 0xffffffffffffffff is refused at once with a JSON-RPC error, as is any range over the cap once its tags are resolved', async () => {
    const call = fromNewClient();
    expect((await call({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0xffffffffffffffff' }] })).body).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32005, message: 'the block range 0 to 18446744073709551615 is too large: at most 5 blocks a call' },
    });
    const { publicClient } = await server.platform!.chain.connect();
    const latest = await publicClient.getBlockNumber();
    expect(latest).toBeGreaterThan(5n);
    expect((await call({ jsonrpc: '2.0', id: 2, method: 'eth_getLogs', params: [{ fromBlock: 'earliest', toBlock: 'latest' }] })).body).toMatchObject({ id: 2, error: { code: -32005 } });
    expect((await call({ jsonrpc: '2.0', id: 3, method: 'eth_getLogs', params: [{}] })).body).toMatchObject({ id: 3, result: expect.any(Array) });
    // Five blocks, the last two past the head: answered with the logs up to the head.
    const recent = await call({ jsonrpc: '2.0', id: 4, method: 'eth_getLogs', params: [{ fromBlock: numberToHex(latest - 2n), toBlock: numberToHex(latest + 2n) }] });
    const expected = await publicClient.request({ method: 'eth_getLogs', params: [{ fromBlock: numberToHex(latest - 2n), toBlock: numberToHex(latest) }] });
    expect(expected.length).toBeGreaterThan(0);
    expect(recent.body).toEqual({ jsonrpc: '2.0', id: 4, result: expected });
    expect((await call({ jsonrpc: '2.0', id: 5, method: 'eth_getLogs', params: [{ fromBlock: 'pending', toBlock: 'zzz' }] })).body).toMatchObject({
      id: 5,
      error: { code: -32602, message: 'toBlock must be a hex quantity' },
    });
  });

  it('finding 4: eth_estimateGas and eth_call run at most EMBEDDED_RPC_GAS_CAP gas, whatever gas they ask for; an infinite loop is cut there', async () => {
    const call = fromNewClient();
    // About 26 × 80,000 = 2.1 million gas: within the node's own default, above the cap.
    const heavy = countedLoop(80_000);
    for (const gas of [undefined, numberToHex(30_000_000)]) {
      const params = [{ data: heavy, ...(gas ? { gas } : {}) }];
      expect((await call({ jsonrpc: '2.0', id: 1, method: 'eth_estimateGas', params })).body).toMatchObject({ id: 1, error: { message: expect.stringMatching(/gas/i) } });
      expect((await call({ jsonrpc: '2.0', id: 2, method: 'eth_call', params: [...params, 'latest'] })).body).toMatchObject({ id: 2, error: { message: expect.stringMatching(/out of gas/i) } });
    }
    // Under the cap it is answered: about 26 × 10,000 = 260,000 gas.
    const light = await call({ jsonrpc: '2.0', id: 3, method: 'eth_estimateGas', params: [{ data: countedLoop(10_000) }] });
    expect(Number(light.body.result)).toBeGreaterThan(260_000);
    expect(Number(light.body.result)).toBeLessThan(GAS_CAP);
    expect((await call({ jsonrpc: '2.0', id: 4, method: 'eth_call', params: [{ data: INFINITE_LOOP }, 'latest'] })).body).toMatchObject({
      id: 4,
      error: { message: expect.stringMatching(/out of gas/i) },
    });
    // State overrides would let a call run code of its own choosing at any address: not accepted.
    expect((await call({ jsonrpc: '2.0', id: 5, method: 'eth_call', params: [{ data: '0x' }, 'latest', {}] })).body).toMatchObject({ id: 5, error: { code: -32602 } });
  });

  it('refuses a signed transaction whose gas limit is above the cap before the node runs it (its nonce stays unused)', async () => {
    const call = fromNewClient();
    const { publicClient } = await server.platform!.chain.connect();
    // An outside wallet's (the rail's own accounts are refused earlier, whatever the gas).
    const sender = privateKeyToAccount(generatePrivateKey());
    const nonce = await publicClient.getTransactionCount({ address: sender.address });
    const fees = await publicClient.estimateFeesPerGas();
    const raw = await sender.signTransaction({ chainId: 8453, type: 'eip1559', data: INFINITE_LOOP, gas: BigInt(GAS_CAP) + 1n, nonce, ...fees });
    expect((await call({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] })).body).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32005, message: `the transaction's gas limit ${GAS_CAP + 1} is above this node's cap of ${GAS_CAP}` },
    });
    expect(await publicClient.getTransactionCount({ address: sender.address })).toBe(nonce);
  });

  it('refuses raw bytes whose signer cannot be recovered: nothing shows whose transaction it is (decision 0051)', async () => {
    const call = fromNewClient();
    expect((await call({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: ['0x02deadbeef'] })).body).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'not a signed transaction whose sender can be recovered' },
    });
  });

  it('runs one call at a time with EMBEDDED_RPC_QUEUE_SIZE waiting; more are refused at once with a JSON-RPC error', async () => {
    const call = fromNewClient();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, id) => call({ jsonrpc: '2.0', id, method: 'eth_call', params: [{ data: INFINITE_LOOP }, 'latest'] })));
    const busy = answers.filter((one) => one.body.error?.code === -32005);
    expect(busy.length).toBeGreaterThan(0);
    for (const one of busy) expect(one.body.error.message).toBe('the node is busy (2 calls waiting); retry later');
    for (const one of answers.filter((answer) => !busy.includes(answer))) expect(one.body.error.message).toMatch(/out of gas/i);
  });

  it('limits each client address to EMBEDDED_RPC_RATE_LIMIT calls a minute (a batch counts each call): 429 with Retry-After and a JSON-RPC error', async () => {
    const call = fromNewClient();
    const batch = (size: number) => Array.from({ length: size }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' }));
    expect((await call(batch(20))).status).toBe(200);
    expect((await call(batch(10))).body).toHaveLength(10);
    const refused = await call({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32005, message: expect.stringMatching(/^rate limit: at most 30 calls a minute from one address; retry in \d+ s$/) } });
    // Another address is served; the next minute, this one too.
    expect((await fromNewClient()({ jsonrpc: '2.0', id: 2, method: 'eth_chainId' })).body).toEqual({ jsonrpc: '2.0', id: 2, result: '0x2105' });
    server.clock.advance(60_000);
    expect((await call({ jsonrpc: '2.0', id: 3, method: 'eth_chainId' })).body).toEqual({ jsonrpc: '2.0', id: 3, result: '0x2105' });
  });

  it("does not count the rail's own processes (X-Internal-Key) against the per-address limit: a cluster's are all on one address (found by the soak, issue 26)", async () => {
    client += 1;
    const remoteAddress = `10.0.0.${client}`;
    const call = (headers: Record<string, string>) =>
      server.app.inject({ method: 'POST', url: '/rpc', payload: Array.from({ length: 20 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' })), remoteAddress, headers });
    for (let round = 0; round < 3; round += 1) expect((await call({ 'x-internal-key': RPC_INTERNAL_KEY })).statusCode).toBe(200);
    // A wrong key is a stranger's, counted: 20 + 20 is over the 30 a minute.
    expect((await call({ 'x-internal-key': 'not-the-internal-key-0123456789abcdef' })).statusCode).toBe(200);
    expect((await call({ 'x-internal-key': 'not-the-internal-key-0123456789abcdef' })).statusCode).toBe(429);
  });

  it('refuses a body over EMBEDDED_RPC_MAX_BODY_BYTES with 413 in the documented error shape', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/rpc',
      payload: { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [`0x${'00'.repeat(200_000)}`] },
      remoteAddress: '10.0.1.1',
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'GEN_ERR_PAYLOAD_TOO_LARGE' });
  });
});
