// Test support for the entity ESG tests (not a test file itself): the plugin as the compliance
// routes mount it (under /compliance, errors as {error, code}), over the shipped snapshots, a real
// wallet registry and a synthesiser the test controls.

import type { Clock } from '../../../platform/clock.js';
import type { Database } from '../../../platform/db.js';
import { createHttpServer, httpRoutes, type HttpServer } from '../../../platform/http.js';
import { randomIds } from '../../../platform/ids.js';
import { createLogger } from '../../../platform/log.js';
import type { Synthesiser } from '../../../platform/synthesis.js';
import { complianceErrorShape } from '../shared/error-shape.js';
import { type ComplianceStore, createComplianceStore } from '../vop/store.js';
import { entityEsgRoutes } from './routes.js';
import { type EntityEsgService, shippedEntityEsgService } from './service.js';

export interface EsgTestApp {
  app: HttpServer;
  registry: ComplianceStore;
  esg: EntityEsgService;
}

/** A synthesiser whose answer the test sets: a text, a failure (null), or one that never answers. */
export function controllableSynthesiser(): Synthesiser & { mode: 'answer' | 'fail' | 'hang'; calls: number } {
  const synthesiser = {
    model: 'test-synthesiser',
    mode: 'answer' as 'answer' | 'fail' | 'hang',
    calls: 0,
    async synthesise(request: { ruleBasedText: string }) {
      synthesiser.calls += 1;
      if (synthesiser.mode === 'fail') return null;
      if (synthesiser.mode === 'hang') return new Promise<never>(() => {});
      return { text: request.ruleBasedText, model: 'test-synthesiser', generatedAt: '2026-11-22T12:00:00.000Z' };
    },
  };
  return synthesiser;
}

export async function buildEsgTestApp(options: { db: Database; clock: Clock; synthesiser: Synthesiser; narrationTimeoutMs?: number }): Promise<EsgTestApp> {
  const registry = createComplianceStore(options.db, randomIds);
  const esg = shippedEntityEsgService({
    clock: options.clock,
    db: options.db,
    registry,
    synthesiser: options.synthesiser,
    ...(options.narrationTimeoutMs === undefined ? {} : { narrationTimeoutMs: options.narrationTimeoutMs }),
  });
  const app = createHttpServer({ logger: createLogger({ logLevel: 'silent' }), clock: options.clock });
  await app.register(
    httpRoutes(async (scoped) => {
      scoped.errorShapes.register(complianceErrorShape);
      await scoped.register(entityEsgRoutes(esg));
    }),
  );
  await app.ready();
  return { app, registry, esg };
}
