import { describe, expect, it } from 'vitest';
import { amountProblem, canonicalDecimal, controlSumProblem, exactJsonNumberText, sameDecimal, sumDecimals } from './iso-decimal.js';

describe('amountProblem (ActiveOrHistoricCurrencyAndAmount: totalDigits 18, fractionDigits 5, > 0)', () => {
  it.each([
    ['1250.50', undefined],
    ['0.00001', undefined], // 5 fraction digits
    ['1.50000000', undefined], // value 1.5: trailing zeros are not fraction digits (XSD facets constrain the value)
    ['0001250.5', undefined], // leading zeros are not digits of the value either
    ['9999999999999.99999', undefined], // 13 + 5 = 18 digits
    ['99999999999999.99999', 'must have at most 18 digits in total'], // 14 + 5 = 19
    ['1.000001', 'must have at most 5 fraction digits'],
    ['0', 'must be greater than 0'],
    ['0.00000', 'must be greater than 0'],
    ['-1', 'must be an unsigned decimal such as 1250.50 (digits, optionally a point and digits)'],
    ['+1', 'must be an unsigned decimal such as 1250.50 (digits, optionally a point and digits)'],
    ['1e3', 'must be an unsigned decimal such as 1250.50 (digits, optionally a point and digits)'],
    ['.5', 'must be an unsigned decimal such as 1250.50 (digits, optionally a point and digits)'],
    ['1,5', 'must be an unsigned decimal such as 1250.50 (digits, optionally a point and digits)'],
    ['١٢٣', 'must be an unsigned decimal such as 1250.50 (digits, optionally a point and digits)'], // Arabic-Indic digits are not \d
    ['Infinity', 'must be an unsigned decimal such as 1250.50 (digits, optionally a point and digits)'],
    ['1'.repeat(65), 'must be at most 64 characters'],
  ])('%s -> %s', (text, expected) => {
    expect(amountProblem(text)).toBe(expected);
  });
});

describe('controlSumProblem (DecimalNumber: totalDigits 18, fractionDigits 17, zero allowed)', () => {
  it.each([
    ['0', undefined],
    ['0.12345678901234567', undefined], // 17 fraction digits
    ['1.12345678901234567', undefined], // 1 + 17 = 18 digits
    ['0.123456789012345678', 'must have at most 17 fraction digits'],
    ['12.12345678901234567', 'must have at most 18 digits in total'], // 2 + 17 = 19
  ])('%s -> %s', (text, expected) => {
    expect(controlSumProblem(text)).toBe(expected);
  });
});

describe('exactJsonNumberText', () => {
  it.each([
    [98000, '98000'],
    [99250.5, '99250.5'],
    [0.1, '0.1'],
    [123456789012345, '123456789012345'], // 15 digits
    [1234567890.12345, '1234567890.12345'], // 15 significant digits
    [1234567890123456, undefined], // 16 digits: may already be rounded
    // eslint-disable-next-line no-loss-of-precision -- the literal a sender may write, which JSON.parse rounds: the case under test
    [12345678901234567.8, undefined], // arrives as 12345678901234568
    [1e21, undefined], // printed 1e+21
    [1e-7, undefined], // printed 1e-7
    [Infinity, undefined], // JSON.parse("1e309")
    [Number.NaN, undefined],
    [-5, undefined],
  ])('%s -> %s', (value, expected) => {
    expect(exactJsonNumberText(value)).toBe(expected);
  });
});

describe('sumDecimals and sameDecimal: exact, no float drift', () => {
  it.each([
    [['0.1', '0.2'], '0.3'], // 0.1 + 0.2 is 0.30000000000000004 in binary64
    [['1250.50', '98000', '15000.25', '730.10000', '42'], '115022.85'],
    [['9999999999999.99999', '0.00001'], '10000000000000'],
    [[], '0'],
    [['000.000'], '0'],
  ])('%j -> %s', (texts, expected) => {
    expect(sumDecimals(texts)).toBe(expected);
  });
  it('refuses a text that is not a decimal', () => {
    expect(() => sumDecimals(['1', '-2'])).toThrow(RangeError);
  });
  it.each([
    ['1250.5', '1250.50000', true],
    ['0115022.8500', '115022.85', true],
    ['1', '1.0001', false],
    ['x', 'x', false],
  ])('%s = %s: %s', (a, b, expected) => {
    expect(sameDecimal(a, b)).toBe(expected);
  });
});

describe('canonicalDecimal: one spelling per value (the request digest, issue 21 finding 9)', () => {
  it.each([
    ['1250.50', '1250.5'], // trailing fraction zero dropped
    ['01250.500', '1250.5'], // leading zero and trailing zeros dropped
    ['1250.5', '1250.5'],
    ['1250.00', '1250'], // no fraction left: no point
    ['0.050', '0.05'], // the integer part of a fraction stays 0
    ['000.000', '0'],
    ['12x', '12x'], // not a decimal: as it is (the payment's validation refuses it)
  ])('%s -> %s', (text, expected) => {
    expect(canonicalDecimal(text)).toBe(expected);
  });
});
