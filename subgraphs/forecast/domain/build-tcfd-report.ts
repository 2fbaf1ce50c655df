// Climate-related financial disclosure report (TCFD template) for a set of positions.

import { assessDataset, type DatasetAssessment } from './assess-dataset.js';
import type { ForecastContext, ForecastDataset, ModelParameters, PctRange, Position } from './dataset.js';
import type { PortfolioEvaluation } from './portfolio-evaluation.js';
import { fixed, presentConfidence, presentPct, presentScore, presentUsd } from './present.js';
import { presentPortfolioImpact } from './run-scenario.js';
import type { ScenarioEvaluation } from './scenario-evaluation.js';
import { evaluatePortfolio, presentTiers } from './stress-portfolio.js';
import { chooseTcfdScenarios } from './tcfd-scenarios.js';
import { notionalAtRisk, type PhysicalRisk, physicalRiskOf, type TopRisk, topRisksOf } from './tcfd-sections.js';
import type { CommoditySymbol, DataQuality, Provenance, RiskStatus, ScenarioId, SeverityLevel } from './types.js';

export interface TcfdRequest {
  positions: readonly Position[];
  entityName?: string;
  reportingPeriod?: string;
}

export interface TcfdScenarioSummary {
  scenario: ScenarioId;
  name: string;
  probability: number;
  horizonMonths: number;
  affectedNotionalUsd: number;
  priceImpactUsd: PctRange;
  priceImpactPct: PctRange;
  description: string;
}

export interface TcfdReport {
  entityName: string;
  reportingPeriod: string;
  asOf: string;
  dataQuality: DataQuality;
  governance: { boardOversight: string; managementRole: string; note: string };
  strategy: {
    physicalRisks: PhysicalRisk[];
    scenarioAnalysis: { moderate: TcfdScenarioSummary; severe: TcfdScenarioSummary; selectionRule: string };
  };
  riskManagement: {
    exposureByTier: Record<RiskStatus, number>;
    worstCase: {
      scenario: ScenarioId;
      name: string;
      horizonMonths: number;
      probability: number;
      /** High end of the severe scenario's price impact on the positions. */
      tailImpactUsd: number;
      tailImpactPct: number;
      climateDrawdownUsd: number;
      climateDrawdownPct: number;
    };
    process: string;
  };
  metrics: { portfolioRiskScore: number; notionalAtRisk: number; totalNotionalUsd: number; topRisks: TopRisk[] };
  disclosure: {
    dataSources: Provenance[];
    methodology: string;
    confidenceLevels: { symbol: CommoditySymbol; confidence: number; level: SeverityLevel }[];
  };
}

export const DEFAULT_ENTITY_NAME = 'the reporting entity';

/** One report on its own: assesses the dataset for it alone. */
export function buildTcfdReport(dataset: ForecastDataset, request: TcfdRequest, context: ForecastContext): TcfdReport {
  return tcfdReportFrom(assessDataset(dataset, context), request);
}

export function tcfdReportFrom(assessment: DatasetAssessment, request: TcfdRequest): TcfdReport {
  const { dataset, context } = assessment;
  const params = dataset.parameters;
  const evaluation = evaluatePortfolio(assessment, request.positions);
  const choice = chooseTcfdScenarios(dataset.scenarios, request.positions);
  const entityName = request.entityName ?? DEFAULT_ENTITY_NAME;
  const reportingPeriod = request.reportingPeriod ?? String(context.now.getUTCFullYear());
  return {
    entityName,
    reportingPeriod,
    asOf: evaluation.asOf ?? context.now.toISOString(),
    dataQuality: context.dataQuality,
    governance: governanceOf(entityName, reportingPeriod, params),
    strategy: {
      physicalRisks: evaluation.positions.map((e) => physicalRiskOf(e.position, e.assessment, params)),
      scenarioAnalysis: {
        moderate: summarise(choice.moderate),
        severe: summarise(choice.severe),
        selectionRule:
          'Severe: the scenario with the largest high-end price impact on the positions. Moderate: among the other scenarios touching the positions, the largest probability × mid-range impact.',
      },
    },
    riskManagement: riskManagementOf(evaluation, choice.severe, params),
    metrics: {
      portfolioRiskScore: presentScore(evaluation.portfolioRiskScore),
      notionalAtRisk: presentUsd(notionalAtRisk(evaluation)),
      totalNotionalUsd: presentUsd(evaluation.totalNotionalUsd),
      topRisks: topRisksOf(evaluation, params.portfolio.topRiskCount),
    },
    disclosure: disclosureOf(dataset, evaluation, params),
  };
}

