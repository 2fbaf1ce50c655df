import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { type Address, type Hex, isErc6492Signature, parseAbi, parseErc6492Signature, parseSignature } from 'viem';
import { verify as verifyOnRail } from 'x402/facilitator';
import { decodePayment } from 'x402/schemes';
import { type PaymentPayload, type PaymentRequirements, type SettleResponse, settleResponseHeader, type VerifyResponse } from 'x402/types';
import { useFacilitator } from 'x402/verify';
import { x402Payments } from '../../drizzle/schema.js';
import type { ChainConnection, PaymentRail, RailChain } from '../chain/index.js';
import { sendContractCall, SendFailure, sendQueueFor } from '../chain/send-queue.js';
import type { Database } from '../db.js';
import { AppError, isUnreachable } from '../errors.js';
import type { Logger } from '../log.js';
import { boundedCall, withTimeout } from '../timeout.js';

export const X402_VERSION = 1;
/** x402's name for Base mainnet (chainId 8453); the spec's descriptor says `base-mainnet` (decision 0010). */
export const X402_NETWORK = 'base';
const SETTLEMENT_TIMEOUT_SECONDS = 60;
/** How long an unsettled claim counts against its payer's balance. */
const RESERVATION_SECONDS = 10 * 60;

/** What a priced route or field costs, and what the payer is told it buys. */
export interface Price {
  /** Token base units (6 decimals): 2000000 is 2.00 USDC. */
  amount: bigint;
  description: string;
}

export interface PaymentOutcome {
  ok: true;
  payer: Address;
  transaction: string;
  /** The X-PAYMENT-RESPONSE header value (base64 JSON of the settlement). */
  header: string;
}

/** x402 requirements as the rail states them: always with the token's EIP-712 domain in `extra`. */
export type RailPaymentRequirements = PaymentRequirements & { extra: { name: string; version: string } };

export interface PaymentRefusal {
  ok: false;
  reason: string;
  requirements: RailPaymentRequirements;
}

/** A payment verified and claimed, not yet settled: settle it once the paid work succeeded, or release it. */
export interface AuthorizedPayment {
  ok: true;
  payer: Address;
  settle(): Promise<PaymentOutcome | PaymentRefusal>;
  /** Gives the authorization back (the paid work failed): the payer may present it again. */
  release(): Promise<void>;
}

/** The 402 body of the x402 specification: the requirements the client signs against, and why. */
export function paymentRequiredBody(requirements: PaymentRequirements, reason: string) {
  return { x402Version: X402_VERSION, error: reason, accepts: [requirements] };
}

/** The rail takes no payments (RPC_URL without CONTRACT_TOKEN, PAY_TO and a settler or facilitator): a 503, not a 402 the caller could act on. */
function paymentsUnavailable(cause?: unknown): AppError {
  return new AppError('GEN_ERR_UNAVAILABLE', {
    message: 'x402 payments are not available on this rail now; retry later.',
    retryAfterSeconds: 60,
    ...(cause ? { cause } : {}),
  });
}

/** An exact-scheme EVM payment: an EIP-3009 authorization and its signature. */
type EvmPaymentPayload = PaymentPayload & {
  payload: { signature: Hex; authorization: { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: string } };
};

/** Who checks signatures and balances and submits the transfer: the rail itself, or FACILITATOR_URL. */
interface Facilitator {
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  /** `sent` is told the transaction hash as soon as the transfer is submitted, before its receipt. */
  settle(payload: PaymentPayload, requirements: PaymentRequirements, sent: (transaction: Hex) => Promise<void>): Promise<SettleResponse>;
}

/** USDC's EIP-3009 transfer (the rail's token has the same): the (v, r, s) form for EOA signatures, the bytes form for smart wallets. */
const TRANSFER_WITH_AUTHORIZATION_ABI = parseAbi([
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
]);

/** What the token says of a payer before a claim: its balance, and whether this authorization was already used on chain. */
const AUTHORIZATION_STATE_ABI = parseAbi(['function authorizationState(address authorizer, bytes32 nonce) view returns (bool)', 'function balanceOf(address account) view returns (uint256)']);

/** A settlement whose outcome is unknown: the transfer may have been sent and may still be mined. */
class UncertainSettlement extends Error {}

/**
 * The rail as its own facilitator: x402's `verify`, and our own settlement. One account settles
 * every payment, so its transactions take their turn in the account's send queue of the process
 * (platform/chain/send-queue.ts, decision 0040), shared with the payments treasury when that is
 * the same account (RPC_URL); waiting for the receipts is not serialised, so settlements overlap
 * on chain.
 */
