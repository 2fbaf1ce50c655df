import { createHash } from 'node:crypto';
import { getAddress } from 'viem';
import { decodePayment } from 'x402/schemes';
import { presentedKey } from '../../../platform/access/api-keys.js';
import { type PaymentRefusal, paymentRequiredBody, type X402 } from '../../../platform/access/x402.js';
import type { Clock } from '../../../platform/clock.js';
import { AppError, unreachable } from '../../../platform/errors.js';
import type { IdSource } from '../../../platform/ids.js';
import type { RequestContext } from '../../../platform/request-context.js';
import { STREAM_UNIT_TYPES, type StreamPrices, type StreamUnitType } from '../data/stream-prices.js';
import { baseUnitsToUsdcText, STREAM_MAX_BASE_UNITS, STREAM_MIN_BASE_UNITS, type StreamOpenBody } from './inputs.js';
import type { StreamSessionRow, StreamStore } from './store.js';

/** A session takes ticks for 24 hours after it was opened (decision 0019). */
export const STREAM_SESSION_TTL_MS = 24 * 60 * 60 * 1000;
const TOKEN_PREFIX = 'sst_';

/** The discovery entry of POST /stream/open (Document 2 §2): the amount is the client's, within §8's bounds. */
export const STREAM_OFFER = {
  minUsdc: Number(baseUnitsToUsdcText(STREAM_MIN_BASE_UNITS)),
  maxUsdc: Number(baseUnitsToUsdcText(STREAM_MAX_BASE_UNITS)),
  unitTypes: STREAM_UNIT_TYPES,
  description: 'Pay upfront for a credit bucket, units ticked against the balance',
} as const;
const TOKEN_PATTERN = /^sst_[A-Za-z0-9_-]{43}$/;

/** Where the loud lines go (pino's logger fits). */
export interface StreamLog {
  error(details: Record<string, unknown>, message: string): void;
}

export interface StreamServiceDeps {
  clock: Clock;
  ids: IdSource;
  store: StreamStore;
  /** platform/access x402: verify and claim, then settle or release. */
  x402: Pick<X402, 'authorize'>;
  prices: StreamPrices;
  log: StreamLog;
}

export type StreamStatus = 'ACTIVE' | 'EXHAUSTED' | 'EXPIRED';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The authorization nonce of an X-PAYMENT that x402 has just authorized (so it decodes as an exact EVM payment). */
function paymentNonceOf(header: string): string {
  const payload = decodePayment(header).payload as { authorization?: { nonce?: unknown } };
  const nonce = payload.authorization?.nonce;
  if (typeof nonce !== 'string') throw new Error('an authorized x402 payment without an authorization nonce');
  return nonce.toLowerCase();
}

/** The 402 of x402 for this session's amount, with what the payment buys. */
function paymentRefusal(refusal: PaymentRefusal, preview: StreamPreview): AppError {
  return new AppError('GEN_ERR_PAYMENT_REQUIRED', { message: refusal.reason, details: { ...paymentRequiredBody(refusal.requirements, refusal.reason), streamPreview: preview } });
}

interface StreamPreview {
  amountUsdc: string;
  unitType: StreamUnitType;
  unitPriceUsdc: string;
  balanceUnits: number;
  validForHours: number;
}

function statusOf(session: StreamSessionRow, now: Date): StreamStatus {
  if (session.expiresAt.getTime() <= now.getTime()) return 'EXPIRED';
  return session.balance < session.unitPrice ? 'EXHAUSTED' : 'ACTIVE';
}

function presentSession(session: StreamSessionRow, now: Date) {
  return {
    sessionId: session.sessionId,
    status: statusOf(session, now),
    unitType: session.unitType,
    unitPriceUsdc: baseUnitsToUsdcText(session.unitPrice),
    fundedUsdc: baseUnitsToUsdcText(session.funded),
    balanceUsdc: baseUnitsToUsdcText(session.balance),
    balanceUnits: Number(session.balance / session.unitPrice),
    unitsUsed: Number(session.unitsUsed),
    payer: getAddress(session.payer) as string,
    transaction: session.transaction,
    openedAt: session.openedAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    lastTickAt: session.lastTickAt?.toISOString() ?? null,
  };
}

