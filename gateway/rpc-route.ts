import { type Address, type EIP1193Provider, type Hex, isAddressEqual, isHex, parseTransaction, recoverTransactionAddress } from 'viem';
import { recoverAuthorizationAddress } from 'viem/utils';
import { z } from 'zod';
import { sameSecret } from '../platform/access/shared-secret.js';
import type { RailChain } from '../platform/chain/index.js';
import {
  boundFeeHistory,
  boundLogFilter,
  capCallGas,
  checkRawTransactionGas,
  createRpcGate,
  createRpcRateLimiter,
  INVALID_PARAMS,
  LIMIT_EXCEEDED,
  type RpcGate,
  type RpcLimits,
  RpcRefusal,
} from '../platform/chain/rpc-limits.js';
import type { Clock } from '../platform/clock.js';
import type { HttpServer } from '../platform/http.js';

/**
 * What an outside wallet or x402 client needs from a node: reads, gas, nonces, sending a signed
 * transaction, receipts and logs. The embedded EVM's own control methods (hardhat_*, evm_*) and
 * signing with its unlocked accounts (eth_sendTransaction, eth_sign...) are not exposed, and a
 * transaction signed by one of the rail's own accounts is sent only with X-Internal-Key. Every
 * outside call is bounded (decision 0051: platform/chain/rpc-limits.ts); a call with X-Internal-Key
 * is the rail's own (another process of the layout) and goes to the node as the rail's calls in this
 * process do: not counted per address, not queued behind outside calls (decision 0092).
 */
const ALLOWED_METHODS = new Set([
  'eth_chainId',
  'net_version',
  'eth_blockNumber',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_call',
  'eth_estimateGas',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  'eth_sendRawTransaction',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_getLogs',
]);

const rpcRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string().max(64), z.number(), z.null()]).optional(),
  method: z.string().max(64),
  params: z.array(z.unknown()).max(16).optional(),
});

type RpcId = string | number | null;
type RpcAnswer = { jsonrpc: '2.0'; id: RpcId } & ({ result: unknown } | { error: { code: number; message: string; data?: unknown } });

const MAX_BATCH = 20;

type Request = (call: { method: string; params: readonly unknown[] }) => Promise<unknown>;

/** EIP-1474 "Transaction rejected". */
const TRANSACTION_REJECTED = -32003;

/**
 * Refuses a transaction signed by one of the rail's accounts, or carrying an EIP-7702
 * authorization signed by one (it would give the account code of the sender's choosing). A
 * transaction whose signer cannot be recovered is refused too: nothing shows whose it is.
 */
async function refuseRailSignatures(params: readonly unknown[], railAccounts: readonly Address[]): Promise<void> {
  const [raw] = params;
  if (typeof raw !== 'string' || !isHex(raw)) throw new RpcRefusal(INVALID_PARAMS, 'expected [signed transaction as hex]');
  const isRails = (address: Address) => railAccounts.some((account) => isAddressEqual(account, address));
  let signer: Address;
  let delegators: Address[];
  try {
    const transaction = parseTransaction(raw as Hex);
    signer = await recoverTransactionAddress({ serializedTransaction: raw as Parameters<typeof recoverTransactionAddress>[0]['serializedTransaction'] });
    delegators = await Promise.all((transaction.authorizationList ?? []).map((authorization) => recoverAuthorizationAddress({ authorization })));
  } catch {
    throw new RpcRefusal(INVALID_PARAMS, 'not a signed transaction whose sender can be recovered');
  }
  const onlyTheRail = "one of the rail's own accounts, for which only the rail sends (with X-Internal-Key)";
  if (isRails(signer)) throw new RpcRefusal(TRANSACTION_REJECTED, `transaction rejected: its sender ${signer} is ${onlyTheRail}`);
  const delegator = delegators.find(isRails);
  if (delegator) throw new RpcRefusal(TRANSACTION_REJECTED, `transaction rejected: it carries an EIP-7702 authorization signed by ${delegator}, ${onlyTheRail}`);
}

/** The call as the node is asked it: capped, its block range resolved and bounded; its answer checked. */
async function callWithinLimits(request: Request, method: string, params: readonly unknown[], limits: RpcLimits): Promise<unknown> {
  switch (method) {
    case 'eth_call':
    case 'eth_estimateGas':
      return request({ method, params: capCallGas(params, limits.gasCap) });
    case 'eth_sendRawTransaction':
      checkRawTransactionGas(params, limits.gasCap);
      return request({ method, params });
    case 'eth_feeHistory':
      return request({ method, params: boundFeeHistory(params, limits.maxBlockRange) });
    case 'eth_getLogs': {
      const latest = BigInt(String(await request({ method: 'eth_blockNumber', params: [] })));
      const logs = await request({ method, params: boundLogFilter(params, latest, limits.maxBlockRange) });
      if (Array.isArray(logs) && logs.length > limits.maxLogs) throw new RpcRefusal(LIMIT_EXCEEDED, `more than ${limits.maxLogs} logs match; ask for a smaller block range`);
      return logs;
    }
    default:
      return request({ method, params });
  }
}

