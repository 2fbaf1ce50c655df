/**
 * The settings the soak gives every process of its cluster (decision 0089), in one place: the
 * reconcilers' and the callbacks' bounds are shortened so that what a fault leaves behind is
 * resolved within the run, and the reconciliation waits exactly as long as those bounds promise.
 */

/** A callback attempt's bound; a dead worker's lease is 2 x this + 5 s (decision 0024 §4). */
export const CALLBACK_TIMEOUT_MS = 2_000;
const CALLBACK_LEASE_MS = 2 * CALLBACK_TIMEOUT_MS + 5_000;
/** The spec's retry schedule before the last attempt (0, 5 s, 30 s): the 4th comes 5 min later. */
const CALLBACK_RETRIES_MS = 5_000 + 30_000;

/**
 * The payments recovery and the x402 reconciler (issue 26 item 3, helper N): how long after its
 * last step a PENDING payment or a SETTLING claim is resolved from the chain, and how often they
 * look. Until those variables exist the defaults of decision 0039 hold (5 and 10 minutes, every 30 s).
 */
export const RECONCILER_ENVIRONMENT: Record<string, string> = {};
const RECONCILE_AFTER_MS = 10 * 60_000;
const RECONCILE_INTERVAL_MS = 30_000;

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
export const SETTLE_WAIT_MS = RECONCILE_AFTER_MS + RECONCILE_INTERVAL_MS + CALLBACK_LEASE_MS + CALLBACK_RETRIES_MS + 30_000;
