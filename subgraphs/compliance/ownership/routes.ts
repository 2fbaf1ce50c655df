import type { FastifyPluginAsync } from 'fastify';
import { httpRoutes } from '../../../platform/http.js';
import { COMPLIANCE_PREFIX } from '../shared/error-shape.js';
import { complianceErrorSchema } from '../shared/responses.js';
import { uboChainBodySchema } from './inputs.js';
import { uboChainResultSchema } from './responses.js';
import type { UboService } from './service.js';

export interface UboRouteOptions {
  /** Where the compliance oracle is mounted; default `/compliance` ({compliance_url}). */
  prefix?: string;
}

/**
 * POST {compliance_url}/compliance/ubo-chain (Document 2 §4): thin, calls the service. Registered
 * inside the compliance routes plugin, so its errors take the compliance shape {error, code}.
 */
export function uboRoutes(service: UboService, options: UboRouteOptions = {}): FastifyPluginAsync {
  const prefix = options.prefix ?? COMPLIANCE_PREFIX;
  return httpRoutes(async (app) => {
    app.post(
      `${prefix}/compliance/ubo-chain`,
      {
        schema: {
          summary: 'Ownership chain up to 3 levels (subject, direct parent, ultimate parent), every node screened against the SDN list; cached 24 hours',
          body: uboChainBodySchema,
          response: { 200: uboChainResultSchema, 400: complianceErrorSchema, 404: complianceErrorSchema },
        },
      },
      async (request) => service.uboChain(request.body),
    );
  });
}
