import type { PlatformServices } from '../../../platform/subgraph.js';
import type { PaymentStore } from '../integration/store.js';
import { createRailLookup } from '../rail/lookup.js';
import { createPaymentRecovery, recoveryDelaysFor, type PaymentRecovery } from './service.js';

/** How often each process looks for payments a stopped process left PENDING. */
export const RECOVERY_INTERVAL_MS = 30_000;

/** The recovery family as the payments subgraph composes it. */
export interface RecoveryLoop {
  /** From the subgraph's start(), once migrations have run: the first run after RECOVERY_INTERVAL_MS. */
  start(): void;
  /** From the subgraph's close(): no run starts after it, and a run under way finishes before it returns. */
  stop(): Promise<void>;
}

/**
 * Payments a stopped process left PENDING, ended from what they recorded and the chain (decision
 * 0039), looked for every RECOVERY_INTERVAL_MS in every process serving payments.
 */
export function buildRecovery(platform: PlatformServices, deps: { store: Pick<PaymentStore, 'pendingSince' | 'complete'>; network: () => string }): RecoveryLoop {
  const { config } = platform;
  const recovery = createPaymentRecovery({
    store: deps.store,
    lookup: createRailLookup({ chain: platform.chain, timeoutMs: config.chain.timeoutMs }),
    clock: platform.clock,
    network: deps.network,
    delays: recoveryDelaysFor(config.chain.timeoutMs),
    logger: platform.logger,
  });
  return recoveryLoop(platform, recovery);
}

/**
 * Runs the recovery every RECOVERY_INTERVAL_MS, from start() (after migrations) to stop(); a run
 * under way finishes before stop returns.
 */
function recoveryLoop(platform: PlatformServices, recovery: PaymentRecovery): RecoveryLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const schedule = () => {
    timer = setTimeout(() => {
      running = recovery
        .runOnce()
        .catch((error: unknown) => platform.logger.error({ err: error }, 'payment recovery run failed'))
        .finally(() => {
          running = undefined;
          if (!stopped) schedule();
        });
    }, RECOVERY_INTERVAL_MS);
    timer.unref();
  };
  return {
    start: schedule,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
