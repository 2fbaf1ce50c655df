import { describe, expect, it } from 'vitest';
import { parseStreamPrices, streamPrices } from '../data/stream-prices.js';
import { VOP_OFFER } from '../vop/service.js';
import { baseUnitsToUsdcText, streamOpenBodySchema, usdcTextToBaseUnits } from './inputs.js';

describe('USDC text and base units (6 decimals), by string arithmetic', () => {
  it.each<[string, bigint]>([
    ['0.01', 10_000n], // 0.01 x 10^6
    ['0.1', 100_000n],
    ['2.775', 2_775_000n], // 37 calls x 75000
    ['1.000001', 1_000_001n],
    ['9999.999999', 9_999_999_999n],
    ['10000', 10_000_000_000n], // 10^4 x 10^6
  ])('%s USDC is %s base units, and back', (text, units) => {
    expect(usdcTextToBaseUnits(text)).toBe(units);
    expect(baseUnitsToUsdcText(units)).toBe(text);
  });

  it('renders whole amounts without decimals and keeps the sign', () => {
    expect([baseUnitsToUsdcText(0n), baseUnitsToUsdcText(3_000_000n), baseUnitsToUsdcText(-75_000n)]).toEqual(['0', '3', '-0.075']);
  });

  it('reads a JSON number by its shortest decimal text: 0.1 + 0.2 is not 0.3 in binary, and is refused as a 17-digit decimal', () => {
    expect(streamOpenBodySchema.parse({ amountUsdc: 0.3, unitType: 'byte' }).amountUsdc).toBe(300_000n);
    expect(streamOpenBodySchema.safeParse({ amountUsdc: 0.1 + 0.2, unitType: 'byte' }).success).toBe(false); // 0.30000000000000004
    expect(streamOpenBodySchema.parse({ amountUsdc: 8.2, unitType: 'byte' }).amountUsdc).toBe(8_200_000n); // 8.2 x 10^6 is 8199999.999999999 in floats
    expect(streamOpenBodySchema.parse({ amountUsdc: 1.005, unitType: 'byte' }).amountUsdc).toBe(1_005_000n); // 1.005 x 10^6 is 1004999.9999999999 in floats
  });
});

describe('stream-prices.json', () => {
  it('prices a call as one verification of payee (75000 base units), every unit type positive', () => {
    const { unitPrices } = streamPrices();
    expect(unitPrices.call).toBe(VOP_OFFER.price.amount);
    expect(unitPrices).toEqual({ second: 100n, token: 2n, call: 75_000n, byte: 1n });
  });

  it.each([
    ['a missing unit type', (doc: Record<string, any>) => delete doc.unitPrices.byte],
    ['a zero price', (doc: Record<string, any>) => (doc.unitPrices.second.unitPrice = '0')],
    ['a fractional price', (doc: Record<string, any>) => (doc.unitPrices.second.unitPrice = '1.5')],
    ['a price as a number', (doc: Record<string, any>) => (doc.unitPrices.second.unitPrice = 100)],
    ['another unit type', (doc: Record<string, any>) => (doc.unitPrices.minute = { unitPrice: '1', note: 'x' })],
    ['other decimals', (doc: Record<string, any>) => (doc.decimals = 18)],
  ])('refuses a document with %s', (_case, spoil) => {
    const document = {
      version: 'v',
      documentation: 'd',
      decimals: 6,
      currency: 'USDC',
      unitPrices: Object.fromEntries(['second', 'token', 'call', 'byte'].map((unit) => [unit, { unitPrice: '100', note: 'n' }])),
    };
    expect(() => parseStreamPrices(document)).not.toThrow();
    spoil(document);
    expect(() => parseStreamPrices(document)).toThrow();
  });
});
