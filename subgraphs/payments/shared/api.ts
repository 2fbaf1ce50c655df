import { AppError } from '../../../platform/errors.js';

/**
 * What every REST family of the payments subgraph shares: its prefixes, the version its OpenAPI
 * documents and manifests state, and the refinement of its error shapes. Imports no family, so
 * every family may import it.
 */

/** {integration_url}: the payment integration API (integration/routes.ts). */
export const INTEGRATION_PREFIX = '/integration';
/** {agent_url}: the settlement agent (agent/routes.ts). */
export const AGENT_PREFIX = '/agent';
/** The version of the integration API and of the settlement agent (their OpenAPI documents and manifests). */
export const INTEGRATION_API_VERSION = '1.0.0';

/** Both error shapes answer a malformed request (Fastify's GEN_ERR_BAD_REQUEST) as PAY_ERR_INVALID_REQUEST. */
export function asPaymentsError(error: AppError): AppError {
  return error.code === 'GEN_ERR_BAD_REQUEST' ? new AppError('PAY_ERR_INVALID_REQUEST', { message: error.message, cause: error }) : error;
}
