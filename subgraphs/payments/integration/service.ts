import type { Logger } from 'pino';
import { SETTLEMENT_AGENT_INSTITUTION } from '../../../drizzle/schema.js';
import type { Tenant } from '../../../platform/access/admission.js';
import { canonicalSha256, type JsonValue } from '../../../platform/canonical-json.js';
import { type Clock, epochSeconds } from '../../../platform/clock.js';
import { AppError, InfrastructureError } from '../../../platform/errors.js';
import type { IdSource } from '../../../platform/ids.js';
import type { RequestContext } from '../../../platform/request-context.js';
import { UpstreamAnswerError } from '../../../platform/upstream.js';
import type { AmlOutcome, FlowStep, NativePayment, PaymentResult, ResultFrame, VopOutcome } from '../domain/index.js';
import { finalResult, pendingResult, usdcAmountAtUnitsPerUsd, usdcTextOfUnits, usdcUnitsOf } from '../domain/index.js';
import { RailError, type RailSettlement } from '../rail/settlement.js';
import type { ComplianceClient } from '../upstream/compliance.js';
import type { FeeQuote, FeesClient, FxRate } from '../upstream/fees.js';
import type { AgentClaim } from './claim.js';
import { canonicalDecimal, sameDecimal } from './domain/index.js';
import type { PaymentRow, PaymentStore } from './store.js';

export interface PaymentsServiceDeps {
  store: PaymentStore;
  /** Undefined when INTERNAL_KEY is unset: the compliance oracle's internal endpoints are closed, so no payment can be screened. */
  compliance: ComplianceClient | undefined;
  fees: FeesClient;
  rail: RailSettlement;
  clock: Clock;
  ids: IdSource;
  logger: Pick<Logger, 'warn' | 'error'>;
}

/** What a caller other than the integration API gives initiate (the settlement agent, agent/service.ts). */
export interface InitiateOptions {
  /** The railPaymentId to use (default: a new one), when the caller recorded it before (an AP2 mandate's use). */
  railPaymentId?: string;
  /** The settlement agent that asked for it, counted in its daily cap. */
  agent?: AgentClaim;
  /** The payment's requestDigestOf, when the caller has it from an earlier read of the same body (initiation.ts, decision 0043). */
  requestSha256?: string;
}

/** A settlement agent's claim found its daily cap taken at the claim (another settlement got there first): the agent holds it. */
export class DailyCapReached extends Error {
  constructor(readonly settledUsd: string) {
    super(`the agent's daily cap was reached at the claim (USD ${settledUsd} settled today)`);
  }
}

/** A railPaymentId: `pay_` and a UUID. */
export const RAIL_PAYMENT_ID_PATTERN = /^pay_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A new railPaymentId. */
export const newRailPaymentId = (ids: IdSource) => `pay_${ids.uuid()}`;
/** Currencies whose amounts the AML oracle takes as USD (decision 0017). */
const USD_DENOMINATED = new Set(['USD']);

/** Why an upstream step failed, in words safe to store and answer (never a driver's or node's own text). */
function failureText(error: unknown): string {
  if (error instanceof UpstreamAnswerError || error instanceof RailError) return error.message;
  if (error instanceof InfrastructureError) return `${error.operation} did not answer`;
  return 'an unexpected error (logged)';
}

/** A quote id given with a payment, verified: the rate it was checked at and the quote's terms. */
interface QuotedTerms {
  rate: FxRate;
  quote: FeeQuote;
}

const resultOf = (row: PaymentRow) => row.result as PaymentResult;

/**
 * The request's digest: RFC 8785 canonical JSON of the payment with its amount in one spelling
 * (canonicalDecimal), so equal amounts are the same request whatever their spelling ("1250.50" by
 * REST, "1250.5" from GraphQL's Decimal; decision 0050). Text that is not well-formed Unicode (a
 * lone surrogate) has none and is refused.
 */
export function requestDigestOf(payment: NativePayment): string {
  try {
    return canonicalSha256({ ...payment, amount: canonicalDecimal(payment.amount) } as unknown as JsonValue);
  } catch (error) {
    if (error instanceof RangeError) throw new AppError('PAY_ERR_INVALID_REQUEST', { message: 'Invalid body: every text must be well-formed Unicode (no lone surrogates).' });
    throw error;
  }
}

