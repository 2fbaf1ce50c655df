import type { HttpServer } from '../platform/http.js';
import type { BaseServices } from '../platform/subgraph.js';

const startedAt = Date.now();

/**
 * /health runs every registered check (the database, each subgraph as the gateway reaches it,
 * failing writes) and answers 503 naming the parts that are down; /metrics is Prometheus text.
 */
export function registerOperationsRoutes(app: HttpServer, base: BaseServices, databaseDriver: string | undefined): void {
  app.get('/health', async (_request, reply) => {
    const report = await base.health.run();
    return reply
      .code(report.healthy ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({
        status: report.healthy ? 'ok' : 'degraded',
        timestamp: base.clock.now().toISOString(),
        uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000),
        ...(databaseDriver ? { databaseDriver } : {}),
        down: report.down,
        checks: report.parts,
      });
  });
  app.get('/metrics', async (_request, reply) => {
    const body = await base.metrics.registry.metrics();
    return reply.type(base.metrics.registry.contentType).send(body);
  });
}
