/**
 * The shared types of a payment (spec §2): the native request and the PaymentResult. Field names
 * are the spec's; amounts are decimal strings, times epoch seconds.
 */

export type PaymentStatus = 'SETTLED' | 'PENDING' | 'BLOCKED' | 'FAILED';

/** Payment (native request), spec §2. */
export interface NativePayment {
  /** The caller's reference; the idempotency key. */
  tmsReference: string;
  /** Decimal amount as text. */
  amount: string;
  /** Currency code. */
  currency: string;
  /** Asset symbol (USDC). */
  settlementAsset: string;
  /**
   * The spec does not show which fields are required (§4); decision 0022: the LEIs, accountRef,
   * remittanceInfo and requestedExecutionDate are optional (a pain.001 may carry none of them).
   */
  creditor: { name: string; lei?: string; walletAddress: string; accountRef?: string };
  debtor: { name: string; lei?: string; walletAddress: string };
  remittanceInfo?: string;
  /** `YYYY-MM-DD`. */
  requestedExecutionDate?: string;
  /** Where the PaymentResult is POSTed on settlement or failure (spec §6). */
  callbackUrl?: string;
  /** A fee quote (`srq-…`, decision 0001) whose quoted fee the payment is charged (issue 10 item 9). */
  quoteId?: string;
}

/**
 * tmsReference prefixes of the settlement agent's own payments (AGT-<uuid>, AGT-HLD-<holdId>,
 * AP2-<mandate reference>; decisions 0027, 0047): refused from callers of the integration API, so
 * none of them can take a reference a release or a mandate will claim.
 */
const AGENT_REFERENCE_PREFIXES = ['AGT-', 'AP2-'] as const;

export function isAgentReference(tmsReference: string): boolean {
  return AGENT_REFERENCE_PREFIXES.some((prefix) => tmsReference.startsWith(prefix));
}

export const AGENT_REFERENCE_PROBLEM = `must not start with ${AGENT_REFERENCE_PREFIXES.join(' or ')}: those references are the settlement agent's`;

/** PaymentResult (native response), spec §2; also the body of the payment callback (spec §6). */
export interface PaymentResult {
  railPaymentId: string;
  tmsReference: string;
  status: PaymentStatus;
  /** Epoch seconds. */
  submittedAt: number;
  /** Epoch seconds. */
  settledAt: number;
  settlement: {
    txHash: string;
    amount: string;
    currency: string;
    asset: string;
    /** e.g. `base-mainnet`. */
    network: string;
    exchangeRate: string;
    fee: string;
  };
  vop: { requestId: string; result: string; proceedSafe: boolean; score: number; resolvedBy: string; message: string };
  compliance: { fatfR16Compliant: boolean; micaCompliant: boolean; geniusCompliant: boolean; regulatoryNote: string };
}

/**
 * Whose deposits pay a settlement agent's settlement (decision 0049): an agent's (its owner's money)
 * or a trusted AP2 issuer's. The payment claim counts what each has spent (integration/claim.ts).
 */
export type Funder = { kind: 'agent'; agentId: string } | { kind: 'issuer'; issuer: string };
