import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { requireInternalKey } from '../../../platform/access/shared-secret.js';
import { httpRoutes } from '../../../platform/http.js';
import { COMPLIANCE_PREFIX } from '../shared/error-shape.js';
import { complianceErrorSchema } from '../shared/responses.js';
import { amlScreenBodySchema, amlWalletParamsSchema } from './inputs.js';
import { amlEventsSchema, amlProfileSchema, amlScreenResultSchema } from './responses.js';
import type { AmlService } from './service.js';

export interface AmlRouteOptions {
  /** INTERNAL_KEY (platform.config.access.internalKey); unset closes the AML endpoints. */
  internalKey: string | undefined;
  /** Where the compliance oracle is mounted; default `/compliance` ({compliance_url}). */
  prefix?: string;
}

/**
 * The AML paths of the compliance oracle (Document 2 §4, §5): internal, X-Internal-Key compared in
 * constant time, answered 401 before the body or path is read (an outsider learns nothing about the
 * fields). Registered inside the compliance routes plugin, so errors take the shape {error, code}.
 */
export function amlRoutes(service: AmlService, options: AmlRouteOptions): FastifyPluginAsync {
  const prefix = options.prefix ?? COMPLIANCE_PREFIX;
  return httpRoutes(async (app) => {
    const internal = { preValidation: async (request: FastifyRequest) => requireInternalKey(request.requestContext, options.internalKey) };
    const errors = { 400: complianceErrorSchema, 401: complianceErrorSchema };

    app.post(
      `${prefix}/aml/screen`,
      {
        ...internal,
        schema: {
          summary: 'AML screening of one payment (internal): sanctions, behavioural signals, risk tier and action',
          body: amlScreenBodySchema,
          response: { 200: amlScreenResultSchema, 409: complianceErrorSchema, ...errors },
        },
      },
      async (request) => service.screen(request.body),
    );
    app.get(
      `${prefix}/aml/profile/:wallet`,
      {
        ...internal,
        schema: { summary: "A wallet's behavioural profile (internal): maturity, rolling statistics, risk score", params: amlWalletParamsSchema, response: { 200: amlProfileSchema, ...errors } },
      },
      async (request) => service.profile(request.params.wallet),
    );
    app.get(
      `${prefix}/aml/events/:wallet`,
      {
        ...internal,
        schema: { summary: "A wallet's last 50 AML events of level WARNING and above (internal), newest first", params: amlWalletParamsSchema, response: { 200: amlEventsSchema, ...errors } },
      },
      async (request) => service.events(request.params.wallet),
    );
  });
}
