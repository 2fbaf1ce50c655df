import { feeParameters } from '../data/index.js';
import { computeFees, type QuoteTerms } from '../domain/index.js';
import type { Quote, QuoteIdCheck } from './domain/index.js';
import type { QuoteVerifyRequest } from './inputs.js';

/**
 * A quote id checked for the terms it is used with (decision 0026; issue 10 item 9): by its HMAC
 * (we issued it for exactly these terms) and its expiry. `totalFeeUsd` is the fee the quote
 * promises, the one a settlement under it is charged (the router recomputes it from the same
 * terms: decision 0009). Not valid: `reason` says why and no fee is given.
 */
export interface QuoteVerification {
  quoteId: string;
  valid: boolean;
  reason: 'valid' | 'expired' | 'malformed' | 'signature-mismatch';
  terms: QuoteTerms;
  /** Where esgScore and monthlyVolumeUsd came from. */
  termsSource: 'request' | 'ledger' | 'oracle' | 'defaults';
  totalFeeUsd: number | null;
  issuedAt: string | null;
  expiresAt: string | null;
}

export interface TermsToVerify {
  terms: QuoteTerms;
  termsSource: QuoteVerification['termsSource'];
}

/**
 * The terms to check the quote id against, in order: the request's; else the issued quote's from
 * the ledger; else, while the ledger has not written it yet, those a quote issued without esgScore
 * has (the ESG oracle's current average, when there is one; then the defaults). The first whose
 * HMAC matches decides.
 */
export function termsToVerify(request: QuoteVerifyRequest, issued: Quote | undefined, oracleAverage: number | undefined): TermsToVerify[] {
  const base = { amountUsd: request.amountUsd, hasFx: request.hasFx };
  if (request.esgScore !== undefined || request.monthlyVolumeUsd !== undefined) {
    return [{ terms: { ...base, esgScore: request.esgScore ?? feeParameters.defaultEsgScore, monthlyVolumeUsd: request.monthlyVolumeUsd ?? 0 }, termsSource: 'request' }];
  }
  if (issued) return [{ terms: { ...base, esgScore: issued.input.esgScore, monthlyVolumeUsd: issued.input.monthlyVolumeUsd }, termsSource: 'ledger' }];
  const defaults: TermsToVerify = { terms: { ...base, esgScore: feeParameters.defaultEsgScore, monthlyVolumeUsd: 0 }, termsSource: 'defaults' };
  return oracleAverage === undefined ? [defaults] : [{ terms: { ...base, esgScore: oracleAverage, monthlyVolumeUsd: 0 }, termsSource: 'oracle' }, defaults];
}

export function quoteVerificationOf(quoteId: string, chosen: TermsToVerify, check: QuoteIdCheck): QuoteVerification {
  const common = { quoteId, terms: chosen.terms, termsSource: chosen.termsSource };
  if (!check.valid) return { ...common, valid: false, reason: check.reason, totalFeeUsd: null, issuedAt: null, expiresAt: null };
  const times = { issuedAt: check.issuedAt.toISOString(), expiresAt: check.expiresAt.toISOString() };
  if (check.expired) return { ...common, valid: false, reason: 'expired', totalFeeUsd: null, ...times };
  return { ...common, valid: true, reason: 'valid', totalFeeUsd: computeFees(chosen.terms, feeParameters).total.usd, ...times };
}
