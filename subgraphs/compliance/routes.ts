import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { createPriceList, resourceOf } from '../../platform/access/paid-route.js';
import { requireAdminKey } from '../../platform/access/shared-secret.js';
import type { HttpServer } from '../../platform/http.js';
import { registerOpenApi } from '../../platform/openapi.js';
import { leiSearchQuerySchema, registerBodySchema, vopVerifyBodySchema } from './vop/inputs.js';
import { leiParamsSchema, walletParamsSchema } from './shared/inputs.js';
import {
  deregisteredSchema,
  leiRecordSchema,
  registeredEntitySchema,
  regulatoryCalendarSchema,
  vopHistorySchema,
  vopPaymentRequiredSchema,
  vopResultSchema,
  leiSearchSchema,
} from './vop/responses.js';
import { amlRoutes } from './aml/routes.js';
import type { AmlService } from './aml/service.js';
import { kyaRoutes } from './kya/routes.js';
import { streamRoutes } from './stream/routes.js';
import type { StreamService } from './stream/service.js';
import { uboRoutes } from './ownership/routes.js';
import { referenceDataRoutes } from './reference/routes.js';
import type { ReferenceDataService } from './reference/service.js';
import { vendorRiskRoutes } from './vendor/routes.js';
import type { VendorRiskService } from './vendor/service.js';
import type { UboService } from './ownership/service.js';
import { widgetRoutes, type SanctionsWidgetDeps } from './widget/routes.js';
import type { KyaService } from './kya/service.js';
import { entityEsgRoutes } from './esg/routes.js';
import type { EntityEsgService } from './esg/service.js';
import { pepRoutes } from './pep/routes.js';
import type { PepScreenService } from './pep/service.js';
import { VOP_OFFER, type ComplianceService } from './vop/service.js';
import { COMPLIANCE_API_VERSION, COMPLIANCE_PREFIX, complianceErrorShape } from './shared/error-shape.js';
import { complianceErrorSchema } from './shared/responses.js';

/**
 * What the compliance routes plugin mounts: one field per feature service, each registering its own
 * plugin inside this one (so every feature answers errors as {error, code} and lands in the OpenAPI document).
 */
export interface ComplianceRouteOptions {
  adminKey: string | undefined;
  facilitatorUrl: string | undefined;
  /** Know-your-agent: /agent/..., /agents/..., /.well-known/did.json (kya-routes.ts). */
  kya: KyaService;
  /** Entity ESG: /esg/score/:lei, /esg/score/wallet/:wallet (esg-routes.ts). */
  esg: EntityEsgService;
  /** PEP screen: /compliance/pep-screen (pep-routes.ts). */
  pep: PepScreenService;
  /** Streaming micropayment sessions: /stream/open (x402, variable amount), /stream/:sessionId/tick, /stream/:sessionId (stream-routes.ts). */
  stream: StreamService;
  /** Ownership chain: /compliance/ubo-chain (ubo-routes.ts). */
  ubo: UboService;
  /** The embeddable sanctions screen: /widget/sanctions (widget-routes.ts). */
  widget: SanctionsWidgetDeps;
  /** AML screening (internal, X-Internal-Key): /aml/screen, /aml/profile/:wallet, /aml/events/:wallet (aml-routes.ts). */
  aml: AmlService;
  /** Vendor risk: /vendor-risk (vendor-routes.ts). */
  vendorRisk: VendorRiskService;
  /** The reference data loaded in the database: /reference-data (reference-routes.ts). */
  referenceData: ReferenceDataService;
  /** INTERNAL_KEY; unset closes the internal endpoints. */
  internalKey: string | undefined;
}

