import type { HttpServer } from '../platform/http.js';
import type { PlatformServices, Subgraph } from '../platform/subgraph.js';

const startedAt = Date.now();

/** /health says which part is down (503 when any is); /metrics is Prometheus text. */
export function registerOperationsRoutes(app: HttpServer, platform: PlatformServices, subgraphs: Subgraph[]): void {
  app.get('/health', async (_request, reply) => {
    const database = await platform.database
      .ping()
      .then(() => ({ status: 'up' as const, driver: platform.database.driver }))
      .catch((error: unknown) => {
        platform.logger.warn({ err: error }, 'database health check failed');
        return { status: 'down' as const, driver: platform.database.driver };
      });
    const healthy = database.status === 'up';
    return reply.code(healthy ? 200 : 503).send({
      status: healthy ? 'ok' : 'degraded',
      timestamp: platform.clock.now().toISOString(),
      uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000),
      checks: { database, subgraphs: Object.fromEntries(subgraphs.map((subgraph) => [subgraph.name, 'up'])) },
    });
  });
  app.get('/metrics', async (_request, reply) => {
    const body = await platform.metrics.registry.metrics();
    return reply.type(platform.metrics.registry.contentType).send(body);
  });
}
