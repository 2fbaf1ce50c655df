import type { FlowStep, SettlementOnChain, SettlingRecord } from '../../domain/index.js';

/** When a payment still PENDING is taken for recovery (decision 0039). */
export interface RecoveryDelays {
  /** A payment that recorded nothing yet: longer than every bounded step before the send. */
  beforeSettlingMs: number;
  /** A payment that recorded its settlement: longer than the send and its receipt can take. */
  afterSettlingMs: number;
}

/**
 * The moment a PENDING payment may be recovered: the process running it is taken to have stopped
 * once that long has passed since its last step.
 */
export function recoverableFrom(lastStepMs: number, settling: SettlingRecord | null, delays: RecoveryDelays): number {
  return settling ? settling.recordedAtMs + delays.afterSettlingMs : lastStepMs + delays.beforeSettlingMs;
}

/**
 * How a payment left PENDING by a stopped process ends:
 * 1. nothing recorded before the send: nothing was sent (the send comes only after the record, and
 *    the record is refused once the payment has left PENDING), so FAILED;
 * 2. recorded, and the router settled its quote: SETTLED as the chain says (tx, fee, block time),
 *    with the screening the payment had passed;
 * 3. recorded, and the quote not settled on chain by now: FAILED, nothing was settled.
 */
export function recoveredStep(settling: SettlingRecord | null, onChain: SettlementOnChain | null): FlowStep {
  if (!settling) {
    return { kind: 'failed', reason: 'the process running this payment stopped before its settlement was sent (recovered); nothing was settled.' };
  }
  const { vop, aml, exchangeRate } = settling;
  if (!onChain) {
    return { kind: 'failed', reason: 'the settlement was not confirmed on chain after the process running this payment stopped (recovered); nothing was settled.', vop, aml, exchangeRate };
  }
  return { kind: 'settled', vop, aml, settlement: { txHash: onChain.txHash, fee: onChain.fee, exchangeRate }, settledAt: onChain.settledAt };
}
