import { describe, expect, it } from 'vitest';
import { usdcAmountAtUnitsPerUsd, usdcUnitsAtUnitsPerUsd } from './index.js';

describe('USDC amount at a rate in units of the currency per USD: amount / rate, half-even to 6 decimals, exact', () => {
  it.each([
    ['1250.50', '1', '1250.5'],
    ['1000', '0.8635', '1158.077591'], // 1158.07759119861...
    ['863.5', '0.8635', '1000'], // exactly
    ['159.21', '159.21', '1'], // JPY
    ['1', '159.21', '0.006281'], // 0.00628101250...
    ['0.0000025', '1', '0.000002'], // 2.5 base units: half-even down to 2
    ['0.0000035', '1', '0.000004'], // 3.5 base units: half-even up to 4
    ['0.000005', '2', '0.000002'], // 2.5 base units by division: half-even down
    ['0.000007', '2', '0.000004'], // 3.5 base units by division: half-even up
    ['0.0000050000000000000000000001', '2', '0.000003'], // just above half: up (no intermediate rounding)
    ['999999999999.99999', '0.0001', '9999999999999999.9'],
  ])('%s at %s per USD is %s USDC', (amount, rate, usdc) => expect(usdcAmountAtUnitsPerUsd(amount, rate)).toBe(usdc));

  it('base units', () => expect(usdcUnitsAtUnitsPerUsd('1000', '0.8635')).toBe(1_158_077_591n));

  it.each([
    ['1', '0'],
    ['1', '0.000'],
    ['-1', '1'],
    ['1e3', '1'],
    ['1', ''],
    ['1', '.5'],
  ])('%s at %s is refused', (amount, rate) => expect(() => usdcAmountAtUnitsPerUsd(amount, rate)).toThrow(RangeError));
});
