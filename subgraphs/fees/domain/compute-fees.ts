import { Big } from 'big.js';
import { classifyEsgScore, selectVolumeTier } from './classify-tiers.js';
import type { FeeBreakdown, FeeParameters, QuoteTerms } from './types.js';

const BPS_PER_UNIT = 10_000;
/** USD amounts are kept to USDC base units: 6 decimals. */
const USD_DECIMALS = 6;
const ROUND_HALF_EVEN = 2;

/** amountUsd × bps / 10 000, rounded half-even to one USDC base unit (6 decimals). */
export function usdAtBps(amountUsd: Big | number, bps: Big | number): Big {
  return new Big(amountUsd).times(bps).div(BPS_PER_UNIT).round(USD_DECIMALS, ROUND_HALF_EVEN);
}

/** A percentage of an amount plus a fixed charge, rounded like every other USD figure. */
export function usdAtPct(amountUsd: number, pct: number, fixedUsd = 0): Big {
  return new Big(amountUsd).times(pct).div(100).plus(fixedUsd).round(USD_DECIMALS, ROUND_HALF_EVEN);
}

/** ESG bps = (100 - esgScore) / 2, i.e. the spec's (100 - esgScore) / 200 percent. */
export function esgBpsFor(esgScore: number): Big {
  return new Big(100).minus(esgScore).div(2);
}

/** Core bps after the volume tier's discount, exact. */
export function discountedCoreBps(coreBps: number, discountPct: number): Big {
  return new Big(coreBps).times(new Big(100).minus(discountPct)).div(100);
}

/**
 * The fee model of Document 1 §1, in exact decimal arithmetic.
 *
 * 1. Rates (bps) are exact: no rounding at all.
 * 2. Each component's USD amount is amountUsd × bps / 10 000, rounded half-even to 6 decimals
 *    (one USDC base unit), so that what is quoted is what the chain can move.
 * 3. total.usd is the sum of the rounded components and netUsd = grossUsd − total.usd, so the
 *    parts always add up to the whole, to the base unit.
 */
export function computeFees(terms: QuoteTerms, parameters: FeeParameters): FeeBreakdown {
  const amount = new Big(terms.amountUsd);
  const volumeTier = selectVolumeTier(terms.monthlyVolumeUsd, parameters.volumeTiers);
  const coreBps = discountedCoreBps(parameters.coreBps, volumeTier.coreDiscountPct);
  const fxBps = new Big(terms.hasFx ? parameters.fxBps : 0);
  const esgBps = esgBpsFor(terms.esgScore);
  const licenseBps = new Big(parameters.licenseBps);
  const totalBps = coreBps.plus(fxBps).plus(esgBps).plus(licenseBps);

  const coreUsd = usdAtBps(amount, coreBps);
  const fxUsd = usdAtBps(amount, fxBps);
  const esgUsd = usdAtBps(amount, esgBps);
  const licenseUsd = usdAtBps(amount, licenseBps);
  const totalUsd = coreUsd.plus(fxUsd).plus(esgUsd).plus(licenseUsd);

  return {
    core: { bps: coreBps.toNumber(), usd: coreUsd.toNumber() },
    fx: { bps: fxBps.toNumber(), usd: fxUsd.toNumber() },
    esg: {
      bps: esgBps.toNumber(),
      pct: esgBps.div(100).toNumber(),
      usd: esgUsd.toNumber(),
      score: terms.esgScore,
      tier: classifyEsgScore(terms.esgScore, parameters.esgTiers).tier,
      formula: parameters.esgFormula,
    },
    license: { bps: licenseBps.toNumber(), usd: licenseUsd.toNumber() },
    total: { bps: totalBps.toNumber(), pct: totalBps.div(100).toNumber(), usd: totalUsd.toNumber() },
    settlement: { netUsd: amount.minus(totalUsd).toNumber(), grossUsd: amount.toNumber() },
    volumeTier: volumeTier.tier,
    coreDiscountPct: volumeTier.coreDiscountPct,
  };
}

/** Total bps at list price (no volume discount) for the manifest's typical, best and worst cases. */
export function listPriceTotalBps(parameters: FeeParameters, hasFx: boolean, esgScore: number): number {
  return new Big(parameters.coreBps)
    .plus(hasFx ? parameters.fxBps : 0)
    .plus(esgBpsFor(esgScore))
    .plus(parameters.licenseBps)
    .toNumber();
}
