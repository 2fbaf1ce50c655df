import { randomBytes } from 'node:crypto';
import { Counter, type Registry } from 'prom-client';
import { deployEmbeddedRail } from '../contracts/deploy.js';
import type { Access } from '../platform/access/admission.js';
import { createApiKeys } from '../platform/access/api-keys.js';
import { type RateLimitStore, rateLimitStoreFor } from '../platform/access/rate-limit.js';
import { createX402 } from '../platform/access/x402.js';
import { createX402Reconciler, tokenAuthorizations, X402_RECONCILE_INTERVAL_MS, x402ReconcileDelaysFor } from '../platform/access/x402-reconciler.js';
import { createRailChain, type RailChain } from '../platform/chain/index.js';
import type { NonceKeeper } from '../platform/chain/nonce-keeper.js';
import { createPostgresNonceKeeper } from '../platform/chain/nonce-keeper-postgres.js';
import { type Clock, systemClock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { DatabaseHandle } from '../platform/db.js';
import { createHealth } from '../platform/health.js';
import { type IdSource, randomIds } from '../platform/ids.js';
import { createLogger, type Logger } from '../platform/log.js';
import { createMetrics } from '../platform/metrics.js';
import { createPeriodicRun, type PeriodicRun } from '../platform/periodic.js';
import type { BaseServices, PlatformServices } from '../platform/subgraph.js';
import { createSynthesiser } from '../platform/synthesis.js';
import { createUpstream, type Injector } from '../platform/upstream.js';
import { contractParameters } from '../subgraphs/fees/index.js';
import { openPlatformStorage, type PlatformStorage } from './platform-storage.js';

/** What a test or a benchmark may supply instead of the defaults. */
export interface PlatformOverrides {
  clock?: Clock;
  ids?: IdSource;
  logger?: Logger;
  /** An open database; the caller then owns closing it. */
  database?: DatabaseHandle;
  /** A chain of the caller's (tests share one embedded chain); the caller then owns closing it. */
  chain?: RailChain;
  /** Told each step of the start, for the console of `npm start`. */
  progress?: (message: string) => void;
  /** The storage being opened already (openPlatformStorage); these services then own and close it. */
  storage?: Promise<PlatformStorage>;
}

const HEALTH_CHECK_TIMEOUT_MS = 2000;

/**
 * The rail of the configuration: Base at RPC_URL, or the embedded EVM with the contracts deployed
 * (their parameters from the fees subgraph's public face). `nonces`: who holds its accounts' send
 * turns when other processes send from them too (decision 0087); unset, this process alone.
 */
export function createConfiguredRailChain(config: Config, nonces?: NonceKeeper): RailChain {
  return createRailChain(config, (embedded) => deployEmbeddedRail(embedded, contractParameters), nonces ? { nonces } : {});
}

/** The x402 claims a stopped process left, resolved every X402_RECONCILE_INTERVAL_MS by every process on the database (decision 0087). */
function x402ReconcilerRun(services: PlatformServices): PeriodicRun {
  const { config, database, chain, clock, logger, metrics } = services;
  const counter = x402ReconciledCounter(metrics.registry);
  const reconciler = createX402Reconciler({
    db: database.db,
    lookup: () => tokenAuthorizations(chain, config.chain.timeoutMs),
    clock,
    delays: x402ReconcileDelaysFor(config),
    databaseTimeoutMs: config.database.statementTimeoutMs,
    logger,
    count: (outcome) => counter.inc({ outcome }),
  });
  return createPeriodicRun('x402 reconciliation run', X402_RECONCILE_INTERVAL_MS, () => reconciler.runOnce(), logger);
}

function x402ReconciledCounter(registry: Registry): Counter<'outcome'> {
  const name = 'x402_claims_reconciled_total';
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<'outcome'>;
  return new Counter({
    name,
    help: 'x402 claims a stopped process left, resolved by the reconciler: released (CLAIMED), settled or failed (SETTLING)',
    labelNames: ['outcome'],
    registers: [registry],
  });
}

export function createBaseServices(config: Config, overrides: PlatformOverrides = {}): BaseServices {
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? createLogger({ logLevel: config.server.logLevel });
  return {
    config,
    logger,
    clock,
    metrics: createMetrics(),
    health: createHealth({ logger, checkTimeoutMs: HEALTH_CHECK_TIMEOUT_MS }),
  };
}

export interface OwnedPlatformServices {
  services: PlatformServices;
  /** Gives the in-process upstream transport the server once its routes are mounted. */
  attachUpstream(app: Injector): void;
  /** Closes what this call opened (not an overridden database) and releases the data folder. */
  close(): Promise<void>;
}

/**
 * The services a process serving subgraphs needs, on its storage (the data folder, the signer, the
 * database): `overrides.storage` when the caller began opening it earlier (npm start does, while it
 * imports the rest), else opened here. Either way these services then own it.
 */
export async function createPlatformServices(base: BaseServices, overrides: PlatformOverrides = {}): Promise<OwnedPlatformServices> {
  const { config } = base;
  const storage = await (overrides.storage ?? openPlatformStorage(config, overrides.progress ?? (() => {}), overrides.database));
  try {
    const { database, signer } = storage;
    // On PostgreSQL every process sending from one account takes its turn there (decision 0087); PGlite is one process by design.
    const nonces = database.driver === 'postgres' ? createPostgresNonceKeeper(database.db, base.logger) : undefined;
    const upstream = createUpstream({ serviceUrls: config.upstream.serviceUrls, timeoutMs: config.upstream.timeoutMs });
    const core: Omit<PlatformServices, 'access'> = {
      ...base,
      ids: overrides.ids ?? randomIds,
      database,
      signer,
      synthesiser: createSynthesiser(config, base.clock, base.logger),
      chain: overrides.chain ?? createConfiguredRailChain(config, nonces),
      upstream,
    };
    const rateLimits = rateLimitStoreFor(config, database.db, base.logger);
    const services: PlatformServices = { ...core, access: createAccess(core, rateLimits) };
    services.health.register({ name: 'database', check: () => database.ping() });
    // REDIS_URL set: every request with a key is counted there, so /health reads down with it (decision 0054).
    const pingRateLimits = rateLimits.ping;
    if (pingRateLimits) services.health.register({ name: 'redis', check: pingRateLimits });
    // The rail is checked once it is up (a process that never used it starts no chain for /health).
    services.health.register({ name: 'rail', check: async () => void (await services.chain.current()?.publicClient.getBlockNumber()) });
    const reconciler = x402ReconcilerRun(services);
    reconciler.start();
    return {
      services,
      attachUpstream: (app) => upstream.attach(app),
      async close() {
        await reconciler.stop();
        await rateLimits.close();
        if (!overrides.chain) await services.chain.close();
        await storage.close();
      },
    };
  } catch (error) {
    await storage.close();
    throw error;
  }
}

/** API keys and x402 payments, on the process's database and rail (decisions 0010-0012). */
function createAccess(services: Omit<PlatformServices, 'access'>, rateLimits: RateLimitStore): Access {
  const { database, clock, ids, chain, config, logger } = services;
  return {
    keys: createApiKeys({ db: database.db, clock, ids, rateLimits }),
    rateLimits,
    // Unset, the process makes its own: the all-in-one server's subgraphs call each other with it, and no
    // one outside knows it. Processes of the split layout must share a configured INTERNAL_KEY.
    internalKey: config.access.internalKey ?? randomBytes(32).toString('base64url'),
    x402: createX402({
      chain,
      db: database.db,
      clock,
      logger,
      facilitatorUrl: config.access.facilitatorUrl,
      facilitatorTimeoutMs: config.chain.timeoutMs * 3,
      databaseTimeoutMs: config.database.statementTimeoutMs,
    }),
  };
}