/**
 * The payments capabilities, called alike by routes.ts and resolvers.ts (decision 0025).
 * 1. initiate claims the payment by its tmsReference before anything else: a retry or a
 *    concurrent duplicate reads the stored result (PENDING while the first is running) and never
 *    sends twice; another body under the same reference is a 409.
 * 2. The claimed payment runs VoP -> FX rate -> AML -> fee quote -> settlement, each step able to
 *    end it (BLOCKED: VoP BLOCKED or AML BLOCK; FAILED: an upstream or the rail failed, or no FX
 *    rate), and its final result is written once, with its callback in the same transaction.
 */
export function createPaymentsService(deps: PaymentsServiceDeps) {
  return { for: (tenant: Tenant): PaymentsService => forTenant(deps, tenant), rate: (currency: string) => rateOf(deps, currency) };
}

/** How a payment's flow ended: its final step (and the quote it used), or unconfirmed: sent, its outcome for the recovery to read from the chain. */
type FlowEnd = { step: FlowStep; quoteId?: string } | 'unconfirmed';

/** What the screening passed on to the settlement: the payment is neither blocked nor failed. */
interface Screened {
  vop: VopOutcome;
  rate: FxRate;
  /** The USDC amount (decimal text) and the same as a number, as the AML oracle and fees take it. */
  usdc: string;
  usdcNumber: number;
  aml: AmlOutcome;
}

/** A payment's flow: the screening (VoP, FX rate, AML), then the settlement (quote, record, rail). */
async function run(deps: PaymentsServiceDeps, frame: ResultFrame, quoted?: QuotedTerms): Promise<FlowEnd> {
  const screened = await screen(deps, frame, quoted);
  return 'step' in screened ? screened : settle(deps, frame, screened, quoted);
}

/** VoP -> FX rate -> AML: each step able to end the payment (BLOCKED or FAILED) before anything is quoted. */
async function screen(deps: PaymentsServiceDeps, frame: ResultFrame, quoted: QuotedTerms | undefined): Promise<Screened | { step: FlowStep }> {
  const { payment } = frame;
  const compliance = deps.compliance!;
  let vop: VopOutcome;
  try {
    vop = await compliance.verifyPayee({
      walletAddress: payment.creditor.walletAddress,
      submittedName: payment.creditor.name,
      ...(payment.creditor.lei ? { submittedLei: payment.creditor.lei } : {}),
    });
  } catch (error) {
    return { step: failed(deps, 'verification of payee could not be completed', error) };
  }
  // Only BLOCKED is a hard block (spec §3); every other result proceeds, its confidence in the attestation.
  if (vop.result === 'BLOCKED') return { step: { kind: 'vop-blocked', vop } };

  let rate: FxRate | null;
  try {
    rate = quoted?.rate ?? (await deps.fees.fxRate(payment.currency));
  } catch (error) {
    return { step: failed(deps, 'the FX rate could not be read', error, { vop }) };
  }
  if (!rate) return { step: { kind: 'failed', reason: `no FX rate against USD for ${payment.currency}; nothing was sent.`, vop } };
  // The rate is units of the currency per 1 USD (decision 0026): USDC = amount / rate, half-even to 6 decimals.
  const usdc = usdcAmountAtUnitsPerUsd(payment.amount, rate.rate);
  const usdcNumber = Number(usdc);
  if (!sameDecimal(String(usdcNumber), usdc) || usdcNumber <= 0) {
    return { step: { kind: 'failed', reason: `the USDC amount ${usdc} cannot be quoted exactly; nothing was sent.`, vop, exchangeRate: rate.rate } };
  }

  let aml: AmlOutcome;
  try {
    aml = await compliance.screenAml({
      wallet: payment.debtor.walletAddress,
      counterparty: payment.creditor.walletAddress,
      counterpartyName: payment.creditor.name,
      amount: Number(payment.amount),
      currency: payment.currency,
      ...(USD_DENOMINATED.has(payment.currency) ? {} : { amountUsd: usdcNumber }),
      paymentId: frame.railPaymentId,
      direction: 'SEND',
    });
  } catch (error) {
    return { step: failed(deps, 'AML screening could not be completed', error, { vop, exchangeRate: rate.rate }) };
  }
  // FLAG proceeds with the flag in the attestation (decision 0025); BLOCK (an escalated FLAG included) stops it.
  if (aml.action === 'BLOCK') return { step: { kind: 'aml-blocked', vop, aml } };
  return { vop, rate, usdc, usdcNumber, aml };
}

