/**
 * How long after a stopped process sent (or may have sent) a transaction its outcome is read from
 * the chain (decisions 0039, 0087): RECONCILE_AFTER_MS, and never under 20 RPC timeouts (a live
 * process's connect, turn, send and receipt wait are each bounded by a few), so that a receipt a
 * live process still awaits is not read as "not mined". The payments recovery and the x402
 * reconciler both take it.
 */
export function chainReadAfterMs(chain: { timeoutMs: number; reconcileAfterMs: number }): number {
  return Math.max(chain.reconcileAfterMs, 20 * chain.timeoutMs);
}
