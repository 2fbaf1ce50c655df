import type { FastifyReply, FastifyRequest } from 'fastify';
import { admitKey } from './admission.js';
import type { ApiKeys, KeyKind } from './api-keys.js';

/**
 * A Fastify preHandler admitting requests that carry an active key of `kind`, within its
 * per-minute limit. Every answer to a request with a valid key carries X-RateLimit-Limit,
 * -Remaining and -Reset (seconds); over the limit it is 429 with Retry-After. A missing, unknown or
 * revoked key is 401. Both are sent in the service's own error shape (app.errorShapes).
 */
export function requireKey(keys: ApiKeys, kind: KeyKind) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { headers, refusal } = await admitKey(keys, request.requestContext.headers, kind);
    reply.headers(headers);
    if (!refusal) return;
    if (refusal.code === 'GEN_ERR_UNAUTHORIZED' && kind === 'bearer') reply.header('www-authenticate', 'Bearer');
    return request.server.errorShapes.send(request, reply, refusal);
  };
}
