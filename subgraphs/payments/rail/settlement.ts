import DataLoader from 'dataloader';
import { type Abi, type Address, type ContractFunctionName, type Hash, type LocalAccount, maxUint256, parseEventLogs, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { railUSDAbi } from '../../../contracts/artifacts/RailUSD.js';
import { settlementRouterAbi } from '../../../contracts/artifacts/SettlementRouter.js';
import type { ChainConnection, RailChain } from '../../../platform/chain/index.js';
import { type ContractCall, sendContractCall, SendFailure, sendQueueFor, type SentTransaction } from '../../../platform/chain/send-queue.js';
import { withTimeout } from '../../../platform/timeout.js';
import { USDC_DECIMALS } from '../domain/index.js';

/**
 * Settlement of a payment on the rail through the settlement router's settle() (contracts/src/
 * SettlementRouter.sol): the router pulls `amount` of the token from its caller, pays the net to
 * the payee and the fee to the fee recipient, and records the quoteId so a quote settles once.
 *
 * Who pays (decision 0025): the router moves the token from msg.sender, and the rail holds no
 * debtor's key. The rail's treasury account acts for the institution, which pre-funds it (the
 * debtor's wallet is recorded with the payment, not debited): on the embedded rail it is
 * development account #8 (funded with 1,000,000 rUSD at deployment; #0 deploys and settles x402,
 * #9 receives fees); on RPC_URL it is the RAIL_SETTLER_KEY account (`settlerKey`), whether or not
 * x402 payments are taken (with PAY_TO set and FACILITATOR_URL not, it is the x402 settler too). Its
 * transactions take their turn in the account's one send queue of the process
 * (platform/chain/send-queue.ts, decision 0040), shared with x402's settlements; the receipts are
 * waited for outside it, so settlements overlap on chain. The router's allowance is set once,
 * before the first settlement.
 */

export const EMBEDDED_TREASURY_ACCOUNT_INDEX = 8;
/** At most this many payments settle in one transaction (decision 0041). */
export const MAX_SETTLEMENT_BATCH = 50;
/**
 * Under load, a settlement transaction leaves at most every this many ms, with the payments ready
 * by then (decision 0041): a block of the embedded EVM costs about 5 ms of CPU whatever it holds,
 * and Base makes a block every 2 s, so 100 ms adds little to a payment's time and shares a block
 * among many payments.
 */
export const SETTLEMENT_LINGER_MS = 100;

export interface SettlementOrder {
  payee: Address;
  /** USDC base units. */
  amount: bigint;
  hasFx: boolean;
  esgScore: number;
  monthlyVolumeUsd: number;
  quoteId: string;
}

export interface SettlementReceipt {
  txHash: Hash;
  /** Token base units, as the router's Settled event reports them. */
  fee: bigint;
  payer: Address;
}

export class RailError extends Error {
  override name = 'RailError';
  /** Sent, but whether it was mined is not known: the chain decides later (decision 0039), not this error. */
  readonly unconfirmed: boolean;
  constructor(
    message: string,
    readonly txHash?: Hash,
    options?: { cause?: unknown; unconfirmed?: boolean },
  ) {
    super(message, options);
    this.unconfirmed = options?.unconfirmed ?? false;
  }
}

/** A rejection as an Error, as DataLoader answers an order that failed (a RailError stays one, an unexpected error stays itself to be logged). */
const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/** The router refused the call at its gas estimate: nothing was sent. */
function refusedByContract(error: unknown): boolean {
  return error instanceof RailError && error.cause instanceof SendFailure && error.cause.refusal !== undefined;
}

export interface RailSettlement {
  /** `base-mainnet` on RPC_URL, `embedded-base` on the in-process EVM. */
  network(): string;
  settle(order: SettlementOrder): Promise<SettlementReceipt>;
}

/** The account payments settle from (see above): the embedded treasury, else the x402 settler, else RAIL_SETTLER_KEY's. */
export function railTreasuryOf(connection: ChainConnection, settlerKeyAccount: LocalAccount | undefined): LocalAccount | undefined {
  if (connection.embedded) return connection.embedded.accounts[EMBEDDED_TREASURY_ACCOUNT_INDEX];
  return connection.payment?.settler?.account ?? settlerKeyAccount;
}

export function createRailSettlement(options: {
  chain: RailChain;
  timeoutMs: number;
  /** RAIL_SETTLER_KEY: the treasury on RPC_URL. */
  settlerKey?: string;
  /** At most one settlement transaction per this many ms (default SETTLEMENT_LINGER_MS). */
  lingerMs?: number;
}): RailSettlement {
  const { chain, timeoutMs, settlerKey, lingerMs = SETTLEMENT_LINGER_MS } = options;
  const rail: RailContext = {
    chain,
    timeoutMs,
    // On RPC_URL the x402 settler exists only with PAY_TO and without FACILITATOR_URL; a payment needs none of those.
    keyAccount: settlerKey ? privateKeyToAccount(settlerKey as Hash) : undefined,
    approvals: new Map(),
  };
  const batches = settlementBatches(rail, lingerMs);
  return {
    network: () => (chain.mode === 'rpc' ? 'base-mainnet' : 'embedded-base'),
    settle: (order) => batches.load(order),
  };
}

/** What the rail's functions are given. */
interface RailContext {
  chain: RailChain;
  timeoutMs: number;
  /** RAIL_SETTLER_KEY's account, when set. */
  keyAccount: LocalAccount | undefined;
  /** The router's allowance, set once per (token, router, treasury); forgotten when setting it failed. */
  approvals: Map<string, Promise<void>>;
}

/**
 * Sends in the treasury's turn; its receipt is waited for outside it. A send whose turn did not
 * come within timeoutMs is not sent. One the node may have taken without answering is returned:
 * its receipt decides.
 */
async function send<const abi extends Abi, functionName extends ContractFunctionName<abi, 'nonpayable'>>(
  rail: RailContext,
  connection: ChainConnection,
  account: LocalAccount,
  call: ContractCall<abi, functionName>,
  what: string,
): Promise<SentTransaction> {
  try {
    return await sendContractCall(connection, account, call, { signal: AbortSignal.timeout(rail.timeoutMs) });
  } catch (error) {
    if (error instanceof SendFailure && error.maybeSent) return error.maybeSent;
    throw new RailError(`${what} was not sent: ${error instanceof SendFailure ? error.message : 'an unexpected error'}`, undefined, { cause: error });
  }
}

async function receiptOf(rail: RailContext, connection: ChainConnection, account: LocalAccount, sent: SentTransaction, what: string) {
  try {
    return await withTimeout(connection.publicClient.waitForTransactionReceipt({ hash: sent.hash }), rail.timeoutMs * 6, `${what} receipt`);
  } catch (error) {
    // Never mined: it may have been dropped, and the nonces after it wait on it. The next send asks the chain.
    sendQueueFor(connection, account.address).resync();
    throw new RailError(`${what} was sent but not confirmed in time`, sent.hash, { cause: error, unconfirmed: true });
  }
}

async function approveRouter(rail: RailContext, connection: ChainConnection, account: LocalAccount, token: Address, router: Address): Promise<void> {
  const allowance = await withTimeout(
    connection.publicClient.readContract({ address: token, abi: railUSDAbi, functionName: 'allowance', args: [account.address, router] }),
    rail.timeoutMs,
    'read the router allowance',
  );
  if (allowance >= maxUint256 / 2n) return;
  const sent = await send(rail, connection, account, { address: token, abi: railUSDAbi, functionName: 'approve', args: [router, maxUint256] }, 'the router approval');
  const receipt = await receiptOf(rail, connection, account, sent, 'the router approval');
  if (receipt.status !== 'success') throw new RailError('the router approval reverted', sent.hash);
}

function approved(rail: RailContext, connection: ChainConnection, account: LocalAccount, token: Address, router: Address): Promise<void> {
  const key = `${token}:${router}:${account.address}`;
  let approval = rail.approvals.get(key);
  if (!approval) {
    approval = approveRouter(rail, connection, account, token, router);
    rail.approvals.set(key, approval);
    approval.catch(() => rail.approvals.delete(key));
  }
  return approval;
}

/** The treasury, token and router of a connection that can settle, the router's allowance set. */
async function settlementAccount(rail: RailContext) {
  const connection = await withTimeout(rail.chain.connect(), rail.timeoutMs * 6, 'connect to the rail');
  const { token, router } = connection.contracts;
  const account = railTreasuryOf(connection, rail.keyAccount);
  if (!token || !router) throw new RailError('the rail has no token or settlement router configured (CONTRACT_TOKEN, CONTRACT_ROUTER)');
  if (!account) throw new RailError('the rail has no settlement account (RAIL_SETTLER_KEY)');
  await approved(rail, connection, account, token, router);
  return { connection, account, token, router };
}

/** The router's Order (settle()'s arguments after the token; the score and volume in 6-decimal units). */
const routerOrder = (order: SettlementOrder) => ({
  payee: order.payee,
  amount: order.amount,
  hasFx: order.hasFx,
  esgScore: parseUnits(order.esgScore.toFixed(USDC_DECIMALS), USDC_DECIMALS),
  monthlyVolume: parseUnits(order.monthlyVolumeUsd.toFixed(USDC_DECIMALS), USDC_DECIMALS),
  quoteId: order.quoteId,
});

/**
 * Sends `orders` in one transaction (settle() for one, settleBatch() for more) and waits for its
 * receipt: each order's receipt from its own Settled event, or the one error of the transaction.
 * `onSent` is called once the node took it (or nothing will be sent). A batch the router refuses
 * (one of its orders would revert: the estimate says so, nothing is sent) or that reverts in its
 * block (nothing of it happened) is settled again order by order, so only a refused order fails,
 * with its own reason.
 */
async function settleInOne(rail: RailContext, orders: readonly SettlementOrder[], onSent: () => void): Promise<Array<SettlementReceipt | Error>> {
  const { connection, account, token, router } = await settlementAccount(rail);
  const what = orders.length === 1 ? 'the settlement' : `the settlement of ${orders.length} payments in one transaction`;
  let sent: SentTransaction;
  const routed = orders.map(routerOrder);
  const [only] = routed;
  try {
    sent =
      routed.length === 1 && only
        ? await send(
            rail,
            connection,
            account,
            { address: router, abi: settlementRouterAbi, functionName: 'settle', args: [token, only.payee, only.amount, only.hasFx, only.esgScore, only.monthlyVolume, only.quoteId] },
            what,
          )
        : await send(rail, connection, account, { address: router, abi: settlementRouterAbi, functionName: 'settleBatch', args: [token, routed] }, what);
  } catch (error) {
    if (orders.length === 1 || !refusedByContract(error)) throw error;
    onSent();
    return settleEachAlone(rail, orders);
  }
  onSent();
  const receipt = await receiptOf(rail, connection, account, sent, what);
  // A batch mined but reverted changed nothing (one of its orders was refused between the
  // estimate and the block, or it ran out of gas): each order is settled again alone.
  if (receipt.status !== 'success' && orders.length > 1) return settleEachAlone(rail, orders);
  if (receipt.status !== 'success') {
    // All the gas used: it ran out (the state changed between the estimate and the block).
    if (receipt.gasUsed >= sent.gas) throw new RailError(`the settlement transaction ran out of gas (limit ${sent.gas}, the node's estimate)`, sent.hash);
    throw new RailError('the settlement transaction reverted', sent.hash);
  }
  const events = parseEventLogs({ abi: settlementRouterAbi, eventName: 'Settled', logs: receipt.logs });
  return orders.map((order) => {
    const settled = events.find((event) => event.args.quoteId === order.quoteId);
    return settled ? { txHash: sent.hash, fee: settled.args.fee, payer: settled.args.payer } : new RailError('the settlement transaction emitted no Settled event', sent.hash);
  });
}

/** Each order in a transaction of its own (through settle()), so only an order the router refuses fails. */
function settleEachAlone(rail: RailContext, orders: readonly SettlementOrder[]): Promise<Array<SettlementReceipt | Error>> {
  return Promise.all(orders.map((order) => settleInOne(rail, [order], () => undefined).then(([outcome]) => outcome!, asError)));
}

/**
 * Orders wait while the previous transaction is being sent, and go together in the next one (at
 * most MAX_SETTLEMENT_BATCH): DataLoader's batching, without its cache (each order is a write).
 * Under load (the previous transaction held more than one order) transactions leave at most one
 * per lingerMs, so the orders of that time share one. Otherwise an order goes as soon as the
 * previous transaction was sent: a quiet rail, or one caller settling one payment after another
 * (a pain.001's transactions, the batch path), never waits for the linger.
 */
function settlementBatches(rail: RailContext, lingerMs: number): DataLoader<SettlementOrder, SettlementReceipt> {
  let previousSend: Promise<void> = Promise.resolve();
  let lastDispatchAt = -Infinity;
  let underLoad = false;
  const afterLinger = (dispatch: () => void) => {
    const wait = underLoad ? lastDispatchAt + lingerMs - performance.now() : 0;
    if (wait <= 0) dispatch();
    else setTimeout(dispatch, wait);
  };
  return new DataLoader<SettlementOrder, SettlementReceipt>(
    (orders) => {
      lastDispatchAt = performance.now();
      underLoad = orders.length > 1;
      let sent = () => {};
      previousSend = new Promise<void>((resolve) => (sent = resolve));
      return settleInOne(rail, orders, sent)
        .catch((error: unknown) => orders.map(() => asError(error)))
        .finally(sent);
    },
    { cache: false, maxBatchSize: MAX_SETTLEMENT_BATCH, batchScheduleFn: (dispatch) => void previousSend.then(() => afterLinger(dispatch)) },
  );
}
