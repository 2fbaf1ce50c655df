import type { ScorePoints, SeriesFrequency } from '../../domain/index.js';

/** The stability pipeline's parameters (data/stability-parameters.json; docs/stability-model.md). */
export interface StabilityParameters {
  version: string;
  /** Lower bounds of the bands: stable >= 90, caution >= 75 (Document 1 §3). */
  bands: { stable: number; caution: number; unstable: number };
  peg: { deviationThresholdBps: number; verificationCycleSeconds: number; score: ScorePoints };
  windows: { dailyChangeObservations: number; weeklyChangeObservations: number; monthlyChangeObservations: number; stablecoinChangeDays: number; outlookLookbackDays: number };
  staleAfterDays: Record<SeriesFrequency, number>;
  signals: {
    tradeWeightedUsd: { trendPct: number; score: ScorePoints };
    yieldCurve: { flatBelow: number; score: ScorePoints };
    nearTermCurve: { score: ScorePoints };
    breakevenInflation: { target: number; elevatedAbove: number; score: ScorePoints };
    realYield: { score: ScorePoints };
    fedBalanceSheet: { trendPct: number; score: ScorePoints };
    gold: { debasementAbove: number; trendPct: number; score: ScorePoints };
    stablecoinHealth: { stressDeclinePct: number; score: ScorePoints };
    inflationDivergence: { divergenceAbove: number; highBelow: number; score: ScorePoints };
    financialStress: { alertAbove: number; score: ScorePoints };
    financialConditions: { score: ScorePoints };
    debtToGdp: { score: ScorePoints };
  };
  usdHealthWeights: Record<string, number>;
  usdOutlook: { points: number; minConfidence: number };
  usdConsensus: { movePct: number; majority: number };
  tiers: ReadonlyArray<{ id: string; name: string; measures: string; signals: readonly string[]; weight: number }>;
  confidence: { fallbackPenalty: number; unavailablePenalty: number; stalePenalty: number };
}
