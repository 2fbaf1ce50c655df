// Rule-based plain-language reasoning, built only from computed numbers (the default synthesiser).

import type { ModelParameters } from './dataset.js';
import { daysBetween, sum } from './numeric.js';
import { fixed, plural, sharePct, signed, usd } from './present.js';
import type { ScenarioEvaluation } from './scenario-evaluation.js';
import type { CommodityAssessment, RegionContribution } from './score-commodity.js';
import type { CommoditySymbol, RiskStatus } from './types.js';

/** Names the synthesiser in responses that carry model metadata. */
export const RULE_BASED_REASONING_MODEL = 'rule-based-forecast-reasoning/1';

export function explainCommodityOutlook(assessment: CommodityAssessment, params: ModelParameters, now: Date): string {
  return [headline(assessment), signalSentence(assessment), driverSentence(assessment.contributions), outlookSentence(assessment, params, now), confidenceSentence(assessment, now)]
    .filter((s) => s !== '')
    .join(' ');
}

function headline(a: CommodityAssessment): string {
  return `${a.symbol} (${a.profile.name}) is ${a.status} at ${fixed(a.score, 1)}/100 climate risk.`;
}

function signalSentence(a: CommodityAssessment): string {
  if (a.contributions.length === 0) return 'No production region has a current climate observation.';
  const s = a.signals;
  return (
    `Across its production regions the share-weighted temperature anomaly is ${signed(s.temperatureAnomaly, 2)} °C ` +
    `and the drought index ${fixed(s.droughtIndex, 2)} of 5, with ${plural(s.wildfireActivity, 'active wildfire')} ` +
    `and ${plural(s.extremeWeatherEvents, 'disaster alert')}.`
  );
}

function driverSentence(contributions: readonly RegionContribution[]): string {
  const [first, second] = contributions;
  if (first === undefined) return '';
  const describe = (c: RegionContribution) => `${c.region.name} (${sharePct(c.weight)} of production, score ${fixed(c.assessment.result.score, 1)}, ${c.assessment.primaryThreat})`;
  const next = second === undefined ? '' : `, then ${describe(second)}`;
  return `The largest contribution comes from ${describe(first)}${next}.`;
}

function outlookSentence(a: CommodityAssessment, params: ModelParameters, now: Date): string {
  const limits = params.uncertainty;
  switch (a.outlookBasis) {
    case 'LOW_COVERAGE':
      return `The outlook is UNCERTAIN: only ${sharePct(a.coverage)} of production has current observations (at least ${sharePct(limits.minCoverage)} needed).`;
    case 'LOW_CONFIDENCE':
      return `The outlook is UNCERTAIN: confidence ${fixed(a.confidence, 2)} is below ${fixed(limits.minConfidence, 2)} because the newest observation is ${fixed(ageDays(a, now), 1)} days old.`;
    case 'NO_TREND':
      return `The outlook is UNCERTAIN: only ${sharePct(a.trendCoverage)} of production has an observation ${params.trend.comparisonMinGapDays}-${params.trend.comparisonMaxGapDays} days older to compare with (at least ${sharePct(limits.minTrendCoverage)} needed).`;
    case 'CONFLICTING':
      return `The outlook is UNCERTAIN: regions holding ${sharePct(movingShare(a, 'DETERIORATING'))} of production are deteriorating while ${sharePct(movingShare(a, 'IMPROVING'))} are improving.`;
    case 'TREND':
      return trendSentence(a, params.trend.commodityChangePoints);
    default:
      return unreachable(a.outlookBasis);
  }
}

function trendSentence(a: CommodityAssessment, band: number): string {
  const change = a.change ?? 0;
  if (a.outlook === 'STABLE') {
    return `The outlook is STABLE: regional scores moved by ${signed(change, 1)} points on average, inside the ±${fixed(band, 1)} band.`;
  }
  const verb = change >= 0 ? 'rose' : 'fell';
  return `The outlook is ${a.outlook}: regional scores ${verb} by ${fixed(Math.abs(change), 1)} points on average since the previous observations.`;
}

function confidenceSentence(a: CommodityAssessment, now: Date): string {
  if (a.contributions.length === 0) return 'Confidence is 0.00.';
  return `Confidence ${fixed(a.confidence, 2)}: ${sharePct(a.coverage)} of production observed, newest data ${fixed(ageDays(a, now), 1)} days old.`;
}

function movingShare(a: CommodityAssessment, direction: 'DETERIORATING' | 'IMPROVING'): number {
  if (a.trendCoverage <= 0) return 0;
  const moving = a.contributions.filter((c) => c.assessment.previousScore !== undefined && c.assessment.outlook === direction);
  return sum(moving.map((c) => c.weight)) / a.trendCoverage;
}

function ageDays(a: CommodityAssessment, now: Date): number {
  return a.asOf === undefined ? 0 : Math.max(0, daysBetween(new Date(a.asOf), now));
}

export function explainScenario(evaluation: ScenarioEvaluation, statuses: Partial<Record<CommoditySymbol, RiskStatus>>): string {
  const s = evaluation.scenario;
  return [
    `${s.name}: annual probability ${fixed(s.probability * 100, 0)}% over a ${s.horizonMonths}-month horizon.`,
    impactSentence(evaluation),
    currentStateSentence(evaluation, statuses),
    portfolioSentence(evaluation),
    analogSentence(evaluation),
  ]
    .filter((t) => t !== '')
    .join(' ');
}

function impactSentence(evaluation: ScenarioEvaluation): string {
  const parts = evaluation.scenario.affectedCommodities.map((i) => `${i.symbol} ${fixed(i.priceImpactPct.low, 0)} to ${fixed(i.priceImpactPct.high, 0)}% (supply -${fixed(i.supplyReductionPct, 1)}%)`);
  return `Projected benchmark moves: ${parts.join('; ')}.`;
}

function currentStateSentence(evaluation: ScenarioEvaluation, statuses: Partial<Record<CommoditySymbol, RiskStatus>>): string {
  const elevated = evaluation.scenario.affectedCommodities.map((i) => ({ symbol: i.symbol, status: statuses[i.symbol] })).filter((e) => e.status === 'RED' || e.status === 'YELLOW');
  if (elevated.length === 0) return 'None of the affected commodities is at elevated climate risk today.';
  return `Already at elevated climate risk today: ${elevated.map((e) => `${e.symbol} (${e.status})`).join(', ')}.`;
}

function portfolioSentence(evaluation: ScenarioEvaluation): string {
  const p = evaluation.portfolio;
  if (p.totalNotionalUsd <= 0) return '';
  if (p.affectedNotionalUsd <= 0) return `None of the ${usd(p.totalNotionalUsd)} of positions is in an affected commodity.`;
  return (
    `${usd(p.affectedNotionalUsd)} of the ${usd(p.totalNotionalUsd)} of positions is exposed; the projected price impact is ` +
    `${usd(p.priceImpactUsd.low)} to ${usd(p.priceImpactUsd.high)} (${fixed(p.priceImpactPct.low, 2)} to ${fixed(p.priceImpactPct.high, 2)}% of notional).`
  );
}

function analogSentence(evaluation: ScenarioEvaluation): string {
  const analog = evaluation.scenario.historicalAnalogs[0];
  return analog === undefined ? '' : `Closest analog: ${analog.event} (${analog.period}): ${analog.observed}`;
}

function unreachable(value: never): never {
  throw new Error(`unhandled outlook basis: ${String(value)}`);
}
