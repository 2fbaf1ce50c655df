// How old the screening list is (issue 21, decision 0055): every screening answer names the SDN
// list's as-of date and says when it is older than STALE_LIST_DAYS at the time of the answer
// (the clock is passed in).

/** A list older than this many days is flagged stale in every screening answer. */
export const STALE_LIST_DAYS = 30;

const DAY_MS = 86_400_000;

/** Whole days from the list's as-of date (YYYY-MM-DD, UTC) to `now`, and whether that is over STALE_LIST_DAYS. */
export function listAge(asOf: string, now: Date): { ageDays: number; stale: boolean } {
  const published = Date.parse(`${asOf.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(published)) return { ageDays: 0, stale: true };
  const ageDays = Math.floor((now.getTime() - published) / DAY_MS);
  return { ageDays, stale: ageDays > STALE_LIST_DAYS };
}
