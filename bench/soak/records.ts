/** What the soak's clients saw (decision 0089): one record per HTTP request, and the ledgers of what was paid and acknowledged. */

export const REQUEST_KINDS = [
  'stability-quote-get',
  'stability-quote-post',
  'forecast',
  'vendor-assessment',
  'intelligence-listing',
  'paid-api-key',
  'paid-x402',
  'payment-quote',
  'payment-initiate',
] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** An HTTP status, or no answer: the connection failed (`network`) or the client's bound ran out (`timeout`). */
export type Outcome = number | 'network' | 'timeout';

export interface RequestRecord {
  kind: RequestKind;
  /** Epoch milliseconds. */
  startedAt: number;
  endedAt: number;
  outcome: Outcome;
  /** The answer the kind expects (200 or 201, with the body it needs). */
  expected: boolean;
  /** A short reason when not expected: the error code or the body's start. */
  problem?: string;
}

export type PaymentStatus = 'PENDING' | 'SETTLED' | 'BLOCKED' | 'FAILED';

/** One initiation attempt of a payment and what came back. */
export interface PaymentAnswer {
  outcome: Outcome;
  at: number;
  railPaymentId?: string;
  status?: PaymentStatus;
  code?: string;
}

/** A payment the soak asked for: its idempotency key (tmsReference), its quote, and every answer to its attempts. */
export interface PaymentEntry {
  tmsReference: string;
  quoteId: string;
  /** USD, as sent. */
  amount: string;
  creditor: string;
  answers: PaymentAnswer[];
}

/** Acknowledged: an answer 200 naming the payment (railPaymentId and a status, PENDING included). */
export function acknowledgements(entry: PaymentEntry): PaymentAnswer[] {
  return entry.answers.filter((answer) => answer.outcome === 200 && answer.railPaymentId !== undefined && answer.status !== undefined);
}

/** One x402 authorization the soak signed and presented, once. */
export interface X402Entry {
  payer: string;
  nonce: string;
  startedAt: number;
  endedAt: number;
  outcome: Outcome;
  /** X-PAYMENT-RESPONSE said success. */
  settledInAnswer: boolean;
}

/** X-RateLimit-* of one API-key answer. */
export interface KeyCount {
  at: number;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** A callback as the soak's receiver saw it. */
export interface Delivery {
  railPaymentId: string;
  attempt: number;
  at: number;
  signatureValid: boolean;
  body: string;
}
