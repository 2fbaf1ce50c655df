import type { FastifyPluginAsync } from 'fastify';
import { httpRoutes } from '../../../platform/http.js';
import { COMPLIANCE_PREFIX } from '../shared/error-shape.js';
import { complianceErrorSchema } from '../shared/responses.js';
import { agentAuthorizeBodySchema, agentDirectoryQuerySchema, agentMandateBodySchema, agentParamsSchema, agentRegisterBodySchema } from './inputs.js';
import {
  agentAuthorizedSchema,
  agentDirectorySchema,
  agentMandateSchema,
  agentRecordSchema,
  agentRegistrationSchema,
  agentRevokedSchema,
  agentVerificationSchema,
  didDocumentSchema,
} from './responses.js';
import type { KyaService } from './service.js';

export interface KyaRouteOptions {
  /** Where the compliance oracle is mounted; default `/compliance` ({compliance_url}). */
  prefix?: string;
}

/** DID documents are JSON-LD; DID Core names their media type. */
const DID_MEDIA_TYPE = 'application/did+json';

/**
 * The know-your-agent paths of the compliance oracle (Document 2 §4): thin, each calls the service.
 * Registered inside the compliance routes plugin, so its errors take the compliance shape {error, code}.
 * The issuer's DID document is served at both `/.well-known/did.json` (as the spec lists it) and
 * `/did.json`, where its did:web (`did:web:<host>:compliance`, a DID with a path) resolves.
 */
export function kyaRoutes(service: KyaService, options: KyaRouteOptions = {}): FastifyPluginAsync {
  const prefix = options.prefix ?? COMPLIANCE_PREFIX;
  return httpRoutes(async (app) => {
    const errors = { 400: complianceErrorSchema, 404: complianceErrorSchema };
    /** The owner's proof (decision 0048): 401 without it, 409 for an Idempotency-Key reused, 429 over the key's limit. */
    const proven = { 401: complianceErrorSchema, 409: complianceErrorSchema, 429: complianceErrorSchema };

    app.post(
      `${prefix}/agent/register`,
      {
        schema: {
          summary: 'Register an agent (KYA); the tier is derived from the fields given',
          body: agentRegisterBodySchema,
          response: { 201: agentRegistrationSchema, 400: complianceErrorSchema, 403: complianceErrorSchema },
        },
      },
      async (request, reply) => reply.code(201).send(await service.register(request.body)),
    );
    app.post(
      `${prefix}/agent/mandate`,
      {
        schema: {
          summary: 'Create or replace an agent mandate (REGISTERED caps clamped to USD 25,000; ANONYMOUS must upgrade first)',
          body: agentMandateBodySchema,
          response: { 200: agentMandateSchema, 201: agentMandateSchema, 403: complianceErrorSchema, 410: complianceErrorSchema, ...errors, ...proven },
        },
      },
      async (request, reply) => {
        const { created, mandate } = await service.setMandate(request.requestContext, request.body);
        return reply.code(created ? 201 : 200).send(mandate);
      },
    );
    app.post(
      `${prefix}/agent/:id/verify`,
      { schema: { summary: 'Verify an agent: a 1-hour credential and its VC-JWT, or REVOKED', params: agentParamsSchema, response: { 200: agentVerificationSchema, ...errors } } },
      async (request) => service.verify(request.params.id),
    );
    app.get(`${prefix}/agent/:id`, { schema: { summary: 'Agent record, level, score, mandate', params: agentParamsSchema, response: { 200: agentRecordSchema, ...errors } } }, async (request) =>
      service.getAgent(request.params.id),
    );
    app.delete(
      `${prefix}/agent/:id`,
      { schema: { summary: "Revoke an agent (X-Agent-Key: its owner's proof)", params: agentParamsSchema, response: { 200: agentRevokedSchema, ...errors, ...proven } } },
      async (request) => service.revoke(request.requestContext, request.params.id),
    );
    app.post(
      `${prefix}/agent/:id/authorize`,
      {
        schema: {
          summary: "Whether a key is the agent's own (internal: X-Internal-Key; the settlement agent asks before settling)",
          params: agentParamsSchema,
          body: agentAuthorizeBodySchema,
          response: { 200: agentAuthorizedSchema, 401: complianceErrorSchema, ...errors },
        },
      },
      async (request) => service.authorize(request.requestContext, request.params.id, request.body.agentKey),
    );
    app.get(
      `${prefix}/agents/directory`,
      { schema: { summary: 'Discoverable agents, optionally of one owner entity', querystring: agentDirectoryQuerySchema, response: { 200: agentDirectorySchema, 400: complianceErrorSchema } } },
      async (request) => service.directory(request.query),
    );
    app.get(
      `${prefix}/agents/:id/did.json`,
      { schema: { summary: 'Agent identity document (did:web)', params: agentParamsSchema, response: { 200: didDocumentSchema, 410: complianceErrorSchema, ...errors } } },
      async (request, reply) => reply.type(DID_MEDIA_TYPE).send(await service.agentDidDocument(request.params.id)),
    );
    for (const path of [`${prefix}/.well-known/did.json`, `${prefix}/did.json`]) {
      app.get(path, { schema: { summary: 'Issuer identity document (did:web)', response: { 200: didDocumentSchema } } }, async (_request, reply) =>
        reply.type(DID_MEDIA_TYPE).send(service.issuerDidDocument()),
      );
    }
  });
}
