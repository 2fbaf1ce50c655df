import type { FastifyPluginAsync } from 'fastify';
import type { DiscoveryInfo } from '../../platform/discovery.js';
import type { OracleReadings } from './domain/index.js';
import { esgOracleRoutes } from './esg/routes.js';
import type { EsgOracleService } from './esg/service.js';
import { STABILITY_API_VERSION } from './quotes/domain/index.js';
import { esgQuoteRequestExample, quoteRequestExample } from './quotes/inputs.js';
import { esgQuoteRoutes, stabilityQuoteRoutes } from './quotes/routes.js';
import type { FeesService } from './quotes/service.js';
import { ESG_PREFIX, STABILITY_PREFIX } from './shared/constants.js';
import { type EndpointRegistry, type FeesRestService, serviceRoutes } from './shared/service-routes.js';
import { stabilityOracleRoutes } from './stability/routes.js';
import type { StabilityService } from './stability/service.js';
import type { EntityEsgClient } from './upstream/compliance.js';
import { corridorsWidgetRoute, esgWidgetRoute } from './widgets/routes.js';

// The subgraph's two REST services, each the union of its families' routes under one prefix.

const STABILITY_DISCOVERY: DiscoveryInfo = {
  prefix: STABILITY_PREFIX,
  nameForHuman: 'Settlement rail stability oracle',
  nameForModel: 'settlement_rail_stability',
  descriptionForHuman: 'Exact fee quotes, on-chain fee verification and live stability signals for stablecoin settlement on Base.',
  descriptionForModel:
    'Call GET /manifest once, GET /fee-schedule, then GET or POST /quote for an exact fee with a quoteId, GET /verify-fees to compare it with the settlement router, and GET /reliability before settling: proceed when isHealthy; hold when peg.deviationBps >= 50; defer large settlements below a stability score of 75.',
  fullText: true,
};

const ESG_DISCOVERY: DiscoveryInfo = {
  prefix: ESG_PREFIX,
  nameForHuman: 'Settlement rail ESG oracle',
  nameForModel: 'settlement_rail_esg',
  descriptionForHuman: 'Live E, S and G scores of the rail and the ESG fee derived from them.',
  descriptionForModel: 'GET /esg-score gives scores.average: use it as the esgScore of the stability quote. GET /quote prices the ESG fee of one transaction; GET /fee-schedule lists every tier.',
  fullText: false,
};

const STABILITY_SERVICE: FeesRestService = {
  openApi: {
    prefix: STABILITY_PREFIX,
    title: 'Settlement rail stability oracle',
    version: STABILITY_API_VERSION,
    description: 'Fee model, manifest and quotes of the stability oracle (Document 1).',
  },
  discovery: STABILITY_DISCOVERY,
  example: quoteRequestExample,
};

const ESG_SERVICE: FeesRestService = {
  openApi: {
    prefix: ESG_PREFIX,
    title: 'Settlement rail ESG oracle',
    version: STABILITY_API_VERSION,
    description: 'ESG fee quotes and the ESG fee schedule (Document 1).',
  },
  discovery: ESG_DISCOVERY,
  example: esgQuoteRequestExample,
};

export interface FeesRouteDeps {
  quotes: FeesService;
  stability: StabilityService;
  esg: EsgOracleService;
  /** For the widgets: the oracles' latest runs, and the compliance oracle's entity ESG. */
  readings: () => OracleReadings;
  entityEsg: EntityEsgClient | undefined;
  /** Told each service's endpoint map once its routes are registered. */
  registry: EndpointRegistry;
  publicBaseUrl: string | undefined;
}

/** {stability_url} and {esg_url}: each family's routes in the order of the services' documents. */
export function feesRoutes(deps: FeesRouteDeps): FastifyPluginAsync {
  const { publicBaseUrl, registry } = deps;
  return async (app) => {
    const stabilityRoutes = [stabilityOracleRoutes(deps.stability, deps.esg), corridorsWidgetRoute(deps.readings), stabilityQuoteRoutes(deps.quotes)];
    await app.register(
      serviceRoutes(STABILITY_SERVICE, stabilityRoutes, {
        publicBaseUrl,
        onEndpoints: (endpoints) => {
          registry.stability = endpoints;
        },
      }),
    );
    const esgRoutes = [esgOracleRoutes(deps.esg), esgWidgetRoute(deps.entityEsg), esgQuoteRoutes(deps.quotes)];
    await app.register(
      serviceRoutes(ESG_SERVICE, esgRoutes, {
        publicBaseUrl,
        onEndpoints: (endpoints) => {
          registry.esg = endpoints;
        },
      }),
    );
  };
}
