import { readInputs, type Series, type SeriesSet } from '../../domain/index.js';
import { indexOnOrBefore } from './moves.js';

/** One input slot of a model: the ids of series that carry the same figure, any one of which will do. */
export interface SeriesSlot {
  anyOf: string[];
}

/**
 * The freshest of the slot's series (newest last observation; the first listed on a tie), or
 * undefined with the slot named as missing. Two copies of one publisher's figure (World Bank gold
 * and its datahub repackaging two months fresher) are read as one input: only the series used is
 * reported.
 */
export function pickSeries(series: SeriesSet, slot: SeriesSlot): Series | undefined {
  const { used } = readInputs(series, slot.anyOf);
  return used.reduce<Series | undefined>((best, candidate) => (best === undefined || candidate.asOf > best.asOf ? candidate : best), undefined);
}

/** How a missing slot is named in `missingInputs`. */
export function slotName(slot: SeriesSlot): string {
  return slot.anyOf.join(' or ');
}

/**
 * The series as they stood on `today`: observations dated after it left out, and a series with
 * none by then left out altogether (so a model names it missing). A clock set in the past sees no
 * later data; a series already ending by then is passed through as it is, without a copy.
 */
export function seriesAsOfDay(set: SeriesSet, today: string): SeriesSet {
  const clipped = new Map<string, Series>();
  for (const [id, series] of set) {
    const observations = series.observations;
    const last = indexOnOrBefore(observations, today);
    if (last === observations.length - 1) clipped.set(id, series);
    else if (last >= 0) clipped.set(id, { ...series, observations: observations.slice(0, last + 1), asOf: observations[last]!.date });
  }
  return clipped;
}
