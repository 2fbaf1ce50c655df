import type { FastifyPluginAsync } from 'fastify';
import { httpRoutes } from '../../../platform/http.js';
import { COMPLIANCE_PREFIX } from '../shared/error-shape.js';
import { complianceErrorSchema } from '../shared/responses.js';
import { vendorRiskBodySchema } from './inputs.js';
import { vendorRiskResultSchema } from './responses.js';
import type { VendorRiskService } from './service.js';

/** POST {compliance_url}/vendor-risk (Document 2 §4): no key and no payment needed. */
export function vendorRiskRoutes(service: VendorRiskService, options: { prefix?: string } = {}): FastifyPluginAsync {
  const prefix = options.prefix ?? COMPLIANCE_PREFIX;
  return httpRoutes(async (app) => {
    app.post(
      `${prefix}/vendor-risk`,
      {
        schema: {
          summary: 'Vendor risk: sanctions, PEP, FATF and VoP screening with the entity ESG score, compliance x 0.65 + ESG x 0.35',
          body: vendorRiskBodySchema,
          response: { 200: vendorRiskResultSchema, 400: complianceErrorSchema },
        },
      },
      async (request) => service.vendorRisk(request.body),
    );
  });
}
