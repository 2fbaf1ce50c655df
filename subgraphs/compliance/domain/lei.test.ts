import { describe, expect, it } from 'vitest';
import { leiRecords } from '../data/index.js';
import { isValidLei, leiCheckDigits } from './lei.js';

describe('isValidLei (ISO 17442, ISO 7064 MOD 97-10)', () => {
  const { records, relationships } = leiRecords();

  it('accepts every LEI of the GLEIF snapshot, records and relationship ends alike', () => {
    const leis = new Set([...records.map((r) => r.lei), ...relationships.flatMap((r) => [r.child, r.parent])]);
    expect(leis.size).toBeGreaterThan(699);
    expect([...leis].filter((lei) => !isValidLei(lei))).toEqual([]);
  });

  it.each([
    ['6SHGI4ZSSLCXXQSBB395', true, 'Citigroup Inc.'],
    ['E57ODZWZ7FF32TWEFA76', true, 'Citibank, N.A.'],
    ['2138001KPMR6PD83HC08', true, 'Shell Catalysts & Technologies'],
    ['6SHGI4ZSSLCXXQSBB394', false, 'last check digit changed'],
    ['6SHGI4ZSSLCXXQSBB359', false, 'check digits swapped'],
    ['6SHGI4ZSSLCXXQSBC395', false, 'a letter changed'],
    ['6SHGI4ZSSLCXXSQBB395', false, 'two letters swapped'],
    ['6shgi4zsslcxxqsbb395', false, 'lower case'],
    ['6SHGI4ZSSLCXXQSBB39', false, '19 characters'],
    ['6SHGI4ZSSLCXXQSBB3950', false, '21 characters'],
    ['6SHGI4ZSSLCXXQSBB3-5', false, 'a hyphen'],
    ['6SHGI4ZSSLCXXQSBB3A5', false, 'a letter among the check digits'],
    ['SPARSE00000000000001', false, "pygleif's synthetic identifier"],
    ['', false, 'empty'],
  ])('%s → %s (%s)', (lei, valid) => {
    expect(isValidLei(lei)).toBe(valid);
  });

  it('computes the check digits of a base, so any base with them is valid', () => {
    for (const { lei } of records.slice(0, 50)) expect(leiCheckDigits(lei.slice(0, 18))).toBe(lei.slice(18));
    expect(isValidLei(`ABCDEF0123456789XY${leiCheckDigits('ABCDEF0123456789XY')}`)).toBe(true);
    expect(() => leiCheckDigits('abc')).toThrow(RangeError);
  });
});
