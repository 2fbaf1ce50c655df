// Climate stress test of a set of positions: weighted risk score, tiers, worst-case drawdown, advice.

import { assessDataset, type DatasetAssessment } from './assess-dataset.js';
import type { ForecastContext, ForecastDataset, Position } from './dataset.js';
import { sum, weightedMean } from './numeric.js';
import type { PortfolioEvaluation, PositionEvaluation } from './portfolio-evaluation.js';
import { presentConfidence, presentPct, presentScore, presentUsd } from './present.js';
import { recommend } from './recommend.js';
import type { CommoditySymbol, DataQuality, Outlook, PrimaryThreat, RiskStatus } from './types.js';

export interface PortfolioRequest {
  positions: readonly Position[];
  label?: string;
}

export interface PositionStress {
  symbol: CommoditySymbol;
  notionalUsd: number;
  weightPct: number;
  climateRiskScore: number;
  status: RiskStatus;
  outlook: Outlook;
  confidence: number;
  primaryThreat?: PrimaryThreat;
  mainRegion?: string;
  worstCaseLossUsd: number;
  worstCaseLossPct: number;
}

export interface PortfolioStressResult {
  label?: string;
  asOf: string;
  dataQuality: DataQuality;
  totalNotionalUsd: number;
  portfolioRiskScore: number;
  exposureByTier: Record<RiskStatus, number>;
  worstCaseDrawdown: { usd: number; pct: number; horizonMonths: number };
  positions: PositionStress[];
  recommendations: string[];
}

/** The positions against the shared assessment: only the sums over the positions are computed here. */
export function evaluatePortfolio({ commodities, drawdowns }: DatasetAssessment, positions: readonly Position[]): PortfolioEvaluation {
  const evaluated = positions.map((position) => {
    const { priceRisk, lossFraction } = drawdowns[position.symbol];
    const assessment = commodities[position.symbol];
    return { position, assessment, priceRisk, lossFraction, lossUsd: position.notionalUsd * lossFraction };
  });
  const totalNotionalUsd = sum(evaluated.map((e) => e.position.notionalUsd));
  const worstCaseLossUsd = sum(evaluated.map((e) => e.lossUsd));
  return {
    positions: evaluated,
    totalNotionalUsd,
    portfolioRiskScore: weightedMean(evaluated.map((e) => ({ weight: e.position.notionalUsd, value: e.assessment.score }))),
    exposureByTier: tiersOf(evaluated),
    worstCaseLossUsd,
    worstCaseLossPct: totalNotionalUsd > 0 ? (100 * worstCaseLossUsd) / totalNotionalUsd : 0,
    assessments: commodities,
    ...newestOf(evaluated),
  };
}

/** One stress test on its own: assesses the dataset for it alone. */
export function stressPortfolio(dataset: ForecastDataset, request: PortfolioRequest, context: ForecastContext): PortfolioStressResult {
  return portfolioStressFrom(assessDataset(dataset, context), request);
}

export function portfolioStressFrom(assessment: DatasetAssessment, request: PortfolioRequest): PortfolioStressResult {
  const { dataset, context } = assessment;
  const evaluation = evaluatePortfolio(assessment, request.positions);
  return {
    ...(request.label === undefined ? {} : { label: request.label }),
    asOf: evaluation.asOf ?? context.now.toISOString(),
    dataQuality: context.dataQuality,
    totalNotionalUsd: presentUsd(evaluation.totalNotionalUsd),
    portfolioRiskScore: presentScore(evaluation.portfolioRiskScore),
    exposureByTier: presentTiers(evaluation.exposureByTier),
    worstCaseDrawdown: {
      usd: presentUsd(evaluation.worstCaseLossUsd),
      pct: presentPct(evaluation.worstCaseLossPct),
      horizonMonths: dataset.parameters.drawdown.horizonMonths,
    },
    positions: evaluation.positions.map((e) => presentPosition(e, evaluation.totalNotionalUsd)),
    recommendations: recommend(evaluation, dataset.parameters),
  };
}

export function presentTiers(tiers: Record<RiskStatus, number>): Record<RiskStatus, number> {
  return { GREEN: presentUsd(tiers.GREEN), YELLOW: presentUsd(tiers.YELLOW), RED: presentUsd(tiers.RED) };
}

function presentPosition(e: PositionEvaluation, totalNotionalUsd: number): PositionStress {
  const top = e.assessment.contributions[0];
  return {
    symbol: e.position.symbol,
    notionalUsd: presentUsd(e.position.notionalUsd),
    weightPct: presentPct(totalNotionalUsd > 0 ? (100 * e.position.notionalUsd) / totalNotionalUsd : 0),
    climateRiskScore: presentScore(e.assessment.score),
    status: e.assessment.status,
    outlook: e.assessment.outlook,
    confidence: presentConfidence(e.assessment.confidence),
    ...(top === undefined ? {} : { primaryThreat: top.assessment.primaryThreat, mainRegion: top.region.name }),
    worstCaseLossUsd: presentUsd(e.lossUsd),
    worstCaseLossPct: presentPct(100 * e.lossFraction),
  };
}

function tiersOf(evaluated: readonly PositionEvaluation[]): Record<RiskStatus, number> {
  const tiers: Record<RiskStatus, number> = { GREEN: 0, YELLOW: 0, RED: 0 };
  for (const e of evaluated) tiers[e.assessment.status] += e.position.notionalUsd;
  return tiers;
}

function newestOf(evaluated: readonly PositionEvaluation[]): { asOf?: string } {
  const times = evaluated.flatMap((e) => (e.assessment.asOf === undefined ? [] : [Date.parse(e.assessment.asOf)]));
  return times.length === 0 ? {} : { asOf: new Date(Math.max(...times)).toISOString() };
}
