import { Big } from 'big.js';
import {
  type Ap2Constraint,
  type Ap2MandateContent,
  type Ap2MandateMatch,
  type Ap2Merchant,
  type Ap2SettlementQuote,
  type Ap2SettlementTerms,
  type ConstraintOutcome,
  decimalOf,
  fail,
  ISO_DATE_PREFIX,
  isRecord,
  RAIL_FEE_CAP_CONSTRAINT,
  type Result,
  toMinorUnits,
} from './ap2-mandate.js';

// A verified AP2 payment mandate against the settlement it is presented for (Document 2 §4; AP2
// payment_mandate.md, "Evaluation"): payee, amount, currency, execution date, the quote computed
// for the call, and every constraint of an open mandate. Pure: `now` is passed in.

const sameAddress = (a: string, b: string) => (/^0x[0-9a-fA-F]{40}$/.test(a) && /^0x[0-9a-fA-F]{40}$/.test(b) ? a.toLowerCase() === b.toLowerCase() : a === b);

function merchantAllowed(payee: Ap2Merchant, allowed: unknown): boolean {
  if (!isRecord(allowed)) return false;
  const fields = (['id', 'name', 'website'] as const).filter((field) => allowed[field] !== undefined);
  return fields.length > 0 && fields.every((field) => allowed[field] === payee[field]);
}

const dayOf = (text: string) => ISO_DATE_PREFIX.exec(text)?.[1] ?? null;

/**
 * One open-mandate constraint against the settlement (AP2 payment_mandate.md, "Evaluation" of each):
 * 1. payment.amount_range: same currency, min <= payment_amount.amount <= max (minor units);
 * 2. payment.allowed_payees: the payee equals an allowed merchant on every field that merchant gives;
 * 3. payment.allowed_payment_instruments: the mandate's payment_instrument is one of the allowed;
 * 4. payment.execution_date: now within [not_before, not_after];
 * 5. payment.reference: binds the mandate to a merchant's Checkout Mandate; the rail settles no
 *    checkout, so it neither holds nor contradicts anything here (NOT_APPLICABLE, kept in the record);
 * 6. the rail's fee cap: the quote's fee in USD minor units at most max;
 * 7. anything else (budget and recurrence need the history of earlier uses the rail does not keep,
 *    PISPs are not a notion of the rail, unknown types) fails: AP2 "Any unknown Constraints MUST
 *    be treated as failing evaluation", error `unresolved_constraint`.
 */
function evaluateConstraint(constraint: Ap2Constraint, content: Ap2MandateContent, quote: Ap2SettlementQuote, now: Date): Result<ConstraintOutcome> {
  const amount = content.payment_amount;
  switch (constraint.type) {
    case 'payment.amount_range': {
      const { currency, min, max } = constraint;
      if (typeof currency !== 'string' || !Number.isSafeInteger(max) || (min !== undefined && !Number.isSafeInteger(min))) {
        return fail('INVALID_CONTENT', 'payment.amount_range needs currency and integer max (and min) in minor units.');
      }
      if (currency !== amount.currency) return fail('CONSTRAINT_VIOLATED', `payment.amount_range is in ${currency}, the payment in ${amount.currency}.`);
      if (amount.amount > (max as number) || (min !== undefined && amount.amount < (min as number))) {
        return fail('CONSTRAINT_VIOLATED', `payment_amount ${amount.amount} is outside payment.amount_range [${min ?? 0}, ${max as number}].`);
      }
      return { ok: true, value: 'SATISFIED' };
    }
    case 'payment.allowed_payees': {
      if (!Array.isArray(constraint.allowed)) return fail('INVALID_CONTENT', 'payment.allowed_payees needs an allowed array.');
      return constraint.allowed.some((merchant) => merchantAllowed(content.payee, merchant))
        ? { ok: true, value: 'SATISFIED' }
        : fail('CONSTRAINT_VIOLATED', 'The payee is not among the disclosed payment.allowed_payees.');
    }
    case 'payment.allowed_payment_instruments': {
      const instrument = content.payment_instrument;
      if (!Array.isArray(constraint.allowed)) return fail('INVALID_CONTENT', 'payment.allowed_payment_instruments needs an allowed array.');
      const allowed = instrument !== undefined && constraint.allowed.some((item) => isRecord(item) && item.id === instrument.id && item.type === instrument.type);
      return allowed ? { ok: true, value: 'SATISFIED' } : fail('CONSTRAINT_VIOLATED', 'The payment_instrument is absent or not among payment.allowed_payment_instruments.');
    }
    case 'payment.execution_date': {
      const bounds = [constraint.not_before, constraint.not_after].map((bound) => (typeof bound === 'string' ? Date.parse(bound) : bound === undefined ? null : Number.NaN));
      if (bounds.some((bound) => bound !== null && !Number.isFinite(bound))) return fail('INVALID_CONTENT', 'payment.execution_date bounds must be ISO 8601 times.');
      const [notBefore, notAfter] = bounds;
      const at = now.getTime();
      if ((notBefore !== null && notBefore !== undefined && at < notBefore) || (notAfter !== null && notAfter !== undefined && at > notAfter)) {
        return fail('CONSTRAINT_VIOLATED', 'The settlement falls outside payment.execution_date.');
      }
      return { ok: true, value: 'SATISFIED' };
    }
    case 'payment.reference':
      return typeof constraint.conditional_transaction_id === 'string' ? { ok: true, value: 'NOT_APPLICABLE' } : fail('INVALID_CONTENT', 'payment.reference needs conditional_transaction_id.');
    case RAIL_FEE_CAP_CONSTRAINT: {
      const { currency, max } = constraint;
      if (currency !== 'USD' || !Number.isSafeInteger(max) || (max as number) < 0) return fail('INVALID_CONTENT', `${RAIL_FEE_CAP_CONSTRAINT} needs currency USD and an integer max in cents.`);
      const fee = decimalOf(quote.feeUsd);
      if (fee === null) return fail('QUOTE_MISMATCH', 'The quote has no fee to hold against the fee cap.');
      // Fee in cents, exactly (the quote carries 6 decimals): 0.125 USD is 12.5 cents > 12.
      return fee.times(100).lte(max as number)
        ? { ok: true, value: 'SATISFIED' }
        : fail('QUOTE_MISMATCH', `The quoted fee ${fee.toFixed()} USD is above the mandate's fee cap of ${new Big(max as number).div(100).toFixed(2)} USD.`);
    }
    default:
      return fail('UNRESOLVED_CONSTRAINT', `The constraint ${JSON.stringify(constraint.type.slice(0, 64))} cannot be evaluated by the settlement agent, so it fails (AP2: unresolved_constraint).`);
  }
}

