// The climate report (Document 1 §2: physical risk, commodity stress, climate outlook), composed by
// rules from the commodity forecast's answers. The rules are in docs/decisions/0013.

import type { DataQuality, Report, ReportSynthesis, RiskLevel, SourceReference } from './types.js';

type Status = 'GREEN' | 'YELLOW' | 'RED';

/** The forecast answers a climate report is built from (the forecast service's public shapes). */
export interface ClimateInputs {
  heatCheck: { asOf: string; dataQuality: DataQuality; commodities: ReadonlyArray<{ symbol: string; status: Status; signal: string }> };
  regions: ReadonlyArray<{ region: string; commodities: readonly string[]; climateRiskScore: number; activeAlerts: number; primaryThreat: string; outlook: string }>;
  calendar: ReadonlyArray<{ month: string; monthName: string; events: readonly string[]; commoditiesAtRisk: readonly string[]; historicalSeverity: 'LOW' | 'MODERATE' | 'HIGH' }>;
  sources: readonly SourceReference[];
}

/** How many regions and calendar months the report's data and text carry. */
export const TOP_REGIONS = 5;
export const OUTLOOK_MONTHS = 3;
const MAX_COMMODITY_FINDINGS = 5;

/**
 * Risk level from the commodity statuses (LOW no material signals ... CRITICAL system-level event):
 * a majority of the tracked commodities RED is a system-level event; three RED needs immediate
 * attention; one RED calls for action; any YELLOW is worth monitoring.
 */
export function climateRiskLevel(statuses: readonly Status[]): RiskLevel {
  const red = statuses.filter((status) => status === 'RED').length;
  const yellow = statuses.filter((status) => status === 'YELLOW').length;
  if (red * 2 > statuses.length) return 'CRITICAL';
  if (red >= 3) return 'HIGH';
  if (red >= 1) return 'ELEVATED';
  if (yellow >= 1) return 'MODERATE';
  return 'LOW';
}

const list = (items: readonly string[]) => (items.length === 0 ? 'none' : items.join(', '));

/** "USDA (https://...), as of 2026-10-01": one source as the envelope's `sources` lists it. */
export function describeSource(reference: SourceReference): string {
  return `${reference.source} (${reference.url}), as of ${reference.asOf}`;
}

export type ClimateReportData = {
  heatCheck: ClimateInputs['heatCheck'];
  regions: ClimateInputs['regions'];
  calendar: ClimateInputs['calendar'];
};

/** The report with its rule-based synthesis; `model` names the rule-based synthesiser until a language model rewords the summary. */
export function buildClimateReport(inputs: ClimateInputs, generatedAt: Date, model: string): Report<ClimateReportData> {
  const { heatCheck } = inputs;
  const regions = inputs.regions.slice(0, TOP_REGIONS);
  const calendar = inputs.calendar.slice(0, OUTLOOK_MONTHS);
  const byStatus = (status: Status) => heatCheck.commodities.filter((entry) => entry.status === status);
  const [red, yellow] = [byStatus('RED'), byStatus('YELLOW')];
  const riskLevel = climateRiskLevel(heatCheck.commodities.map((entry) => entry.status));
  const top = regions[0];
  const deteriorating = regions.filter((region) => region.outlook === 'DETERIORATING');
  const highMonths = calendar.filter((month) => month.historicalSeverity === 'HIGH');

  const summary =
    `Climate risk ${riskLevel}: ${red.length} of ${heatCheck.commodities.length} commodities RED and ${yellow.length} YELLOW` +
    (top ? `; highest regional risk in ${top.region} (${top.climateRiskScore}/100, ${top.primaryThreat})` : '') +
    `. Data ${heatCheck.dataQuality} as of ${heatCheck.asOf.slice(0, 10)}.`;

  const keyFindings = [
    ...[...red, ...yellow].slice(0, MAX_COMMODITY_FINDINGS).map((entry) => `${entry.symbol} ${entry.status}: ${entry.signal}`),
    ...(top
      ? [`${top.region} carries the highest climate risk score, ${top.climateRiskScore}/100 (primary threat ${top.primaryThreat}, ${top.activeAlerts} active alerts, outlook ${top.outlook}).`]
      : []),
    ...highMonths.map((month) => `${month.monthName} ${month.month.slice(0, 4)} is historically a HIGH-severity month: ${list(month.events)} (at risk: ${list(month.commoditiesAtRisk)}).`),
  ];

  const narrative: Record<string, string> = {
    'Physical risk':
      regions.length === 0
        ? 'No production region has a current climate observation.'
        : `The ${regions.length} highest-risk production regions are ${regions.map((region) => `${region.region} (${region.climateRiskScore}/100, ${region.primaryThreat})`).join('; ')}. ` +
          `${deteriorating.length} of them have a deteriorating outlook${deteriorating.length ? `: ${list(deteriorating.map((region) => region.region))}` : ''}.`,
    'Commodity stress':
      `${red.length} commodities are RED (${list(red.map((entry) => entry.symbol))}), ${yellow.length} YELLOW (${list(yellow.map((entry) => entry.symbol))}) ` +
      `and ${heatCheck.commodities.length - red.length - yellow.length} GREEN.`,
    'Climate outlook': calendar
      .map((month) => `${month.monthName} ${month.month.slice(0, 4)}: ${month.historicalSeverity} historical severity; ${list(month.events)}; at risk ${list(month.commoditiesAtRisk)}.`)
      .join(' '),
  };

  const synthesis: ReportSynthesis = {
    summary,
    keyFindings,
    riskLevel,
    narrative,
    recommendations: climateRecommendations({ red, deteriorating, highMonths, dataQuality: heatCheck.dataQuality, asOf: heatCheck.asOf }),
    dataQuality: heatCheck.dataQuality,
    model,
  };
  const iso = generatedAt.toISOString();
  return {
    reportType: 'climate',
    period: iso.slice(0, 7),
    generatedAt: iso,
    synthesis,
    data: { heatCheck, regions, calendar },
    sources: inputs.sources.map(describeSource),
  };
}

function climateRecommendations(facts: {
  red: ReadonlyArray<{ symbol: string }>;
  deteriorating: ReadonlyArray<{ region: string }>;
  highMonths: ReadonlyArray<{ monthName: string; month: string; events: readonly string[] }>;
  dataQuality: DataQuality;
  asOf: string;
}): string[] {
  const recommendations: string[] = [];
  if (facts.red.length > 0) {
    recommendations.push(`Review exposure to ${list(facts.red.map((entry) => entry.symbol))}: hedge or shorten commodity-linked positions and payment terms.`);
  }
  if (facts.deteriorating.length > 0) {
    recommendations.push(`Monitor ${list(facts.deteriorating.map((region) => region.region))} weekly while their outlook deteriorates.`);
  }
  for (const month of facts.highMonths) {
    recommendations.push(`Plan settlement liquidity ahead of ${month.monthName} ${month.month.slice(0, 4)} (${list(month.events)}).`);
  }
  if (facts.dataQuality !== 'LIVE') {
    recommendations.push(`Treat the figures as ${facts.dataQuality.toLowerCase()}: the newest observation is of ${facts.asOf.slice(0, 10)}.`);
  }
  if (recommendations.length === 0) recommendations.push('No material climate signals: keep the standard monitoring cadence.');
  return recommendations;
}
