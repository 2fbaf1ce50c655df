// What every compliance family shares over HTTP: where the compliance oracle is mounted and how its
// errors are written. Families import this module; it imports no family (no import cycle).

import { AppError } from '../../../platform/errors.js';
import { genericErrorBody, type ServiceErrorShape } from '../../../platform/http.js';

export const COMPLIANCE_PREFIX = '/compliance';
export const COMPLIANCE_API_VERSION = '1.0.0';

/**
 * The compliance oracle's errors (the spec does not show its body, decision 0014): {error, code}.
 * Malformed input of any kind is CMP_ERR_INVALID_REQUEST.
 */
export const complianceErrorShape: ServiceErrorShape = {
  prefix: COMPLIANCE_PREFIX,
  refine: (error) => (error.code === 'GEN_ERR_BAD_REQUEST' ? new AppError('CMP_ERR_INVALID_REQUEST', { message: error.message, cause: error }) : error),
  body: genericErrorBody,
};
