import type { FastifyPluginAsync } from 'fastify';
import { httpRoutes } from '../../../platform/http.js';
import { COMPLIANCE_PREFIX } from '../shared/error-shape.js';
import { complianceErrorSchema } from '../shared/responses.js';
import { pepScreenBodySchema } from './inputs.js';
import { pepScreenResultSchema } from './responses.js';
import type { PepScreenService } from './service.js';

export interface PepRouteOptions {
  /** Where the compliance oracle is mounted; default `/compliance` ({compliance_url}). */
  prefix?: string;
}

/**
 * POST /compliance/pep-screen (Document 2 §4), served at {compliance_url}/compliance/pep-screen.
 * Free, like the lookups (authentication "not shown"; decision 0016).
 */
export function pepRoutes(service: PepScreenService, options: PepRouteOptions = {}): FastifyPluginAsync {
  const prefix = options.prefix ?? COMPLIANCE_PREFIX;
  return httpRoutes(async (app) => {
    app.post(
      `${prefix}/compliance/pep-screen`,
      {
        schema: {
          summary: 'PEP screen: riskLevel, matches at 0.60 or above, EDD and the FATF R.12 attestation (6-hour cache)',
          body: pepScreenBodySchema,
          response: { 200: pepScreenResultSchema, 400: complianceErrorSchema },
        },
      },
      async (request) => service.pepScreen(request.body),
    );
  });
}