/** The session's token hash from Authorization: Bearer; 401 when there is none of the session token's form. */
function tokenHashOf(request: RequestContext): string {
  const token = presentedKey(request.headers, 'bearer');
  if (token === undefined || !TOKEN_PATTERN.test(token)) throw new AppError('CMP_ERR_STREAM_TOKEN_REQUIRED');
  return hashToken(token);
}

/** The amount must buy a whole number of units, at least one: nothing of a session is left that no tick could use. */
function unitsBought(prices: StreamPrices, amount: bigint, unitType: StreamUnitType): bigint {
  const unitPrice = prices.unitPrices[unitType];
  if (amount % unitPrice === 0n) return amount / unitPrice;
  const below = (amount / unitPrice) * unitPrice;
  const above = below + unitPrice;
  const nearest = [below, above].filter((candidate) => candidate >= STREAM_MIN_BASE_UNITS && candidate <= STREAM_MAX_BASE_UNITS).map((candidate) => `${baseUnitsToUsdcText(candidate)}`);
  throw new AppError('CMP_ERR_STREAM_AMOUNT_NOT_WHOLE_UNITS', {
    message: `amountUsdc ${baseUnitsToUsdcText(amount)} is not a whole number of ${unitType} units at ${baseUnitsToUsdcText(unitPrice)} USDC each; ${nearest.length > 0 ? `nearest amounts: ${nearest.join(' or ')}` : 'no amount in 0.01-10000 USDC fits'}.`,
    details: { unitType, unitPriceUsdc: baseUnitsToUsdcText(unitPrice), nearestAmountsUsdc: nearest },
  });
}

/** Settled: insert the session; on failure log and retry once; then log the payment for the operator and answer 500. */
async function recordSession(deps: StreamServiceDeps, session: StreamSessionRow): Promise<void> {
  const identity = { sessionId: session.sessionId, payer: session.payer, paymentNonce: session.paymentNonce, transaction: session.transaction, fundedBaseUnits: session.funded.toString() };
  try {
    await deps.store.insert(session);
    return;
  } catch (error) {
    deps.log.error({ err: error, ...identity }, 'stream session: payment settled but the session insert failed; retrying once');
  }
  try {
    await deps.store.insert(session);
  } catch (error) {
    deps.log.error({ err: error, ...identity }, 'stream session NOT RECORDED after a settled payment: open it by hand for this payer and transaction');
    throw new AppError('CMP_ERR_STREAM_NOT_RECORDED', {
      message: `The payment settled (transaction ${session.transaction || 'unknown'}) but the streaming session could not be recorded; the failure was logged for the operator. Do not pay again.`,
      details: { transaction: session.transaction, payer: getAddress(session.payer) },
    });
  }
}

/** POST /stream/open: the 402 for the amount asked, then, paid, the session and its token (shown once). */
async function open(deps: StreamServiceDeps, request: RequestContext, body: StreamOpenBody, resource: string) {
  const { amountUsdc: amount, unitType } = body;
  const units = unitsBought(deps.prices, amount, unitType);
  const unitPrice = deps.prices.unitPrices[unitType];
  const amountText = baseUnitsToUsdcText(amount);
  const preview: StreamPreview = { amountUsdc: amountText, unitType, unitPriceUsdc: baseUnitsToUsdcText(unitPrice), balanceUnits: Number(units), validForHours: STREAM_SESSION_TTL_MS / 3_600_000 };
  const price = { amount, description: `Streaming session: ${amountText} USDC of credit, ${units} ${unitType} units at ${preview.unitPriceUsdc} USDC each` };

  const header = request.headers['x-payment'];
  const authorized = await deps.x402.authorize(header, price, resource);
  if (!authorized.ok) throw paymentRefusal(authorized, preview);
  // Authorized means the header decoded as an exact EVM payment.
  const paymentNonce = paymentNonceOf(header!);
  // No one will read the answer: the claim is given back, nothing is charged (as paidWork does).
  if (request.abandoned.aborted) {
    await authorized.release();
    throw new AppError('GEN_ERR_TIMEOUT', { message: 'The request was abandoned before its answer was sent; the payment was not taken.', retryAfterSeconds: 5 });
  }
  const settled = await authorized.settle();
  if (!settled.ok) throw paymentRefusal(settled, preview);
  request.responseHeaders.set('x-payment-response', settled.header);
  request.responseHeaders.set('access-control-expose-headers', 'X-PAYMENT-RESPONSE');

  const token = `${TOKEN_PREFIX}${deps.ids.token(32)}`;
  const openedAt = deps.clock.now();
  const session: StreamSessionRow = {
    sessionId: `str_${deps.ids.token(16)}`,
    tokenHash: hashToken(token),
    payer: settled.payer.toLowerCase(),
    paymentNonce,
    transaction: settled.transaction,
    unitType,
    unitPrice,
    funded: amount,
    balance: amount,
    unitsUsed: 0n,
    openedAt,
    expiresAt: new Date(openedAt.getTime() + STREAM_SESSION_TTL_MS),
    lastTickAt: null,
  };
  await recordSession(deps, session);
  return { ...presentSession(session, openedAt), token };
}

