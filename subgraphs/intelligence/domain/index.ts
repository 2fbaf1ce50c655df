export type { LadderRule } from './ladder.js';
export { climbLadder } from './ladder.js';
export type { DataQuality, InputUse, SignalAnswer } from './provenance.js';
export { dataQualityOf, inputUse, isStale, readInputs, STALE_AFTER_DAYS } from './provenance.js';
export type { Frequency, Observation, Series, SeriesSet, SeriesSource } from './series.js';
export {
  between,
  changeBy,
  changePct,
  clamp,
  dayNumber,
  daysBetween,
  latest,
  mean,
  onOrBefore,
  percentileRank,
  round,
  seriesAsOf,
  shiftDate,
  standardDeviation,
  weightedMean,
  zScore,
} from './series.js';
