// Test support for the PEP screen tests (not a test file itself): the plugin as the compliance
// routes mount it (under /compliance, errors as {error, code}), over the shipped PEP lists.

import type { Clock } from '../../../platform/clock.js';
import type { Database } from '../../../platform/db.js';
import { createHttpServer, httpRoutes, type HttpServer } from '../../../platform/http.js';
import { createLogger } from '../../../platform/log.js';
import { complianceErrorShape } from '../shared/error-shape.js';
import { pepRoutes } from './routes.js';
import { type PepScreenService, shippedPepScreenService } from './service.js';

export interface PepTestApp {
  app: HttpServer;
  pep: PepScreenService;
}

export async function buildPepTestApp(options: { db: Database; clock: Clock }): Promise<PepTestApp> {
  const pep = shippedPepScreenService({ clock: options.clock, db: options.db });
  const app = createHttpServer({ logger: createLogger({ logLevel: 'silent' }), clock: options.clock });
  await app.register(
    httpRoutes(async (scoped) => {
      scoped.errorShapes.register(complianceErrorShape);
      await scoped.register(pepRoutes(pep));
    }),
  );
  await app.ready();
  return { app, pep };
}
