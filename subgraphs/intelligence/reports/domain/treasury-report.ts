// The treasury report (Document 1 §2 "treasury: settlement volume, corridor performance, AI decision
// audit"; decision 0066), composed by rules from the payments subgraph's aggregate of the month.
// Anonymous payers buy it, so it carries only what that aggregate publishes: no institution's
// payments, every withheld cell said to be withheld. Pure.

import type { LadderRule } from '../../domain/index.js';
import { climbLadder } from '../../domain/index.js';
import { reportEnvelope } from './oracle-reports.js';
import type { DataQuality, Report, RiskLevel } from './types.js';

type Count = number | null;
type StatusCounts = { settled: Count; blocked: Count; failed: Count; pending: Count };

/** GET /integration/treasury-summary of the payments subgraph: null is a cell withheld. */
export interface TreasurySummaryInputs {
  period: string;
  from: string;
  to: string;
  disclosure: { minimumCount: number; minimumContributors: number; maxDominantSharePct: number; withheldCells: number };
  settlement: StatusCounts & { payments: Count; settledVolumeUsd: string | null; meanSecondsToSettle: number | null };
  corridors: Array<{ corridor: string; payments: number; settled: Count; settlementRatePct: number | null; settledVolumeUsd: string | null; meanSecondsToSettle: number | null }>;
  withheldCorridors: number;
  automatedDecisions: {
    settlements: StatusCounts & { decisions: Count };
    holds: { holds: Count; held: Count; released: Count; dismissed: Count };
    violatedRules: Array<{ rule: string; holds: number }>;
  };
}

export interface TreasuryReportParameters {
  exceptionSharePct: LadderRule<RiskLevel>[];
  withheldRiskLevel: RiskLevel;
  recommendations: Record<RiskLevel, string[]>;
}

const RISK_ORDER: readonly RiskLevel[] = ['LOW', 'MODERATE', 'ELEVATED', 'HIGH', 'CRITICAL'];
const shown = (value: Count | string | undefined) => (value === null || value === undefined ? 'withheld' : String(value));
const round1 = (value: number) => Math.round(value * 10) / 10;

/** Blocked and failed payments in percent of the month's, and held settlements in percent of the agent's decisions; undefined where a figure is withheld or nothing happened. */
export function exceptionShares(summary: TreasurySummaryInputs): { payments: number | undefined; agent: number | undefined } {
  const { payments, blocked, failed } = summary.settlement;
  const paymentShare = payments !== null && blocked !== null && failed !== null && payments > 0 ? round1(((blocked + failed) / payments) * 100) : undefined;
  const { decisions } = summary.automatedDecisions.settlements;
  const { holds } = summary.automatedDecisions.holds;
  const agentShare = decisions !== null && holds !== null && decisions + holds > 0 ? round1((holds / (decisions + holds)) * 100) : undefined;
  return { payments: paymentShare, agent: agentShare };
}

/** The higher of the two shares' levels; withheldRiskLevel when the month had activity but neither share can be read. */
export function treasuryRiskLevel(summary: TreasurySummaryInputs, parameters: TreasuryReportParameters): RiskLevel {
  const shares = exceptionShares(summary);
  const levels = [shares.payments, shares.agent].filter((share): share is number => share !== undefined).map((share) => climbLadder(parameters.exceptionSharePct, share));
  if (levels.length === 0) return summary.settlement.payments === 0 ? 'LOW' : parameters.withheldRiskLevel;
  return levels.reduce((high, level) => (RISK_ORDER.indexOf(level) > RISK_ORDER.indexOf(high) ? level : high));
}

function narrativeOf(summary: TreasurySummaryInputs): Record<string, string> {
  const { settlement, automatedDecisions: agent, disclosure } = summary;
  const corridors = summary.corridors.map((row) => `${row.corridor}: ${row.payments} payments, settlement rate ${shown(row.settlementRatePct)}%, ${shown(row.settledVolumeUsd)} USD settled`);
  return {
    'Settlement volume': `${shown(settlement.payments)} payments submitted in ${summary.period}: ${shown(settlement.settled)} settled (${shown(settlement.settledVolumeUsd)} USD, mean ${shown(settlement.meanSecondsToSettle)} s to settle), ${shown(settlement.blocked)} blocked, ${shown(settlement.failed)} failed, ${shown(settlement.pending)} pending.`,
    'Corridor performance':
      corridors.length === 0
        ? `No corridor can be shown this month${summary.withheldCorridors > 0 ? ` (${summary.withheldCorridors} withheld)` : ''}.`
        : `${corridors.join('; ')}${summary.withheldCorridors > 0 ? `; ${summary.withheldCorridors} more withheld` : ''}.`,
    'Automated decisions': `The settlement agent decided ${shown(agent.settlements.decisions)} settlements (${shown(agent.settlements.settled)} settled, ${shown(agent.settlements.blocked)} blocked, ${shown(agent.settlements.failed)} failed) and held ${shown(agent.holds.holds)} for an operator (${shown(agent.holds.released)} released, ${shown(agent.holds.dismissed)} dismissed, ${shown(agent.holds.held)} waiting)${agent.violatedRules.length > 0 ? `; rules that held them: ${agent.violatedRules.map((rule) => `${rule.rule} ${rule.holds}`).join(', ')}` : ''}.`,
    Disclosure: `Aggregates only: a figure is shown when at least ${disclosure.minimumCount} payments from at least ${disclosure.minimumContributors} institutions make it and none holds more than ${disclosure.maxDominantSharePct}% of it; ${disclosure.withheldCells} figures are withheld this month.`,
  };
}

export function buildTreasuryReport(summary: TreasurySummaryInputs, now: Date, model: string, parameters: TreasuryReportParameters, sources: string[]): Report {
  const riskLevel = treasuryRiskLevel(summary, parameters);
  const shares = exceptionShares(summary);
  // Withheld figures are data the report does not have: PARTIAL, as when a source does not answer.
  const dataQuality: DataQuality = summary.disclosure.withheldCells > 0 ? 'PARTIAL' : 'LIVE';
  const findings = [
    `Settled volume ${shown(summary.settlement.settledVolumeUsd)} USD over ${shown(summary.settlement.settled)} payments`,
    `Exceptions (blocked and failed): ${shares.payments === undefined ? 'withheld' : `${shares.payments}%`} of the month's payments`,
    `Held by the settlement agent's mandates: ${shares.agent === undefined ? 'withheld' : `${shares.agent}%`} of its decisions`,
    ...summary.corridors.map((row) => `${row.corridor}: settlement rate ${shown(row.settlementRatePct)}%`),
  ];
  return reportEnvelope(
    'treasury',
    now,
    {
      summary: `Treasury ${summary.period}: ${shown(summary.settlement.payments)} payments, ${shown(summary.settlement.settledVolumeUsd)} USD settled across ${summary.corridors.length + summary.withheldCorridors} corridors; risk ${riskLevel}.`,
      keyFindings: findings,
      riskLevel,
      narrative: narrativeOf(summary),
      recommendations: parameters.recommendations[riskLevel],
      dataQuality,
      model,
    },
    { summary },
    sources,
    summary.period,
  );
}
