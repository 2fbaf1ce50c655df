import { dayNumber, shiftDate } from '../../domain/index.js';

/** YYYY-MM-DD of an instant (UTC). */
export function dayOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** Midnight UTC at the start of `date`. */
export function startOfDay(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

/** Monday to Friday: the days a daily market series publishes (public holidays are not modelled). */
export function isWeekday(date: string): boolean {
  const weekday = (dayNumber(date) + 4) % 7; // 1970-01-01 was a Thursday (4)
  return weekday >= 1 && weekday <= 5;
}

/** The latest weekday on or before `date`. */
export function weekdayOnOrBefore(date: string): string {
  let day = date;
  while (!isWeekday(day)) day = shiftDate(day, -1);
  return day;
}

/** The weekday `count` weekdays after `date` (count >= 1). */
export function addWeekdays(date: string, count: number): string {
  let day = date;
  for (let added = 0; added < count;) {
    day = shiftDate(day, 1);
    if (isWeekday(day)) added += 1;
  }
  return day;
}

/** Weekdays after `from` up to and including `to` (0 when `to` is not after `from`). */
export function weekdaysBetween(from: string, to: string): number {
  let count = 0;
  for (let day = shiftDate(from, 1); day <= to; day = shiftDate(day, 1)) if (isWeekday(day)) count += 1;
  return count;
}

/** The Monday of the ISO week holding `date`. */
export function isoWeekStart(date: string): string {
  const weekday = (dayNumber(date) + 3) % 7; // 0 = Monday
  return shiftDate(date, -weekday);
}
