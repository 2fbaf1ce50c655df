import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors.js';
import type { RequestContext } from '../request-context.js';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether the presented secret is the configured one, in constant time: both are hashed first, so
 * the comparison takes the same time whatever the presented value, its length included. Nothing
 * matches a secret that is not configured.
 */
export function sameSecret(presented: string | undefined, configured: string | undefined): boolean {
  if (presented === undefined || configured === undefined) return false;
  return timingSafeEqual(digest(presented), digest(configured));
}

/** Internal endpoints (AML): X-Internal-Key must be INTERNAL_KEY; 401 otherwise, and always while INTERNAL_KEY is unset. */
export function requireInternalKey(request: RequestContext, internalKey: string | undefined): void {
  if (!sameSecret(request.headers['x-internal-key'], internalKey)) {
    throw new AppError('GEN_ERR_UNAUTHORIZED', { message: 'This endpoint is internal: a valid X-Internal-Key is required.' });
  }
}

/** Registry administration: Authorization: Bearer with the oracle's signing key (ADMIN_KEY); 401 otherwise, and always while it is unset. */
export function requireAdminKey(request: RequestContext, adminKey: string | undefined): void {
  const bearer = request.headers.authorization ? /^Bearer\s+(\S+)$/i.exec(request.headers.authorization)?.[1] : undefined;
  if (!sameSecret(bearer, adminKey)) {
    throw new AppError('GEN_ERR_UNAUTHORIZED', { message: 'Administration requires Authorization: Bearer with the admin key.' });
  }
}
