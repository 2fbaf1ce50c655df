import { type Hex, hexToBigInt, isHex, numberToHex, parseTransaction } from 'viem';

/**
 * What one outside caller may make the embedded chain's node do through POST /rpc (decision
 * 0051). EDR answers one request at a time: a call that runs long holds every other, the rail's
 * own settlements included. So:
 * 1. calls are admitted one at a time, with a small queue; a full queue is refused at once;
 * 2. a call waits for its turn and its answer at most `timeoutMs` (the node's work, once begun,
 *    keeps its turn until it ends: the next call is not let in on top of it);
 * 3. what one call may cost is capped: the gas of eth_call and eth_estimateGas (passed to the
 *    node as the call's gas), the gas limit of a sent transaction, the blocks of eth_getLogs
 *    (block tags resolved first; the end then clamped to the chain's head) and the logs it answers;
 * 4. each client address has a per-minute budget of calls.
 */
export interface RpcLimits {
  gasCap: number;
  timeoutMs: number;
  maxBlockRange: number;
  maxLogs: number;
  queueSize: number;
  requestsPerMinute: number;
}

/** A JSON-RPC error answered to the caller (EIP-1474 codes). */
export class RpcRefusal extends Error {
  override name = 'RpcRefusal';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const INVALID_PARAMS = -32602;
/** EIP-1474 "Limit exceeded". */
export const LIMIT_EXCEEDED = -32005;

export interface RpcGate {
  /**
   * Runs `work` in its turn; refuses at once when the queue is full, and after timeoutMs without an
   * answer (then `signal` aborts: work not yet given to the node should not be).
   */
  run<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

export function createRpcGate(limits: Pick<RpcLimits, 'queueSize' | 'timeoutMs'>): RpcGate {
  const waiting: Array<() => void> = [];
  let running = false;

  function next(): void {
    const start = waiting.shift();
    running = start !== undefined;
    start?.();
  }

  return {
    run<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
      if (running && waiting.length >= limits.queueSize) {
        return Promise.reject(new RpcRefusal(LIMIT_EXCEEDED, `the node is busy (${limits.queueSize} calls waiting); retry later`));
      }
      return new Promise<T>((resolve, reject) => {
        // The caller is answered once: by the work, or by the timer, whichever comes first.
        const abandoned = new AbortController();
        const start = () => {
          work(abandoned.signal)
            .then(resolve, reject)
            .finally(() => {
              clearTimeout(timer);
              next();
            });
        };
        const timer = setTimeout(() => {
          const queued = waiting.indexOf(start);
          if (queued >= 0) waiting.splice(queued, 1);
          const refusal = new RpcRefusal(-32000, `no answer within ${limits.timeoutMs} ms; retry later`);
          abandoned.abort(refusal);
          reject(refusal);
        }, limits.timeoutMs);
        if (running) waiting.push(start);
        else {
          running = true;
          start();
        }
      });
    },
  };
}

/** A fixed one-minute window per client address, counted in this process (the embedded chain lives in one). */
export function createRpcRateLimiter(requestsPerMinute: number, now: () => number = Date.now) {
  let window = -1;
  let counts = new Map<string, number>();
  return {
    /** Counts `calls` for `client`; false once its budget for this minute is spent. Returns the seconds until the next window with it. */
    admit(client: string, calls: number): { admitted: boolean; retryAfterSeconds: number } {
      const at = now();
      const current = Math.floor(at / 60_000);
      if (current !== window) {
        window = current;
        counts = new Map();
      }
      const used = (counts.get(client) ?? 0) + calls;
      counts.set(client, used);
      return { admitted: used <= requestsPerMinute, retryAfterSeconds: Math.max(1, Math.ceil(((current + 1) * 60_000 - at) / 1000)) };
    },
  };
}

const quantity = (value: unknown, what: string): bigint => {
  if (typeof value !== 'string' || !isHex(value) || value.length > 66) throw new RpcRefusal(INVALID_PARAMS, `${what} must be a hex quantity`);
  return hexToBigInt(value);
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** eth_call and eth_estimateGas: the call's gas at most the cap (the node's own default is the block's limit); no state or block overrides. */
export function capCallGas(params: readonly unknown[], gasCap: number): unknown[] {
  const [call, block] = params;
  if (!isObject(call) || params.length > 2) throw new RpcRefusal(INVALID_PARAMS, 'expected [call, block?] (state and block overrides are not accepted)');
  const asked = call.gas === undefined || call.gas === null ? undefined : quantity(call.gas, 'gas');
  const gas = asked !== undefined && asked < BigInt(gasCap) ? asked : BigInt(gasCap);
  return [{ ...call, gas: numberToHex(gas) }, ...(params.length > 1 ? [block] : [])];
}

/** eth_sendRawTransaction: a gas limit above the cap is refused before the node runs it. */
export function checkRawTransactionGas(params: readonly unknown[], gasCap: number): void {
  const [raw] = params;
  if (typeof raw !== 'string' || !isHex(raw)) throw new RpcRefusal(INVALID_PARAMS, 'expected [signed transaction as hex]');
  let gas: bigint | undefined;
  try {
    gas = parseTransaction(raw as Hex).gas;
  } catch {
    // Not a transaction viem reads: the node answers why.
    return;
  }
  if (gas !== undefined && gas > BigInt(gasCap)) throw new RpcRefusal(LIMIT_EXCEEDED, `the transaction's gas limit ${gas} is above this node's cap of ${gasCap}`);
}

const LATEST_TAGS = new Set(['latest', 'pending', 'safe', 'finalized']);
const MAX_FILTER_ALTERNATIVES = 32;

function blockOf(value: unknown, latest: bigint, what: string): bigint {
  if (value === undefined || value === null || (typeof value === 'string' && LATEST_TAGS.has(value))) return latest;
  if (value === 'earliest') return 0n;
  return quantity(value, what);
}

/**
 * eth_getLogs: its block tags resolved against `latest`, the range asked capped, and the end
 * clamped to the head (the node walks every block number of the range, present or not: 0 to
 * 2^64 never ends).
 */
export function boundLogFilter(params: readonly unknown[], latest: bigint, maxBlockRange: number): unknown[] {
  const [filter] = params;
  if (!isObject(filter) || params.length !== 1) throw new RpcRefusal(INVALID_PARAMS, 'expected [filter]');
  const addresses = Array.isArray(filter.address) ? filter.address.length : 1;
  const topics = Array.isArray(filter.topics) ? filter.topics : [];
  if (addresses > MAX_FILTER_ALTERNATIVES || topics.length > 4 || topics.some((topic) => Array.isArray(topic) && topic.length > MAX_FILTER_ALTERNATIVES)) {
    throw new RpcRefusal(LIMIT_EXCEEDED, `a filter names at most ${MAX_FILTER_ALTERNATIVES} addresses, 4 topics and ${MAX_FILTER_ALTERNATIVES} alternatives a topic`);
  }
  if (filter.blockHash !== undefined) {
    if (filter.fromBlock !== undefined || filter.toBlock !== undefined) throw new RpcRefusal(INVALID_PARAMS, 'blockHash excludes fromBlock and toBlock');
    return [filter];
  }
  const from = blockOf(filter.fromBlock, latest, 'fromBlock');
  const to = blockOf(filter.toBlock, latest, 'toBlock');
  if (to - from + 1n > BigInt(maxBlockRange)) {
    throw new RpcRefusal(LIMIT_EXCEEDED, `the block range ${from} to ${to} is too large: at most ${maxBlockRange} blocks a call`);
  }
  return [{ ...filter, fromBlock: numberToHex(from), toBlock: numberToHex(to < latest ? to : latest) }];
}

/** eth_feeHistory: at most maxBlockRange blocks and 100 percentiles. */
export function boundFeeHistory(params: readonly unknown[], maxBlockRange: number): readonly unknown[] {
  const [count, , percentiles] = params;
  const blocks = typeof count === 'number' ? BigInt(count) : quantity(count, 'blockCount');
  if (blocks > BigInt(maxBlockRange) || (Array.isArray(percentiles) && percentiles.length > 100)) {
    throw new RpcRefusal(LIMIT_EXCEEDED, `at most ${maxBlockRange} blocks and 100 reward percentiles`);
  }
  return params;
}
