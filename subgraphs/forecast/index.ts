import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/log.js';
import type { PlatformServices, Subgraph } from '../../platform/subgraph.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../platform/subgraph.js';
import { createLiveSource, snapshotSource } from './data-source.js';
import { createForecastResolvers } from './resolvers.js';
import { mcpHostnames } from './mcp.js';
import { forecastRoutes } from './routes.js';
import { createForecastService, type ForecastDataSource, type ForecastService } from './service.js';
import { DEFAULT_LIVE_BASE_URLS } from './sources/index.js';

export const name = 'forecast';
export const typeDefs = loadSubgraphTypeDefs(name);

export function dataSourceFor(config: Config, logger: Logger): ForecastDataSource {
  const { live, liveTimeoutMs, fredApiKey } = config.forecast;
  if (!live) return snapshotSource;
  return createLiveSource(
    { enabled: true, timeoutMs: liveTimeoutMs, ...(fredApiKey ? { fredApiKey } : {}), baseUrls: DEFAULT_LIVE_BASE_URLS, fetch: globalThis.fetch },
    logger,
  );
}

const servicesByPlatform = new WeakMap<PlatformServices, ForecastService>();

/**
 * The forecast's public service on this platform: one per process, so the forecast subgraph and
 * the reports built on it (the intelligence subgraph) share one data source and one cache.
 */
export function forecastService(platform: PlatformServices): ForecastService {
  let service = servicesByPlatform.get(platform);
  if (!service) {
    service = createForecastService({ clock: platform.clock, synthesiser: platform.synthesiser, source: dataSourceFor(platform.config, platform.logger) });
    servicesByPlatform.set(platform, service);
  }
  return service;
}

/** Commodity climate forecast (Document 3 §1-4), REST under /forecast, MCP tools (DESIGN.md §1). */
export function build(platform: PlatformServices, source?: ForecastDataSource): Subgraph {
  const service = source ? createForecastService({ clock: platform.clock, synthesiser: platform.synthesiser, source }) : forecastService(platform);
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
