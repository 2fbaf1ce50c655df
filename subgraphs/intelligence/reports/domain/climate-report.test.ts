import { describe, expect, it } from 'vitest';
import { buildClimateReport, type ClimateInputs, climateRiskLevel } from './index.js';

type Status = 'GREEN' | 'YELLOW' | 'RED';
const statuses = (red: number, yellow: number, total = 11): Status[] => Array.from({ length: total }, (_, index): Status => (index < red ? 'RED' : index < red + yellow ? 'YELLOW' : 'GREEN'));

describe('climateRiskLevel', () => {
  it.each([
    { red: 0, yellow: 0, level: 'LOW' },
    { red: 0, yellow: 1, level: 'MODERATE' },
    { red: 0, yellow: 11, level: 'MODERATE' },
    { red: 1, yellow: 0, level: 'ELEVATED' },
    { red: 2, yellow: 9, level: 'ELEVATED' },
    { red: 3, yellow: 0, level: 'HIGH' },
    { red: 5, yellow: 6, level: 'HIGH' },
    { red: 6, yellow: 0, level: 'CRITICAL' },
    { red: 11, yellow: 0, level: 'CRITICAL' },
  ])('$red RED and $yellow YELLOW of 11: $level', ({ red, yellow, level }) => {
    expect(climateRiskLevel(statuses(red, yellow))).toBe(level);
  });
});

const inputs = (commodityStatuses: Status[]): ClimateInputs => ({
  heatCheck: {
    asOf: '2026-10-31T00:00:00.000Z',
    dataQuality: 'ESTIMATED',
    commodities: commodityStatuses.map((status, index) => ({ symbol: `C${index}`, status, signal: `signal ${index}` })),
  },
  regions: Array.from({ length: 8 }, (_, index) => ({
    region: `Region ${index}`,
    commodities: ['C0'],
    climateRiskScore: 90 - index * 5,
    activeAlerts: index,
    primaryThreat: 'drought',
    outlook: index % 2 === 0 ? 'DETERIORATING' : 'STABLE',
  })),
  calendar: ['2026-11', '2026-12', '2027-01', '2027-02'].map((month, index) => ({
    month,
    monthName: ['November', 'December', 'January', 'February'][index]!,
    events: [`event ${index}`],
    commoditiesAtRisk: ['C1'],
    historicalSeverity: index === 1 ? ('HIGH' as const) : ('LOW' as const),
  })),
  sources: [{ source: 'NOAA', url: 'https://www.noaa.gov', asOf: '2026-10-31' }],
});

describe('buildClimateReport', () => {
  const report = buildClimateReport(inputs(statuses(2, 3)), new Date('2026-11-22T12:00:00Z'), 'rule-based');

  it('fills the documented envelope from the forecast answers', () => {
    expect(report).toMatchObject({ reportType: 'climate', period: '2026-11', generatedAt: '2026-11-22T12:00:00.000Z', sources: ['NOAA (https://www.noaa.gov), as of 2026-10-31'] });
    expect(report.synthesis).toMatchObject({ riskLevel: 'ELEVATED', dataQuality: 'ESTIMATED', model: 'rule-based' });
    expect(report.synthesis.summary).toBe('Climate risk ELEVATED: 2 of 11 commodities RED and 3 YELLOW; highest regional risk in Region 0 (90/100, drought). Data ESTIMATED as of 2026-10-31.');
  });

  it('keeps the top five regions and the next three months as its data', () => {
    expect(report.data.regions.map((region) => region.region)).toEqual(['Region 0', 'Region 1', 'Region 2', 'Region 3', 'Region 4']);
    expect(report.data.calendar.map((month) => month.month)).toEqual(['2026-11', '2026-12', '2027-01']);
  });

  it('lists RED before YELLOW findings, then the top region and the HIGH-severity months', () => {
    expect(report.synthesis.keyFindings).toEqual([
      'C0 RED: signal 0',
      'C1 RED: signal 1',
      'C2 YELLOW: signal 2',
      'C3 YELLOW: signal 3',
      'C4 YELLOW: signal 4',
      'Region 0 carries the highest climate risk score, 90/100 (primary threat drought, 0 active alerts, outlook DETERIORATING).',
      'December 2026 is historically a HIGH-severity month: event 1 (at risk: C1).',
    ]);
  });

  it('narrates physical risk, commodity stress and the climate outlook', () => {
    expect(Object.keys(report.synthesis.narrative)).toEqual(['Physical risk', 'Commodity stress', 'Climate outlook']);
    expect(report.synthesis.narrative['Commodity stress']).toBe('2 commodities are RED (C0, C1), 3 YELLOW (C2, C3, C4) and 6 GREEN.');
    expect(report.synthesis.narrative['Physical risk']).toContain('3 of them have a deteriorating outlook: Region 0, Region 2, Region 4.');
  });

  it('recommends from the signals, and says when there are none', () => {
    expect(report.synthesis.recommendations).toEqual([
      'Review exposure to C0, C1: hedge or shorten commodity-linked positions and payment terms.',
      'Monitor Region 0, Region 2, Region 4 weekly while their outlook deteriorates.',
      'Plan settlement liquidity ahead of December 2026 (event 1).',
      'Treat the figures as estimated: the newest observation is of 2026-10-31.',
    ]);
    const calm = inputs(statuses(0, 0));
    const quiet = buildClimateReport(
      { ...calm, heatCheck: { ...calm.heatCheck, dataQuality: 'LIVE' }, regions: calm.regions.map((region) => ({ ...region, outlook: 'STABLE' })), calendar: [] },
      new Date('2026-11-22T12:00:00Z'),
      'rule-based',
    );
    expect(quiet.synthesis.riskLevel).toBe('LOW');
    expect(quiet.synthesis.recommendations).toEqual(['No material climate signals: keep the standard monitoring cadence.']);
  });
});