function railFacilitator(connection: ChainConnection, rail: PaymentRail): Facilitator {
  return {
    // x402 types its clients with its own copies of viem's generics; ours are the same viem clients.
    verify: (payload, requirements) => verifyOnRail(connection.publicClient as never, payload, requirements),
    async settle(payload, requirements, sent) {
      const settler = rail.settler;
      if (!settler) throw paymentsUnavailable();
      const { authorization, signature } = (payload as EvmPaymentPayload).payload;
      const { from, to, value, validAfter, validBefore, nonce } = authorization;
      const terms = [from as Address, to as Address, BigInt(value), BigInt(validAfter), BigInt(validBefore), nonce as Hex] as const;
      const call = { address: requirements.asset as Address, abi: TRANSFER_WITH_AUTHORIZATION_ABI, functionName: 'transferWithAuthorization' } as const;
      const send = () => {
        if (isErc6492Signature(signature)) return sendContractCall(connection, settler.account, { ...call, args: [...terms, parseErc6492Signature(signature).signature] });
        const { r, s, v, yParity } = parseSignature(signature);
        return sendContractCall(connection, settler.account, { ...call, args: [...terms, Number(v ?? 27n + BigInt(yParity)), r, s] });
      };
      const transaction = await send().then(
        (transfer) => transfer.hash,
        (error: unknown) => {
          // Sent without the node's answer: its receipt decides. Any other failure sent nothing (the simulation reverted, the node refused it).
          if (error instanceof SendFailure && error.maybeSent) return error.maybeSent.hash;
          throw error;
        },
      );
      await sent(transaction);
      const receipt = await connection.publicClient.waitForTransactionReceipt({ hash: transaction, timeout: SETTLEMENT_TIMEOUT_SECONDS * 1000 }).catch((error: unknown) => {
        // Never mined: it may have been dropped, and the settler's later nonces wait on it. The next send asks the chain.
        sendQueueFor(connection, settler.account.address).resync();
        throw new UncertainSettlement(`no receipt for ${transaction}`, { cause: error });
      });
      if (receipt.status !== 'success') return { success: false, errorReason: 'invalid_transaction_state', transaction, network: X402_NETWORK, payer: from };
      return { success: true, transaction, network: X402_NETWORK, payer: from };
    },
  };
}

/** An external facilitator's /verify and /settle (the x402 client), each bounded in time; a /settle with no answer is uncertain. */
function remoteFacilitator(url: string, timeoutMs: number): Facilitator {
  const remote = useFacilitator({ url: url.replace(/\/+$/, '') as `${string}://${string}` });
  return {
    verify: (payload, requirements) => withTimeout(remote.verify(payload as never, requirements as never), timeoutMs, 'x402 facilitator /verify'),
    async settle(payload, requirements, sent) {
      const settlement = await withTimeout(remote.settle(payload as never, requirements as never), timeoutMs, 'x402 facilitator /settle').catch((error: unknown) => {
        throw new UncertainSettlement('the facilitator did not answer /settle', { cause: error });
      });
      if (settlement.transaction) await sent(settlement.transaction as Hex);
      return settlement;
    },
  };
}

export interface X402Options {
  chain: RailChain;
  db: Database;
  clock: { now(): Date };
  logger?: Logger;
  /** FACILITATOR_URL: verify and settle there instead of on the rail's own account. */
  facilitatorUrl?: string | undefined;
  facilitatorTimeoutMs?: number;
  /** Bound on each database step of a payment (claim, release, record). */
  databaseTimeoutMs?: number;
}

type ClaimOutcome = 'claimed' | 'used' | 'overcommitted';
type PaymentState = 'CLAIMED' | 'SETTLING' | 'SETTLED' | 'FAILED';
const UNSETTLED_STATES: PaymentState[] = ['CLAIMED', 'SETTLING'];

/**
 * x402 on the rail (exact scheme, EIP-3009 on the rail's token; decision 0012):
 * 1. The payment is verified before any paid work (x402's `verify`, on the rail or at
 *    FACILITATOR_URL): signature under the token's EIP-712 domain, payee, asset, network,
 *    validity window, payer balance; and here: the amount is exactly the price, and the token
 *    has not seen the authorization used.
 * 2. The authorization (payer, nonce) is then claimed in the database, which the x402 package
 *    does not do: a second use of one payment, concurrent or later, finds it claimed and is
 *    refused. A payer's unsettled claims together may not exceed its balance, so no one makes the
 *    rail pay gas for transfers that must fail.
 * 3. The paid work runs; only when it succeeded is the payment settled (transferWithAuthorization),
 *    so nobody pays for an error. Failed work releases the claim. A failed settlement keeps it,
 *    marked FAILED (the payer signs a new authorization); a settlement whose outcome is unknown
 *    is checked on chain and otherwise stays SETTLING, never released.
 */
