import { describe, expect, it } from 'vitest';
import { snapshotDataset } from '../data/index.js';
import { buildCalendar, CALENDAR_LENGTH } from './calendar.js';

describe('buildCalendar', () => {
  it.each([
    { now: '2024-10-09T00:00:00Z', first: '2024-10', last: '2025-09' },
    { now: '2025-01-01T00:00:00Z', first: '2025-01', last: '2025-12' },
    { now: '2025-12-31T23:59:59Z', first: '2025-12', last: '2026-11' },
    // the month is taken in UTC: 23:30 on 31 March in UTC-5 is already April in UTC
    { now: '2025-03-31T23:30:00-05:00', first: '2025-04', last: '2026-03' },
  ])('starts at the month of $now', ({ now, first, last }) => {
    const calendar = buildCalendar(snapshotDataset, new Date(now));
    expect(calendar).toHaveLength(12);
    expect(calendar[0]?.month).toBe(first);
    expect(calendar[11]?.month).toBe(last);
  });

  it('has twelve consecutive months, each with events, symbols and a severity', () => {
    const calendar = buildCalendar(snapshotDataset, new Date('2024-10-09T00:00:00Z'));
    expect(CALENDAR_LENGTH).toBe(12);
    expect(calendar.map((e) => e.monthName)).toEqual(['October', 'November', 'December', 'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September']);
    for (const entry of calendar) {
      expect(entry.events.length).toBeGreaterThan(0);
      expect(entry.commoditiesAtRisk.length).toBeGreaterThan(0);
      expect(['LOW', 'MODERATE', 'HIGH']).toContain(entry.historicalSeverity);
    }
    // September holds the Atlantic hurricane peak and the Brazilian fire peak
    expect(calendar[11]).toMatchObject({ month: '2025-09', historicalSeverity: 'HIGH' });
  });
});
