import { createHash } from 'node:crypto';
import { SDJwt } from '@sd-jwt/core';
import { digest, ES256 } from '@sd-jwt/crypto-nodejs';
import type { Clock } from '../../../platform/clock.js';
import type { PublicP256Jwk } from '../../../platform/credentials.js';
import { AppError } from '../../../platform/errors.js';
import {
  AP2_SD_ALGORITHM,
  AP2_SIGNING_ALGORITHM,
  type Ap2Amount,
  type Ap2MandateFailure,
  type Ap2MandateFailureReason,
  type Ap2MandateType,
  type Ap2Merchant,
  type Ap2SettlementQuote,
  type Ap2SettlementTerms,
  checkDisclosures,
  checkValidityWindow,
  type ConstraintOutcome,
  matchMandate,
  type PresentedDisclosure,
  readMandateContent,
} from './domain/index.js';

/**
 * Verification of body.mandate for POST /agent/settle (Document 2 §4): the SD-JWT is decoded and
 * checked with @sd-jwt/core and its Node crypto (ES256 over WebCrypto, SHA-256 disclosures); the rules
 * are the pure functions of domain/ap2-mandate.ts. No I/O: the trusted issuers and the clock are
 * given. Any failure throws Ap2MandateError (PAY_ERR_MANDATE_INVALID, 400) naming one reason.
 */

