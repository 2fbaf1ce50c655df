import { Big } from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feeParameters } from '../data/index.js';
import { computeFees, listPriceTotalBps } from './index.js';

const terms = (amountUsd: number, hasFx: boolean, esgScore: number, monthlyVolumeUsd = 0) => ({ amountUsd, hasFx, esgScore, monthlyVolumeUsd });

describe('fee model (Document 1 §1)', () => {
  it.each([
    // 85 core + 40 fx + (100-75)/2 = 12.5 esg + 1 license = 138.5 bps; 10000 × 1.385% = 138.5; net 9861.5
    { name: 'typical: score 75, cross-currency', input: terms(10000, true, 75), totalBps: 138.5, totalUsd: 138.5, netUsd: 9861.5, esgBps: 12.5 },
    // 85 + 0 + 0 + 1 = 86 bps; 10000 × 0.86% = 86
    { name: 'best case: score 100, same currency', input: terms(10000, false, 100), totalBps: 86, totalUsd: 86, netUsd: 9914, esgBps: 0 },
    // 85 + 40 + 50 + 1 = 176 bps; 10000 × 1.76% = 176
    { name: 'worst case: score 0, cross-currency', input: terms(10000, true, 0), totalBps: 176, totalUsd: 176, netUsd: 9824, esgBps: 50 },
    // 85 + 0 + 12.5 + 1 = 98.5 bps; 2500 × 0.985% = 24.625
    { name: 'same currency, score 75', input: terms(2500, false, 75), totalBps: 98.5, totalUsd: 24.625, netUsd: 2475.375, esgBps: 12.5 },
    // 85 + 0 + 25 + 1 = 111 bps; 1 × 1.11% = 0.0111
    { name: 'schema default score 50, one dollar', input: terms(1, false, 50), totalBps: 111, totalUsd: 0.0111, netUsd: 0.9889, esgBps: 25 },
    // esg (100-33.3)/2 = 33.35 bps; total 85+40+33.35+1 = 159.35; 0.07 × 33.35/10000 = 0.000233 (0.00023345 half-even to 6 dp)
    { name: 'fractional score, tiny amount', input: terms(0.07, true, 33.3), totalBps: 159.35, totalUsd: 0.001115, netUsd: 0.068885, esgBps: 33.35 },
  ])('$name', ({ input, totalBps, totalUsd, netUsd, esgBps }) => {
    const fees = computeFees(input, feeParameters);
    expect(fees.total.bps).toBe(totalBps);
    expect(fees.total.pct).toBe(totalBps / 100);
    expect(fees.total.usd).toBe(totalUsd);
    expect(fees.settlement.netUsd).toBe(netUsd);
    expect(fees.settlement.grossUsd).toBe(input.amountUsd);
    expect(fees.esg.bps).toBe(esgBps);
    expect(fees.fx.bps).toBe(input.hasFx ? 40 : 0);
  });

  it('states the list-price typical, best and worst cases of rule 3', () => {
    expect(listPriceTotalBps(feeParameters, true, 75)).toBe(138.5);
    expect(listPriceTotalBps(feeParameters, false, 100)).toBe(86);
    expect(listPriceTotalBps(feeParameters, true, 0)).toBe(176);
  });

  it.each([
    // below the first threshold: list price 85 bps core
    { volume: 0, tier: 'STANDARD', coreBps: 85 },
    { volume: 999_999.99, tier: 'STANDARD', coreBps: 85 },
    // 85 × (1 − 10%) = 76.5
    { volume: 1_000_000, tier: 'PROFESSIONAL', coreBps: 76.5 },
    { volume: 9_999_999, tier: 'PROFESSIONAL', coreBps: 76.5 },
    // 85 × (1 − 20%) = 68
    { volume: 10_000_000, tier: 'INSTITUTIONAL', coreBps: 68 },
    // 85 × (1 − 30%) = 59.5
    { volume: 100_000_000, tier: 'STRATEGIC', coreBps: 59.5 },
  ])('volume $volume is tier $tier with core $coreBps bps', ({ volume, tier, coreBps }) => {
    const fees = computeFees(terms(10000, true, 75, volume), feeParameters);
    expect(fees.volumeTier).toBe(tier);
    expect(fees.core.bps).toBe(coreBps);
    // total = discounted core + 40 + 12.5 + 1
    expect(fees.total.bps).toBe(coreBps + 53.5);
  });

  it.each([
    { score: 100, tier: 'EXCELLENT' },
    { score: 80, tier: 'EXCELLENT' },
    { score: 79.99, tier: 'GOOD' },
    { score: 60, tier: 'GOOD' },
    { score: 59.5, tier: 'FAIR' },
    { score: 40, tier: 'FAIR' },
    { score: 20, tier: 'POOR' },
    { score: 19.999, tier: 'CRITICAL' },
    { score: 0, tier: 'CRITICAL' },
  ])('ESG score $score is tier $tier', ({ score, tier }) => {
    expect(computeFees(terms(100, false, score), feeParameters).esg.tier).toBe(tier);
  });

  const validTerms = fc.record({
    amountUsd: fc.integer({ min: 1, max: 1_000_000_000_000_000 }).map((baseUnits) => baseUnits / 1_000_000),
    hasFx: fc.boolean(),
    esgScore: fc.integer({ min: 0, max: 10_000 }).map((hundredths) => hundredths / 100),
    monthlyVolumeUsd: fc.integer({ min: 0, max: 1_000_000_000 }),
  });

  it('total = core + fx + esg + license, and net = gross − total, to the base unit, for any valid input', () => {
    fc.assert(
      fc.property(validTerms, (input) => {
        const fees = computeFees(input, feeParameters);
        const parts = [fees.core, fees.fx, fees.esg, fees.license];
        const bpsSum = parts.reduce((sum, part) => sum.plus(part.bps), new Big(0));
        const usdSum = parts.reduce((sum, part) => sum.plus(part.usd), new Big(0));
        expect(bpsSum.eq(fees.total.bps)).toBe(true);
        expect(usdSum.eq(fees.total.usd)).toBe(true);
        expect(new Big(fees.settlement.grossUsd).minus(fees.total.usd).eq(fees.settlement.netUsd)).toBe(true);
        expect(fees.esg.bps).toBeGreaterThanOrEqual(0);
        expect(fees.esg.bps).toBeLessThanOrEqual(50);
      }),
      { numRuns: 500 },
    );
  });
});
