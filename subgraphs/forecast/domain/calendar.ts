// The twelve-month seasonal risk calendar, starting at the month of `now` (UTC).

import type { CalendarMonth, ForecastDataset } from './dataset.js';
import type { CommoditySymbol, SeverityLevel } from './types.js';

export interface CalendarEntry {
  /** Year and month, YYYY-MM. */
  month: string;
  monthName: string;
  events: string[];
  commoditiesAtRisk: CommoditySymbol[];
  historicalSeverity: SeverityLevel;
}

export const CALENDAR_LENGTH = 12;

export function buildCalendar(dataset: Pick<ForecastDataset, 'calendar'>, now: Date): CalendarEntry[] {
  const startYear = now.getUTCFullYear();
  const startMonth = now.getUTCMonth();
  return Array.from({ length: CALENDAR_LENGTH }, (_, offset) => {
    const monthIndex = (startMonth + offset) % 12;
    const year = startYear + Math.floor((startMonth + offset) / 12);
    return entryFor(monthOf(dataset.calendar, monthIndex + 1), year);
  });
}

function monthOf(calendar: readonly CalendarMonth[], month: number): CalendarMonth {
  const found = calendar.find((m) => m.month === month);
  if (found === undefined) throw new Error(`forecast calendar has no entry for month ${month}`);
  return found;
}

function entryFor(month: CalendarMonth, year: number): CalendarEntry {
  return {
    month: `${year}-${String(month.month).padStart(2, '0')}`,
    monthName: month.name,
    events: [...month.events],
    commoditiesAtRisk: [...month.commoditiesAtRisk],
    historicalSeverity: month.historicalSeverity,
  };
}
