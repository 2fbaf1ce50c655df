import type { PaymentRequirements } from 'x402/types';
import { AppError } from '../errors.js';
import type { RequestContext } from '../request-context.js';
import { type ApiKeyRecord, type ApiKeys, type KeyKind, presentedKey, type RateLimitState } from './api-keys.js';
import type { RateLimitStore } from './rate-limit.js';
import { sameSecret } from './shared-secret.js';
import { type AuthorizedPayment, type PaymentRefusal, paymentRequiredBody, type Price, type X402 } from './x402.js';

/** What a paid route or field sells: its price, and what the payer is told in the 402 besides the requirements. */
export interface Offer {
  price: Price;
  /** Extra fields of the 402 body (a report's `reportPreview`), given the requirements it goes with. */
  preview?: (requirements: PaymentRequirements) => Record<string, unknown>;
}

/** platform/access as a subgraph uses it: API keys, x402 payments, and the internal key of calls between subgraphs. */
export interface Access {
  keys: ApiKeys;
  x402: X402;
  /** INTERNAL_KEY: a subgraph calling another's paid capability (payments' VoP) is not charged (DESIGN §3). */
  internalKey?: string | undefined;
  /** The keys' rate-limit store, for limits counted on other keys than API keys (an agent's key, decision 0048). */
  rateLimits?: RateLimitStore;
}

export type Admission = { ok: true; via: 'key' | 'internal' } | { ok: true; via: 'payment'; payment: AuthorizedPayment };

/**
 * Why a request was not admitted, as the error its service renders: 401, 429, or 402 whose
 * details are the x402 body (requirements, reason, and the offer's preview).
 */
export interface Refusal {
  ok: false;
  error: AppError;
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(state.resetSeconds),
  };
}

/** A key's admission: the X-RateLimit-* its answer carries (none without a valid key), and the 401 or 429 to answer instead. */
export interface KeyAdmission {
  headers: Record<string, string>;
  refusal?: AppError;
  /** The admitted key (also over its limit). */
  record?: ApiKeyRecord;
}

/**
 * Admits a request by the key it presents for `kind` (looked up and counted in one step, decision
 * 0039): 401 without a key or with an unknown or revoked one, 429 over its limit. REST
 * (requireKey), the paid routes and the payments graph alike; each sets the headers on its answer.
 */
export async function admitKey(keys: ApiKeys, headers: RequestContext['headers'], kind: KeyKind, key = presentedKey(headers, kind)): Promise<KeyAdmission> {
  const admitted = key ? await keys.admit(kind, key) : null;
  if (!admitted) return { headers: {}, refusal: new AppError('GEN_ERR_UNAUTHORIZED') };
  const { state, record } = admitted;
  return { headers: rateLimitHeaders(state), record, ...(state.exceeded ? { refusal: new AppError('GEN_ERR_RATE_LIMITED', { retryAfterSeconds: state.resetSeconds }) } : {}) };
}

/**
 * Whose payments a caller of the integration API sees (decision 0050): an institution's, through
 * any of its bearer keys, or all of them, with the admin key (ADMIN_KEY).
 */
export type Tenant = { kind: 'institution'; institutionId: string } | { kind: 'admin' };

/** The tenant of each admitted request, by its context: REST handlers, MCP tools and resolvers read it alike. */
const tenants = new WeakMap<RequestContext, Tenant>();

/**
 * Admits a request to the integration API by its Authorization: Bearer: the admin key (compared in
 * constant time, not counted: it is no row of api_keys), or an institution's bearer key (counted,
 * 401 / 429 as admitKey). The tenant is recorded on the request's context for tenantOf.
 */
export async function admitInstitution(keys: ApiKeys, adminKey: string | undefined, request: RequestContext): Promise<KeyAdmission & { tenant?: Tenant }> {
  const presented = presentedKey(request.headers, 'bearer');
  if (sameSecret(presented, adminKey)) return admitted(request, { kind: 'admin' }, { headers: {} });
  const admission = await admitKey(keys, request.headers, 'bearer', presented);
  const institutionId = admission.record?.institutionId;
  if (admission.refusal || !institutionId) return { ...admission, refusal: admission.refusal ?? new AppError('GEN_ERR_UNAUTHORIZED') };
  return admitted(request, { kind: 'institution', institutionId }, admission);
}

