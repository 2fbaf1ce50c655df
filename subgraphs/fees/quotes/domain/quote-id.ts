import type { QuoteTerms } from '../../domain/index.js';

/** Signs and checks payloads with a key the domain never sees (an HMAC in platform/signing). */
export interface QuoteSigner {
  sign(payload: string): string;
  verify(payload: string, token: string): boolean;
}

export const QUOTE_ID_PREFIX = 'srq';
/** 64 random bits per quote, as 16 hex digits; drawn by the caller (platform/ids), never here. */
export const QUOTE_NONCE_HEX_LENGTH = 16;
/** The first 96 bits of the signature, as 24 hex digits. */
const SIGNATURE_HEX_LENGTH = 24;
/** No leading zeros: one issue time has one spelling, so an id cannot be re-spelt and still verify. */
const QUOTE_ID_PATTERN = /^srq-(0|[1-9]\d{0,14})-([0-9a-f]{16})([0-9a-f]{24})$/;
const NONCE_PATTERN = /^[0-9a-f]{16}$/;
/**
 * The documented form `<prefix>-<digits>-<token>` with a hex token, loosely: what a lookup may
 * take to the database. It admits ids of the first issue (a 24-hex token, no nonce) still on file.
 */
const QUOTE_ID_FORM = /^srq-\d{1,15}-[0-9a-f]{24,64}$/;

/** Issue time, nonce and terms in one fixed order: the payload the token signs. */
function canonicalPayload(terms: QuoteTerms, issuedAtMs: number, nonce: string): string {
  return [issuedAtMs, nonce, terms.amountUsd, terms.hasFx ? 1 : 0, terms.esgScore, terms.monthlyVolumeUsd].join('|');
}

/**
 * `srq-<issued at, ms since epoch>-<nonce, 16 hex><first 96 bits of the signature, 24 hex>`.
 * The nonce makes every issued quote its own: two requests for the same terms in the same
 * millisecond get two ids (decision 0001).
 */
export function issueQuoteId(terms: QuoteTerms, issuedAt: Date, nonce: string, signer: QuoteSigner): string {
  if (!NONCE_PATTERN.test(nonce)) throw new Error(`a quote nonce is ${QUOTE_NONCE_HEX_LENGTH} lowercase hex digits`);
  const issuedAtMs = issuedAt.getTime();
  const signature = signer.sign(canonicalPayload(terms, issuedAtMs, nonce)).slice(0, SIGNATURE_HEX_LENGTH);
  return `${QUOTE_ID_PREFIX}-${issuedAtMs}-${nonce}${signature}`;
}

/** Whether a string has the documented quote id form; anything else is bad input, not a lookup. */
export function looksLikeQuoteId(quoteId: string): boolean {
  return QUOTE_ID_FORM.test(quoteId);
}

export function parseQuoteId(quoteId: string): { issuedAt: Date; nonce: string; signature: string } | null {
  const match = QUOTE_ID_PATTERN.exec(quoteId);
  if (!match?.[1] || !match[2] || !match[3]) return null;
  return { issuedAt: new Date(Number(match[1])), nonce: match[2], signature: match[3] };
}

export type QuoteIdCheck = { valid: true; issuedAt: Date; expiresAt: Date; expired: boolean } | { valid: false; reason: 'malformed' | 'signature-mismatch' };

/**
 * Checks that we issued this quote id for exactly these terms, without trusting the caller
 * or a database: the token is our signature over the terms, the issue time and the nonce.
 */
export function checkQuoteId(quoteId: string, terms: QuoteTerms, signer: QuoteSigner, validForSeconds: number, now: Date): QuoteIdCheck {
  const parsed = parseQuoteId(quoteId);
  if (!parsed) return { valid: false, reason: 'malformed' };
  const payload = canonicalPayload(terms, parsed.issuedAt.getTime(), parsed.nonce);
  if (!signer.verify(payload, parsed.signature)) return { valid: false, reason: 'signature-mismatch' };
  const expiresAt = new Date(parsed.issuedAt.getTime() + validForSeconds * 1000);
  return { valid: true, issuedAt: parsed.issuedAt, expiresAt, expired: now.getTime() >= expiresAt.getTime() };
}
