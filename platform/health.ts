import type { Logger } from './log.js';
import { withTimeout } from './timeout.js';

/** One part /health reports on; `check` throws (or times out) when the part is down. */
export interface HealthCheck {
  /** e.g. `database`, `subgraph fees` */
  name: string;
  check(): Promise<void>;
}

export type PartStatus = { status: 'up' } | { status: 'down'; reason: string };

export interface HealthReport {
  healthy: boolean;
  parts: Record<string, PartStatus>;
  /** The names of the parts that are down, for the 503 body and the log. */
  down: string[];
}

export interface Health {
  register(check: HealthCheck): void;
  /**
   * Work that fails without its part being unreachable (a write refused by a full disk, a
   * constraint, a stuck lock) reports here; the part reads down until a later success.
   */
  reportOutcome(part: string, ok: boolean, error?: unknown): void;
  run(): Promise<HealthReport>;
}

export interface HealthOptions {
  logger: Logger;
  /** A check that has not answered within this time counts as down. */
  checkTimeoutMs: number;
  /**
   * A reported failure counts for this long without a success to clear it, so a part whose
   * traffic stopped (taken out of a load balancer for reading down) reads up again by itself.
   */
  failureMemoryMs?: number;
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').slice(0, 160);
}

export function createHealth(options: HealthOptions): Health {
  const checks: HealthCheck[] = [];
  const failures = new Map<string, { since: string; lastAt: number; reason: string }>();
  const failureMemoryMs = options.failureMemoryMs ?? 15_000;
  return {
    register: (check) => void checks.push(check),
    reportOutcome(part, ok, error) {
      if (ok) return void failures.delete(part);
      const at = Date.now();
      const known = failures.get(part);
      failures.set(part, { since: known?.since ?? new Date(at).toISOString(), lastAt: at, reason: reasonOf(error) });
    },
    async run() {
      const parts: Record<string, PartStatus> = {};
      await Promise.all(
        checks.map(async ({ name, check }) => {
          try {
            await withTimeout(check(), options.checkTimeoutMs, `health check of ${name}`);
            parts[name] = { status: 'up' };
          } catch (error) {
            parts[name] = { status: 'down', reason: reasonOf(error) };
            // The body names the part and a one-line reason; why it failed (the cause chain) goes to the log only.
            options.logger.warn({ part: name, err: error }, `health check failed: ${name}`);
          }
        }),
      );
      for (const [part, failure] of failures) {
        if (Date.now() - failure.lastAt > failureMemoryMs) failures.delete(part);
        else parts[part] = { status: 'down', reason: `failing since ${failure.since}: ${failure.reason}` };
      }
      const down = Object.keys(parts)
        .filter((name) => parts[name]?.status === 'down')
        .sort();
      if (down.length > 0) options.logger.warn({ down }, 'health check: parts down');
      return { healthy: down.length === 0, parts, down };
    },
  };
}
