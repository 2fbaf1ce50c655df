import type { preValidationHookHandler } from 'fastify';
import { tenantOf } from '../../../platform/access/admission.js';
import type { HttpServer } from '../../../platform/http.js';
import { batchBodySchema } from './inputs.js';
import type { Initiations } from './initiation.js';
import { batchResponseSchema } from './iso-responses.js';
import { integrationErrorSchema } from './responses.js';

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