export function createX402(options: X402Options) {
  const context: X402Context = { options, db: options.db, facilitatorTimeoutMs: options.facilitatorTimeoutMs ?? 15_000, databaseTimeoutMs: options.databaseTimeoutMs ?? 5_000 };
  const authorize = (header: string | undefined, price: Price, resource: string): Promise<AuthorizedPayment | PaymentRefusal> => authorizePayment(context, header, price, resource);
  return {
    requirementsFor: (price: Price, resource: string): Promise<RailPaymentRequirements> => requirementsFor(context, price, resource),
    authorize,
    /** Verifies, claims and settles at once, for a price with no work that could fail after payment. */
    async pay(header: string | undefined, price: Price, resource: string): Promise<PaymentOutcome | PaymentRefusal> {
      const authorized = await authorize(header, price, resource);
      return authorized.ok ? authorized.settle() : authorized;
    },
  };
}

/** What every step of a payment is handed: the options, and the bounds on the facilitator and the database. */
interface X402Context {
  options: X402Options;
  db: Database;
  facilitatorTimeoutMs: number;
  databaseTimeoutMs: number;
}

async function railFor(context: X402Context): Promise<{ connection: ChainConnection; rail: PaymentRail; facilitator: Facilitator }> {
  const { options } = context;
  const connection = await options.chain.connect().catch((error: unknown) => {
    throw paymentsUnavailable(error);
  });
  const rail = connection.payment;
  if (!rail) throw paymentsUnavailable(connection.paymentError);
  const facilitator = options.facilitatorUrl ? remoteFacilitator(options.facilitatorUrl, context.facilitatorTimeoutMs) : railFacilitator(connection, rail);
  return { connection, rail, facilitator };
}

async function requirementsFor(context: X402Context, price: Price, resource: string): Promise<RailPaymentRequirements> {
  const { rail } = await railFor(context);
  return requirementsOn(rail, price, resource);
}

// An unsettled claim older than this no longer holds the payer's funds (its transfer cannot still be pending in any sane way).
const reservationStart = (context: X402Context) => new Date(context.options.clock.now().getTime() - RESERVATION_SECONDS * 1000);
const claimed = (payer: string, nonce: string) => and(eq(x402Payments.payer, payer.toLowerCase()), eq(x402Payments.nonce, nonce.toLowerCase()));