/** The fee quote -> the settling record -> the settlement on the rail. */
async function settle(deps: PaymentsServiceDeps, frame: ResultFrame, screened: Screened, quoted: QuotedTerms | undefined): Promise<FlowEnd> {
  const { payment } = frame;
  const { vop, aml, rate, usdc, usdcNumber } = screened;
  let quote: FeeQuote;
  try {
    // A quote id given with the payment was verified before the claim (initiate): its terms, so its fee, are charged.
    quote = quoted?.quote ?? (await deps.fees.quote({ amountUsd: usdcNumber, hasFx: !USD_DENOMINATED.has(payment.currency) }));
  } catch (error) {
    return { step: failed(deps, 'the fee quote could not be obtained', error, { vop, aml, exchangeRate: rate.rate }) };
  }
  let owned: boolean;
  try {
    // Recorded before anything is sent, so a payment whose process stops from here on is recovered from it and the chain (decision 0039).
    const recordedAt = deps.clock.now();
    owned = await deps.store.recordSettling(frame.railPaymentId, { quoteId: quote.quoteId, vop, aml, exchangeRate: rate.rate, recordedAtMs: recordedAt.getTime() }, recordedAt);
  } catch (error) {
    return { step: failed(deps, 'the settlement could not be recorded before sending', error, { vop, aml, exchangeRate: rate.rate }), quoteId: quote.quoteId };
  }
  // The payment left PENDING meanwhile (a recovery ended it): nothing is sent, and its stored result is the answer.
  if (!owned) return { step: { kind: 'failed', reason: 'the payment was ended by its recovery before its settlement was sent; nothing was settled.', vop, aml, exchangeRate: rate.rate } };
  try {
    const receipt = await deps.rail.settle({
      payee: payment.creditor.walletAddress as `0x${string}`,
      amount: usdcUnitsOf(usdc),
      hasFx: quote.hasFx,
      esgScore: quote.esgScore,
      monthlyVolumeUsd: quote.monthlyVolumeUsd,
      quoteId: quote.quoteId,
    });
    const settlement = { txHash: receipt.txHash, fee: usdcTextOfUnits(receipt.fee), exchangeRate: rate.rate };
    return { step: { kind: 'settled', vop, aml, settlement, settledAt: epochSeconds(deps.clock.now()) }, quoteId: quote.quoteId };
  } catch (error) {
    // Sent but not confirmed: it may still be mined, so the payment stays PENDING for its recovery to read the chain (decision 0039).
    if (error instanceof RailError && error.unconfirmed) {
      deps.logger.warn({ railPaymentId: frame.railPaymentId, txHash: error.txHash }, 'payment: the settlement was sent but not confirmed; left PENDING for recovery');
      return 'unconfirmed';
    }
    const txHash = error instanceof RailError ? error.txHash : undefined;
    return { step: failed(deps, 'the settlement on the rail failed', error, { vop, aml, exchangeRate: rate.rate, ...(txHash ? { txHash } : {}) }), quoteId: quote.quoteId };
  }
}

function failed(deps: PaymentsServiceDeps, what: string, error: unknown, known: Omit<Extract<FlowStep, { kind: 'failed' }>, 'kind' | 'reason'> = {}): FlowStep {
  if (!(error instanceof UpstreamAnswerError) && !(error instanceof RailError)) deps.logger.warn({ err: error }, `payment: ${what}`);
  return { kind: 'failed', reason: `${what} (${failureText(error)}); nothing was settled.`, ...known };
}

/**
 * Issue 10 item 9 (decision 0026): a quote id given with a new payment must be one fees issued
 * for exactly this payment's USD amount (at the current FX rate) and FX flag, and be unexpired;
 * else 400 PAY_ERR_QUOTE_INVALID and nothing is stored. A payment already stored under its
 * tmsReference is not re-checked: its replay answers the stored result, as every replay does.
 */
