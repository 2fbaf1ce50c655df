import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/log.js';
import type { PlatformServices, Subgraph } from '../../platform/subgraph.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../platform/subgraph.js';
import type { Synthesiser } from '../../platform/synthesis.js';
import { createLiveSource, snapshotSource } from './data-source.js';
import type { ForecastDataSource } from './dataset-load.js';
import { createForecastMcpServer, mcpHostnames } from './mcp.js';
import { createForecastResolvers } from './resolvers.js';
import { forecastRoutes } from './routes.js';
import { createForecastService } from './service.js';
import { DEFAULT_LIVE_BASE_URLS } from './sources/index.js';

export { forecastToolErrorBody } from './mcp.js';

export const name = 'forecast';
export const typeDefs = loadSubgraphTypeDefs(name);

export function dataSourceFor(config: Config, logger: Logger): ForecastDataSource {
  const { live, liveTimeoutMs, fredApiKey } = config.forecast;
  if (!live) return snapshotSource;
  return createLiveSource({ enabled: true, timeoutMs: liveTimeoutMs, ...(fredApiKey ? { fredApiKey } : {}), baseUrls: DEFAULT_LIVE_BASE_URLS, fetch: globalThis.fetch }, logger);
}

/**
 * The five forecast MCP tools without the rest of the subgraph (the stdio entry,
 * gateway/forecast-mcp-stdio.ts): a service of their own over the configured data source.
 */
export function createStandaloneMcpServer(deps: { config: Config; logger: Logger; clock: Clock; synthesiser: Synthesiser }): McpServer {
  const service = createForecastService({ clock: deps.clock, synthesiser: deps.synthesiser, source: dataSourceFor(deps.config, deps.logger) });
  return createForecastMcpServer(service);
}

/** Commodity climate forecast (Document 3 §1-4), REST under /forecast, MCP tools (DESIGN.md §1). */
export function build(platform: PlatformServices, source?: ForecastDataSource): Subgraph {
  const service = createForecastService({ clock: platform.clock, synthesiser: platform.synthesiser, source: source ?? dataSourceFor(platform.config, platform.logger) });
  const resolvers = createForecastResolvers(service);
  return {
    name,
    typeDefs,
    schema: buildFederatedSchema(typeDefs, resolvers),
    restPrefixes: ['/forecast'],
    routes: forecastRoutes(service, { mcpHostnames: mcpHostnames(platform.config.server.host, platform.config.server.publicBaseUrl) }),
    createContext: (request) => ({ request }),
  };
}
