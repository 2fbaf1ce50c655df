import { and, eq } from 'drizzle-orm';
import { isErc6492Signature, parseAbi, parseErc6492Signature, parseSignature, type Address, type Hex } from 'viem';
import { verify as verifyOnRail } from 'x402/facilitator';
import { decodePayment } from 'x402/schemes';
import { settleResponseHeader, type PaymentPayload, type PaymentRequirements, type SettleResponse, type VerifyResponse } from 'x402/types';
import { useFacilitator } from 'x402/verify';
import { x402Payments } from '../../drizzle/schema.js';
import type { ChainConnection, PaymentRail, RailChain } from '../chain/index.js';
import type { Database } from '../db.js';
import { AppError } from '../errors.js';
import { withTimeout } from '../timeout.js';

export const X402_VERSION = 1;
/** x402's name for Base mainnet (chainId 8453); the spec's descriptor says `base-mainnet` (decision 0010). */
export const X402_NETWORK = 'base';
const SETTLEMENT_TIMEOUT_SECONDS = 60;

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
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}

/** USDC's EIP-3009 transfer (the rail's token has the same): the (v, r, s) form for EOA signatures, the bytes form for smart wallets. */
const TRANSFER_WITH_AUTHORIZATION_ABI = parseAbi([
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
]);

/**
 * The rail as its own facilitator: x402's `verify`, and our own settlement. One account settles
 * every payment, so its transactions are sent one at a time (each takes the account's next
 * nonce); waiting for the receipts is not serialised, so settlements overlap on chain.
 */
function railFacilitator(connection: ChainConnection, rail: PaymentRail, sendInTurn: <T>(send: () => Promise<T>) => Promise<T>): Facilitator {
  return {
    // x402 types its clients with its own copies of viem's generics; ours are the same viem clients.
    verify: (payload, requirements) => verifyOnRail(connection.publicClient as never, payload, requirements),
    async settle(payload, requirements) {
      const settler = rail.settler;
      if (!settler) throw paymentsUnavailable();
      const { authorization, signature } = (payload as EvmPaymentPayload).payload;
      const { from, to, value, validAfter, validBefore, nonce } = authorization;
      const terms = [from as Address, to as Address, BigInt(value), BigInt(validAfter), BigInt(validBefore), nonce as Hex] as const;
      const send = () => {
        if (isErc6492Signature(signature)) {
          const unwrapped = parseErc6492Signature(signature).signature;
          return settler.writeContract({ address: requirements.asset as Address, abi: TRANSFER_WITH_AUTHORIZATION_ABI, functionName: 'transferWithAuthorization', args: [...terms, unwrapped] });
        }
        const { r, s, v, yParity } = parseSignature(signature);
        return settler.writeContract({ address: requirements.asset as Address, abi: TRANSFER_WITH_AUTHORIZATION_ABI, functionName: 'transferWithAuthorization', args: [...terms, Number(v ?? 27n + BigInt(yParity)), r, s] });
      };
      const transaction = await sendInTurn(send);
      const receipt = await connection.publicClient.waitForTransactionReceipt({ hash: transaction, timeout: SETTLEMENT_TIMEOUT_SECONDS * 1000 });
      if (receipt.status !== 'success') return { success: false, errorReason: 'invalid_transaction_state', transaction, network: X402_NETWORK, payer: from };
      return { success: true, transaction, network: X402_NETWORK, payer: from };
    },
  };
}

/** Runs each task after the previous one settled, whatever its outcome. */
function createTurns() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const next = last.then(task, task);
    last = next.catch(() => undefined);
    return next;
  };
}

/** An external facilitator's /verify and /settle (the x402 client), each bounded in time. */
function remoteFacilitator(url: string, timeoutMs: number): Facilitator {
  const remote = useFacilitator({ url: url.replace(/\/+$/, '') as `${string}://${string}` });
  return {
    verify: (payload, requirements) => withTimeout(remote.verify(payload as never, requirements as never), timeoutMs, 'x402 facilitator /verify'),
    settle: (payload, requirements) => withTimeout(remote.settle(payload as never, requirements as never), timeoutMs, 'x402 facilitator /settle'),
  };
}

export interface X402Options {
  chain: RailChain;
  db: Database;
  clock: { now(): Date };
  /** FACILITATOR_URL: verify and settle there instead of on the rail's own account. */
  facilitatorUrl?: string | undefined;
  facilitatorTimeoutMs?: number;
}

