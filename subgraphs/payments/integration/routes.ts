import type { FastifyPluginAsync, FastifyRequest, preValidationHookHandler } from 'fastify';
import { tenantOf } from '../../../platform/access/admission.js';
import type { ApiKeys } from '../../../platform/access/api-keys.js';
import { requireInstitution } from '../../../platform/access/require-key.js';
import { httpRoutes, type HttpServer, type ServiceErrorShape } from '../../../platform/http.js';
import { registerOpenApi } from '../../../platform/openapi.js';
import { asPaymentsError, INTEGRATION_API_VERSION, INTEGRATION_PREFIX } from '../shared/api.js';
import { paymentResultSchema } from '../shared/responses.js';
import { type IntegrationHealth, registerHealthRoute } from './health.js';
import type { Initiations } from './initiation.js';
import { batchBodySchema, paymentInitiationBodySchema, paymentParamsSchema, paymentQuerySchema, rateParamsSchema } from './inputs.js';
import { registerManifestRoute } from './manifest.js';
import { registerMcpEndpoint } from './mcp.js';
import { batchResponseSchema, fxRateSchema, initiationResponseSchema, integrationErrorSchema } from './responses.js';
import type { Payments } from './service.js';
import { registerTreasurySummaryRoute, type TreasurySummaryService } from './treasury-summary.js';

/**
 * The integration API's errors are {error, code} (the spec shows none; decision 0025), every error
 * under the prefix included; a malformed request is PAY_ERR_INVALID_REQUEST.
 */
const integrationErrorShape: ServiceErrorShape = {
  prefix: INTEGRATION_PREFIX,
  refine: asPaymentsError,
  body: (error) => ({ error: error.message, code: error.code }),
};

/** Each POST /payments/initiate request's JSON text, as it came (decision 0043). */
const bodyTexts = new WeakMap<FastifyRequest, string>();

/** Fastify's own JSON parser, with the server's settings, that keeps each body's text for its request. */
function jsonParserKeepingText(app: HttpServer) {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = app.initialConfig;
  const parse = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  return (request: FastifyRequest, text: string, done: (error: Error | null, body?: unknown) => void) => {
    bodyTexts.set(request, text);
    return parse(request, text, done);
  };
}

const errors = { 400: integrationErrorSchema, 401: integrationErrorSchema, 404: integrationErrorSchema, 429: integrationErrorSchema };

function registerInitiateRoute(app: HttpServer, initiation: Initiations, institution: { preValidation: preValidationHookHandler }): void {
  app.post(
    `${INTEGRATION_PREFIX}/payments/initiate`,
    {
      ...institution,
      schema: {
        summary: 'Initiate a payment: native -> PaymentResult, pain.001 -> pacs.002 report; the same tmsReference answers the stored result, another body under it is 409',
        description: 'Body: the native payment or a pain.001 JSON document (decision 0022). Validated by readPaymentInitiation, which names each problem by its JSON path.',
        body: paymentInitiationBodySchema,
        response: { 200: initiationResponseSchema, 409: integrationErrorSchema, 503: integrationErrorSchema, ...errors },
      },
      // The body is read by readPaymentInitiation (issues by JSON path); the schema above documents it.
      validatorCompiler: () => (data) => ({ value: data }),
    },
    async (request) => initiation.for(tenantOf(request.requestContext)).initiate(request.requestContext, request.body, bodyTexts.get(request)),
  );
}

/** The batch path (spec §4 "not shown"; decision 0028). */
export const BATCH_PATH = '/integration/payments/batch';

/**
 * POST /integration/payments/batch: {payments: 1 to 50 native payments} -> one entry per payment in
 * order (its PaymentResult, or {tmsReference, error, code} for a payment refused alone); 51 or any
 * malformed payment is a 400 before anything is sent, naming each problem by its JSON path. The
 * payments are the key's institution's (decision 0050).
 */
export function registerBatchRoute(app: HttpServer, initiation: Initiations, institution: { preValidation: preValidationHookHandler }): void {
  app.post(
    BATCH_PATH,
    {
      ...institution,
      schema: {
        summary: 'Initiate up to 50 native payments, each with its own tmsReference idempotency; results in order',
        body: batchBodySchema,
        response: { 200: batchResponseSchema, 400: integrationErrorSchema, 401: integrationErrorSchema, 429: integrationErrorSchema },
      },
      // Read by readBatch (issues by JSON path); the schema above documents it.
      validatorCompiler: () => (data) => ({ value: data }),
    },
    async (request) => initiation.for(tenantOf(request.requestContext)).batch(request.requestContext, request.body),
  );
}

export interface IntegrationRouteOptions {
  /** Institution keys (Authorization: Bearer), with the 1,000 requests per minute of the spec and the X-RateLimit-* headers. */
  keys: ApiKeys;
  /** ADMIN_KEY: reads every institution's payments (decision 0050). */
  adminKey: string | undefined;
  /** The body readers of POST /payments/initiate and the batch path (native, pain.001, batch), shared with the MCP tools. */
  initiation: Initiations;
  /** GET /integration/health. */
  health: IntegrationHealth;
  /** GET /integration/treasury-summary (internal, decision 0066). */
  treasury: TreasurySummaryService;
  /** INTERNAL_KEY: the internal paths. */
  internalKey: string | undefined;
}

/** The integration API (spec §4): thin, each path calls the service. */
export function integrationRoutes(payments: Payments, options: IntegrationRouteOptions): FastifyPluginAsync {
  return httpRoutes(async (app) => {
    app.errorShapes.register(integrationErrorShape);
    await registerOpenApi(app, {
      prefix: INTEGRATION_PREFIX,
      title: 'Payment integration API',
      version: INTEGRATION_API_VERSION,
      description: 'Payments in, VoP and AML through the compliance oracle, settlement on the rail (Document 2).',
    });
    // The key is checked before the body is read: a caller without one learns nothing about the fields.
    // Each path then acts as the key's institution, or as the admin (decision 0050).
    const institution = { preValidation: requireInstitution(options.keys, options.adminKey) };

    // In a context of its own: only this route's JSON bodies keep their text, by which initiation knows a retry.
    await app.register(async (scope) => {
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, jsonParserKeepingText(app));
      registerInitiateRoute(scope, options.initiation, institution);
    });
    app.get(
      `${INTEGRATION_PREFIX}/payments/:railPaymentId`,
      { ...institution, schema: { summary: 'A payment by its railPaymentId', params: paymentParamsSchema, response: { 200: paymentResultSchema, ...errors } } },
      async (request) => payments.for(tenantOf(request.requestContext)).get(request.params.railPaymentId),
    );
    app.get(
      `${INTEGRATION_PREFIX}/payments`,
      { ...institution, schema: { summary: 'A payment by its tmsReference', querystring: paymentQuerySchema, response: { 200: paymentResultSchema, ...errors } } },
      async (request) => payments.for(tenantOf(request.requestContext)).findByTmsReference(request.query.tmsReference, request.query.institution),
    );
    app.get(
      `${INTEGRATION_PREFIX}/rates/:currency`,
      { schema: { summary: 'FX rate against USD; no authentication', params: rateParamsSchema, response: { 200: fxRateSchema, 400: integrationErrorSchema, 404: integrationErrorSchema } } },
      async (request) => payments.rate(request.params.currency),
    );
    registerBatchRoute(app, options.initiation, institution);
    registerHealthRoute(app, options.health, institution);
    registerTreasurySummaryRoute(app, options.treasury, options.internalKey);
    registerManifestRoute(app, institution);
    registerMcpEndpoint(app, institution);
  });
}