function errorAnswer(id: RpcId, error: unknown): RpcAnswer {
  if (error instanceof RpcRefusal) return { jsonrpc: '2.0', id, error: { code: error.code, message: error.message } };
  // The node's own message (a revert reason, a nonce too low) is what the wallet needs to see, and
  // its code and data: a revert (code 3) carries the contract's error in its data, as a node's does.
  const message = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 300) : 'request failed';
  const { code, data } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; data?: unknown };
  const nested = typeof data === 'object' && data !== null ? (data as { data?: unknown }).data : data;
  const revertData = typeof nested === 'string' && /^0x[0-9a-f]*$/i.test(nested) ? { data: nested } : {};
  return { jsonrpc: '2.0', id, error: { code: Number.isInteger(code) ? (code as number) : -32000, message, ...revertData } };
}

/** `internal`: the request carries the rail's X-Internal-Key, so it may send for the rail's accounts. */
async function answer(chain: RailChain, gate: RpcGate, limits: RpcLimits, internal: boolean, raw: unknown): Promise<RpcAnswer> {
  const parsed = rpcRequest.safeParse(raw);
  if (!parsed.success) return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } };
  const { id = null, method, params = [] } = parsed.data;
  if (!ALLOWED_METHODS.has(method)) return { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not available: ${method.slice(0, 64)}` } };
  try {
    const { embedded } = await chain.connect();
    const requestOf =
      (provider: EIP1193Provider): Request =>
      (call) =>
        provider.request(call as Parameters<typeof provider.request>[0]) as Promise<unknown>;
    // The rail's own processes (`serve chain`, decision 0088): the node's priority, as the rail in this process has, outside the queue of outside calls.
    if (internal) return { jsonrpc: '2.0', id, result: await callWithinLimits(requestOf(embedded!.provider), method, params, limits) };
    const { provider, quiet } = embedded!.outside;
    if (method === 'eth_sendRawTransaction')
      await refuseRailSignatures(
        params,
        embedded!.accounts.map((account) => account.address),
      );
    const request = requestOf(provider);
    const result = await gate.run(async (abandoned) => {
      // The rail's own requests first: this call waits until they leave the node alone.
      await quiet(abandoned);
      return callWithinLimits(request, method, params, limits);
    });
    return { jsonrpc: '2.0', id, result };
  } catch (error) {
    return errorAnswer(id, error);
  }
}

/**
 * POST /rpc: JSON-RPC to the embedded chain (registered only when the rail is embedded).
 * `internalKey`: INTERNAL_KEY as configured; unset, no request may send for the rail's accounts.
 */
export function registerEmbeddedRpcRoute(app: HttpServer, chain: RailChain, limits: RpcLimits & { maxBodyBytes: number }, clock: Clock, internalKey: string | undefined): void {
  const gate = createRpcGate(limits);
  const rateLimiter = createRpcRateLimiter(limits.requestsPerMinute, () => clock.now().getTime());
  app.post('/rpc', { bodyLimit: limits.maxBodyBytes }, async (request, reply) => {
    const body: unknown = request.body;
    const calls = Array.isArray(body) ? Math.max(1, body.length) : 1;
    const presented = request.headers['x-internal-key'];
    const internal = sameSecret(typeof presented === 'string' ? presented : undefined, internalKey);
    // Every rail process of a cluster calls from 127.0.0.1, as the public port's balancer does for every outside caller.
    const { admitted, retryAfterSeconds } = internal ? { admitted: true, retryAfterSeconds: 0 } : rateLimiter.admit(request.ip, calls);
    if (!admitted) {
      const message = `rate limit: at most ${limits.requestsPerMinute} calls a minute from one address; retry in ${retryAfterSeconds} s`;
      return reply
        .code(429)
        .header('retry-after', String(retryAfterSeconds))
        .send({ jsonrpc: '2.0', id: null, error: { code: LIMIT_EXCEEDED, message } });
    }
    if (Array.isArray(body)) {
      if (body.length === 0 || body.length > MAX_BATCH) return reply.send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `A batch holds 1 to ${MAX_BATCH} requests` } });
      return reply.send(await Promise.all(body.map((item) => answer(chain, gate, limits, internal, item))));
    }
    return reply.send(await answer(chain, gate, limits, internal, body));
  });
}
