// Pure: live observations laid over the shipped series, provenance kept, `live` and `asOf` their own.

import type { DatedObservation } from '../../../platform/sources/index.js';
import type { Series, SeriesSet } from '../domain/index.js';
import type { LiveRoute } from './live-series.js';

/**
 * The snapshot with each live series in place of the shipped one of the same id: the publisher's
 * observations from its first live date on, the snapshot's before it (a windowed request returns the
 * recent years; the models read ten), title, units, publisher, URL and licence unchanged, `live`
 * true and `asOf` the newest live date. A vintage route (the GSCPI, re-estimated whole each month)
 * replaces the series outright: one vintage is never spliced onto another. An id the snapshot does
 * not ship is not added.
 */
export function overlayLiveSeries(snapshot: SeriesSet, live: ReadonlyMap<string, readonly DatedObservation[]>, routes: Readonly<Record<string, LiveRoute>>): SeriesSet {
  const merged = new Map(snapshot);
  for (const [id, observations] of live) {
    const shipped = snapshot.get(id);
    const first = observations[0];
    const last = observations.at(-1);
    if (shipped === undefined || first === undefined || last === undefined) continue;
    const keptHistory = routes[id]?.feed === 'nyfed' ? [] : shipped.observations.filter((o) => o.date < first.date);
    const series: Series = { ...shipped, observations: [...keptHistory, ...observations], asOf: last.date, live: true };
    merged.set(id, series);
  }
  return merged;
}

/** The day a windowed request starts: this many days before the shipped series' newest observation, so a year of revisions is read. */
export const REVISION_WINDOW_DAYS = 400;

/** The first day to ask a windowed publisher for: REVISION_WINDOW_DAYS before the shipped series' newest observation. */
export function windowStart(snapshot: SeriesSet, id: string, now: Date): Date {
  const newest = snapshot.get(id)?.observations.at(-1)?.date;
  const from = newest === undefined ? now : new Date(`${newest}T00:00:00Z`);
  return new Date(from.getTime() - REVISION_WINDOW_DAYS * 86_400_000);
}
