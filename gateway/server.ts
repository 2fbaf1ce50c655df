import type { Config, SubgraphName } from '../platform/config.js';
import { createHttpServer, type HttpServer } from '../platform/http.js';
import type { PlatformServices, Subgraph } from '../platform/subgraph.js';
import { COMPOSED_SUBGRAPHS } from './compose.js';
import { mountGateway, mountSubgraphEndpoint } from './graphql-endpoints.js';
import { registerOperationsRoutes } from './operations-routes.js';
import { createPlatformServices, type PlatformOverrides } from './platform-services.js';
import { buildSubgraphs } from './subgraphs.js';

export interface ServerOptions extends PlatformOverrides {
  config: Config;
  /** Serve these subgraphs only (distributed layout); default: all of them plus the gateway. */
  subgraphs?: SubgraphName[];
  /** Mount the gateway at /graphql; default true when every subgraph is served. */
  gateway?: boolean;
}

export interface BuiltServer {
  app: HttpServer;
  platform: PlatformServices;
  subgraphs: Subgraph[];
  close(): Promise<void>;
}

/**
 * The all-in-one server of DESIGN.md §2 (or one slice of it): REST prefixes, each subgraph at
 * /subgraphs/<name>/graphql, the gateway at /graphql, /health and /metrics. Not listening.
 */
export async function buildServer(options: ServerOptions): Promise<BuiltServer> {
  const platform = await createPlatformServices(options.config, options);
  const names = options.subgraphs ?? COMPOSED_SUBGRAPHS;
  const subgraphs = buildSubgraphs(platform, names);
  const app = createHttpServer({ logger: platform.logger, metrics: platform.metrics });
  for (const subgraph of subgraphs) {
    await app.register(subgraph.routes);
    await mountSubgraphEndpoint(app, subgraph, `/subgraphs/${subgraph.name}/graphql`);
  }
  const withGateway = options.gateway ?? options.subgraphs === undefined;
  if (withGateway) await mountGateway(app, options.config, subgraphs);
  registerOperationsRoutes(app, platform, subgraphs);
  const ownsDatabase = options.database === undefined;
  return {
    app,
    platform,
    subgraphs,
    async close() {
      await app.close();
      if (ownsDatabase) await platform.database.close();
    },
  };
}