async function verifiedQuoteOf(deps: PaymentsServiceDeps, institutionId: string, payment: NativePayment, quoteId: string): Promise<QuotedTerms | undefined> {
  if (await deps.store.findByTmsReference(institutionId, payment.tmsReference)) return undefined;
  const rate = await deps.fees.fxRate(payment.currency).catch(upstreamUnavailable(deps, 'the FX rate'));
  if (!rate) throw new AppError('PAY_ERR_RATE_UNAVAILABLE', { message: `No FX rate against USD is available for ${payment.currency}: the quote cannot be checked.` });
  const amountUsd = Number(usdcAmountAtUnitsPerUsd(payment.amount, rate.rate));
  const check = await deps.fees.checkQuote(quoteId, { amountUsd, hasFx: !USD_DENOMINATED.has(payment.currency) }).catch(upstreamUnavailable(deps, 'the quote check'));
  if (!check.valid || !check.quote) {
    const why = {
      expired: 'it has expired',
      malformed: 'it is not a quote id',
      'signature-mismatch': `it was not issued for ${amountUsd} USD${USD_DENOMINATED.has(payment.currency) ? '' : ' with FX'}`,
      valid: 'it was refused',
    }[check.reason];
    throw new AppError('PAY_ERR_QUOTE_INVALID', { message: `The quoteId is not valid for this payment: ${why}.` });
  }
  return { rate, quote: check.quote };
}

function upstreamUnavailable(deps: PaymentsServiceDeps, what: string) {
  return (error: unknown): never => {
    if (!(error instanceof UpstreamAnswerError)) deps.logger.warn({ err: error }, `payment: ${what} failed`);
    throw new AppError('GEN_ERR_UNAVAILABLE', { message: `${what} could not be completed (${failureText(error)}); nothing was stored. Retry.` });
  };
}

function requireFound(row: PaymentRow | undefined): PaymentResult {
  if (!row) throw new AppError('PAY_ERR_PAYMENT_NOT_FOUND');
  return resultOf(row);
}

/** A row the tenant may see: the admin sees every payment, an institution its own; another's is answered as none. */
const visibleTo = (tenant: Tenant, row: PaymentRow | undefined) => (row && (tenant.kind === 'admin' || row.institutionId === tenant.institutionId) ? row : undefined);

/** POST /integration/payments/initiate (native) for the institution that will own it: the payment's result, stored or new. */
async function initiate(deps: PaymentsServiceDeps, institutionId: string, request: RequestContext, payment: NativePayment, options: InitiateOptions): Promise<PaymentResult> {
  if (!deps.compliance) {
    throw new AppError('GEN_ERR_UNAVAILABLE', { message: 'Payments cannot be screened: INTERNAL_KEY is not configured, so the compliance oracle is closed to them.' });
  }
  const now = request.clock.now();
  const railPaymentId = options.railPaymentId ?? newRailPaymentId(deps.ids);
  const frame: ResultFrame = { railPaymentId, payment, submittedAt: epochSeconds(now), network: deps.rail.network() };
  const quoted = payment.quoteId ? await verifiedQuoteOf(deps, institutionId, payment, payment.quoteId) : undefined;
  const claim = await deps.store.claim(
    {
      institution: institutionId,
      railPaymentId,
      payment,
      requestSha256: options.requestSha256 ?? requestDigestOf(payment),
      pending: pendingResult(frame),
      ...(options.agent ? { agent: options.agent } : {}),
    },
    now,
  );
  if (claim.kind === 'replay') return resultOf(claim.row);
  if (claim.kind === 'over-daily-cap') throw new DailyCapReached(claim.settledUsd);
  if (claim.kind === 'over-funds')
    throw new AppError('PAY_ERR_INSUFFICIENT_FUNDS', {
      message: `${options.agent?.issuer === undefined ? "The agent's funds (its owner's deposits)" : `The funds of the AP2 issuer ${options.agent.issuer}`} do not cover this settlement (USD ${claim.spentUsd} of them spent or under way): nothing was sent.`,
    });
  const outcome = await run(deps, frame, quoted);
  if (outcome === 'unconfirmed') return requireFound(await deps.store.findById(railPaymentId));
  const { step, quoteId } = outcome;
  const result = finalResult(frame, step);
  const written = await deps.store.complete(railPaymentId, { result, ...(quoteId ? { quoteId } : {}), ...(payment.callbackUrl ? { callbackUrl: payment.callbackUrl } : {}) }, deps.clock.now());
  return written ? result : requireFound(await deps.store.findById(railPaymentId));
}

