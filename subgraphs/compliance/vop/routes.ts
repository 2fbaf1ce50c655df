import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { type PriceList, resourceOf } from '../../../platform/access/paid-route.js';
import { requireAdminKey } from '../../../platform/access/shared-secret.js';
import { httpRoutes } from '../../../platform/http.js';
import { COMPLIANCE_PREFIX } from '../shared/error-shape.js';
import { leiParamsSchema, walletParamsSchema } from '../shared/inputs.js';
import { complianceErrorSchema } from '../shared/responses.js';
import { leiSearchQuerySchema, registerBodySchema, vopVerifyBodySchema } from './inputs.js';
import { deregisteredSchema, leiRecordSchema, leiSearchSchema, registeredEntitySchema, regulatoryCalendarSchema, vopHistorySchema, vopPaymentRequiredSchema, vopResultSchema } from './responses.js';
import { type ComplianceService, VOP_OFFER } from './service.js';

export interface VopRouteOptions {
  /** ADMIN_KEY: POST /register and DELETE /register/:wallet; unset closes them. */
  adminKey: string | undefined;
  /** The compliance price list: POST /vop/verify is declared in it, so /.well-known/x402 lists it. */
  prices: PriceList;
}

/**
 * Verification of payee, the wallet registry, LEI and the regulatory calendar (Document 2 §4): thin,
 * each path calls the service. Registered inside the compliance routes plugin, so its errors take
 * the compliance shape {error, code}.
 */
export function vopRoutes(service: ComplianceService, options: VopRouteOptions): FastifyPluginAsync {
  return httpRoutes(async (app) => {
    const errors = { 400: complianceErrorSchema, 404: complianceErrorSchema };
    // Administration answers 401 before it reads the body: an outsider learns nothing about the fields.
    const admin = { preValidation: async (request: FastifyRequest) => requireAdminKey(request.requestContext, options.adminKey) };

    const vopPath = `${COMPLIANCE_PREFIX}/vop/verify`;
    options.prices.price('POST', vopPath, VOP_OFFER);
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
    app.get(
      `${COMPLIANCE_PREFIX}/vop/lookup/:wallet`,
      { schema: { summary: 'The registered entity of a wallet', params: walletParamsSchema, response: { 200: registeredEntitySchema, ...errors } } },
      async (request) => service.lookup(request.params.wallet),
    );
    app.get(
      `${COMPLIANCE_PREFIX}/vop/history/:wallet`,
      { schema: { summary: 'The last 50 VoP checks of a wallet', params: walletParamsSchema, response: { 200: vopHistorySchema, ...errors } } },
      async (request) => service.history(request.params.wallet),
    );
    app.get(
      `${COMPLIANCE_PREFIX}/lei/search`,
      {
        schema: {
          summary: 'LEIs whose legal or other name matches a name (VoP similarity at 75 or above), best first, at most 5',
          querystring: leiSearchQuerySchema,
          response: { 200: leiSearchSchema, ...errors },
        },
      },
      async (request) => service.searchLei(request.query.name),
    );
    app.get(
      `${COMPLIANCE_PREFIX}/lei/:lei`,
      { schema: { summary: 'LEI registry record and the wallets registered under it', params: leiParamsSchema, response: { 200: leiRecordSchema, ...errors } } },
      async (request) => service.lei(request.params.lei),
    );
    app.post(
      `${COMPLIANCE_PREFIX}/register`,
      {
        ...admin,
        schema: {
          summary: 'Register a wallet (admin)',
          body: registerBodySchema,
          response: { 200: registeredEntitySchema, 201: registeredEntitySchema, 401: complianceErrorSchema, 422: complianceErrorSchema, ...errors },
        },
      },
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
  });
}