function governanceOf(entityName: string, period: string, params: ModelParameters): TcfdReport['governance'] {
  return {
    boardOversight: `The board of ${entityName} oversees climate-related risks to its commodity-linked settlement exposures and reviews this report for ${period}.`,
    managementRole: `Management reviews the climate status (GREEN, YELLOW, RED) of every commodity exposure, hedges YELLOW and RED exposures, and escalates to the board when more than ${fixed(params.portfolio.atRiskShareLimitPct, 0)}% of notional is at YELLOW or RED.`,
    note: "Template text: replace it with the entity's own governance disclosure.",
  };
}

function summarise(e: ScenarioEvaluation): TcfdScenarioSummary {
  const impact = presentPortfolioImpact(e.portfolio);
  return {
    scenario: e.scenario.id,
    name: e.scenario.name,
    probability: e.scenario.probability,
    horizonMonths: e.scenario.horizonMonths,
    affectedNotionalUsd: impact.affectedNotionalUsd,
    priceImpactUsd: impact.priceImpactUsd,
    priceImpactPct: impact.priceImpactPct,
    description: e.scenario.description,
  };
}

function riskManagementOf(evaluation: PortfolioEvaluation, severe: ScenarioEvaluation, params: ModelParameters): TcfdReport['riskManagement'] {
  return {
    exposureByTier: presentTiers(evaluation.exposureByTier),
    worstCase: {
      scenario: severe.scenario.id,
      name: severe.scenario.name,
      horizonMonths: severe.scenario.horizonMonths,
      probability: severe.scenario.probability,
      tailImpactUsd: presentUsd(severe.portfolio.priceImpactUsd.high),
      tailImpactPct: presentPct(severe.portfolio.priceImpactPct.high),
      climateDrawdownUsd: presentUsd(evaluation.worstCaseLossUsd),
      climateDrawdownPct: presentPct(evaluation.worstCaseLossPct),
    },
    process: `Climate risk is scored per production region from temperature anomaly, drought, wildfires and disaster alerts, weighted by production share per commodity and by notional per portfolio; exposures are tiered GREEN below ${fixed(params.status.yellowFrom, 0)}, YELLOW from ${fixed(params.status.yellowFrom, 0)} and RED from ${fixed(params.status.redFrom, 0)}.`,
  };
}

function disclosureOf(dataset: ForecastDataset, evaluation: PortfolioEvaluation, params: ModelParameters): TcfdReport['disclosure'] {
  const symbols = [...new Set(evaluation.positions.map((e) => e.position.symbol))];
  return {
    dataSources: dataset.sources.map((s) => ({ ...s })),
    methodology: methodologyNote(params),
    confidenceLevels: symbols.map((symbol) => {
      const confidence = evaluation.assessments[symbol].confidence;
      return { symbol, confidence: presentConfidence(confidence), level: confidenceLevel(confidence, params) };
    }),
  };
}

export function confidenceLevel(confidence: number, params: ModelParameters): SeverityLevel {
  const shown = presentConfidence(confidence);
  if (shown >= params.confidence.levels.highFrom) return 'HIGH';
  if (shown >= params.confidence.levels.mediumFrom) return 'MODERATE';
  return 'LOW';
}

function methodologyNote(params: ModelParameters): string {
  const w = params.regionScore.weights;
  return (
    `Region score = 100 × (${w.temperature} × temperature + ${w.drought} × drought + ${w.wildfire} × wildfires + ${w.alerts} × alerts), ` +
    'each signal normalised to 0-1; commodity score = production-share-weighted region scores; portfolio score = notional-weighted commodity scores. ' +
    `Worst-case drawdown = notional × min(${params.drawdown.maxLossFraction}, max(24-month peak-to-trough fall, ${params.drawdown.tailZ} × monthly volatility × √${params.drawdown.horizonMonths}) × (${params.drawdown.minRiskScale} + ${params.drawdown.maxRiskScale - params.drawdown.minRiskScale} × score / 100)). ` +
    `Confidence = Σ production share × 0.5^(age in days / ${params.confidence.freshnessHalfLifeDays}) over regions with observations. ` +
    'Scenario impacts are modelling assumptions bracketed by historical analogs. See docs/forecast-methodology.md.'
  );
}
