// The macro and ESG reports (Document 1 §2; decision 0038), composed by rules from the stability and
// ESG oracles' public answers (and, for ESG, the compliance oracle's entity score). Pure.

import type { DataQuality, Report, RiskLevel } from './types.js';

/** What the macro report reads of GET /stability/reliability and /api/history. */
export interface MacroInputs {
  reliability: {
    isHealthy: boolean;
    stability: { currentScore: number; averageScore24h: number };
    peg: { deviationBps: number | null; deviationThresholdBps: number };
    confidence: { score: number };
    usdHealth: {
      score: number | null;
      structuralOutlook: string;
      usdStrengthConsensus: string;
      confidenceInOfficialData: string;
      yieldCurve: { state: string; spread: number | null };
      breakevenInflation: { value: number | null; elevated: boolean };
      fedBalanceSheet: { trend: string; trillions: number | null };
      gold: { priceUsd: number | null; debasementSignal: boolean };
      alerts: string[];
      divergenceAlerts: string[];
    };
    dataQuality: DataQuality;
    asOf: string;
  } | null;
  history: ReadonlyArray<{ timestamp: number; stabilityScore: number; overall: string }> | null;
  sources: string[];
}

/** The report envelope of Document 1 §2; `period` is the month of `now` unless the report covers another. */
export function reportEnvelope(reportType: string, now: Date, synthesis: Report['synthesis'], data: Record<string, unknown>, sources: string[], period = now.toISOString().slice(0, 7)): Report {
  return { reportType, period, generatedAt: now.toISOString(), synthesis, data, sources };
}

/** Peg alert: CRITICAL; unstable under 60: HIGH; unstable: ELEVATED; caution or any USD alert: MODERATE; else LOW. */
export function macroRiskLevel(score: number, pegAlert: boolean, alertCount: number): RiskLevel {
  if (pegAlert) return 'CRITICAL';
  if (score < 60) return 'HIGH';
  if (score < 75) return 'ELEVATED';
  if (score < 90 || alertCount > 0) return 'MODERATE';
  return 'LOW';
}

/** The macro regime in words: the curve, inflation against target, and the balance sheet. */
export function macroRegime(usd: NonNullable<MacroInputs['reliability']>['usdHealth']): string {
  const curve = usd.yieldCurve.state === 'INVERTED' ? 'an inverted curve (recession signal)' : usd.yieldCurve.state === 'FLAT' ? 'a flat curve' : 'a normal curve';
  const inflation = usd.breakevenInflation.elevated ? 'elevated inflation expectations' : 'anchored inflation expectations';
  const balance =
    usd.fedBalanceSheet.trend === 'EXPANDING'
      ? 'an expanding central-bank balance sheet'
      : usd.fedBalanceSheet.trend === 'CONTRACTING'
        ? 'a contracting central-bank balance sheet'
        : 'a stable central-bank balance sheet';
  return `${curve}, ${inflation} and ${balance}`;
}

/** 90-day outlook: the USD structural outlook, and the direction of the recorded stability scores. */
export function ninetyDayOutlook(outlook: string, history: MacroInputs['history']): string {
  const scores = (history ?? []).map((entry) => entry.stabilityScore);
  const trend =
    scores.length < 2
      ? 'too few runs to read a trend'
      : scores[0]! > scores.at(-1)!
        ? 'rising over the recorded runs'
        : scores[0]! < scores.at(-1)!
          ? 'falling over the recorded runs'
          : 'flat over the recorded runs';
  return `USD structural outlook ${outlook}; the stability score is ${trend}.`;
}

