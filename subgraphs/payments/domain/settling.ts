import type { AmlOutcome, VopOutcome } from './payment-flow.js';

/**
 * What a payment had reached when its settlement was about to be sent, stored on its row just
 * before the send (decision 0039): with the chain, enough to finish it when the process running it
 * stopped.
 */
export interface SettlingRecord {
  /** The quote the router records when it settles: a quote settles once on chain. */
  quoteId: string;
  vop: VopOutcome;
  aml: AmlOutcome;
  exchangeRate: string;
  /** Epoch ms at which the send was about to start. */
  recordedAtMs: number;
}

/** The router's Settled event for a payment's quote, as the chain reports it. */
export interface SettlementOnChain {
  txHash: string;
  /** USDC decimal text. */
  fee: string;
  /** Epoch seconds of the block. */
  settledAt: number;
}
