import { systemClock, type Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import { openDatabase, pgliteFolder, type DatabaseHandle } from '../platform/db.js';
import { randomIds, type IdSource } from '../platform/ids.js';
import { createLogger, type Logger } from '../platform/log.js';
import { createMetrics } from '../platform/metrics.js';
import { createHmacSigner, loadOrCreateSigningKey } from '../platform/signing.js';
import type { PlatformServices } from '../platform/subgraph.js';
import { createSynthesiser } from '../platform/synthesis.js';

/** What a test or a benchmark may supply instead of the defaults. */
export interface PlatformOverrides {
  clock?: Clock;
  ids?: IdSource;
  logger?: Logger;
  /** An open database; the caller then owns closing it. */
  database?: DatabaseHandle;
}

export async function createPlatformServices(config: Config, overrides: PlatformOverrides = {}): Promise<PlatformServices> {
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? createLogger(config);
  const database =
    overrides.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      schemaName: config.databaseSchema,
      pgliteDataDir: pgliteFolder(config.dataDir),
    }));
  return {
    config,
    logger,
    clock,
    ids: overrides.ids ?? randomIds,
    database,
    metrics: createMetrics(),
    signer: createHmacSigner(config.quoteSigningKey ?? loadOrCreateSigningKey(config.dataDir)),
    synthesiser: createSynthesiser(config, clock, logger),
  };
}
