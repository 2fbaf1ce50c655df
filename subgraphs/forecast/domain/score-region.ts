// Climate risk of one production region (0-100) from its four signals, its main threat and its direction.

import type { ForecastDataset, RegionProfile, RegionScoreParameters } from './dataset.js';
import { normalise, sum } from './numeric.js';
import { pairObservations } from './observations.js';
import type { PrimaryThreat, RegionClimateObservation, RegionOutlook } from './types.js';

/** Each signal mapped onto 0-1 by its normalisation range. */
export interface SignalScores {
  temperature: number;
  drought: number;
  wildfire: number;
  alerts: number;
}

export interface ObservationScore {
  /** 100 × Σ weight × signal score. */
  score: number;
  signals: SignalScores;
  /** Points of the score attributable to each threat (they add up to the score minus "other" alerts). */
  threats: Record<PrimaryThreat, number>;
  /** 0-100 from wildfires and alerts only (sudden events). */
  acuteIndex: number;
  /** 0-100 from temperature and drought only (slow-onset conditions). */
  chronicIndex: number;
  /** Active alerts of every kind, unweighted. */
  alertCount: number;
}

export interface RegionAssessment {
  region: RegionProfile;
  current: RegionClimateObservation;
  previous?: RegionClimateObservation;
  result: ObservationScore;
  previousScore?: number;
  primaryThreat: PrimaryThreat;
  outlook: RegionOutlook;
}

export function scoreSignals(observation: RegionClimateObservation, params: RegionScoreParameters): SignalScores {
  const ranges = params.normalisation;
  return {
    // Only warmth scores: the threat vocabulary has no cold category (cold spells are scenario-driven).
    temperature: normalise(observation.temperatureAnomalyC, ranges.temperatureAnomalyC),
    drought: normalise(observation.droughtIndex, ranges.droughtIndex),
    wildfire: normalise(observation.activeWildfires, ranges.activeWildfires),
    alerts: normalise(weightedAlertCount(observation.alerts, params.alertKindWeights), ranges.weightedAlerts),
  };
}

export function weightedAlertCount(alerts: RegionClimateObservation['alerts'], weights: RegionScoreParameters['alertKindWeights']): number {
  return alerts.flood * weights.flood + alerts.storm * weights.storm + alerts.drought * weights.drought + alerts.other * weights.other;
}

export function scoreObservation(observation: RegionClimateObservation, params: RegionScoreParameters): ObservationScore {
  const signals = scoreSignals(observation, params);
  const w = params.weights;
  const chronicWeight = w.temperature + w.drought;
  const acuteWeight = w.wildfire + w.alerts;
  const chronic = w.temperature * signals.temperature + w.drought * signals.drought;
  const acute = w.wildfire * signals.wildfire + w.alerts * signals.alerts;
  return {
    score: 100 * (chronic + acute),
    signals,
    threats: threatPoints(observation, signals, params),
    acuteIndex: acuteWeight > 0 ? (100 * acute) / acuteWeight : 0,
    chronicIndex: chronicWeight > 0 ? (100 * chronic) / chronicWeight : 0,
    alertCount: sum(Object.values(observation.alerts)),
  };
}

/** The alert component is split among flood, storm and drought in proportion to their weighted counts. */
function threatPoints(observation: RegionClimateObservation, signals: SignalScores, params: RegionScoreParameters): Record<PrimaryThreat, number> {
  const w = params.weights;
  const kinds = params.alertKindWeights;
  const weightedTotal = weightedAlertCount(observation.alerts, kinds);
  const alertPoints = 100 * w.alerts * signals.alerts;
  const alertShare = (count: number, weight: number) => (weightedTotal > 0 ? (alertPoints * count * weight) / weightedTotal : 0);
  return {
    drought: 100 * w.drought * signals.drought + alertShare(observation.alerts.drought, kinds.drought),
    'heat stress': 100 * w.temperature * signals.temperature,
    wildfire: 100 * w.wildfire * signals.wildfire,
    flood: alertShare(observation.alerts.flood, kinds.flood),
    storm: alertShare(observation.alerts.storm, kinds.storm),
  };
}

/** The threat with the most points; ties go to the earlier entry of threatTieBreakOrder. */
export function choosePrimaryThreat(threats: Record<PrimaryThreat, number>, order: readonly PrimaryThreat[]): PrimaryThreat {
  const [first, ...rest] = order;
  if (first === undefined) throw new Error('threatTieBreakOrder must list at least one threat');
  return rest.reduce((best, threat) => (threats[threat] > threats[best] ? threat : best), first);
}

/** DETERIORATING when risk rose by at least changePoints, IMPROVING when it fell as much, else STABLE. */
export function directionOf(change: number, changePoints: number): RegionOutlook {
  if (change >= changePoints) return 'DETERIORATING';
  if (change <= -changePoints) return 'IMPROVING';
  return 'STABLE';
}

/** A region without a previous observation counts as STABLE (the Region entry has no UNCERTAIN). */
export function regionDirection(current: number, previous: number | undefined, changePoints: number): RegionOutlook {
  return previous === undefined ? 'STABLE' : directionOf(current - previous, changePoints);
}

/** Every region that has a current observation, keyed by region id. */
export function assessRegions(dataset: ForecastDataset): Map<string, RegionAssessment> {
  const params = dataset.parameters;
  const pairs = pairObservations(dataset.observations, params.trend);
  const assessments = new Map<string, RegionAssessment>();
  for (const region of dataset.regions) {
    const pair = pairs.get(region.id);
    if (pair === undefined) continue;
    const result = scoreObservation(pair.current, params.regionScore);
    const previousScore = pair.previous ? scoreObservation(pair.previous, params.regionScore).score : undefined;
    assessments.set(region.id, {
      region,
      ...pair,
      result,
      ...(previousScore === undefined ? {} : { previousScore }),
      primaryThreat: choosePrimaryThreat(result.threats, params.regionScore.threatTieBreakOrder),
      outlook: regionDirection(result.score, previousScore, params.trend.regionChangePoints),
    });
  }
  return assessments;
}
