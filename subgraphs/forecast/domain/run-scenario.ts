// One of the nine built-in scenarios applied to a set of positions (none: the scenario alone).

import { assessDataset, type DatasetAssessment } from './assess-dataset.js';
import type { ForecastContext, ForecastDataset, HistoricalAnalog, PctRange, Position, ScenarioImpact } from './dataset.js';
import { explainScenario } from './explain-outlook.js';
import { presentPct, presentScore, presentUsd } from './present.js';
import { evaluateScenario, type PositionScenarioImpact, type ScenarioEvaluation } from './scenario-evaluation.js';
import type { CommodityAssessment } from './score-commodity.js';
import type { CommoditySymbol, DataQuality, RiskStatus, ScenarioId } from './types.js';

export interface ScenarioRequest {
  scenario: ScenarioId;
  positions?: readonly Position[];
}

export interface AffectedCommodity {
  symbol: CommoditySymbol;
  priceImpactPct: PctRange;
  supplyReductionPct: number;
  currentStatus: RiskStatus;
  climateRiskScore: number;
}

export interface ScenarioPositionResult {
  symbol: CommoditySymbol;
  notionalUsd: number;
  affected: boolean;
  priceImpactPct: PctRange;
  priceImpactUsd: PctRange;
  supplyReductionPct: number;
}

export interface ScenarioResult {
  scenario: ScenarioId;
  name: string;
  description: string;
  probability: number;
  probabilityBasis: { text: string; url: string };
  horizonMonths: number;
  affectedCommodities: AffectedCommodity[];
  /** Lowest low and highest high over the affected commodities. */
  priceImpactPct: PctRange;
  /** Smallest and largest supply reduction over the affected commodities. */
  supplyReductionPct: PctRange;
  historicalAnalogs: HistoricalAnalog[];
  positions: ScenarioPositionResult[];
  /** Present when positions were given. */
  portfolio?: ScenarioEvaluation['portfolio'];
  reasoning: string;
  asOf: string;
  dataQuality: DataQuality;
}

/** One scenario run on its own: assesses the dataset for it alone. */
export function runScenario(dataset: ForecastDataset, request: ScenarioRequest, context: ForecastContext): ScenarioResult {
  return scenarioResultFrom(assessDataset(dataset, context), request);
}

export function scenarioResultFrom({ dataset, context, commodities }: DatasetAssessment, request: ScenarioRequest): ScenarioResult {
  const scenario = dataset.scenarios[request.scenario];
  const positions = request.positions ?? [];
  const evaluation = evaluateScenario(scenario, positions);
  const impacts = scenario.affectedCommodities;
  return {
    scenario: scenario.id,
    name: scenario.name,
    description: scenario.description,
    probability: scenario.probability,
    probabilityBasis: { ...scenario.probabilityBasis },
    horizonMonths: scenario.horizonMonths,
    affectedCommodities: impacts.map((i) => affectedCommodity(i, commodities[i.symbol])),
    priceImpactPct: {
      low: Math.min(...impacts.map((i) => i.priceImpactPct.low)),
      high: Math.max(...impacts.map((i) => i.priceImpactPct.high)),
    },
    supplyReductionPct: {
      low: Math.min(...impacts.map((i) => i.supplyReductionPct)),
      high: Math.max(...impacts.map((i) => i.supplyReductionPct)),
    },
    historicalAnalogs: scenario.historicalAnalogs.map((a) => ({ ...a })),
    positions: evaluation.positions.map(presentPositionImpact),
    ...(positions.length === 0 ? {} : { portfolio: presentPortfolioImpact(evaluation.portfolio) }),
    reasoning: explainScenario(evaluation, statusesOf(commodities)),
    asOf: newestAsOf(commodities) ?? context.now.toISOString(),
    dataQuality: context.dataQuality,
  };
}

export function presentPortfolioImpact(p: ScenarioEvaluation['portfolio']): ScenarioEvaluation['portfolio'] {
  return {
    totalNotionalUsd: presentUsd(p.totalNotionalUsd),
    affectedNotionalUsd: presentUsd(p.affectedNotionalUsd),
    priceImpactUsd: { low: presentUsd(p.priceImpactUsd.low), high: presentUsd(p.priceImpactUsd.high) },
    priceImpactPct: { low: presentPct(p.priceImpactPct.low), high: presentPct(p.priceImpactPct.high) },
  };
}

export function statusesOf(assessments: Readonly<Record<CommoditySymbol, CommodityAssessment>>): Record<CommoditySymbol, RiskStatus> {
  const entries = Object.values(assessments).map((a) => [a.symbol, a.status] as const);
  return Object.fromEntries(entries) as Record<CommoditySymbol, RiskStatus>;
}

function affectedCommodity(impact: ScenarioImpact, assessment: CommodityAssessment): AffectedCommodity {
  return {
    symbol: impact.symbol,
    priceImpactPct: { ...impact.priceImpactPct },
    supplyReductionPct: impact.supplyReductionPct,
    currentStatus: assessment.status,
    climateRiskScore: presentScore(assessment.score),
  };
}

function presentPositionImpact(p: PositionScenarioImpact): ScenarioPositionResult {
  return {
    symbol: p.position.symbol,
    notionalUsd: presentUsd(p.position.notionalUsd),
    affected: p.impact !== undefined,
    priceImpactPct: p.impact === undefined ? { low: 0, high: 0 } : { ...p.impact.priceImpactPct },
    priceImpactUsd: { low: presentUsd(p.priceImpactUsd.low), high: presentUsd(p.priceImpactUsd.high) },
    supplyReductionPct: p.impact?.supplyReductionPct ?? 0,
  };
}

function newestAsOf(assessments: Readonly<Record<CommoditySymbol, CommodityAssessment>>): string | undefined {
  const times = Object.values(assessments).flatMap((a) => (a.asOf === undefined ? [] : [Date.parse(a.asOf)]));
  return times.length === 0 ? undefined : new Date(Math.max(...times)).toISOString();
}
