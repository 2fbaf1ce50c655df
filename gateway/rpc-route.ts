import { z } from 'zod';
import type { RailChain } from '../platform/chain/index.js';
import type { HttpServer } from '../platform/http.js';

/**
 * What an outside wallet or x402 client needs from a node: reads, gas, nonces, sending a signed
 * transaction, receipts and logs. The embedded EVM's own control methods (hardhat_*, evm_*) and
 * signing with its unlocked accounts (eth_sendTransaction, eth_sign...) are not exposed.
 */
const ALLOWED_METHODS = new Set([
  'eth_chainId', 'net_version', 'eth_blockNumber', 'eth_getBlockByNumber', 'eth_getBlockByHash', 'eth_call',
  'eth_estimateGas', 'eth_gasPrice', 'eth_maxPriorityFeePerGas', 'eth_feeHistory', 'eth_getBalance', 'eth_getCode',
  'eth_getStorageAt', 'eth_getTransactionCount', 'eth_sendRawTransaction', 'eth_getTransactionByHash',
  'eth_getTransactionReceipt', 'eth_getLogs',
]);

const rpcRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string().max(64), z.number(), z.null()]).optional(),
  method: z.string().max(64),
  params: z.array(z.unknown()).max(16).optional(),
});

type RpcAnswer = { jsonrpc: '2.0'; id: string | number | null } & ({ result: unknown } | { error: { code: number; message: string; data?: unknown } });

const MAX_BATCH = 20;

async function answer(chain: RailChain, raw: unknown): Promise<RpcAnswer> {
  const parsed = rpcRequest.safeParse(raw);
  if (!parsed.success) return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } };
  const { id = null, method, params = [] } = parsed.data;
  if (!ALLOWED_METHODS.has(method)) return { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not available: ${method.slice(0, 64)}` } };
  try {
    const { embedded } = await chain.connect();
    const result = await embedded!.provider.request({ method, params } as never);
    return { jsonrpc: '2.0', id, result };
  } catch (error) {
    // The node's own message (a revert reason, a nonce too low) is what the wallet needs to see, and
    // its code and data: a revert (code 3) carries the contract's error in its data, as a node's does.
    const message = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 300) : 'request failed';
    const { code, data } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; data?: unknown };
    const nested = typeof data === 'object' && data !== null ? (data as { data?: unknown }).data : data;
    const revertData = typeof nested === 'string' && /^0x[0-9a-f]*$/i.test(nested) ? { data: nested } : {};
    return { jsonrpc: '2.0', id, error: { code: Number.isInteger(code) ? (code as number) : -32000, message, ...revertData } };
  }
}

/** POST /rpc: JSON-RPC to the embedded chain (registered only when the rail is embedded). */
export function registerEmbeddedRpcRoute(app: HttpServer, chain: RailChain): void {
  app.post('/rpc', async (request, reply) => {
    const body: unknown = request.body;
    if (Array.isArray(body)) {
      if (body.length === 0 || body.length > MAX_BATCH) return reply.send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `A batch holds 1 to ${MAX_BATCH} requests` } });
      return reply.send(await Promise.all(body.map((item) => answer(chain, item))));
    }
    return reply.send(await answer(chain, body));
  });
}