/** Claims (payer, nonce) once, within the payer's balance: one payer's claims are taken in turn (an advisory lock on the payer). */
function claim(context: X402Context, payload: EvmPaymentPayload, resource: string, balance: bigint): Promise<ClaimOutcome> {
  const { from, nonce, value, validBefore } = payload.payload.authorization;
  const payer = from.toLowerCase();
  const work = context.db.transaction(async (tx): Promise<ClaimOutcome> => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`x402:${payer}`}))`);
    const [seen] = await tx.select({ nonce: x402Payments.nonce }).from(x402Payments).where(claimed(from, nonce));
    if (seen) return 'used';
    const [unsettled] = await tx
      .select({ total: sql<string>`coalesce(sum(${x402Payments.amount}), 0)` })
      .from(x402Payments)
      .where(and(eq(x402Payments.payer, payer), inArray(x402Payments.state, UNSETTLED_STATES), gt(x402Payments.claimedAt, reservationStart(context))));
    if (BigInt(unsettled?.total ?? '0') + BigInt(value) > balance) return 'overcommitted';
    await tx
      .insert(x402Payments)
      .values({ payer, nonce: nonce.toLowerCase(), resource, amount: value, claimedAt: context.options.clock.now(), state: 'CLAIMED', validBefore: BigInt(validBefore).toString() });
    return 'claimed';
  });
  return boundedCall(work, context.databaseTimeoutMs, 'claim an x402 payment');
}

function mark(context: X402Context, from: string, nonce: string, change: { state?: PaymentState; transaction?: string }): Promise<unknown> {
  return boundedCall(context.db.update(x402Payments).set(change).where(claimed(from, nonce)), context.databaseTimeoutMs, 'record an x402 payment');
}

/** CLAIMED -> SETTLING, false when the claim is no longer CLAIMED (the reconciler released it: its request had outlived every bound). */
async function startSettling(context: X402Context, from: string, nonce: string): Promise<boolean> {
  const update = context.db
    .update(x402Payments)
    .set({ state: 'SETTLING' })
    .where(and(claimed(from, nonce), eq(x402Payments.state, 'CLAIMED')))
    .returning({ nonce: x402Payments.nonce });
  return (await boundedCall(update, context.databaseTimeoutMs, 'record an x402 payment')).length === 1;
}

/** The token's view of the payer: balance, and whether the authorization was used (by us or anyone). */
async function onChainState(context: X402Context, connection: ChainConnection, rail: PaymentRail, from: Address, nonce: Hex) {
  const read = <T>(call: Promise<T>) => withTimeout(call, context.facilitatorTimeoutMs, 'read the payer on the rail');
  const [balance, used] = await Promise.all([
    read(connection.publicClient.readContract({ address: rail.token, abi: AUTHORIZATION_STATE_ABI, functionName: 'balanceOf', args: [from] })),
    read(connection.publicClient.readContract({ address: rail.token, abi: AUTHORIZATION_STATE_ABI, functionName: 'authorizationState', args: [from, nonce] })),
  ]);
  return { balance, used };
}

async function authorizePayment(context: X402Context, header: string | undefined, price: Price, resource: string): Promise<AuthorizedPayment | PaymentRefusal> {
  const { connection, rail, facilitator } = await railFor(context);
  const requirements = requirementsOn(rail, price, resource);
  const refuse = (reason: string): PaymentRefusal => ({ ok: false, reason, requirements });
  if (!header) return refuse('X-PAYMENT header is required');
  const payload = decodeEvmPayment(header);
  if (typeof payload === 'string') return refuse(payload);
  const { from, nonce, value } = payload.payload.authorization;
  // x402's verify accepts any amount at or above the price; the exact scheme charges the price.
  if (value !== requirements.maxAmountRequired) return refuse(`invalid_exact_evm_payload_authorization_value: the authorization must be for exactly ${requirements.maxAmountRequired}`);
  const verification = await facilitator.verify(payload, requirements).catch((error: unknown): VerifyResponse => {
    // The node or the facilitator did not answer: the payment was not judged, so the client retries (503), not re-signs.
    if (isUnreachable(error)) throw paymentsUnavailable(error);
    context.options.logger?.warn({ err: error, resource }, 'x402 verify failed');
    return { isValid: false, invalidReason: 'unexpected_verify_error' as never };
  });
  if (!verification.isValid) return refuse(verification.invalidReason ?? 'invalid_payment');
  const chainState = await onChainState(context, connection, rail, from as Address, nonce as Hex).catch((error: unknown) => {
    throw paymentsUnavailable(error);
  });
  if (chainState.used) return refuse('payment_already_used: the token has already used this authorization');
  const outcome = await claim(context, payload, resource, chainState.balance);
  if (outcome === 'used') return refuse('payment_already_used: this authorization was presented before');
  if (outcome === 'overcommitted') return refuse("insufficient_funds: the payer's balance does not cover this payment with its payments still being settled");
  const payment: ClaimedPayment = { context, payload, requirements, facilitator, connection, rail };
  return {
    ok: true,
    payer: from as Address,
    release: () => releasePayment(payment),
    settle: () => settlePayment(payment),
  };
}

/** A payment verified and claimed: what its settlement or release needs. */
interface ClaimedPayment {
  context: X402Context;
  payload: EvmPaymentPayload;
  requirements: RailPaymentRequirements;
  facilitator: Facilitator;
  connection: ChainConnection;
  rail: PaymentRail;
}

const refusalOf = (payment: ClaimedPayment, reason: string): PaymentRefusal => ({ ok: false, reason, requirements: payment.requirements });

function succeeded(payment: ClaimedPayment, transaction: string, settlement: SettleResponse): PaymentOutcome {
  return { ok: true, payer: payment.payload.payload.authorization.from as Address, transaction, header: settleResponseHeader(settlement) };
}

async function releasePayment(payment: ClaimedPayment): Promise<void> {
  const { context } = payment;
  const { from, nonce } = payment.payload.payload.authorization;
  await boundedCall(context.db.delete(x402Payments).where(and(claimed(from, nonce), eq(x402Payments.state, 'CLAIMED'))), context.databaseTimeoutMs, 'release an x402 payment');
}

async function settlePayment(payment: ClaimedPayment): Promise<PaymentOutcome | PaymentRefusal> {
  const { context, payload, requirements, facilitator } = payment;
  const { logger } = context.options;
  const { from, nonce } = payload.payload.authorization;
  // Recording the hash is bookkeeping: the transfer stands whether or not it is written down.
  const recordSent = (transaction: Hex) =>
    mark(context, from, nonce, { transaction }).then(
      () => undefined,
      (error: unknown) => logger?.error({ err: error, payer: from, nonce, transaction }, 'x402 transaction sent but not recorded'),
    );
  if (!(await startSettling(context, from, nonce))) return refusalOf(payment, 'claim_expired: the payment was claimed too long ago and has been released; present it again');
  let settlement: SettleResponse;
  try {
    settlement = await facilitator.settle(payload, requirements, recordSent);
  } catch (error) {
    if (error instanceof UncertainSettlement) return resolveUncertain(payment, error);
    logger?.warn({ err: error, payer: from, nonce }, 'x402 settlement refused');
    settlement = { success: false, errorReason: 'unexpected_settle_error' as never, transaction: '', network: X402_NETWORK, payer: from };
  }
  if (!settlement.success) {
    // Kept, not released: the work was done for this authorization, and it will not be done again for it.
    await mark(context, from, nonce, { state: 'FAILED' }).catch((error: unknown) => logger?.error({ err: error, payer: from, nonce }, 'x402 failed settlement not marked'));
    return refusalOf(payment, `${settlement.errorReason ?? 'settlement_failed'}: the payment was not settled; sign a new authorization to retry`);
  }
  await mark(context, from, nonce, { state: 'SETTLED', transaction: settlement.transaction }).catch((error: unknown) =>
    logger?.error({ err: error, payer: from, nonce, transaction: settlement.transaction }, 'x402 payment settled but not marked'),
  );
  return succeeded(payment, settlement.transaction, settlement);
}

/** The transfer may or may not have happened: the token knows whether the authorization was used. */
async function resolveUncertain(payment: ClaimedPayment, error: unknown): Promise<PaymentOutcome | PaymentRefusal> {
  const { context, connection, rail } = payment;
  const { logger } = context.options;
  const { from, nonce } = payment.payload.payload.authorization;
  logger?.error({ err: error, payer: from, nonce }, 'x402 settlement outcome unknown; checking the token');
  const used = await onChainState(context, connection, rail, from as Address, nonce as Hex).then(
    (state) => state.used,
    () => undefined,
  );
  if (used !== true) return refusalOf(payment, 'settlement_unconfirmed: the transfer was not confirmed; this authorization stays reserved and must not be presented again');
  const [row] = await boundedCall(context.db.select({ transaction: x402Payments.transaction }).from(x402Payments).where(claimed(from, nonce)), context.databaseTimeoutMs, 'read an x402 payment').catch(
    () => [],
  );
  const transaction = row?.transaction ?? '';
  await mark(context, from, nonce, { state: 'SETTLED' }).catch((markError: unknown) => logger?.error({ err: markError, payer: from, nonce }, 'x402 payment settled but not marked'));
  return succeeded(payment, transaction, { success: true, transaction, network: X402_NETWORK, payer: from });
}

export type X402 = ReturnType<typeof createX402>;

function requirementsOn(rail: PaymentRail, price: Price, resource: string): RailPaymentRequirements {
  return {
    scheme: 'exact',
    network: X402_NETWORK,
    maxAmountRequired: price.amount.toString(),
    resource,
    description: price.description,
    mimeType: 'application/json',
    payTo: rail.payTo,
    maxTimeoutSeconds: SETTLEMENT_TIMEOUT_SECONDS,
    asset: rail.token,
    extra: { name: rail.tokenDomain.name, version: rail.tokenDomain.version },
  };
}

/** The X-PAYMENT header as an exact-scheme EVM payment on Base, or the reason it is not one. */
function decodeEvmPayment(header: string): EvmPaymentPayload | string {
  let payload: PaymentPayload;
  try {
    payload = decodePayment(header);
  } catch {
    return 'invalid_payment_header: not a base64-encoded x402 payment payload';
  }
  if (payload.x402Version !== X402_VERSION || payload.scheme !== 'exact' || payload.network !== X402_NETWORK || !('authorization' in payload.payload)) {
    return `unsupported_scheme_or_network: expected x402Version ${X402_VERSION}, scheme exact, network ${X402_NETWORK}`;
  }
  return payload as EvmPaymentPayload;
}