/** The admin's payment under a reference: the named institution's, else the only one (400 when several institutions use it). */
async function adminFind(deps: PaymentsServiceDeps, tmsReference: string, institutionId: string | undefined): Promise<PaymentRow | undefined> {
  if (institutionId !== undefined) return deps.store.findByTmsReference(institutionId, tmsReference);
  const rows = await deps.store.findAllByTmsReference(tmsReference);
  if (rows.length > 1) {
    const owners = rows.map((row) => row.institutionId).join(', ');
    throw new AppError('PAY_ERR_INVALID_REQUEST', { message: `${rows.length} institutions use this tmsReference (${owners}): name one with institution.` });
  }
  return rows[0];
}

/**
 * The integration API as one tenant sees it (decision 0050): an institution initiates payments
 * it owns and reads only its own (another's is answered exactly as a missing one: 404, never a
 * 409 that would tell it exists); the admin reads every institution's and initiates none.
 */
function forTenant(deps: PaymentsServiceDeps, tenant: Tenant): PaymentsService {
  return {
    async initiate(request, payment, options = {}) {
      if (tenant.kind === 'admin') throw new AppError('PAY_ERR_NOT_AN_INSTITUTION');
      return initiate(deps, tenant.institutionId, request, payment, options);
    },
    async get(railPaymentId) {
      if (!RAIL_PAYMENT_ID_PATTERN.test(railPaymentId)) throw new AppError('PAY_ERR_PAYMENT_NOT_FOUND');
      return requireFound(visibleTo(tenant, await deps.store.findById(railPaymentId)));
    },
    async findByTmsReference(tmsReference, institutionId) {
      if (tenant.kind === 'admin') return requireFound(await adminFind(deps, tmsReference, institutionId));
      if (institutionId !== undefined && institutionId !== tenant.institutionId) throw new AppError('PAY_ERR_PAYMENT_NOT_FOUND');
      return requireFound(await deps.store.findByTmsReference(tenant.institutionId, tmsReference));
    },
    rate: (currency) => rateOf(deps, currency),
  };
}

/** GET /integration/rates/:currency: the FX rate against USD (spec §2); open to every caller. */
async function rateOf(deps: PaymentsServiceDeps, currency: string): Promise<FxRateAnswer> {
  const found = await deps.fees.fxRate(currency);
  if (!found) throw new AppError('PAY_ERR_RATE_UNAVAILABLE', { message: `No FX rate against USD is available for ${currency}.` });
  return { currency: found.currency, rate: found.rate, updatedAt: found.updatedAt };
}

/** GET /integration/rates/:currency's answer. */
export interface FxRateAnswer {
  currency: string;
  rate: string;
  updatedAt: number;
}

/** The payments capabilities as one tenant has them (Payments.for): what routes, resolvers, MCP tools and the settlement agent call. */
export interface PaymentsService {
  /** POST /integration/payments/initiate (native): the payment's result, stored or new; owned by the tenant's institution. */
  initiate(request: RequestContext, payment: NativePayment, options?: InitiateOptions): Promise<PaymentResult>;
  /** GET /integration/payments/:railPaymentId. */
  get(railPaymentId: string): Promise<PaymentResult>;
  /** GET /integration/payments?tmsReference=[&institution=] (institution: the admin's choice when several use the reference). */
  findByTmsReference(tmsReference: string, institutionId?: string): Promise<PaymentResult>;
  rate(currency: string): Promise<FxRateAnswer>;
}

/**
 * The tenant the settlement agent's own settlements are made as (decision 0050): the institution
 * SETTLEMENT_AGENT_INSTITUTION (`settlement-agent`): every agent settlement belongs to it.
 */
export const SETTLEMENT_AGENT_TENANT: Tenant = { kind: 'institution', institutionId: SETTLEMENT_AGENT_INSTITUTION };

/** Every tenant's payments: `for(tenant)` is what that tenant may do. */
export type Payments = ReturnType<typeof createPaymentsService>;