export function buildMacroReport(inputs: MacroInputs, now: Date, model: string): Report {
  const reliability = inputs.reliability;
  if (!reliability) {
    return reportEnvelope(
      'macro',
      now,
      {
        summary: 'The stability oracle did not answer: no macro figures are available for this report.',
        keyFindings: [],
        riskLevel: 'MODERATE',
        narrative: { 'Data availability': 'The stability oracle was unavailable when this report was generated; retry after its next run.' },
        recommendations: ['Re-check GET /stability/reliability before large settlements'],
        dataQuality: 'PARTIAL',
        model,
      },
      { reliability: null, history: inputs.history },
      inputs.sources,
    );
  }
  const usd = reliability.usdHealth;
  const pegAlert = reliability.peg.deviationBps !== null && reliability.peg.deviationBps >= reliability.peg.deviationThresholdBps;
  const score = reliability.stability.currentScore;
  const alerts = [...usd.alerts, ...usd.divergenceAlerts];
  const riskLevel = macroRiskLevel(score, pegAlert, alerts.length);
  const regime = macroRegime(usd);
  const outlook = ninetyDayOutlook(usd.structuralOutlook, inputs.history);
  const dataQuality: DataQuality = inputs.history === null ? 'PARTIAL' : reliability.dataQuality;
  return reportEnvelope(
    'macro',
    now,
    {
      summary: `Stability score ${score} (24-hour average ${reliability.stability.averageScore24h}); USD structural health ${usd.score ?? 'not computed'}, outlook ${usd.structuralOutlook}; regime: ${regime}.`,
      keyFindings: [
        `Yield curve ${usd.yieldCurve.state} (10y-2y ${usd.yieldCurve.spread ?? 'n/a'})`,
        `10-year breakeven ${usd.breakevenInflation.value ?? 'n/a'}%${usd.breakevenInflation.elevated ? ' (elevated)' : ''}`,
        `Fed balance sheet ${usd.fedBalanceSheet.trillions ?? 'n/a'} trillion, ${usd.fedBalanceSheet.trend}`,
        `Gold ${usd.gold.priceUsd ?? 'n/a'} USD${usd.gold.debasementSignal ? ' (debasement signal)' : ''}`,
        `USD strength consensus ${usd.usdStrengthConsensus}; confidence in official data ${usd.confidenceInOfficialData}`,
        ...alerts,
      ],
      riskLevel,
      narrative: {
        'Stability score': `The rail's stability score is ${score} with ${reliability.confidence.score}/100 confidence in its inputs; the oracle is ${reliability.isHealthy ? 'healthy' : 'not fully healthy'}.`,
        'Macro regime': `The US macro regime shows ${regime}.`,
        '90-day outlook': outlook,
        Peg:
          reliability.peg.deviationBps === null
            ? 'The peg deviation was not measured (no live stablecoin prices).'
            : `Peg deviation ${reliability.peg.deviationBps} bps against a ${reliability.peg.deviationThresholdBps} bps threshold.`,
      },
      recommendations:
        riskLevel === 'CRITICAL'
          ? ['Hold settlements until the peg is back under 50 bps']
          : riskLevel === 'HIGH' || riskLevel === 'ELEVATED'
            ? ['Defer large settlements', 'Re-check GET /stability/reliability before each settlement']
            : riskLevel === 'MODERATE'
              ? ['Proceed with caution; review the active alerts']
              : ['Normal operations'],
      dataQuality,
      model,
    },
    { reliability, history: inputs.history },
    inputs.sources,
  );
}

/** What the ESG report reads: the rail's scores (GET /esg/esg-score) and, for an entity, compliance's entity score. */
export interface EsgReportInputs {
  rail: { scores: { environmental: number; social: number; governance: number; average: number }; fee: { bps: number; tier: string }; dataQuality: DataQuality; asOf: string } | null;
  entity: { lei: string; entityName: string; composite: number; environmental: number; social: number; governance: number; feeTier: string; coverage: string } | null;
  subject: { lei?: string; address?: string };
  sources: string[];
}

/** From the entity's composite (else the rail's average): ≥ 70 LOW, 50-69 MODERATE, 30-49 ELEVATED, < 30 HIGH. */
export function esgRiskLevel(score: number): RiskLevel {
  if (score >= 70) return 'LOW';
  if (score >= 50) return 'MODERATE';
  if (score >= 30) return 'ELEVATED';
  return 'HIGH';
}

export function buildEsgReport(inputs: EsgReportInputs, now: Date, model: string): Report {
  const { rail, entity } = inputs;
  const subject = inputs.subject.lei ?? inputs.subject.address ?? 'the rail';
  const score = entity?.composite ?? rail?.scores.average ?? null;
  const findings = [
    ...(entity
      ? [
          `${entity.entityName} (${entity.lei}): composite ${entity.composite} (E ${entity.environmental}, S ${entity.social}, G ${entity.governance}), fee tier ${entity.feeTier}, coverage ${entity.coverage}`,
        ]
      : [`No entity ESG score for ${subject}`]),
    ...(rail
      ? [`The rail: E ${rail.scores.environmental}, S ${rail.scores.social}, G ${rail.scores.governance}, average ${rail.scores.average}; ESG fee ${rail.fee.bps} bps (${rail.fee.tier})`]
      : ['The ESG oracle did not answer']),
  ];
  const dataQuality: DataQuality = !rail || !entity ? 'PARTIAL' : rail.dataQuality === 'LIVE' && entity.coverage === 'FULL' ? 'LIVE' : 'PARTIAL';
  return reportEnvelope(
    'esg',
    now,
    {
      summary:
        score === null
          ? `No ESG figures were available for ${subject}.`
          : `ESG score ${score} for ${entity ? entity.entityName : subject}; the rail's own average is ${rail?.scores.average ?? 'unavailable'}.`,
      keyFindings: findings,
      riskLevel: score === null ? 'MODERATE' : esgRiskLevel(score),
      narrative: {
        Counterparty: entity
          ? `Entity ESG by the compliance oracle (methodology entity-esg/1), coverage ${entity.coverage}.`
          : 'The compliance oracle holds no entity ESG score for this subject (an unregistered wallet, or a wallet without an LEI).',
        Rail: rail ? `The rail's ESG over its corridor jurisdictions (rail-esg/1), data ${rail.dataQuality}, as of ${rail.asOf}.` : 'The ESG oracle was unavailable.',
      },
      recommendations:
        score === null
          ? ['Register the counterparty with its LEI to obtain an entity ESG score']
          : score < 50
            ? ["Review the counterparty's governance inputs before large settlements"]
            : ['No ESG action required'],
      dataQuality,
      model,
    },
    { subject: inputs.subject, entity, rail },
    inputs.sources,
  );
}
