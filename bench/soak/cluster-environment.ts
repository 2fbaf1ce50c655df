/**
 * The settings the soak gives every process of its cluster (decision 0089), in one place: the
 * reconcilers' and the callbacks' bounds are shortened so that what a fault leaves behind is
 * resolved within the run, and the reconciliation waits as long as those bounds promise.
 */

/** A callback attempt's bound; a dead worker's lease is 2 x this + 5 s (decision 0024 §4). */
export const CALLBACK_TIMEOUT_MS = 2_000;
const CALLBACK_LEASE_MS = 2 * CALLBACK_TIMEOUT_MS + 5_000;
/** The spec's retry schedule before the last attempt (0, 5 s, 30 s): the 4th comes 5 min later. */
const CALLBACK_RETRIES_MS = 5_000 + 30_000;

/**
 * The payments recovery and the x402 reconciler (decisions 0039, 0087): a payment left PENDING or
 * an x402 claim left SETTLING by a stopped process is read from the chain RECONCILE_AFTER_MS after
 * its last step (never under 20 RPC_TIMEOUT_MS), a payment stopped before its send after half of
 * it, a CLAIMED x402 claim released after 2 REQUEST_TIMEOUT_MS; each process looks every 30 s.
 */
const RPC_TIMEOUT_MS = 2_000;
const RECONCILE_AFTER_MS = 20 * RPC_TIMEOUT_MS;
const RECONCILE_INTERVAL_MS = 30_000;
/** An x402 authorization's validity (the paid route's maxTimeoutSeconds): a SETTLING claim never mined is FAILED once it has passed. */
const X402_VALIDITY_MS = 60_000;
export const RECONCILER_ENVIRONMENT: Record<string, string> = { RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS), RECONCILE_AFTER_MS: String(RECONCILE_AFTER_MS) };

/** Every variable the soak sets on the cluster's processes. */
export function clusterEnvironment(): Record<string, string> {
  return {
    LOG_LEVEL: 'warn',
    // The receiver listens on 127.0.0.1 (docs/webhooks.md: single-host set-ups).
    CALLBACK_ALLOW_PRIVATE_TARGETS: 'true',
    CALLBACK_TIMEOUT_MS: String(CALLBACK_TIMEOUT_MS),
    ...RECONCILER_ENVIRONMENT,
  };
}

/**
 * The longest the reconciliation waits after the load for every payment to be final, every claim
 * resolved and every callback delivered: a reconciler's delay and one interval, then a dead
 * worker's lease and the retries before the 4th attempt, and a margin for a slow machine.
 */
export const SETTLE_WAIT_MS = RECONCILE_AFTER_MS + X402_VALIDITY_MS + RECONCILE_INTERVAL_MS + CALLBACK_LEASE_MS + CALLBACK_RETRIES_MS + 30_000;
