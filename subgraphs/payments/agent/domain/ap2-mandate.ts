import { Big } from 'big.js';

// AP2 payment mandates for the settlement agent (Document 2 §4 "Settlement agent", §7: a failing
// or non-matching mandate is a 400). Pure rules over values already decoded and signature-checked
// by ../ap2-verifier.ts; `now` is passed in. Reading and checking a mandate here; matching it to a
// settlement in ap2-match.ts. Field names are AP2's own (google-agentic-commerce/AP2,
// code/sdk/schemas/ap2/payment_mandate.json, open_payment_mandate.json, types/amount.json,
// types/merchant.json; docs/ap2/payment_mandate.md); docs/decisions/0023-settlement-agent-mandates.md.

/** AP2 `vct` values the agent accepts: closed and open Payment Mandates, version 1 (exact match, AP2 "Mandate Versioning"). */
export const AP2_MANDATE_TYPES = ['mandate.payment.1', 'mandate.payment.open.1'] as const;
export type Ap2MandateType = (typeof AP2_MANDATE_TYPES)[number];

/** The one signature algorithm accepted (Document 2 §4: ES256). */
export const AP2_SIGNING_ALGORITHM = 'ES256';
/** The one SD-JWT digest algorithm accepted (`_sd_alg`; SD-JWT's default when absent). */
export const AP2_SD_ALGORITHM = 'sha-256';

/**
 * The fee cap this rail defines through AP2's "Mandate Constraints" extension point (a unique type,
 * a schema, an evaluation): `{ type, currency: "USD", max }`, max in minor units (cents) like
 * `payment.amount_range.max`. Evaluates true when the fee of the quote computed for the call is at most max.
 */
export const RAIL_FEE_CAP_CONSTRAINT = 'urn:settlement-rail:ap2:constraint:fee_cap:1';

/** Why a mandate is refused; each maps to PAY_ERR_MANDATE_INVALID with this reason. */
export const AP2_MANDATE_FAILURES = [
  'MALFORMED',
  'UNSUPPORTED_ALGORITHM',
  'UNTRUSTED_ISSUER',
  'INVALID_SIGNATURE',
  'NOT_YET_VALID',
  'EXPIRED',
  'EXPIRY_MISSING',
  'INVALID_DISCLOSURE',
  'WRONG_TYPE',
  'INVALID_CONTENT',
  'PAYEE_MISMATCH',
  'AMOUNT_MISMATCH',
  'CURRENCY_MISMATCH',
  'EXECUTION_DATE_MISMATCH',
  'CONSTRAINT_VIOLATED',
  'UNRESOLVED_CONSTRAINT',
  'QUOTE_MISMATCH',
  /** The mandate (its reference) already authorised a settlement: a mandate settles once (decision 0027). */
  'REPLAYED',
] as const;
export type Ap2MandateFailureReason = (typeof AP2_MANDATE_FAILURES)[number];

export interface Ap2MandateFailure {
  reason: Ap2MandateFailureReason;
  message: string;
}

/** types/amount.json: integer minor units (ISO 4217) and the ISO 4217 alphabetic code. */
export interface Ap2Amount {
  amount: number;
  currency: string;
}

/** types/merchant.json: the payee. */
export interface Ap2Merchant {
  id: string;
  name: string;
  website?: string;
}

export interface Ap2Constraint {
  type: string;
  [member: string]: unknown;
}

/** The mandate content the agent reads (the closed schema's fields; open mandates add constraints and cnf). */
export interface Ap2MandateContent {
  vct: Ap2MandateType;
  payee: Ap2Merchant;
  payment_amount: Ap2Amount;
  transaction_id?: string;
  payment_instrument?: { id: string; type: string; description?: string };
  execution_date?: string;
  constraints: Ap2Constraint[];
  cnf?: Record<string, unknown>;
}