/** POST /stream/:sessionId/tick: units x unitPrice off the balance, all or nothing. */
async function tick(deps: StreamServiceDeps, request: RequestContext, sessionId: string, units: number) {
  const tokenHash = tokenHashOf(request);
  const now = deps.clock.now();
  const ticked = await deps.store.tick(sessionId, tokenHash, units, now);
  switch (ticked.outcome) {
    case 'TICKED': {
      const { session } = ticked;
      return {
        sessionId,
        unitsCharged: units,
        costUsdc: baseUnitsToUsdcText(session.unitPrice * BigInt(units)),
        balanceUsdc: baseUnitsToUsdcText(session.balance),
        balanceUnits: Number(session.balance / session.unitPrice),
        unitsUsed: Number(session.unitsUsed),
        status: statusOf(session, now),
        tickedAt: now.toISOString(),
      };
    }
    case 'NOT_FOUND':
      throw new AppError('CMP_ERR_STREAM_NOT_FOUND');
    case 'EXPIRED':
      throw new AppError('CMP_ERR_STREAM_EXPIRED', {
        message: `The streaming session expired at ${ticked.session.expiresAt.toISOString()}: it takes no more ticks.`,
        details: { sessionId, expiresAt: ticked.session.expiresAt.toISOString(), balanceUsdc: baseUnitsToUsdcText(ticked.session.balance) },
      });
    case 'INSUFFICIENT_BALANCE':
      throw insufficientBalance(ticked.session, sessionId, units);
    default:
      return unreachable(ticked);
  }
}

function insufficientBalance(session: StreamSessionRow, sessionId: string, units: number): AppError {
  const cost = baseUnitsToUsdcText(session.unitPrice * BigInt(units));
  const balanceUnits = Number(session.balance / session.unitPrice);
  const balanceUsdc = baseUnitsToUsdcText(session.balance);
  return new AppError('CMP_ERR_STREAM_INSUFFICIENT_BALANCE', {
    message: `${units} ${session.unitType} units cost ${cost} USDC; the balance is ${balanceUsdc} USDC (${balanceUnits} units). Nothing was charged.`,
    details: { sessionId, requestedUnits: units, costUsdc: cost, balanceUsdc, balanceUnits },
  });
}

/**
 * Streaming micropayment sessions (Document 2 §2 discovery entry of POST /stream/open, §8; decision 0019):
 * 1. open: the client asks for an amount (0.01-10000 USDC, a whole number of units of its unit
 *    type); the 402 carries x402 requirements for exactly that amount, so the x402 client signs
 *    it; the retry with X-PAYMENT is verified and claimed (one authorization, one claim), settled,
 *    and only then is the session inserted. A failed insert after settlement is logged and retried
 *    once; if it fails again, the transaction is logged for the operator (the payment is not lost).
 * 2. tick: units x unitPrice off the balance in one conditional UPDATE; the balance is never negative.
 * 3. Every use after open carries the session's bearer token, shown once and stored hashed.
 */
export function createStreamService(deps: StreamServiceDeps) {
  return {
    open: (request: RequestContext, body: StreamOpenBody, resource: string) => open(deps, request, body, resource),

    async get(request: RequestContext, sessionId: string) {
      const session = await deps.store.find(sessionId, tokenHashOf(request));
      if (!session) throw new AppError('CMP_ERR_STREAM_NOT_FOUND');
      return presentSession(session, deps.clock.now());
    },

    tick: (request: RequestContext, sessionId: string, units: number) => tick(deps, request, sessionId, units),
  };
}

export type StreamService = ReturnType<typeof createStreamService>;
