import { describe, expect, it } from 'vitest';
import { esgSubjectOf, hasValidLeiCheckDigits, subjectKey } from './index.js';

describe('hasValidLeiCheckDigits (ISO 17442, ISO 7064 MOD 97-10)', () => {
  it.each([
    // Shipped GLEIF records: each reads as a number that leaves 1 when divided by 97.
    '2138001KPMR6PD83HC08',
    '254900LNRYNOQ9YPU758',
    '097900BID10000147476',
    '529900T8BM49AURSDO55',
  ])('%s is valid', (lei) => {
    expect(hasValidLeiCheckDigits(lei)).toBe(true);
  });

  it.each([
    ['the last check digit changed', '2138001KPMR6PD83HC09'],
    ['two characters swapped', '1238001KPMR6PD83HC08'],
    ['19 characters', '2138001KPMR6PD83HC0'],
    ['21 characters', '2138001KPMR6PD83HC080'],
    ['letters in the check digits', '2138001KPMR6PD83HCAB'],
    ['lower case (the caller normalises first)', '2138001kpmr6pd83hc08'],
    ['a space', '2138001KPMR6PD83 C08'],
  ])('%s is not', (_name, lei) => {
    expect(hasValidLeiCheckDigits(lei)).toBe(false);
  });
});

describe('esgSubjectOf', () => {
  it('reads an address in any case as the lower-case wallet, an LEI in any case as the upper-case LEI', () => {
    expect(esgSubjectOf('0x000000000000000000000000000000000000dEaD')).toEqual({ kind: 'wallet', address: '0x000000000000000000000000000000000000dead' });
    expect(esgSubjectOf('2138001kpmr6pd83hc08')).toEqual({ kind: 'lei', lei: '2138001KPMR6PD83HC08' });
  });

  it.each([
    '',
    '0x',
    `0x${'0'.repeat(39)}`,
    `0x${'0'.repeat(41)}`,
    `0X${'0'.repeat(40)}`,
    `0x${'g'.repeat(40)}`,
    '../../etc/passwd',
    "' OR 1=1--",
    'ÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉ00',
    '２１３８００１ＫＰＭＲ６ＰＤ８３ＨＣ０８',
  ])('refuses %j', (text) => {
    expect(esgSubjectOf(text)).toBeUndefined();
  });

  it('keys the cache by the normalised subject: one entry for every spelling', () => {
    expect(subjectKey(esgSubjectOf('2138001kpmr6pd83hc08')!)).toBe(subjectKey(esgSubjectOf('2138001KPMR6PD83HC08')!));
    expect(subjectKey(esgSubjectOf(`0x${'AB'.repeat(20)}`)!)).toBe(`wallet:0x${'ab'.repeat(20)}`);
  });
});
