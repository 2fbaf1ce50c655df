import type { ChainView } from './chain.js';
import type { DatabaseView } from './database-view.js';
import type { FaultEvent, FaultKind } from './faults.js';
import type { Delivery, KeyCount, PaymentEntry, X402Entry } from './records.js';

/** One question the reconciliation asks (decision 0089); it passes when it found no problem. Notes are counts worth printing. */
export interface Check {
  name: string;
  problems: string[];
  notes: string[];
}

export interface ReconcileInput {
  institutionId: string;
  payments: readonly PaymentEntry[];
  x402: readonly X402Entry[];
  keyCounts: readonly KeyCount[];
  deliveries: readonly Delivery[];
  faults: readonly FaultEvent[];
  /** Every kind a fault must have hit at least once. */
  kinds: readonly FaultKind[];
  database: DatabaseView;
  chain: ChainView;
  /** The price of the paid route in token base units (x402 maxAmountRequired). */
  price: string;
}
