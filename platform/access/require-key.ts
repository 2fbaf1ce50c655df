import type { FastifyReply, FastifyRequest } from 'fastify';
import { admitInstitution, admitKey, type KeyAdmission } from './admission.js';
import type { ApiKeys, KeyKind } from './api-keys.js';

/**
 * A Fastify preHandler admitting requests that carry an active key of `kind`, within its
 * per-minute limit. Every answer to a request with a valid key carries X-RateLimit-Limit,
 * -Remaining and -Reset (seconds); over the limit it is 429 with Retry-After. A missing, unknown or
 * revoked key is 401. Both are sent in the service's own error shape (app.errorShapes).
 */
export function requireKey(keys: ApiKeys, kind: KeyKind) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    return answerAdmission(request, reply, await admitKey(keys, request.requestContext.headers, kind), kind);
  };
}

/**
 * The integration API's preValidation (decision 0050): an institution's bearer key or the admin
 * key (admitInstitution), the tenant recorded on the request's context (tenantOf); refusals as
 * requireKey's.
 */
export function requireInstitution(keys: ApiKeys, adminKey: string | undefined) {
  return async (request: FastifyRequest, reply: FastifyReply) => answerAdmission(request, reply, await admitInstitution(keys, adminKey, request.requestContext), 'bearer');
}

async function answerAdmission(request: FastifyRequest, reply: FastifyReply, { headers, refusal }: KeyAdmission, kind: KeyKind) {
  reply.headers(headers);
  if (!refusal) return;
  if (refusal.code === 'GEN_ERR_UNAUTHORIZED' && kind === 'bearer') reply.header('www-authenticate', 'Bearer');
  return request.server.errorShapes.send(request, reply, refusal);
}
