import { BaseError, ContractFunctionRevertedError, createPublicClient, createWalletClient, encodeErrorResult, encodeFunctionData, http, parseUnits } from 'viem';
import { base } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { railUSDAbi } from '../contracts/artifacts/RailUSD.js';
import { settlementRouterAbi } from '../contracts/artifacts/SettlementRouter.js';
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

  it('answers the standard methods as Base and refuses the node\'s control and signing methods', async () => {
    expect(await call({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).toEqual({ jsonrpc: '2.0', id: 1, result: '0x2105' });
    for (const method of ['hardhat_setBalance', 'evm_mine', 'eth_sendTransaction', 'eth_sign', 'eth_accounts']) {
      expect(await call({ jsonrpc: '2.0', id: 2, method, params: [] })).toMatchObject({ id: 2, error: { code: -32601 } });
    }
    expect(await call({ id: 3, method: 'eth_chainId' })).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await call([{ jsonrpc: '2.0', id: 'a', method: 'eth_chainId' }, { jsonrpc: '2.0', id: 'b', method: 'net_version' }])).toEqual([
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
    const { contracts, embedded } = await server.platform!.chain.connect();
    const payer = embedded!.accounts[7]!;
    const payee = embedded!.accounts[8]!.address;
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
