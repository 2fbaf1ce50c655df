import { z } from 'zod';
import type { HttpServer } from '../platform/http.js';
import type { BaseServices, Subgraph } from '../platform/subgraph.js';

/**
 * Every REST prefix answers its own GET <prefix>/health (decision 0059). Where the spec documents
 * a service's health (stability, ESG, reports, integration) the subgraph answers it with the
 * documented body; a prefix whose service documents none (today /forecast, /compliance, /agent)
 * gets this one, registered after the subgraphs' routes for each prefix that has no health route:
 *   {status: "ok" | "degraded", service, subgraph, timestamp, down}
 * from the same checks as GET /health (the database, the rail, Redis, ...), 503 when a part is down.
 */
export const prefixHealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  service: z.string().describe('the prefix without its slash, e.g. forecast'),
  subgraph: z.string(),
  timestamp: z.string(),
  down: z.array(z.string()).describe('the parts that are down, as GET /health names them'),
});

/** The prefixes of these subgraphs that no route of theirs answers GET <prefix>/health for. */
export function prefixesWithoutHealth(app: HttpServer, subgraphs: readonly Subgraph[]): Array<{ prefix: string; subgraph: string }> {
  return subgraphs.flatMap((subgraph) => subgraph.restPrefixes.filter((prefix) => !app.hasRoute({ method: 'GET', url: `${prefix}/health` })).map((prefix) => ({ prefix, subgraph: subgraph.name })));
}

export function registerPrefixHealthRoutes(app: HttpServer, base: BaseServices, subgraphs: readonly Subgraph[]): void {
  for (const { prefix, subgraph } of prefixesWithoutHealth(app, subgraphs)) {
    const service = prefix.replace(/^\//, '');
    app.get(`${prefix}/health`, { schema: { hide: true, response: { 200: prefixHealthSchema, 503: prefixHealthSchema } } }, async (_request, reply) => {
      const report = await base.health.run();
      return reply
        .code(report.healthy ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({ status: report.healthy ? 'ok' : 'degraded', service, subgraph, timestamp: base.clock.now().toISOString(), down: report.down });
    });
  }
}
