import {
  type Abi,
  type Address,
  BaseError,
  type ContractFunctionArgs,
  type ContractFunctionName,
  ContractFunctionRevertedError,
  encodeFunctionData,
  type Hash,
  keccak256,
  type LocalAccount,
  type PublicClient,
  RpcError,
  RpcRequestError,
  UnknownRpcError,
} from 'viem';
import type { ChainConnection } from './index.js';
import { localNonceKeeper, type NonceKeeper, type TurnEnd, TurnNotTaken } from './nonce-keeper.js';

/**
 * The rail's transactions, sent in order per account (decision 0040). Why a queue of our own
 * rather than viem's writeContract from each sender:
 * 1. One account may send for two parts of the process: on RPC_URL the RAIL_SETTLER_KEY account
 *    is both the payments treasury and the x402 settler. Two senders each asking the node for the
 *    pending nonce at the same moment get the same one, and one transaction is refused. Every
 *    transaction of one account on one connection goes through one queue, whoever sends it.
 * 2. Fewer round trips: writeContract asks for the nonce and the fees before every transaction.
 *    The queue keeps the nonce (read once with blockTag pending, one more per transaction sent,
 *    read again after any failed send), and fees are read at most once per FEE_READ_PERIOD_MS per
 *    connection. What is left per transaction is eth_estimateGas, eth_sendRawTransaction and the
 *    receipt.
 * 3. A node refusing the nonce (another process or a wallet outside the rail sent from the
 *    account) has not taken the transaction: the send is tried once more with the nonce read again.
 * 4. On PostgreSQL the turn is every process's (decision 0087): the connection's NonceKeeper holds
 *    it under a lock in the database and keeps the nonce there; this queue stays in front of it, so
 *    a process has one waiter at a time on the lock.
 * Only the send takes a turn: the gas estimate comes before it, the receipt is waited for after it.
 */

/** Fees are read again after this long (Base makes a block every 2 s). */
export const FEE_READ_PERIOD_MS = 2_000;
/**
 * maxFeePerGas is this many times the base fee read, plus the tip: a cap, not the price (a
 * transaction pays the base fee of its block and the tip). Fees read up to FEE_READ_PERIOD_MS ago
 * stay valid while the base fee at most doubles: at EIP-1559's 12.5 % rise per full block that is
 * six full blocks in a row.
 */
const BASE_FEE_CAP_MULTIPLIER = 2n;
/** A node's words for a nonce it will not take: the transaction was not accepted. */
const NONCE_REFUSED = /nonce too low|nonce too high|replacement transaction underpriced/i;

export interface SendQueue {
  /** Runs `send` after every earlier send of the account on this connection, in the account's turn (decision 0087), with its next nonce. */
  run<T>(send: (nonce: number) => Promise<T>): Promise<T>;
  /** The next send reads the nonce from the chain again (a transaction sent but never mined may have been dropped). */
  resync(): void;
}

const queues = new WeakMap<ChainConnection, Map<string, SendQueue>>();

/** The one send queue of `address` on `connection` in this process, in front of the connection's nonce keeper (its own memory by default). */
export function sendQueueFor(connection: ChainConnection, address: Address): SendQueue {
  let accounts = queues.get(connection);
  if (!accounts) {
    accounts = new Map();
    queues.set(connection, accounts);
  }
  const key = address.toLowerCase();
  let queue = accounts.get(key);
  if (!queue) {
    queue = createSendQueue(connection.publicClient, address, connection.nonces ?? localNonceKeeper());
    accounts.set(key, queue);
  }
  return queue;
}

/**
 * One waiter at a time per process goes to the keeper; the turn itself is written once here,
 * whichever keeper holds it: the nonce kept (or read from the chain), one send, a refused nonce
 * read again and sent once more, and the nonce after it kept.
 */
function createSendQueue(publicClient: PublicClient, address: Address, keeper: NonceKeeper): SendQueue {
  const chainId = publicClient.chain?.id;
  if (chainId === undefined) throw new Error('the chain connection names no chain');
  let last: Promise<unknown> = Promise.resolve();
  // Set by resync(): the next turn of this process reads the chain whatever was kept.
  let stale = false;
  const readNonce = () => publicClient.getTransactionCount({ address, blockTag: 'pending' });

  async function turn<T>(kept: number | undefined, send: (nonce: number) => Promise<T>): Promise<TurnEnd<T>> {
    const known = stale ? undefined : kept;
    stale = false;
    let nonce: number | undefined;
    try {
      nonce = known ?? (await readNonce());
      const sent = await send(nonce).catch(async (error: unknown) => {
        if (!nonceRefused(error)) throw error;
        nonce = await readNonce();
        return send(nonce);
      });
      return { ok: true, sent, next: nonce + 1 };
    } catch (error) {
      return { ok: false, error, next: undefined };
    }
  }

  return {
    run(send) {
      const queued = last.then(() => keeper.inTurn({ chainId, address }, (kept) => turn(kept, send)));
      last = queued.catch(() => undefined);
      return queued;
    },
    resync() {
      stale = true;
    },
  };
}

function nonceRefused(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (NONCE_REFUSED.test(cause.message)) return true;
  }
  return false;
}

interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

const feeReads = new WeakMap<ChainConnection, { at: number; fees: Promise<Fees> }>();

