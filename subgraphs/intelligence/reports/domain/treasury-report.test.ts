import { describe, expect, it } from 'vitest';
import parametersJson from '../../data/parameters/treasury-report.json' with { type: 'json' };
import { buildTreasuryReport, exceptionShares, type TreasuryReportParameters, treasuryRiskLevel, type TreasurySummaryInputs } from './index.js';

const parameters = parametersJson as TreasuryReportParameters;
const NOW = new Date('2026-11-22T12:00:00.000Z');

/** A month of 1000 payments with `exceptions` of them blocked or failed, and the agent's 100 decisions against `holds` holds. */
function month(exceptions: number, holds: number | null = 0): TreasurySummaryInputs {
  return {
    period: '2026-10',
    from: '2026-10-01T00:00:00.000Z',
    to: '2026-11-01T00:00:00.000Z',
    disclosure: { minimumCount: 10, minimumContributors: 3, maxDominantSharePct: 75, withheldCells: 0 },
    settlement: { payments: 1000, settled: 1000 - exceptions, blocked: 0, failed: exceptions, pending: 0, settledVolumeUsd: '1000000.00', meanSecondsToSettle: 40 },
    corridors: [{ corridor: 'EUR/USDC', payments: 1000, settled: 1000 - exceptions, settlementRatePct: (1000 - exceptions) / 10, settledVolumeUsd: '1000000.00', meanSecondsToSettle: 40 }],
    withheldCorridors: 0,
    automatedDecisions: { settlements: { decisions: 100, settled: 100, blocked: 0, failed: 0, pending: 0 }, holds: { holds, held: holds, released: 0, dismissed: 0 }, violatedRules: [] },
  };
}

describe('treasuryRiskLevel: the exception share of the month against the ladder', () => {
  it.each([
    [200, 'HIGH'],
    [199, 'ELEVATED'],
    [100, 'ELEVATED'],
    [99, 'MODERATE'],
    [50, 'MODERATE'],
    [49, 'LOW'],
  ])('%s of 1000 payments blocked or failed: %s', (exceptions, level) => {
    expect(treasuryRiskLevel(month(exceptions), parameters)).toBe(level);
  });

  it("the held share of the agent's decisions counts too: 25 holds against 100 decisions = 20%, HIGH", () => {
    expect(exceptionShares(month(0, 25))).toEqual({ payments: 0, agent: 20 });
    expect(treasuryRiskLevel(month(0, 25), parameters)).toBe('HIGH');
  });

  it('withheld shares: MODERATE when the month had payments, LOW for an empty month', () => {
    const withheld = { ...month(0), settlement: { ...month(0).settlement, failed: null } };
    withheld.automatedDecisions = { ...withheld.automatedDecisions, holds: { holds: null, held: null, released: null, dismissed: null } };
    expect(treasuryRiskLevel(withheld, parameters)).toBe('MODERATE');
    const empty = { ...withheld, settlement: { ...withheld.settlement, payments: 0 } };
    expect(treasuryRiskLevel(empty, parameters)).toBe('LOW');
  });
});

describe('buildTreasuryReport', () => {
  it('carries the period asked, the summary as data, and says withheld figures are withheld (PARTIAL)', () => {
    const summary = { ...month(120), disclosure: { ...month(120).disclosure, withheldCells: 2 }, withheldCorridors: 1 };
    const report = buildTreasuryReport(summary, NOW, 'rule-based', parameters, ['payments']);
    expect(report).toMatchObject({ reportType: 'treasury', period: '2026-10', generatedAt: NOW.toISOString(), data: { summary }, sources: ['payments'] });
    expect(report.synthesis).toMatchObject({ riskLevel: 'ELEVATED', dataQuality: 'PARTIAL', recommendations: parameters.recommendations.ELEVATED });
    expect(report.synthesis.narrative['Corridor performance']).toBe('EUR/USDC: 1000 payments, settlement rate 88%, 1000000.00 USD settled; 1 more withheld.');
    expect(buildTreasuryReport(month(0), NOW, 'rule-based', parameters, []).synthesis.dataQuality).toBe('LIVE');
  });
});
