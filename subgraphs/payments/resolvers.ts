import { presentedKey, type ApiKeys } from '../../platform/access/api-keys.js';
import { rateLimitHeaders } from '../../platform/access/admission.js';
import { AppError } from '../../platform/errors.js';
import type { RequestContext } from '../../platform/request-context.js';
import { DecimalScalar } from '../../platform/scalars.js';
import type { SubgraphContext } from '../../platform/subgraph.js';
import { readPaymentInitiation } from './inputs.js';
import type { PaymentsService } from './service.js';

/**
 * The payments graph: thin, calls the same service as routes.ts. An institution key is required
 * as in REST (401 GEN_ERR_UNAUTHORIZED, 429 with the X-RateLimit-* headers set on the answer).
 */
async function requireInstitution(keys: ApiKeys, request: RequestContext): Promise<void> {
  const key = presentedKey(request.headers, 'bearer');
  const record = key ? await keys.authenticate('bearer', key) : null;
  if (!record) throw new AppError('GEN_ERR_UNAUTHORIZED');
  const state = await keys.count(record);
  for (const [name, value] of Object.entries(rateLimitHeaders(state))) request.responseHeaders.set(name, value);
  if (state.exceeded) throw new AppError('GEN_ERR_RATE_LIMITED', { retryAfterSeconds: state.resetSeconds });
}

/** GraphQL gives absent optional input fields as null; the native schema wants them left out. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null && field !== undefined).map(([name, field]) => [name, withoutNulls(field)]));
}

const orNull = <T>(work: Promise<T>): Promise<T | null> =>
  work.catch((error: unknown) => {
    if (error instanceof AppError && (error.code === 'PAY_ERR_PAYMENT_NOT_FOUND' || error.code === 'PAY_ERR_RATE_UNAVAILABLE')) return null;
    throw error;
  });

export function createPaymentsResolvers(service: PaymentsService, keys: ApiKeys) {
  return {
    Decimal: DecimalScalar,
    Query: {
      payment: async (_: unknown, args: { railPaymentId: string }, context: SubgraphContext) => {
        await requireInstitution(keys, context.request);
        return orNull(service.get(args.railPaymentId));
      },
      paymentByTmsReference: async (_: unknown, args: { tmsReference: string }, context: SubgraphContext) => {
        await requireInstitution(keys, context.request);
        return orNull(service.findByTmsReference(args.tmsReference));
      },
      fxRate: (_: unknown, args: { currency: string }) => orNull(service.rate(args.currency)),
    },
    Mutation: {
      initiatePayment: async (_: unknown, args: { input: Record<string, unknown> }, context: SubgraphContext) => {
        await requireInstitution(keys, context.request);
        const read = readPaymentInitiation(withoutNulls(args.input));
        if (!read.ok) throw new AppError('PAY_ERR_INVALID_REQUEST', { message: `Invalid input: ${read.issues.slice(0, 10).map((issue) => `${issue.path} ${issue.message}`).join('; ')}` });
        if (read.value.kind !== 'native') throw new AppError('PAY_ERR_INVALID_REQUEST', { message: 'initiatePayment takes the native payment.' });
        return service.initiate(context.request, read.value.payment);
      },
    },
    Payment: {
      __resolveReference: async (reference: { railPaymentId: string }, context: SubgraphContext) => {
        await requireInstitution(keys, context.request);
        return orNull(service.get(reference.railPaymentId));
      },
    },
  };
}
