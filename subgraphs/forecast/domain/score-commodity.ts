// Climate risk of one commodity: production-share-weighted region scores, status, outlook, confidence.

import type { CommodityProfile, ForecastDataset, ModelParameters, RegionProfile, StatusThresholds } from './dataset.js';
import { daysBetween, roundTo, sum, weightedMean } from './numeric.js';
import { SCORE_DECIMALS } from './present.js';
import { directionOf, type RegionAssessment } from './score-region.js';
import type { CommoditySymbol, Outlook, RegionOutlook, RiskStatus } from './types.js';

export interface RegionContribution {
  region: RegionProfile;
  /** Listed share renormalised so the commodity's listed regions sum to 1. */
  weight: number;
  assessment: RegionAssessment;
}

/** Why the outlook is what it is; the explanation text is built from this. */
export type OutlookBasis = 'LOW_COVERAGE' | 'LOW_CONFIDENCE' | 'NO_TREND' | 'CONFLICTING' | 'TREND';

export interface CommoditySignals {
  temperatureAnomaly: number;
  droughtIndex: number;
  wildfireActivity: number;
  extremeWeatherEvents: number;
}

export interface CommodityAssessment {
  symbol: CommoditySymbol;
  profile: CommodityProfile;
  score: number;
  status: RiskStatus;
  /** Share of production in severely stressed regions, 0-1. */
  severeShare: number;
  signals: CommoditySignals;
  outlook: Outlook;
  outlookBasis: OutlookBasis;
  /** Share-weighted change of the regional scores since the previous observations. */
  change?: number;
  confidence: number;
  /** Share of production with a current observation, 0-1. */
  coverage: number;
  /** Share of production with both a current and a previous observation, 0-1. */
  trendCoverage: number;
  acuteIndex: number;
  chronicIndex: number;
  /** Covered regions, largest contribution (weight × score) first. */
  contributions: RegionContribution[];
  /** Newest current observation used, ISO 8601; absent without any. */
  asOf?: string;
}

/**
 * RED or YELLOW when the share-weighted score reaches its threshold, or when enough production
 * sits in severely stressed regions: a mean dilutes one failing breadbasket among calm ones.
 * Scores are compared as presented (rounded), so a displayed 45.0 is never YELLOW.
 */
export function classifyStatus(score: number, severeShare: number, thresholds: StatusThresholds): RiskStatus {
  const shown = roundTo(score, SCORE_DECIMALS);
  if (shown >= thresholds.redFrom || severeShare >= thresholds.redSevereShare) return 'RED';
  if (shown >= thresholds.yellowFrom || severeShare >= thresholds.yellowSevereShare) return 'YELLOW';
  return 'GREEN';
}

/** Share of production (0-1) in regions whose presented score reaches severeRegionFrom. */
export function severeShareOf(contributions: readonly RegionContribution[], thresholds: StatusThresholds): number {
  const severe = contributions.filter((c) => roundTo(c.assessment.result.score, SCORE_DECIMALS) >= thresholds.severeRegionFrom);
  return sum(severe.map((c) => c.weight));
}

/** 2^(-age / halfLife): 1 for data observed now, 0.5 one half-life later. Future data counts as age 0. */
export function freshness(observedAt: string, now: Date, halfLifeDays: number): number {
  const age = Math.max(0, daysBetween(new Date(observedAt), now));
  return 0.5 ** (age / halfLifeDays);
}

/** Σ weight × freshness over covered regions: coverage and freshness in one number, 0-1. */
export function confidenceOf(contributions: readonly RegionContribution[], now: Date, halfLifeDays: number): number {
  return sum(contributions.map((c) => c.weight * freshness(c.assessment.current.observedAt, now, halfLifeDays)));
}

export function assessCommodity(dataset: ForecastDataset, symbol: CommoditySymbol, regions: ReadonlyMap<string, RegionAssessment>, now: Date): CommodityAssessment {
  const params = dataset.parameters;
  const profile = dataset.commodities[symbol];
  const contributions = contributionsOf(profile, dataset.regions, regions);
  const coverage = sum(contributions.map((c) => c.weight));
  const score = weightedMean(contributions.map((c) => ({ weight: c.weight, value: c.assessment.result.score })));
  const severeShare = severeShareOf(contributions, params.status);
  const confidence = confidenceOf(contributions, now, params.confidence.freshnessHalfLifeDays);
  const trend = trendOf(contributions, params);
  const outlookBasis = basisOf(coverage, confidence, trend, params);
  return {
    symbol,
    profile,
    score,
    status: classifyStatus(score, severeShare, params.status),
    severeShare,
    signals: signalsOf(contributions),
    outlook: outlookOf(outlookBasis, trend.change, params.trend.commodityChangePoints),
    outlookBasis,
    ...(trend.change === undefined ? {} : { change: trend.change }),
    confidence,
    coverage,
    trendCoverage: trend.coverage,
    acuteIndex: weightedMean(contributions.map((c) => ({ weight: c.weight, value: c.assessment.result.acuteIndex }))),
    chronicIndex: weightedMean(contributions.map((c) => ({ weight: c.weight, value: c.assessment.result.chronicIndex }))),
    contributions: [...contributions].sort((a, b) => contributionPoints(b) - contributionPoints(a)),
    ...newestObservation(contributions),
  };
}