/** The settlement the mandate must authorise (POST /agent/settle body). */
export interface Ap2SettlementTerms {
  /** Decimal text or JSON number of the body's `amount`, in sourceCurrency. */
  amount: string | number;
  sourceCurrency: string;
  destinationCurrency: string;
  recipientAddress: string;
}

/** The quote computed for the same call (fees subgraph), reduced to what a mandate can contradict. */
export interface Ap2SettlementQuote {
  quoteId: string;
  /** Amount and currency the quote was computed for. */
  amount: string | number;
  currency: string;
  /** Total fee of the quote, USD decimal text (fees.total.usd). */
  feeUsd: string | number;
  /** When the quote stops being valid (oracleContext.expiresAt). */
  expiresAt: Date;
}

export type ConstraintOutcome = 'SATISFIED' | 'NOT_APPLICABLE';

export interface Ap2MandateMatch {
  constraints: Array<{ type: string; outcome: ConstraintOutcome }>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; failure: Ap2MandateFailure };
export const fail = (reason: Ap2MandateFailureReason, message: string): { ok: false; failure: Ap2MandateFailure } => ({ ok: false, failure: { reason, message } });

export const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const isText = (value: unknown, max = 512): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;
const CURRENCY = /^[A-Z]{3}$/;
export const ISO_DATE_PREFIX = /^(\d{4}-\d{2}-\d{2})/;

/**
 * Minor-unit digits of an ISO 4217 currency, from the CLDR currency data Node's ICU carries (the
 * same digits as ISO 4217's minor unit for the currencies CLDR lists); null for a code ICU does not know.
 */
export function minorUnitDigits(currency: string): number | null {
  if (!CURRENCY.test(currency) || !Intl.supportedValuesOf('currency').includes(currency)) return null;
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? null;
}

const DECIMAL = /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/;

/** A non-negative decimal (text, or a JSON number written without exponent) as Big; null otherwise. */
export function decimalOf(value: string | number): Big | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  return DECIMAL.test(text) ? new Big(text) : null;
}

/** `amount` in `currency` as integer minor units, exact: null when it has more decimals than the currency. */
export function toMinorUnits(amount: string | number, currency: string): number | null {
  const digits = minorUnitDigits(currency);
  const decimal = decimalOf(amount);
  if (digits === null || decimal === null) return null;
  const minor = decimal.times(new Big(10).pow(digits));
  return minor.eq(minor.round(0, Big.roundDown)) && minor.lte(Number.MAX_SAFE_INTEGER) ? minor.toNumber() : null;
}

function readMerchant(value: unknown): Ap2Merchant | null {
  if (!isRecord(value) || !isText(value.id) || !isText(value.name)) return null;
  if (value.website !== undefined && !isText(value.website, 2048)) return null;
  return { id: value.id, name: value.name, ...(value.website === undefined ? {} : { website: value.website as string }) };
}

function readAmount(value: unknown): Ap2Amount | null {
  if (!isRecord(value) || typeof value.currency !== 'string' || !CURRENCY.test(value.currency)) return null;
  if (typeof value.amount !== 'number' || !Number.isSafeInteger(value.amount) || value.amount < 0) return null;
  return { amount: value.amount, currency: value.currency };
}

/**
 * The mandate content inside the verified claims, checked for shape. Two placements are read:
 * 1. SD-JWT VC form: the claims are the content (`vct`, `payee`, ... at the top);
 * 2. AP2 v0.2 delegate form: `delegate_payload` holds exactly one element, the content
 *    (docs/ap2/payment_mandate.md, "Examples").
 * Payee and payment_amount are required for both types: the spec asks them to match exactly.
 */
