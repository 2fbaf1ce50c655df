import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basketInMillionths, toCentiBps, toMillionths } from './on-chain.js';

describe('basketInMillionths', () => {
  it.each([
    // 0.6 + 0.4 = 1: scaled exactly.
    [
      { USDT: 0.4, USDC: 0.6 },
      { assets: ['USDC', 'USDT'], weights: [600_000, 400_000] },
    ],
    // 0.6667 + 0.3334 = 1.0001 (rounded weights): 666,633.3 and 333,366.6 -> floors 666,633 + 333,366 = 999,999; the one missing unit goes to the larger fraction (USDT's .6).
    [
      { USDC: 0.6667, USDT: 0.3334 },
      { assets: ['USDC', 'USDT'], weights: [666_633, 333_367] },
    ],
    // Thirds: 333,333.33 each, 1 unit short; equal fractions, so name order: DAI first.
    [
      { USDC: 1, USDT: 1, DAI: 1 },
      { assets: ['DAI', 'USDC', 'USDT'], weights: [333_334, 333_333, 333_333] },
    ],
    // A coin without weight is left out.
    [
      { USDC: 0.5, USDT: 0.5, DAI: 0 },
      { assets: ['USDC', 'USDT'], weights: [500_000, 500_000] },
    ],
  ])('%j -> %j', (weights, expected) => {
    expect(basketInMillionths(weights)).toEqual(expected);
  });

  it('is null when no asset has weight', () => {
    expect(basketInMillionths({ USDC: 0, USDT: 0 })).toBeNull();
    expect(basketInMillionths({})).toBeNull();
  });

  it('always sums to exactly 1,000,000, each weight within one unit of its exact share', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('USDC', 'USDT', 'DAI', 'PYUSD', 'FDUSD'), fc.double({ min: 0.0001, max: 1, noNaN: true }), { minKeys: 1 }), (weights) => {
        const basket = basketInMillionths(weights)!;
        expect(basket.weights.reduce((sum, weight) => sum + weight, 0)).toBe(1_000_000);
        const total = Object.values(weights).reduce((sum, weight) => sum + weight, 0);
        basket.assets.forEach((asset, index) => expect(Math.abs(basket.weights[index]! - (weights[asset]! / total) * 1_000_000)).toBeLessThan(1));
      }),
    );
  });
});

describe('units', () => {
  it.each([
    [72.4, 72_400_000],
    [0, 0],
    [100, 100_000_000],
  ])('score %d -> %d millionths', (score, expected) => expect(toMillionths(score)).toBe(expected));
  // 12.34 bps = 1,234 hundredths of a bp.
  it('deviation in hundredths of a bp', () => expect(toCentiBps(12.34)).toBe(1_234));
});
