import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { presentedKey, type ApiKeys, type KeyKind } from './api-keys.js';

/**
 * A Fastify preHandler admitting requests that carry an active key of `kind`, within its
 * per-minute limit. Every answer to a request with a valid key carries X-RateLimit-Limit,
 * -Remaining and -Reset (seconds); over the limit it is 429 with Retry-After. A missing, unknown or
 * revoked key is 401. Both are sent in the service's own error shape (app.errorShapes).
 */
export function requireKey(keys: ApiKeys, kind: KeyKind) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const key = presentedKey(request.requestContext.headers, kind);
    const admitted = key ? await keys.admit(kind, key) : null;
    if (!admitted) {
      if (kind === 'bearer') reply.header('www-authenticate', 'Bearer');
      return request.server.errorShapes.send(request, reply, new AppError('GEN_ERR_UNAUTHORIZED'));
    }
    const { state } = admitted;
    reply.header('x-ratelimit-limit', String(state.limit));
    reply.header('x-ratelimit-remaining', String(state.remaining));
    reply.header('x-ratelimit-reset', String(state.resetSeconds));
    if (state.exceeded) {
      return request.server.errorShapes.send(request, reply, new AppError('GEN_ERR_RATE_LIMITED', { retryAfterSeconds: state.resetSeconds }));
    }
  };
}