export function readMandateContent(claims: unknown): Result<Ap2MandateContent> {
  if (!isRecord(claims)) return fail('MALFORMED', 'The mandate payload is not a JSON object.');
  const delegated = claims.delegate_payload;
  let content: Record<string, unknown> = claims;
  if (delegated !== undefined) {
    if (!Array.isArray(delegated) || delegated.length !== 1 || !isRecord(delegated[0])) {
      return fail('INVALID_CONTENT', 'delegate_payload must disclose exactly one mandate.');
    }
    content = delegated[0];
  }
  const vct = content.vct;
  if (typeof vct !== 'string' || !(AP2_MANDATE_TYPES as readonly string[]).includes(vct)) {
    return fail('WRONG_TYPE', `The mandate type (vct) must be mandate.payment.1 or mandate.payment.open.1, not ${typeof vct === 'string' ? JSON.stringify(vct.slice(0, 64)) : 'absent'}.`);
  }
  const type = vct as Ap2MandateType;
  const payee = readMerchant(content.payee);
  if (!payee) return fail('INVALID_CONTENT', 'payee must be disclosed as a merchant {id, name, website?}.');
  const paymentAmount = readAmount(content.payment_amount);
  if (!paymentAmount) return fail('INVALID_CONTENT', 'payment_amount must be disclosed as {amount: integer minor units, currency: ISO 4217 code}.');
  const constraints = content.constraints ?? [];
  if (!Array.isArray(constraints) || !constraints.every((item): item is Ap2Constraint => isRecord(item) && isText(item.type, 256))) {
    return fail('INVALID_CONTENT', 'constraints must be an array of objects, each with a type.');
  }
  if (type === 'mandate.payment.open.1' && !isRecord(content.cnf)) {
    return fail('INVALID_CONTENT', 'An open mandate must carry cnf, the key of the agent it is bound to (AP2: required while open).');
  }
  if (type === 'mandate.payment.1' && constraints.length > 0) {
    return fail('INVALID_CONTENT', 'A closed mandate carries no constraints.');
  }
  if (content.execution_date !== undefined && (typeof content.execution_date !== 'string' || !ISO_DATE_PREFIX.test(content.execution_date))) {
    return fail('INVALID_CONTENT', 'execution_date must be an ISO 8601 date.');
  }
  const instrument = content.payment_instrument;
  if (instrument !== undefined && (!isRecord(instrument) || !isText(instrument.id) || !isText(instrument.type))) {
    return fail('INVALID_CONTENT', 'payment_instrument must be {id, type, description?}.');
  }
  if (content.transaction_id !== undefined && !isText(content.transaction_id)) return fail('INVALID_CONTENT', 'transaction_id must be text.');
  return {
    ok: true,
    value: {
      vct: type,
      payee,
      payment_amount: paymentAmount,
      constraints,
      ...(typeof content.transaction_id === 'string' ? { transaction_id: content.transaction_id } : {}),
      ...(isRecord(instrument) ? { payment_instrument: instrument as Ap2MandateContent['payment_instrument'] & object } : {}),
      ...(typeof content.execution_date === 'string' ? { execution_date: content.execution_date } : {}),
      ...(isRecord(content.cnf) ? { cnf: content.cnf } : {}),
    },
  };
}

/**
 * The validity window of the issuer-signed JWT against the injected clock (seconds since epoch):
 * 1. `exp` is required: a payment authorisation without an end is refused (AP2 recommends the
 *    smallest exp that lets the agent finish; we make it mandatory);
 * 2. `nbf` and `iat` in the future mean not yet valid; at exactly `exp` it has expired.
 */
export function checkValidityWindow(payload: Record<string, unknown>, nowSeconds: number): Result<{ issuedAt: number | null; expiresAt: number }> {
  const { exp, nbf, iat } = payload;
  for (const [name, value] of [
    ['exp', exp],
    ['nbf', nbf],
    ['iat', iat],
  ] as const) {
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value))) return fail('MALFORMED', `${name} must be a NumericDate (seconds).`);
  }
  if (typeof exp !== 'number') return fail('EXPIRY_MISSING', 'The mandate has no exp: an authorisation to pay must expire.');
  if (typeof nbf === 'number' && nbf > nowSeconds) return fail('NOT_YET_VALID', `The mandate is not valid before ${new Date(nbf * 1000).toISOString()} (nbf).`);
  if (typeof iat === 'number' && iat > nowSeconds) return fail('NOT_YET_VALID', `The mandate was issued in the future (iat ${new Date(iat * 1000).toISOString()}).`);
  if (exp <= nowSeconds) return fail('EXPIRED', `The mandate expired at ${new Date(exp * 1000).toISOString()}.`);
  return { ok: true, value: { issuedAt: typeof iat === 'number' ? iat : null, expiresAt: exp } };
}