function feesFor(connection: ChainConnection): Promise<Fees> {
  const cached = feeReads.get(connection);
  if (cached && Date.now() - cached.at < FEE_READ_PERIOD_MS) return cached.fees;
  const fees = readFees(connection.publicClient);
  const read = { at: Date.now(), fees };
  feeReads.set(connection, read);
  fees.catch(() => forgetFees(connection, read.fees));
  return fees;
}

function forgetFees(connection: ChainConnection, fees?: Promise<Fees>): void {
  if (!fees || feeReads.get(connection)?.fees === fees) feeReads.delete(connection);
}

async function readFees(publicClient: PublicClient): Promise<Fees> {
  const [block, maxPriorityFeePerGas] = await Promise.all([publicClient.getBlock({ blockTag: 'latest' }), publicClient.estimateMaxPriorityFeePerGas()]);
  if (block.baseFeePerGas === null) throw new Error('the chain reports no base fee (EIP-1559)');
  return { maxFeePerGas: block.baseFeePerGas * BASE_FEE_CAP_MULTIPLIER + maxPriorityFeePerGas, maxPriorityFeePerGas };
}

/** A contract function call, typed by its ABI as viem types writeContract's. */
export type ContractCall<abi extends Abi, functionName extends ContractFunctionName<abi, 'nonpayable'>> = {
  address: Address;
  abi: abi;
  functionName: functionName;
  args: ContractFunctionArgs<abi, 'nonpayable', functionName>;
};

export interface SentTransaction {
  hash: Hash;
  /** The gas limit it was sent with (the node's estimate). */
  gas: bigint;
  nonce: number;
}

/**
 * Why sendContractCall did not return a hash. The message is ours, never the node's (it may be
 * stored with a payment); the node's error is the cause.
 */
export class SendFailure extends Error {
  override name = 'SendFailure';
  constructor(
    message: string,
    /** When the node may have taken it (it did not answer): the signed transaction, whose receipt may still come; undefined when nothing was sent. */
    readonly maybeSent: SentTransaction | undefined,
    /** The contract's error name when the gas estimate reverted. */
    readonly refusal: string | undefined,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** The contract's error name when `error` is a revert of the call, else undefined. */
function revertOf(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  return reverted instanceof ContractFunctionRevertedError ? (reverted.data?.errorName ?? reverted.reason ?? 'reverted') : undefined;
}

/**
 * The node answered eth_sendRawTransaction with an error: it did not take the transaction.
 * ("already known" is the one error meaning it has it.) A timeout or an HTTP failure leaves it
 * unknown. viem retries no send on RPC_URL (the transport's retryCount is 0), so an error is
 * about this very transaction.
 */
function nodeRefused(error: unknown): boolean {
  if (!(error instanceof BaseError) || /already known|already imported/i.test(error.message)) return false;
  return Boolean(error.walk((cause) => cause instanceof RpcRequestError || (cause instanceof RpcError && !(cause instanceof UnknownRpcError))));
}

/**
 * Sends `call` from `account` in the account's turn: its gas estimated (a call the contract
 * refuses fails here, before anything is sent), signed locally, sent with eth_sendRawTransaction.
 * With `signal` aborted before its turn came, nothing is sent. Returns once the node took it; the
 * caller waits for the receipt. Rejects with a SendFailure.
 */
export async function sendContractCall<const abi extends Abi, functionName extends ContractFunctionName<abi, 'nonpayable'>>(
  connection: ChainConnection,
  account: LocalAccount,
  call: ContractCall<abi, functionName>,
  options: { signal?: AbortSignal } = {},
): Promise<SentTransaction> {
  const { publicClient } = connection;
  const chain = publicClient.chain;
  if (!chain) throw new Error('the chain connection names no chain');
  // viem's generics do not follow an ABI through a generic function: one cast, checked by ContractCall's type.
  const request = call as unknown as { address: Address; abi: Abi; functionName: string; args: readonly unknown[] };
  const data = encodeFunctionData(request);
  const [gas, fees] = await Promise.all([publicClient.estimateContractGas({ ...request, account: account.address }), feesFor(connection)]).catch((error: unknown) => {
    const refusal = revertOf(error);
    throw new SendFailure(refusal ? `the contract refused the call (${refusal})` : 'its gas or fees could not be read', undefined, refusal, { cause: error });
  });
  try {
    return await sendQueueFor(connection, account.address).run(async (nonce) => {
      if (options.signal?.aborted) throw new SendFailure('its turn did not come in time', undefined, undefined, { cause: options.signal.reason });
      const serializedTransaction = await account.signTransaction({ chainId: chain.id, type: 'eip1559', to: call.address, data, gas, nonce, ...fees }, { serializer: chain.serializers?.transaction });
      const hash = await publicClient.sendRawTransaction({ serializedTransaction }).catch((error: unknown) => {
        // Refused as it is (a refused nonce is tried again by the queue); unanswered, it may be on its way under its own hash.
        if (nodeRefused(error)) throw error;
        throw new SendFailure('the node did not confirm taking it', { hash: keccak256(serializedTransaction), gas, nonce }, undefined, { cause: error });
      });
      return { hash, gas, nonce };
    });
  } catch (error) {
    // A fee cap the node found too low, or any other failure: the next send reads the fees again.
    forgetFees(connection);
    if (error instanceof SendFailure) throw error;
    if (error instanceof TurnNotTaken) throw new SendFailure('its turn to send could not be had (the database sharing the send queue did not answer)', undefined, undefined, { cause: error });
    throw new SendFailure('the node refused it, or its nonce could not be read', undefined, undefined, { cause: error });
  }
}
