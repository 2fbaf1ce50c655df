import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  graphqlOperations: Counter<'operation' | 'outcome'>;
  /** Fetches the gateway's query plans sent to each subgraph: which subgraphs a request touched, and how often. */
  subgraphFetches: Counter<'subgraph'>;
  /** Records a write-behind queue refused (queue full) or could not write before shutdown. */
  writeBehindDropped: Counter<'queue'>;
  /** Reports a write-behind queue's backlog as `write_behind_pending{queue}`, read when /metrics is scraped. */
  watchWriteBehind(queue: string, pending: () => number): void;
}

/** One registry per server, so tests and several in-process servers never share counters. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  const backlogs = new Map<string, () => number>();
  new Gauge({
    name: 'write_behind_pending',
    help: 'Records waiting in a write-behind queue',
    labelNames: ['queue'],
    registers: [registry],
    collect() {
      for (const [queue, pending] of backlogs) this.labels(queue).set(pending());
    },
  });
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    graphqlOperations: new Counter({
      name: 'graphql_operations_total',
      help: 'GraphQL operations through the gateway by operation name and outcome',
      labelNames: ['operation', 'outcome'],
      registers: [registry],
    }),
    subgraphFetches: new Counter({
      name: 'gateway_subgraph_fetches_total',
      help: 'Subgraph fetches of the gateway query plans, by subgraph',
      labelNames: ['subgraph'],
      registers: [registry],
    }),
    writeBehindDropped: new Counter({
      name: 'write_behind_dropped_total',
      help: 'Records a write-behind queue dropped: refused while full, or unwritten at shutdown',
      labelNames: ['queue'],
      registers: [registry],
    }),
    watchWriteBehind: (queue, pending) => backlogs.set(queue, pending),
  };
}
