import { Big } from 'big.js';
import type { NativePayment, PaymentResult, PaymentStatus } from './payment.js';

/**
 * The native payment's flow as pure functions (decision 0025): the status transitions, the USDC
 * amount at the FX rate, and the compliance attestation of a result. No I/O, no clock.
 */

// ---------------------------------------------------------------------------------------------
// Status transitions (spec §3 names the statuses; the transitions are ours).

/**
 * A payment is claimed PENDING (queued, not yet processed) and leaves it exactly once, to a final
 * status: SETTLED (the rail confirmed the transfer), BLOCKED (VoP BLOCKED or AML BLOCK: nothing
 * sent) or FAILED (the rail or an upstream failed; see the note). Final statuses never change, so
 * a stored result is what every retry answers.
 */
export const PAYMENT_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  PENDING: ['SETTLED', 'BLOCKED', 'FAILED'],
  SETTLED: [],
  BLOCKED: [],
  FAILED: [],
};

export function canTransition(from: PaymentStatus, to: PaymentStatus): boolean {
  return PAYMENT_TRANSITIONS[from].includes(to);
}

export const isFinalStatus = (status: PaymentStatus): boolean => PAYMENT_TRANSITIONS[status].length === 0;

// ---------------------------------------------------------------------------------------------
// Amounts.

/** USDC's base unit: 6 decimals. */
export const USDC_DECIMALS = 6;
const HALF_EVEN = 2;

/**
 * The USDC amount of `amount` (in the payment's currency) at `rate` (USD per unit of the
 * currency; USDC is redeemable one for one with USD): amount x rate rounded half-even to 6
 * decimals, as decimal text without trailing zeros. "1250.50" at "1" is "1250.5".
 */
export function usdcAmountOf(amount: string, rate: string): string {
  return new Big(amount).times(new Big(rate)).round(USDC_DECIMALS, HALF_EVEN).toString();
}

/** Decimal text of USDC base units: 1250500000n is "1250.5". */
export function usdcTextOfUnits(units: bigint): string {
  return new Big(units.toString())
    .div(10 ** USDC_DECIMALS)
    .toFixed(USDC_DECIMALS)
    .replace(/\.?0+$/, '');
}

/** USDC base units of a decimal text with at most 6 decimals. */
export function usdcUnitsOf(text: string): bigint {
  return BigInt(new Big(text).times(10 ** USDC_DECIMALS).toFixed(0));
}

// ---------------------------------------------------------------------------------------------
// What the upstream checks answered, as the flow uses them.

/** The VoP answer of the compliance oracle (Document 2 §2), the fields a payment records. */
export interface VopOutcome {
  requestId: string;
  result: string;
  proceedSafe: boolean;
  /** null for NOT_REGISTERED. */
  score: number | null;
  resolvedBy: string;
  message: string;
  attestation: { fatfR16Compliant: boolean; regulatoryNote: string };
}

/** The AML answer of the compliance oracle (Document 2 §2), the fields a payment records. */
export interface AmlOutcome {
  action: 'PROCEED' | 'FLAG' | 'BLOCK';
  riskScore: number;
  riskTier: string;
  sanctionsHit: boolean;
  /** The reasoning's recommendation when the action is FLAG. */
  recommendation?: string;
}

export interface SettlementOutcome {
  txHash: string;
  /** USDC decimal text. */
  fee: string;
  exchangeRate: string;
}

export type FlowStep =
  | { kind: 'vop-blocked'; vop: VopOutcome }
  | { kind: 'aml-blocked'; vop: VopOutcome; aml: AmlOutcome }
  | { kind: 'failed'; reason: string; vop?: VopOutcome; aml?: AmlOutcome; exchangeRate?: string; fee?: string; txHash?: string }
  | { kind: 'settled'; vop: VopOutcome; aml: AmlOutcome; settlement: SettlementOutcome; settledAt: number };

/** What every result of a payment starts from: who, how much, where; filled in as the flow goes. */
export interface ResultFrame {
  railPaymentId: string;
  payment: NativePayment;
  /** Epoch seconds of the claim. */
  submittedAt: number;
  /** `base-mainnet`, or the embedded rail's name. */
  network: string;
}

const NO_VOP: PaymentResult['vop'] = { requestId: '', result: '', proceedSafe: false, score: 0, resolvedBy: '', message: '' };

function vopOf(vop: VopOutcome | undefined): PaymentResult['vop'] {
  if (!vop) return NO_VOP;
  // PaymentResult.vop.score is a number (spec §2): NOT_REGISTERED, which has none, records 0 (decision 0025).
  return { requestId: vop.requestId, result: vop.result, proceedSafe: vop.proceedSafe, score: vop.score ?? 0, resolvedBy: vop.resolvedBy, message: vop.message };
}

function settlementOf(frame: ResultFrame, parts: { txHash?: string; exchangeRate?: string; fee?: string }): PaymentResult['settlement'] {
  return {
    txHash: parts.txHash ?? '',
    amount: frame.payment.amount,
    currency: frame.payment.currency,
    asset: frame.payment.settlementAsset,
    network: frame.network,
    exchangeRate: parts.exchangeRate ?? '',
    fee: parts.fee ?? '',
  };
}

