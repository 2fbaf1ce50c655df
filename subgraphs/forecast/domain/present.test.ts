import { describe, expect, it } from 'vitest';
import { roundTo } from './numeric.js';
import { fixed, sharePct, signed, usd } from './present.js';

describe('roundTo (half up, away from zero)', () => {
  it.each([
    { value: 1.005, decimals: 2, expected: 1.01 }, // binary 1.00499... still rounds up
    { value: 1.004, decimals: 2, expected: 1 },
    { value: -1.005, decimals: 2, expected: -1.01 },
    { value: 24.95, decimals: 1, expected: 25 },
    { value: 0.0000001, decimals: 2, expected: 0 },
    { value: 1e21, decimals: 2, expected: 1e21 },
  ])('$value to $decimals decimals is $expected', ({ value, decimals, expected }) => {
    expect(roundTo(value, decimals)).toBe(expected);
  });
});

describe('text formats are locale-free', () => {
  it.each([
    { value: 1_296_776.3016, expected: '$1,296,776.30' },
    { value: 0, expected: '$0.00' },
    { value: 999.995, expected: '$1,000.00' },
    { value: -1234.5, expected: '-$1,234.50' },
  ])('usd($value) = $expected', ({ value, expected }) => {
    expect(usd(value)).toBe(expected);
  });

  it('formats signed numbers, fixed decimals and shares', () => {
    expect(signed(1.9, 2)).toBe('+1.90');
    expect(signed(-0.004, 2)).toBe('+0.00');
    expect(signed(-0.4, 1)).toBe('-0.4');
    expect(fixed(-0.0001, 1)).toBe('0.0');
    expect(sharePct(0.2255)).toBe('22.6%');
  });
});