/** A presented disclosure with the digest computed over its encoded form. */
export interface PresentedDisclosure {
  digest: string;
  /** Object-property disclosure: [salt, name, value]; array-element disclosure: [salt, value]. */
  key?: string;
  value: unknown;
}

/**
 * SD-JWT disclosure integrity (RFC 9901 §7.1, verifier steps 3-5), the part the library leaves out:
 * 1. `_sd_alg` is sha-256 (or absent, meaning sha-256);
 * 2. no digest appears twice in the payload or the disclosed values;
 * 3. every presented disclosure is referenced, from `_sd` for a property or `{"...": digest}` for
 *    an array element, by the signed payload or by another referenced disclosure; a disclosure
 *    referenced from nowhere (a tampered or foreign one) refuses the whole mandate;
 * 4. a property disclosure never names `_sd` or `...`, nor a claim already present where it lands.
 */
export function checkDisclosures(payload: Record<string, unknown>, disclosures: readonly PresentedDisclosure[]): Result<true> {
  const alg = payload._sd_alg;
  if (alg !== undefined && alg !== AP2_SD_ALGORITHM) return fail('INVALID_DISCLOSURE', `_sd_alg must be ${AP2_SD_ALGORITHM}.`);
  const byDigest = new Map<string, PresentedDisclosure>();
  for (const disclosure of disclosures) {
    if (byDigest.has(disclosure.digest)) return fail('INVALID_DISCLOSURE', 'A disclosure is presented twice.');
    byDigest.set(disclosure.digest, disclosure);
  }
  const seen = new Set<string>();
  const used = new Set<string>();
  let problem: string | null = null;
  const reference = (digest: unknown, asProperty: boolean, siblings: Record<string, unknown> | null) => {
    if (typeof digest !== 'string') return (problem ??= 'A digest is not text.');
    if (seen.has(digest)) return (problem ??= 'A digest appears twice.');
    seen.add(digest);
    const disclosure = byDigest.get(digest);
    if (!disclosure) return; // a decoy or an undisclosed claim
    if (asProperty !== (disclosure.key !== undefined)) return (problem ??= 'A disclosure is referenced in the wrong place (property vs array element).');
    if (disclosure.key !== undefined && (disclosure.key === '_sd' || disclosure.key === '...' || (siblings !== null && Object.hasOwn(siblings, disclosure.key)))) {
      return (problem ??= 'A disclosure names a reserved or already present claim.');
    }
    used.add(digest);
    walk(disclosure.value);
  };
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) {
        if (isRecord(item) && Object.keys(item).length === 1 && Object.hasOwn(item, '...')) reference(item['...'], false, null);
        else walk(item);
      }
    } else if (isRecord(value)) {
      const sd = value._sd;
      if (sd !== undefined) {
        if (!Array.isArray(sd)) problem ??= '_sd is not an array.';
        else for (const digest of sd) reference(digest, true, value);
      }
      for (const [key, inner] of Object.entries(value)) if (key !== '_sd') walk(inner);
    }
  };
  walk(payload);
  if (problem !== null) return fail('INVALID_DISCLOSURE', problem);
  if (used.size !== byDigest.size) return fail('INVALID_DISCLOSURE', 'A disclosure is not referenced by the signed mandate: it was altered or does not belong to it.');
  return { ok: true, value: true };
}
