import { describe, expect, it } from 'vitest';
import { listAge, STALE_LIST_DAYS } from './sanctions-list-age.js';

describe('listAge', () => {
  it.each([
    // 2024-01-27 − 2023-12-28 = 30 days: not yet stale (older than 30 is)
    ['2023-12-28', '2024-01-27T23:59:59Z', 30, false],
    ['2023-12-28', '2024-01-28T00:00:00Z', 31, true],
    ['2023-12-28', '2023-12-28T12:00:00Z', 0, false],
    // the shipped list, on the day of issue 21
    ['2023-12-28', '2026-11-25T00:00:00Z', 1063, true],
    ['not a date', '2026-11-25T00:00:00Z', 0, true],
  ])('a list of %s at %s is %i days old, stale %s', (asOf, now, ageDays, stale) => {
    expect(listAge(asOf, new Date(now))).toEqual({ ageDays, stale });
  });

  it('flags from 31 days', () => expect(STALE_LIST_DAYS).toBe(30));
});
