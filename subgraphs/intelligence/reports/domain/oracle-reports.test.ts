import { describe, expect, it } from 'vitest';
import { buildEsgReport, buildMacroReport, esgRiskLevel, macroRiskLevel, ninetyDayOutlook } from './oracle-reports.js';

describe("the macro and ESG reports' rules (decision 0038)", () => {
  it('macro risk: peg alert CRITICAL; < 60 HIGH; < 75 ELEVATED; < 90 or an alert MODERATE; else LOW', () => {
    expect(macroRiskLevel(95, true, 0)).toBe('CRITICAL');
    expect([macroRiskLevel(59.9, false, 0), macroRiskLevel(60, false, 0), macroRiskLevel(74.9, false, 0), macroRiskLevel(75, false, 0)]).toEqual(['HIGH', 'ELEVATED', 'ELEVATED', 'MODERATE']);
    expect([macroRiskLevel(89.9, false, 0), macroRiskLevel(90, false, 0), macroRiskLevel(90, false, 1)]).toEqual(['MODERATE', 'LOW', 'MODERATE']);
  });
  it('ESG risk from the score: 70 LOW, 50 MODERATE, 30 ELEVATED, below HIGH', () => {
    expect([esgRiskLevel(70), esgRiskLevel(69.9), esgRiskLevel(50), esgRiskLevel(49.9), esgRiskLevel(30), esgRiskLevel(29.9)]).toEqual(['LOW', 'MODERATE', 'MODERATE', 'ELEVATED', 'ELEVATED', 'HIGH']);
  });
  it('the outlook reads the history newest first', () => {
    expect(
      ninetyDayOutlook('STABLE', [
        { timestamp: 2, stabilityScore: 90, overall: 'stable' },
        { timestamp: 1, stabilityScore: 80, overall: 'caution' },
      ]),
    ).toBe('USD structural outlook STABLE; the stability score is rising over the recorded runs.');
    expect(ninetyDayOutlook('UNCERTAIN', null)).toContain('too few runs');
  });
  it('a report without its oracle says so and is PARTIAL, with no figure made up', () => {
    const macro = buildMacroReport({ reliability: null, history: [], sources: [] }, new Date('2026-11-22T12:00:00Z'), 'm');
    expect(macro.synthesis).toMatchObject({ dataQuality: 'PARTIAL', keyFindings: [] });
    const esg = buildEsgReport({ rail: null, entity: null, subject: { address: '0xabc' }, sources: [] }, new Date('2026-11-22T12:00:00Z'), 'm');
    expect(esg.synthesis).toMatchObject({ dataQuality: 'PARTIAL', summary: 'No ESG figures were available for 0xabc.' });
  });
});