function admitted(request: RequestContext, tenant: Tenant, admission: KeyAdmission): KeyAdmission & { tenant: Tenant } {
  tenants.set(request, tenant);
  return { ...admission, tenant };
}

/** The tenant admitInstitution recorded for this request; a request that reached here without one is a wiring error. */
export function tenantOf(request: RequestContext): Tenant {
  const tenant = tenants.get(request);
  if (!tenant) throw new Error('no tenant admitted for this request (admitInstitution did not run)');
  return tenant;
}

/** A 402: the x402 body (requirements and reason) with the offer's preview. */
function paymentRefusal(refused: PaymentRefusal, offer: Offer): Refusal {
  const body = { ...paymentRequiredBody(refused.requirements, refused.reason), ...offer.preview?.(refused.requirements) };
  return { ok: false, error: new AppError('GEN_ERR_PAYMENT_REQUIRED', { message: refused.reason, details: body }) };
}

/** Headers for the request's answer (copied onto it when it is sent: platform/http.ts, the GraphQL endpoints). */
export function setHeaders(request: RequestContext, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) request.responseHeaders.set(name, value);
}

/**
 * Admits a request to a paid resource (decision 0012): with X-Internal-Key, a call between
 * subgraphs, free when the key is right; with an X-API-Key, the key must be active
 * and within its per-minute limit (X-RateLimit-* on every answer); without one, an x402 payment
 * must verify and be claimed. The payment is only authorized here: the caller settles it once the
 * paid work succeeded, or releases it.
 */
export async function admit(access: Access, request: RequestContext, offer: Offer, resource: string): Promise<Admission | Refusal> {
  // Bundled into the integration fee (Document 2 §8): a subgraph's own call with the internal key is admitted free; a wrong one is refused.
  if (request.headers['x-internal-key'] !== undefined) {
    return sameSecret(request.headers['x-internal-key'], access.internalKey)
      ? { ok: true, via: 'internal' }
      : { ok: false, error: new AppError('GEN_ERR_UNAUTHORIZED', { message: 'The X-Internal-Key is not valid.' }) };
  }
  const key = presentedKey(request.headers, 'api');
  if (key !== undefined) {
    const { headers, refusal } = await admitKey(access.keys, request.headers, 'api', key);
    setHeaders(request, headers);
    return refusal ? { ok: false, error: refusal } : { ok: true, via: 'key' };
  }
  const authorized = await access.x402.authorize(request.headers['x-payment'], offer.price, resource);
  if (authorized.ok) return { ok: true, via: 'payment', payment: authorized };
  return paymentRefusal(authorized, offer);
}

/** Settles an admitted payment after the paid work succeeded; the refusal when settlement failed. */
export async function settleAdmission(admission: Admission, request: RequestContext, offer: Offer): Promise<Refusal | undefined> {
  if (admission.via !== 'payment') return undefined;
  const outcome = await admission.payment.settle();
  if (outcome.ok) {
    request.responseHeaders.set('x-payment-response', outcome.header);
    request.responseHeaders.set('access-control-expose-headers', 'X-PAYMENT-RESPONSE');
    return undefined;
  }
  return paymentRefusal(outcome, offer);
}

/** Gives an admitted payment back when the paid work failed. */
export async function releaseAdmission(admission: Admission): Promise<void> {
  if (admission.via === 'payment') await admission.payment.release();
}

/**
 * Runs `work` for an admitted request, the same way for a REST route and a GraphQL field: admitted
 * by key, it runs; admitted by payment, the payment is settled after the work succeeded (and
 * X-PAYMENT-RESPONSE set), or released when it failed, so no one pays for an error. A refusal is
 * thrown as its AppError (401, 402 with the requirements in its details, 429).
 */
export async function paidWork<T>(access: Access, request: RequestContext, offer: Offer, resource: string, work: () => Promise<T>): Promise<T> {
  const admission = await admit(access, request, offer, resource);
  if (!admission.ok) throw admission.error;
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await releaseAdmission(admission);
    throw error;
  }
  // No one will read the answer (the client left, or it was answered 503 for taking too long): nothing is charged.
  if (request.abandoned.aborted) {
    await releaseAdmission(admission);
    throw new AppError('GEN_ERR_TIMEOUT', { message: 'The request was abandoned before its answer was sent; the payment was not taken.', retryAfterSeconds: 5 });
  }
  const refusal = await settleAdmission(admission, request, offer);
  if (refusal) throw refusal.error;
  return result;
}
