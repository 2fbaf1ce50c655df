import { chainReadAfterMs } from '../../../platform/chain/reconcile-after.js';
import { type Clock, epochSeconds } from '../../../platform/clock.js';
import type { Logger } from '../../../platform/log.js';
import { createPeriodicRun, type PeriodicRun } from '../../../platform/periodic.js';
import { finalResult, type NativePayment, type ResultFrame, type SettlementOnChain, type SettlingRecord } from '../domain/index.js';
import type { PaymentRow, PaymentStore } from '../integration/store.js';
import type { RailLookup } from '../rail/lookup.js';
import { recoverableFrom, recoveredStep, type RecoveryDelays } from './domain/index.js';

/** How often each process looks for payments a stopped process left PENDING. */
export const RECOVERY_INTERVAL_MS = 30_000;
/** Payments recovered per run at most: the rest wait for the next run. */
const RECOVERY_BATCH = 50;
/**
 * The bounds of decision 0039 from RECONCILE_AFTER_MS (default 10 minutes), so that a set-up with
 * short timeouts (a soak) recovers within a minute or two (decision 0087):
 * 1. after the send was recorded: RECONCILE_AFTER_MS, and never under 20 RPC timeouts (connect,
 *    turn, send and receipt are each bounded by a few), so a receipt still awaited is not read as
 *    "not settled";
 * 2. before anything was recorded: half of it (default 5 minutes), longer than every bounded step
 *    before the send (VoP, the FX rate, AML and the quote each within UPSTREAM_TIMEOUT_MS, the claim
 *    and the record within the statement timeout). Taken early it would still be safe: the record
 *    is refused once the payment has left PENDING, and then nothing is sent.
 */
export function recoveryDelaysFor(chain: { timeoutMs: number; reconcileAfterMs: number }): RecoveryDelays {
  return { beforeSettlingMs: chain.reconcileAfterMs / 2, afterSettlingMs: chainReadAfterMs(chain) };
}

export interface RecoverySummary {
  settled: number;
  failed: number;
  /** The router settled the quote but its event was not found: left PENDING for an operator, logged. */
  undetermined: number;
  /** Ended meanwhile by the process running it or another recovery. */
  alreadyEnded: number;
}

export interface PaymentRecoveryOptions {
  store: Pick<PaymentStore, 'pendingSince' | 'complete'>;
  lookup: RailLookup;
  clock: Clock;
  /** The rail's network name, as a result states it. */
  network: () => string;
  delays: RecoveryDelays;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/**
 * Ends the payments a stopped process left PENDING (decision 0039), from what each recorded and
 * what the chain says (domain/rules.ts). Any number of processes may run it: the
 * result is written only while the payment is still PENDING (store.complete), so a payment is
 * ended once, by whichever gets there first, its callback enqueued in the same transaction.
 */
export function createPaymentRecovery(options: PaymentRecoveryOptions) {
  const { store, lookup, clock, delays, logger } = options;

  async function onChainOf(row: PaymentRow, settling: SettlingRecord): Promise<SettlementOnChain | null | 'undetermined'> {
    const answer = await lookup.quoteOnChain(settling.quoteId);
    if (answer.kind === 'settled') return answer.settlement;
    if (answer.kind === 'not-settled') return null;
    logger.error({ railPaymentId: row.railPaymentId, quoteId: settling.quoteId }, 'payment recovery: the router settled the quote but its Settled event was not found; left PENDING for an operator');
    return 'undetermined';
  }

  async function recover(row: PaymentRow, summary: RecoverySummary): Promise<void> {
    const settling = row.settling as SettlingRecord | null;
    const onChain = settling ? await onChainOf(row, settling) : null;
    if (onChain === 'undetermined') return void (summary.undetermined += 1);
    const payment = row.request as NativePayment;
    const frame: ResultFrame = { railPaymentId: row.railPaymentId, payment, submittedAt: epochSeconds(row.submittedAt), network: options.network() };
    const result = finalResult(frame, recoveredStep(settling, onChain));
    const completion = { result, ...(settling ? { quoteId: settling.quoteId } : {}), ...(payment.callbackUrl ? { callbackUrl: payment.callbackUrl } : {}) };
    if (!(await store.complete(row.railPaymentId, completion, clock.now()))) return void (summary.alreadyEnded += 1);
    logger.warn({ railPaymentId: row.railPaymentId, status: result.status, txHash: result.settlement.txHash || undefined }, 'payment recovered after its process stopped');
    if (result.status === 'SETTLED') summary.settled += 1;
    else summary.failed += 1;
  }

  return {
    /** One pass over the payments recoverable now, oldest first. */
    async runOnce(): Promise<RecoverySummary> {
      const summary: RecoverySummary = { settled: 0, failed: 0, undetermined: 0, alreadyEnded: 0 };
      const nowMs = clock.now().getTime();
      const candidates = await store.pendingSince(new Date(nowMs - Math.min(delays.beforeSettlingMs, delays.afterSettlingMs)), RECOVERY_BATCH);
      for (const row of candidates) {
        if (recoverableFrom(row.updatedAt.getTime(), row.settling as SettlingRecord | null, delays) > nowMs) continue;
        try {
          await recover(row, summary);
        } catch (error) {
          logger.error({ railPaymentId: row.railPaymentId, err: error }, 'payment recovery failed for this payment; tried again at the next run');
        }
      }
      return summary;
    },
  };
}

export type PaymentRecovery = ReturnType<typeof createPaymentRecovery>;

/** The recovery as the payments subgraph runs it: from its start() (after migrations) to its close(). */
export type RecoveryLoop = PeriodicRun;

/** Runs the recovery every RECOVERY_INTERVAL_MS, from start() (after migrations) to stop(); a run under way finishes before stop returns. */
export function createRecoveryLoop(recovery: PaymentRecovery, logger: Pick<Logger, 'error'>): RecoveryLoop {
  return createPeriodicRun('payment recovery run', RECOVERY_INTERVAL_MS, () => recovery.runOnce(), logger);
}