/** The result stored at the claim and answered while the payment is in progress. */
export function pendingResult(frame: ResultFrame): PaymentResult {
  return {
    railPaymentId: frame.railPaymentId,
    tmsReference: frame.payment.tmsReference,
    status: 'PENDING',
    submittedAt: frame.submittedAt,
    settledAt: 0,
    settlement: settlementOf(frame, {}),
    vop: NO_VOP,
    compliance: {
      fatfR16Compliant: false,
      micaCompliant: false,
      geniusCompliant: false,
      regulatoryNote: 'PENDING: queued, not yet processed; the attestation follows with the final status.',
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The attestation.

function amlNote(aml: AmlOutcome | undefined): string {
  if (!aml) return 'AML: not screened.';
  const base = `AML ${aml.action} (${aml.riskTier}, risk ${aml.riskScore}${aml.sanctionsHit ? ', sanctions hit' : ''})`;
  if (aml.action === 'FLAG') return `${base}: flagged for review${aml.recommendation ? ` (${aml.recommendation})` : ''}; the payment proceeded with the flag recorded.`;
  return `${base}.`;
}

/**
 * The compliance attestation (spec §2), each flag stating what the rail itself checked:
 * 1. fatfR16Compliant is the compliance oracle's VoP attestation: the beneficiary's identity
 *    was confirmed against the registry (every result but BLOCKED, per the oracle's rules) and the
 *    originator's name and wallet travel with the payment.
 * 2. micaCompliant: the travel-rule information the EU Transfer of Funds Regulation (EU)
 *    2023/1113, MiCA's companion, asks of a crypto-asset transfer (originator and beneficiary
 *    name and wallet) was present and verified (fatfR16Compliant), and AML screening did not
 *    block it. The authorisation of the asset's issuer under MiCA is not attested by the rail.
 * 3. geniusCompliant: the counterparty wallet was screened against the OFAC SDN list without a
 *    hit and AML screening did not block it (the sanctions and AML duties of the US GENIUS Act
 *    on payment stablecoin transfers, as far as one payment shows them). The issuer's licensing
 *    is not attested by the rail.
 * A payment that was not sent (BLOCKED, or FAILED before the rail) attests nothing: every flag is
 * false and the note says why.
 */
export function complianceOf(step: FlowStep): PaymentResult['compliance'] {
  const vop = step.vop;
  const aml = step.kind === 'vop-blocked' ? undefined : step.aml;
  const vopText = vop ? `VoP ${vop.result}${vop.score === null ? '' : ` (score ${vop.score})`}: ${vop.attestation.regulatoryNote}` : 'VoP: not completed.';
  const fatf = vop?.attestation.fatfR16Compliant ?? false;
  const amlClear = aml !== undefined && aml.action !== 'BLOCK';
  const sanctionsClear = aml !== undefined && !aml.sanctionsHit;
  switch (step.kind) {
    case 'vop-blocked':
      return { fatfR16Compliant: false, micaCompliant: false, geniusCompliant: false, regulatoryNote: `BLOCKED by verification of payee; nothing was sent. ${vopText}` };
    case 'aml-blocked':
      return { fatfR16Compliant: false, micaCompliant: false, geniusCompliant: false, regulatoryNote: `BLOCKED by AML screening; nothing was sent. ${vopText} ${amlNote(aml)}` };
    case 'failed':
      return { fatfR16Compliant: false, micaCompliant: false, geniusCompliant: false, regulatoryNote: `FAILED: ${step.reason} ${vopText} ${amlNote(aml)}` };
    case 'settled': {
      const mica = fatf && amlClear;
      const genius = sanctionsClear && amlClear;
      const notes = [
        vopText,
        amlNote(aml),
        `FATF R.16 ${fatf ? 'met' : 'not met'}: originator and beneficiary information accompany the transfer${fatf ? ' and the beneficiary was verified' : ', but the beneficiary was not verified'}.`,
        `MiCA/TFR ${mica ? 'met' : 'not met'}: travel-rule information ${fatf ? 'complete and verified' : 'not verified'}; AML ${amlClear ? 'clear' : 'blocked'} (the asset issuer's MiCA authorisation is not attested here).`,
        `GENIUS ${genius ? 'met' : 'not met'}: OFAC SDN screen ${sanctionsClear ? 'without a hit' : 'with a hit'}; AML ${amlClear ? 'clear' : 'blocked'} (the issuer's licensing is not attested here).`,
      ];
      return { fatfR16Compliant: fatf, micaCompliant: mica, geniusCompliant: genius, regulatoryNote: notes.join(' ') };
    }
  }
}

/** The final PaymentResult of a flow step. */
export function finalResult(frame: ResultFrame, step: FlowStep): PaymentResult {
  const compliance = complianceOf(step);
  const vop = vopOf(step.vop);
  const common = { railPaymentId: frame.railPaymentId, tmsReference: frame.payment.tmsReference, submittedAt: frame.submittedAt, vop, compliance };
  switch (step.kind) {
    case 'vop-blocked':
    case 'aml-blocked':
      return { ...common, status: 'BLOCKED', settledAt: 0, settlement: settlementOf(frame, {}) };
    case 'failed':
      return {
        ...common,
        status: 'FAILED',
        settledAt: 0,
        settlement: settlementOf(frame, { ...(step.txHash ? { txHash: step.txHash } : {}), ...(step.exchangeRate ? { exchangeRate: step.exchangeRate } : {}), ...(step.fee ? { fee: step.fee } : {}) }),
      };
    case 'settled':
      return { ...common, status: 'SETTLED', settledAt: step.settledAt, settlement: settlementOf(frame, step.settlement) };
  }
}