/**
 * x402 on the rail (exact scheme, EIP-3009 on the rail's token):
 * 1. The payment is verified before any paid work (x402's `verify`, on the rail or at
 *    FACILITATOR_URL): signature under the token's EIP-712 domain, payee, asset, network,
 *    validity window, amount, payer balance.
 * 2. The authorization (payer, nonce) is then claimed in the database, which the x402 package
 *    does not do: a second use of one payment, concurrent or later, finds it claimed and is refused.
 * 3. The paid work runs; only when it succeeded is the payment settled (transferWithAuthorization),
 *    so nobody pays for an error. A failed settlement or failed work releases the claim.
 */
export function createX402(options: X402Options) {
  const facilitatorTimeoutMs = options.facilitatorTimeoutMs ?? 15_000;
  const sendInTurn = createTurns();

  async function railFor(): Promise<{ connection: ChainConnection; rail: PaymentRail; facilitator: Facilitator }> {
    const connection = await options.chain.connect().catch((error: unknown) => {
      throw paymentsUnavailable(error);
    });
    const rail = connection.payment;
    if (!rail) throw paymentsUnavailable();
    const facilitator = options.facilitatorUrl ? remoteFacilitator(options.facilitatorUrl, facilitatorTimeoutMs) : railFacilitator(connection, rail, sendInTurn);
    return { connection, rail, facilitator };
  }

  async function requirementsFor(price: Price, resource: string): Promise<RailPaymentRequirements> {
    const { rail } = await railFor();
    return requirementsOn(rail, price, resource);
  }

  async function claim(payload: EvmPaymentPayload, resource: string): Promise<boolean> {
    const { from, nonce, value } = payload.payload.authorization;
    const rows = await options.db
      .insert(x402Payments)
      .values({ payer: from.toLowerCase(), nonce: nonce.toLowerCase(), resource, amount: value, claimedAt: options.clock.now() })
      .onConflictDoNothing()
      .returning({ nonce: x402Payments.nonce });
    return rows.length === 1;
  }

  const claimed = (payer: string, nonce: string) => and(eq(x402Payments.payer, payer.toLowerCase()), eq(x402Payments.nonce, nonce.toLowerCase()));

  async function authorize(header: string | undefined, price: Price, resource: string): Promise<AuthorizedPayment | PaymentRefusal> {
    const { rail, facilitator } = await railFor();
    const requirements = requirementsOn(rail, price, resource);
    const refuse = (reason: string): PaymentRefusal => ({ ok: false, reason, requirements });
    if (!header) return refuse('X-PAYMENT header is required');
    const payload = decodeEvmPayment(header);
    if (typeof payload === 'string') return refuse(payload);
    const verification = await facilitator.verify(payload, requirements).catch((): VerifyResponse => ({ isValid: false, invalidReason: 'unexpected_verify_error' as never }));
    if (!verification.isValid) return refuse(verification.invalidReason ?? 'invalid_payment');
    if (!(await claim(payload, resource))) return refuse('payment_already_used: this authorization was presented before');
    const { from, nonce } = payload.payload.authorization;
    const release = async () => {
      await options.db.delete(x402Payments).where(claimed(from, nonce));
    };
    return {
      ok: true,
      payer: from as Address,
      release,
      async settle() {
        // A revert or an unreachable rail: the claim is released and the payer may retry.
        const settlement = await facilitator.settle(payload, requirements).catch(
          (): SettleResponse => ({ success: false, errorReason: 'unexpected_settle_error' as never, transaction: '', network: X402_NETWORK, payer: from }),
        );
        if (!settlement.success) {
          await release();
          return refuse(settlement.errorReason ?? 'settlement_failed');
        }
        await options.db.update(x402Payments).set({ transaction: settlement.transaction }).where(claimed(from, nonce));
        return { ok: true, payer: from as Address, transaction: settlement.transaction, header: settleResponseHeader(settlement) };
      },
    };
  }

  return {
    requirementsFor,
    authorize,
    /** Verifies, claims and settles at once, for a price with no work that could fail after payment. */
    async pay(header: string | undefined, price: Price, resource: string): Promise<PaymentOutcome | PaymentRefusal> {
      const authorized = await authorize(header, price, resource);
      return authorized.ok ? authorized.settle() : authorized;
    },
  };
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
