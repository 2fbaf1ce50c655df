import type { QuoteTerms } from './types.js';

/** Signs and checks payloads with a key the domain never sees (an HMAC in platform/signing). */
export interface QuoteSigner {
  sign(payload: string): string;
  verify(payload: string, token: string): boolean;
}

export const QUOTE_ID_PREFIX = 'srq';
const QUOTE_ID_PATTERN = /^srq-(\d{13,})-([0-9a-f]{24})$/;
const TOKEN_LENGTH = 24;

/** Terms and issue time in one fixed order, so the same quote always signs to the same token. */
function canonicalPayload(terms: QuoteTerms, issuedAtMs: number): string {
  return [issuedAtMs, terms.amountUsd, terms.hasFx ? 1 : 0, terms.esgScore, terms.monthlyVolumeUsd].join('|');
}

/** `srq-<issued at, ms since epoch>-<first 96 bits of the signature, hex>` */
export function issueQuoteId(terms: QuoteTerms, issuedAt: Date, signer: QuoteSigner): string {
  const issuedAtMs = issuedAt.getTime();
  const token = signer.sign(canonicalPayload(terms, issuedAtMs)).slice(0, TOKEN_LENGTH);
  return `${QUOTE_ID_PREFIX}-${issuedAtMs}-${token}`;
}

export function parseQuoteId(quoteId: string): { issuedAt: Date; token: string } | null {
  const match = QUOTE_ID_PATTERN.exec(quoteId);
  if (!match?.[1] || !match[2]) return null;
  return { issuedAt: new Date(Number(match[1])), token: match[2] };
}

export type QuoteIdCheck =
  | { valid: true; issuedAt: Date; expiresAt: Date; expired: boolean }
  | { valid: false; reason: 'malformed' | 'signature-mismatch' };

/**
 * Checks that we issued this quote id for exactly these terms, without trusting the caller
 * or a database: the token is our signature over the terms and the issue time.
 */
export function checkQuoteId(
  quoteId: string,
  terms: QuoteTerms,
  signer: QuoteSigner,
  validForSeconds: number,
  now: Date,
): QuoteIdCheck {
  const parsed = parseQuoteId(quoteId);
  if (!parsed) return { valid: false, reason: 'malformed' };
  const payload = canonicalPayload(terms, parsed.issuedAt.getTime());
  if (!signer.verify(payload, parsed.token)) return { valid: false, reason: 'signature-mismatch' };
  const expiresAt = new Date(parsed.issuedAt.getTime() + validForSeconds * 1000);
  return { valid: true, issuedAt: parsed.issuedAt, expiresAt, expired: now.getTime() >= expiresAt.getTime() };
}