export function complianceRoutes(service: ComplianceService, options: ComplianceRouteOptions): FastifyPluginAsync {
  return async (instance) => {
    const app = instance as unknown as HttpServer;
    app.errorShapes.register(complianceErrorShape);
    await registerOpenApi(app, {
      prefix: COMPLIANCE_PREFIX,
      title: 'Compliance oracle',
      version: COMPLIANCE_API_VERSION,
      description: 'Verification of payee, registry, LEI, screening and agent identity (Document 2).',
      openapi: '3.1.0',
    });
    await app.register(kyaRoutes(options.kya));
    await app.register(entityEsgRoutes(options.esg));
    await app.register(pepRoutes(options.pep));
    await app.register(uboRoutes(options.ubo));
    await app.register(widgetRoutes(options.widget));
    await app.register(amlRoutes(options.aml, { internalKey: options.internalKey }));
    await app.register(vendorRiskRoutes(options.vendorRisk));
    await app.register(referenceDataRoutes(options.referenceData));
    const prices = createPriceList({ prefix: COMPLIANCE_PREFIX, facilitatorUrl: options.facilitatorUrl });
    await app.register(streamRoutes(options.stream, { prices }));
    const errors = { 400: complianceErrorSchema, 404: complianceErrorSchema };
    // Administration answers 401 before it reads the body: an outsider learns nothing about the fields.
    const admin = { preValidation: async (request: FastifyRequest) => requireAdminKey(request.requestContext, options.adminKey) };

    const vopPath = `${COMPLIANCE_PREFIX}/vop/verify`;
    prices.price('POST', vopPath, VOP_OFFER);
    app.post(
      vopPath,
      {
        schema: {
          summary: 'Verification of payee (0.075 USDC, x402)',
          body: vopVerifyBodySchema,
          response: { 200: vopResultSchema, 400: complianceErrorSchema, 401: complianceErrorSchema, 402: vopPaymentRequiredSchema, 429: complianceErrorSchema },
        },
      },
      async (request) => service.verifyPayee(request.requestContext, request.body, resourceOf(request)),
    );
    app.get(`${COMPLIANCE_PREFIX}/vop/lookup/:wallet`, { schema: { summary: 'The registered entity of a wallet', params: walletParamsSchema, response: { 200: registeredEntitySchema, ...errors } } }, async (request) =>
      service.lookup(request.params.wallet),
    );
    app.get(`${COMPLIANCE_PREFIX}/vop/history/:wallet`, { schema: { summary: 'The last 50 VoP checks of a wallet', params: walletParamsSchema, response: { 200: vopHistorySchema, ...errors } } }, async (request) =>
      service.history(request.params.wallet),
    );
    app.get(`${COMPLIANCE_PREFIX}/lei/search`, { schema: { summary: 'LEIs whose legal or other name matches a name (VoP similarity at 75 or above), best first, at most 5', querystring: leiSearchQuerySchema, response: { 200: leiSearchSchema, ...errors } } }, async (request) =>
      service.searchLei(request.query.name),
    );
    app.get(`${COMPLIANCE_PREFIX}/lei/:lei`, { schema: { summary: 'LEI registry record and the wallets registered under it', params: leiParamsSchema, response: { 200: leiRecordSchema, ...errors } } }, async (request) =>
      service.lei(request.params.lei),
    );
    app.post(
      `${COMPLIANCE_PREFIX}/register`,
      { ...admin, schema: { summary: 'Register a wallet (admin)', body: registerBodySchema, response: { 200: registeredEntitySchema, 201: registeredEntitySchema, 401: complianceErrorSchema, 422: complianceErrorSchema, ...errors } } },
      async (request, reply) => {
        const { created, registration } = await service.register(request.requestContext, request.body);
        return reply.code(created ? 201 : 200).send(registration);
      },
    );
    app.delete(
      `${COMPLIANCE_PREFIX}/register/:wallet`,
      { ...admin, schema: { summary: 'Deactivate a wallet registration (admin)', params: walletParamsSchema, response: { 200: deregisteredSchema, 401: complianceErrorSchema, ...errors } } },
      async (request) => service.deregister(request.requestContext, request.params.wallet),
    );
    app.get(`${COMPLIANCE_PREFIX}/compliance/regulatory-calendar`, { schema: { summary: 'The 16 regulatory events the rail tracks', response: { 200: regulatoryCalendarSchema } } }, async () =>
      service.regulatoryCalendar(),
    );
    prices.registerDiscovery(app);
  };
}