/**
 * Whether a verified mandate authorises this settlement, and agrees with its quote:
 * 1. payee.id is the recipient address, exactly (EVM hex compared without its EIP-55 case);
 * 2. payment_amount.currency is the sourceCurrency, and payment_amount.amount is the settlement
 *    amount in minor units, exactly (an amount finer than the currency's minor unit never matches);
 * 3. execution_date, when present, is today (UTC): absent means immediate (AP2);
 * 4. the quote was computed for this amount and currency and is still valid;
 * 5. every constraint of an open mandate holds (evaluateConstraint).
 * The first failure is returned: a refusal names one reason.
 */
export function matchMandate(content: Ap2MandateContent, settlement: Ap2SettlementTerms, quote: Ap2SettlementQuote, now: Date): Result<Ap2MandateMatch> {
  if (!sameAddress(content.payee.id, settlement.recipientAddress)) {
    return fail('PAYEE_MISMATCH', "The mandate's payee.id is not the settlement's recipientAddress.");
  }
  const paid = content.payment_amount;
  if (paid.currency !== settlement.sourceCurrency) {
    return fail('CURRENCY_MISMATCH', `The mandate pays in ${paid.currency}, the settlement is in ${settlement.sourceCurrency.slice(0, 8)}.`);
  }
  const asked = toMinorUnits(settlement.amount, settlement.sourceCurrency);
  if (asked === null || asked !== paid.amount) {
    return fail('AMOUNT_MISMATCH', `The mandate's payment_amount is ${paid.amount} minor units of ${paid.currency}; the settlement amount is not exactly that.`);
  }
  if (content.execution_date !== undefined && dayOf(content.execution_date) !== now.toISOString().slice(0, 10)) {
    return fail('EXECUTION_DATE_MISMATCH', `The mandate is for execution on ${dayOf(content.execution_date)}, not today.`);
  }
  if (quote.currency !== paid.currency || toMinorUnits(quote.amount, quote.currency) !== paid.amount) {
    return fail('QUOTE_MISMATCH', "The quote was not computed for the mandate's amount and currency.");
  }
  if (quote.expiresAt.getTime() <= now.getTime()) return fail('QUOTE_MISMATCH', 'The quote computed for the settlement has expired.');
  const constraints: Ap2MandateMatch['constraints'] = [];
  for (const constraint of content.constraints) {
    const outcome = evaluateConstraint(constraint, content, quote, now);
    if (!outcome.ok) return outcome;
    constraints.push({ type: constraint.type, outcome: outcome.value });
  }
  return { ok: true, value: { constraints } };
}
