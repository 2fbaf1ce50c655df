import type { FastifyPluginAsync } from 'fastify';
import { httpRoutes } from '../../../platform/http.js';
import { COMPLIANCE_PREFIX } from '../shared/error-shape.js';
import { leiParamsSchema, walletParamsSchema } from '../shared/inputs.js';
import { complianceErrorSchema } from '../shared/responses.js';
import { entityEsgQuerySchema, walletEsgQuerySchema } from './inputs.js';
import { entityEsgScoreSchema } from './responses.js';
import type { EntityEsgService } from './service.js';

export interface EntityEsgRouteOptions {
  /** Where the compliance oracle is mounted; default `/compliance` ({compliance_url}). */
  prefix?: string;
}

/**
 * GET /esg/score/:lei and GET /esg/score/wallet/:wallet of the compliance oracle (Document 2 §4):
 * free, thin, each calls the service. Registered inside the compliance routes plugin, so errors
 * take the compliance shape {error, code}.
 */
export function entityEsgRoutes(service: EntityEsgService, options: EntityEsgRouteOptions = {}): FastifyPluginAsync {
  const prefix = options.prefix ?? COMPLIANCE_PREFIX;
  return httpRoutes(async (app) => {
    const errors = { 400: complianceErrorSchema, 404: complianceErrorSchema };

    app.get(
      `${prefix}/esg/score/wallet/:wallet`,
      {
        schema: {
          summary: "Entity ESG score of a wallet's registered entity (404 when unregistered or without an LEI)",
          params: walletParamsSchema,
          querystring: walletEsgQuerySchema,
          response: { 200: entityEsgScoreSchema, ...errors },
        },
      },
      async (request) => service.entityEsgForWallet(request.params.wallet, request.query),
    );
    app.get(
      `${prefix}/esg/score/:lei`,
      {
        schema: {
          summary: 'Entity ESG score (7-day cache; refresh=true recomputes; narrate=true adds a narration)',
          params: leiParamsSchema,
          querystring: entityEsgQuerySchema,
          response: { 200: entityEsgScoreSchema, ...errors },
        },
      },
      async (request) => service.entityEsg(request.params.lei, request.query),
    );
  });
}
