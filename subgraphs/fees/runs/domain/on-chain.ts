/**
 * The oracle runs' figures in the units of the rail's oracle contracts (decision 0057): scores in
 * millionths of a point (the settlement router's unit), basket weights in millionths summing to
 * exactly 1,000,000, the peg deviation in hundredths of a basis point.
 */

export const ON_CHAIN_SCALE = 1_000_000;
const CENTI_BPS_PER_BP = 100;

/** A score or weight in millionths, rounded to the nearest (the oracles publish at most 4 decimals, so nothing is lost). */
export function toMillionths(value: number): number {
  return Math.round(value * ON_CHAIN_SCALE);
}

/** A deviation in bps (2 decimals) as hundredths of a bp. */
export function toCentiBps(bps: number): number {
  return Math.round(bps * CENTI_BPS_PER_BP);
}

export interface OnChainBasket {
  assets: string[];
  weights: number[];
}

/**
 * The basket's weights in millionths summing to exactly 1,000,000, assets in name order; null
 * when no asset has weight (no supply read). Why largest remainders:
 * 1. the weights the stability oracle reports are rounded to 4 decimals each, so their sum may
 *    miss 1 by a few ten-thousandths, and the contract refuses a basket that does not sum to 1;
 * 2. scaling to the sum and giving the units lost to flooring to the largest fractional parts
 *    (ties: name order) moves each weight by at most one millionth, deterministically.
 */
export function basketInMillionths(weights: Record<string, number>): OnChainBasket | null {
  const entries = Object.entries(weights)
    .filter(([, weight]) => weight > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  if (entries.length === 0 || total <= 0) return null;
  const scaled = entries.map(([asset, weight], index) => {
    const exact = (weight / total) * ON_CHAIN_SCALE;
    return { asset, index, floor: Math.floor(exact), fraction: exact - Math.floor(exact) };
  });
  let missing = ON_CHAIN_SCALE - scaled.reduce((sum, entry) => sum + entry.floor, 0);
  const byFraction = [...scaled].sort((a, b) => b.fraction - a.fraction || a.index - b.index);
  for (const entry of byFraction) {
    if (missing <= 0) break;
    entry.floor += 1;
    missing -= 1;
  }
  return { assets: scaled.map((entry) => entry.asset), weights: scaled.map((entry) => entry.floor) };
}