/** Longest mandate accepted: an SD-JWT with a few disclosures is a few KiB; this bounds hostile input. */
export const MAX_MANDATE_LENGTH = 32 * 1024;
const COMPACT_SD_JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+~([A-Za-z0-9_-]+~)*([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)?$/;

export class Ap2MandateError extends AppError {
  override name = 'Ap2MandateError';
  readonly reason: Ap2MandateFailureReason;

  constructor(failure: Ap2MandateFailure, cause?: unknown) {
    super('PAY_ERR_MANDATE_INVALID', { message: failure.message, details: { reason: failure.reason }, cause });
    this.reason = failure.reason;
  }
}

/** What the settlement records of an accepted mandate (the audit trail of the authorisation). */
export interface VerifiedAp2Mandate {
  type: Ap2MandateType;
  issuer: string;
  /** `kid` of the issuer-signed JWT header, when given. */
  keyId: string | null;
  payee: Ap2Merchant;
  paymentAmount: Ap2Amount;
  transactionId: string | null;
  constraints: Array<{ type: string; outcome: ConstraintOutcome }>;
  /** Epoch seconds. */
  issuedAt: number | null;
  expiresAt: number;
  /**
   * base64url SHA-256 of the mandate as presented (without a key-binding JWT), computed as SD-JWT's
   * sd_hash: AP2's Mandate Receipt `reference`. Recording it once refuses a second use of the mandate.
   */
  reference: string;
  quoteId: string;
}

export interface Ap2VerifierDeps {
  /** AP2_TRUSTED_ISSUERS of platform/config.ts: issuer (`iss`) -> its ES256 public key. */
  trustedIssuers: ReadonlyMap<string, PublicP256Jwk>;
  clock: Clock;
}

export interface Ap2VerificationRequest {
  mandate: unknown;
  settlement: Ap2SettlementTerms;
  quote: Ap2SettlementQuote;
}

const hasher = (data: string | ArrayBuffer, alg: string) => digest(data, alg);
const refuse = (reason: Ap2MandateFailureReason, message: string, cause?: unknown): never => {
  throw new Ap2MandateError({ reason, message }, cause);
};
const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

async function decode(mandate: string) {
  try {
    const decoded = await SDJwt.fromEncode<Record<string, unknown>, Record<string, unknown>>(mandate, hasher);
    if (!decoded.jwt?.header || !isRecord(decoded.jwt.payload) || !decoded.jwt.signature) throw new Error('no issuer-signed JWT');
    return decoded;
  } catch (error) {
    return refuse('MALFORMED', 'The mandate is not a compact SD-JWT (issuer-signed JWT~disclosures~).', error);
  }
}

/** The verifier for the settlement agent; `verify` resolves to the accepted mandate or throws Ap2MandateError. */
export function createAp2MandateVerifier(deps: Ap2VerifierDeps) {
  const verifiers = new Map<PublicP256Jwk, Promise<(data: string, signature: string) => Promise<boolean>>>();
  const verifierOf = (jwk: PublicP256Jwk) => {
    let verifier = verifiers.get(jwk);
    if (!verifier) verifiers.set(jwk, (verifier = ES256.getVerifier({ ...jwk })));
    return verifier;
  };

  return { verify: (request: Ap2VerificationRequest) => verifyMandate(deps, verifierOf, request) };
}

/** An issuer key's ES256 verifier, made once per key. */
type VerifierOf = (jwk: PublicP256Jwk) => Promise<(data: string, signature: string) => Promise<boolean>>;

/**
 * The mandate accepted, or Ap2MandateError naming why not:
 * 1. shape: a string of at most 32 KiB in compact SD-JWT form; decoded by @sd-jwt/core;
 * 2. header alg ES256; `iss` on the allowlist (looked up in a Map, never on an object);
 * 3. exp required, nbf/iat/exp against the injected clock;
 * 4. the ES256 signature over the issuer-signed JWT with the issuer's key;
 * 5. every disclosure referenced once by the signed payload (a tampered one is refused);
 * 6. the content: type, payee, payment_amount; then payee, amount, currency and the quote.
 */
async function verifyMandate(deps: Ap2VerifierDeps, verifierOf: VerifierOf, request: Ap2VerificationRequest): Promise<VerifiedAp2Mandate> {
  const { mandate } = request;
  if (typeof mandate !== 'string' || mandate.length === 0) return refuse('MALFORMED', 'mandate must be a non-empty string: an AP2 payment mandate in SD-JWT form.');
  if (mandate.length > MAX_MANDATE_LENGTH) return refuse('MALFORMED', `mandate must be at most ${MAX_MANDATE_LENGTH} characters.`);
  if (!COMPACT_SD_JWT.test(mandate)) return refuse('MALFORMED', 'The mandate is not a compact SD-JWT (issuer-signed JWT~disclosures~).');
  const sdJwt = await decode(mandate);
  const jwt = sdJwt.jwt!;
  const header = jwt.header!;
  const payload = jwt.payload!;

  if (header.alg !== AP2_SIGNING_ALGORITHM) return refuse('UNSUPPORTED_ALGORITHM', `The mandate must be signed ${AP2_SIGNING_ALGORITHM}.`);
  const issuer = payload.iss;
  const key = typeof issuer === 'string' ? deps.trustedIssuers.get(issuer) : undefined;
  if (typeof issuer !== 'string' || key === undefined) return refuse('UNTRUSTED_ISSUER', "The mandate's issuer (iss) is not on the trusted-issuer allowlist.");

  const now = deps.clock.now();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const window = checkValidityWindow(payload, nowSeconds);
  if (!window.ok) throw new Ap2MandateError(window.failure);

  try {
    // The window was checked above with the same clock, so the library's own iat/nbf/exp checks agree.
    await jwt.verify(await verifierOf(key), { currentDate: nowSeconds });
  } catch (error) {
    return refuse('INVALID_SIGNATURE', "The mandate's signature does not verify with its issuer's key.", error);
  }

  const presented: PresentedDisclosure[] = await Promise.all(
    (sdJwt.disclosures ?? []).map(async (disclosure) => ({
      digest: await disclosure.digest({ hasher, alg: AP2_SD_ALGORITHM }),
      ...(disclosure.key === undefined ? {} : { key: disclosure.key }),
      value: disclosure.value,
    })),
  );
  const disclosures = checkDisclosures(payload, presented);
  if (!disclosures.ok) throw new Ap2MandateError(disclosures.failure);

  let claims: unknown;
  try {
    claims = await sdJwt.getClaims(hasher);
  } catch (error) {
    return refuse('INVALID_DISCLOSURE', 'The disclosures cannot be applied to the signed mandate.', error);
  }
  const content = readMandateContent(claims);
  if (!content.ok) throw new Ap2MandateError(content.failure);
  const match = matchMandate(content.value, request.settlement, request.quote, now);
  if (!match.ok) throw new Ap2MandateError(match.failure);

  const withoutKeyBinding = mandate.slice(0, mandate.lastIndexOf('~') + 1);
  return {
    type: content.value.vct,
    issuer,
    keyId: typeof header.kid === 'string' ? header.kid : null,
    payee: content.value.payee,
    paymentAmount: content.value.payment_amount,
    transactionId: content.value.transaction_id ?? null,
    constraints: match.value.constraints,
    issuedAt: window.value.issuedAt,
    expiresAt: window.value.expiresAt,
    reference: createHash('sha256').update(withoutKeyBinding).digest('base64url'),
    quoteId: request.quote.quoteId,
  };
}

export type Ap2MandateVerifier = ReturnType<typeof createAp2MandateVerifier>;