/** Every commodity of the dataset, from one pass over the regions. */
export function assessCommodities(dataset: ForecastDataset, regions: ReadonlyMap<string, RegionAssessment>, now: Date): Record<CommoditySymbol, CommodityAssessment> {
  const entries = Object.keys(dataset.commodities).map((symbol) => {
    const s = symbol as CommoditySymbol;
    return [s, assessCommodity(dataset, s, regions, now)] as const;
  });
  return Object.fromEntries(entries) as Record<CommoditySymbol, CommodityAssessment>;
}

export function contributionPoints(contribution: RegionContribution): number {
  return contribution.weight * contribution.assessment.result.score;
}

function contributionsOf(profile: CommodityProfile, allRegions: readonly RegionProfile[], assessed: ReadonlyMap<string, RegionAssessment>): RegionContribution[] {
  const listed = profile.production.regions;
  const totalShare = sum(listed.map((r) => r.share));
  const contributions: RegionContribution[] = [];
  for (const entry of listed) {
    const assessment = assessed.get(entry.regionId);
    const region = allRegions.find((r) => r.id === entry.regionId);
    if (assessment === undefined || region === undefined || totalShare <= 0) continue;
    contributions.push({ region, weight: entry.share / totalShare, assessment });
  }
  return contributions;
}

function signalsOf(contributions: readonly RegionContribution[]): CommoditySignals {
  const mean = (pick: (c: RegionContribution) => number) => weightedMean(contributions.map((c) => ({ weight: c.weight, value: pick(c) })));
  return {
    temperatureAnomaly: mean((c) => c.assessment.current.temperatureAnomalyC),
    droughtIndex: mean((c) => c.assessment.current.droughtIndex),
    wildfireActivity: sum(contributions.map((c) => c.assessment.current.activeWildfires)),
    extremeWeatherEvents: sum(contributions.map((c) => c.assessment.result.alertCount)),
  };
}

interface Trend {
  coverage: number;
  change?: number;
  conflicting: boolean;
}

/** Conflicting: sizeable production shares moving in opposite directions at once. */
function trendOf(contributions: readonly RegionContribution[], params: ModelParameters): Trend {
  const paired = contributions.filter((c) => c.assessment.previousScore !== undefined);
  const coverage = sum(paired.map((c) => c.weight));
  if (paired.length === 0 || coverage <= 0) return { coverage, conflicting: false };
  const change = weightedMean(
    paired.map((c) => ({
      weight: c.weight,
      value: c.assessment.result.score - (c.assessment.previousScore ?? c.assessment.result.score),
    })),
  );
  const shareMoving = (direction: RegionOutlook) => sum(paired.filter((c) => c.assessment.outlook === direction).map((c) => c.weight)) / coverage;
  const threshold = params.uncertainty.conflictingShare;
  const conflicting = shareMoving('DETERIORATING') >= threshold && shareMoving('IMPROVING') >= threshold;
  return { coverage, change, conflicting };
}

function basisOf(coverage: number, confidence: number, trend: Trend, params: ModelParameters): OutlookBasis {
  const limits = params.uncertainty;
  if (coverage < limits.minCoverage) return 'LOW_COVERAGE';
  if (confidence < limits.minConfidence) return 'LOW_CONFIDENCE';
  if (trend.change === undefined || trend.coverage < limits.minTrendCoverage) return 'NO_TREND';
  if (trend.conflicting) return 'CONFLICTING';
  return 'TREND';
}

function outlookOf(basis: OutlookBasis, change: number | undefined, changePoints: number): Outlook {
  if (basis !== 'TREND' || change === undefined) return 'UNCERTAIN';
  return directionOf(change, changePoints);
}

function newestObservation(contributions: readonly RegionContribution[]): { asOf?: string } {
  const times = contributions.map((c) => c.assessment.current.observedAt);
  if (times.length === 0) return {};
  const newest = times.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
  return { asOf: new Date(newest).toISOString() };
}
