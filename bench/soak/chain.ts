import { type Address, createPublicClient, type Hash, http, type PublicClient } from 'viem';
import { base as baseChain } from 'viem/chains';
import { railUSDAbi } from '../../contracts/artifacts/RailUSD.js';
import { settlementRouterAbi } from '../../contracts/artifacts/SettlementRouter.js';
import type { Cluster } from '../../gateway/cluster/cluster.js';

/** What the chain says, read once after the load: every router settlement and every EIP-3009 authorization used. */
export interface ChainView {
  /** Settled events by quoteId. */
  settlements: Map<string, Array<{ txHash: Hash; payee: Address; amount: bigint }>>;
  /** AuthorizationUsed events by `payer:nonce` (lower case): how many times each was used. */
  authorizationsUsed: Map<string, number>;
}

/** The embedded chain's /rpc answers eth_getLogs over at most this many blocks (EMBEDDED_RPC_MAX_BLOCK_RANGE's default). */
const BLOCK_RANGE = 1_000n;

export const authorizationKey = (payer: string, nonce: string) => `${payer.toLowerCase()}:${nonce.toLowerCase()}`;

export function chainClient(cluster: Cluster): PublicClient {
  return createPublicClient({
    chain: baseChain,
    transport: http(cluster.rpcUrl, { timeout: 30_000, fetchOptions: { headers: { 'x-internal-key': cluster.secrets.internalKey } } }),
  }) as PublicClient;
}

export async function readChain(cluster: Cluster): Promise<ChainView> {
  const client = chainClient(cluster);
  const latest = await client.getBlockNumber();
  const view: ChainView = { settlements: new Map(), authorizationsUsed: new Map() };
  for (let fromBlock = 0n; fromBlock <= latest; fromBlock += BLOCK_RANGE) {
    const toBlock = fromBlock + BLOCK_RANGE - 1n < latest ? fromBlock + BLOCK_RANGE - 1n : latest;
    const [settled, used] = await Promise.all([
      client.getContractEvents({ address: cluster.contracts.router, abi: settlementRouterAbi, eventName: 'Settled', fromBlock, toBlock }),
      client.getContractEvents({ address: cluster.contracts.token, abi: railUSDAbi, eventName: 'AuthorizationUsed', fromBlock, toBlock }),
    ]);
    for (const event of settled) {
      const quoteId = event.args.quoteId!;
      const list = view.settlements.get(quoteId) ?? [];
      list.push({ txHash: event.transactionHash, payee: event.args.payee!, amount: event.args.amount! });
      view.settlements.set(quoteId, list);
    }
    for (const event of used) {
      const key = authorizationKey(event.args.authorizer!, event.args.nonce!);
      view.authorizationsUsed.set(key, (view.authorizationsUsed.get(key) ?? 0) + 1);
    }
  }
  return view;
}
