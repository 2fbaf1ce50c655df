// UTC calendar arithmetic for request windows. The clock is passed in, never read.

const DAY_MS = 86_400_000;

/** YYYY-MM-DD of an instant, in UTC. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** The same day `months` calendar months later (negative: earlier); a day past a month end rolls over. */
export function addMonths(date: Date, months: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, date.getUTCDate()));
}

/** M/D/YYYY, the date format the US Drought Monitor service expects. */
export function usDay(date: Date): string {
  return `${date.getUTCMonth() + 1}/${date.getUTCDate()}/${date.getUTCFullYear()}`;
}
