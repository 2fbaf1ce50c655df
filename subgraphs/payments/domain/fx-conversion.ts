import { USDC_DECIMALS, usdcTextOfUnits } from './payment-flow.js';

/**
 * A payment's amount in USDC at the fees subgraph's FX rate (decision 0026): the rate is units of
 * the payment's currency per 1 USD (Federal Reserve H.10, as published), so the USD amount is
 * amount / rate, rounded half-even to USDC's 6 decimals; USDC is redeemable one for one with USD.
 * Exact: integer arithmetic on the decimal texts, no float and no intermediate rounding.
 * "1000" EUR at "0.8635" is "1158.077591" (1158.0775911986...).
 */
export function usdcAmountAtUnitsPerUsd(amount: string, unitsPerUsd: string): string {
  return usdcTextOfUnits(usdcUnitsAtUnitsPerUsd(amount, unitsPerUsd));
}

/** The same in USDC base units. */
export function usdcUnitsAtUnitsPerUsd(amount: string, unitsPerUsd: string): bigint {
  const a = scaledOf(amount);
  const r = scaledOf(unitsPerUsd);
  if (r.digits === 0n) throw new RangeError('the rate must be greater than 0');
  const numerator = a.digits * 10n ** BigInt(USDC_DECIMALS + r.scale);
  const denominator = r.digits * 10n ** BigInt(a.scale);
  const quotient = numerator / denominator;
  const twiceRemainder = 2n * (numerator % denominator);
  if (twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2n === 1n)) return quotient + 1n;
  return quotient;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Non-negative decimal text as an integer and its number of decimals: "0.8635" is 8635n and 4. */
function scaledOf(text: string): { digits: bigint; scale: number } {
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError('not a non-negative decimal text');
  const fraction = match[2] ?? '';
  return { digits: BigInt(match[1]! + fraction), scale: fraction.length };
}
