// Pure: ECB observations into a dated series.

import type { DatedObservation } from '../types.js';
import type { EcbObservation } from './parse.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** Daily observations in date order; an empty or non-numeric OBS_VALUE is left out. */
export function mapEcbDaily(observations: readonly EcbObservation[]): DatedObservation[] {
  return observations
    .filter((o) => DAY.test(o.period) && NUMBER.test(o.value.trim()))
    .map((o) => ({ date: o.period, value: Number(o.value) }))
    .sort((a, b) => a.date.localeCompare(b.date));
}
