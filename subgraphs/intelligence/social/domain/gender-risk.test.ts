import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import parametersJson from '../../data/parameters/gender-risk.json' with { type: 'json' };
import incomeGroupsJson from '../../data/social/reference/income-groups.json' with { type: 'json' };
import { climbLadder, seriesAsOf } from '../../domain/index.js';
import { snapshotWith, snapshotWithout, testSeries } from '../../market/testing.js';
import { computeGenderRisk, gdpDragPct, type GenderRiskParameters, type IncomeGroupTable, sahmGap, scaleScore, weightedScore } from './index.js';

const parameters = parametersJson as unknown as GenderRiskParameters;
const incomeGroups = incomeGroupsJson as IncomeGroupTable;
const TODAY = '2026-11-26';
const compute = (series = snapshotSeries()) => computeGenderRisk(seriesAsOf(series, TODAY), incomeGroups, parameters);

describe('the status ladders (spec §3), each at its boundaries', () => {
  it.each([
    [74.9, 'HIGH'],
    [75, 'CRITICAL'],
    [75.1, 'CRITICAL'],
    [59.9, 'ELEVATED'],
    [60, 'HIGH'],
    [44.9, 'BUILDING'],
    [45, 'ELEVATED'],
    [29.9, 'LOW'],
    [30, 'BUILDING'],
    [0, 'LOW'],
  ])('gender risk %s is %s', (score, status) => {
    expect(climbLadder(parameters.riskStatus, score)).toBe(status);
  });

  it.each([
    [74.9, 'EMERGING'],
    [75, 'STRONG'],
    [59.9, 'MODERATE'],
    [60, 'EMERGING'],
    [44.9, 'LIMITED'],
    [45, 'MODERATE'],
    [29.9, 'CONSTRAINED'],
    [30, 'LIMITED'],
    [100, 'STRONG'],
  ])('gender opportunity %s is %s', (score, status) => {
    expect(climbLadder(parameters.opportunityStatus, score)).toBe(status);
  });

  it.each([
    [0.49, 'ELEVATED'],
    [0.5, 'HIGH'],
    [0.51, 'HIGH'],
    [0.29, 'LOW'],
    [0.3, 'ELEVATED'],
  ])('US stress feedback at a Sahm gap of %s is %s', (gap, risk) => {
    expect(climbLadder(parameters.usStress.feedbackRisk, gap)).toBe(risk);
  });
});

describe('scores', () => {
  it('scales linearly, reversed and logarithmically, clamped to 0-100', () => {
    expect(scaleScore(12.5, parameters.scales.violence)).toBe(50);
    expect(scaleScore(40, parameters.scales.violence)).toBe(100);
    expect(scaleScore(0, parameters.scales.representationGap)).toBe(100);
    expect(scaleScore(50, parameters.scales.representationGap)).toBe(0);
    expect(scaleScore(60000, parameters.scales.incomeBuffer)).toBe(0);
    expect(scaleScore(1000, parameters.scales.incomeBuffer)).toBeCloseTo(100, 9);
  });

  it('renormalises the weights over the components present', () => {
    expect(weightedScore({ a: 80 }, { a: 0.25, b: 0.75 })).toBe(80);
    expect(weightedScore({ a: 80, b: 40 }, { a: 0.25, b: 0.75 })).toBe(50);
    expect(weightedScore({}, { a: 1 })).toBeUndefined();
  });

  it('weights of each score sum to 1', () => {
    const sum = (weights: Record<string, number>) => Object.values(weights).reduce((total, weight) => total + weight, 0);
    expect(sum(parameters.risk.weights)).toBeCloseTo(1, 12);
    expect(sum(parameters.opportunity.weights)).toBeCloseTo(1, 12);
    expect(sum(parameters.gdpDrag.weights)).toBeCloseTo(1, 12);
  });
});

describe('the GDP drag', () => {
  it('lies at the floor with no exposure, at the ceiling with full exposure, and within 1.3-3.7 between', () => {
    expect(gdpDragPct({ violence: 0, labourGap: 0 }, parameters.gdpDrag)).toBe(1.3);
    expect(gdpDragPct({ violence: 100, labourGap: 100 }, parameters.gdpDrag)).toBeCloseTo(3.7, 12);
    expect(gdpDragPct({}, parameters.gdpDrag)).toBeUndefined();
    for (let violence = 0; violence <= 100; violence += 10)
      for (let gap = 0; gap <= 100; gap += 10) {
        const drag = gdpDragPct({ violence, labourGap: gap }, parameters.gdpDrag)!;
        expect(drag).toBeGreaterThanOrEqual(1.3);
        expect(drag).toBeLessThanOrEqual(3.7);
      }
  });

  it('for every country of the shipped data, and the global figure, lies within the spec range', () => {
    const { body } = compute();
    for (const profile of body.countryProfiles) {
      expect(profile.estimatedGDPDragPct, profile.iso3).not.toBeNull();
      expect(profile.estimatedGDPDragPct!).toBeGreaterThanOrEqual(1.3);
      expect(profile.estimatedGDPDragPct!).toBeLessThanOrEqual(3.7);
    }
    expect(body.financialCorrelations.gdpDrag).toMatchObject({ rangeMin: 1.3, rangeMax: 3.7 });
    expect(body.financialCorrelations.gdpDrag.globalEstimatePct!).toBeGreaterThanOrEqual(1.3);
    expect(body.financialCorrelations.gdpDrag.globalEstimatePct!).toBeLessThanOrEqual(3.7);
  });
});

describe('the Sahm gap', () => {
  it('is the latest 3-month mean minus the lowest 3-month mean of the previous 12 months', () => {
    const flat = Array.from({ length: 15 }, () => 4);
    expect(sahmGap(flat, 3, 12)).toBe(0);
    expect(sahmGap([...flat, 4.5, 4.5, 4.5], 3, 12)).toBeCloseTo(0.5, 12);
    expect(sahmGap([4, 4], 3, 12)).toBeUndefined();
  });
});

describe('over the shipped data', () => {
  it('profiles 18 countries, 3 in each of the 6 regions, every documented figure present', () => {
    const { body } = compute();
    expect(body.countryProfiles).toHaveLength(18);
    for (const region of parameters.regions) expect(body.countryProfiles.filter((profile) => profile.region === region)).toHaveLength(3);
    for (const profile of body.countryProfiles) {
      for (const field of ['ipvPrevalence', 'womenLawIndex', 'femaleLFPR', 'maleLFPR', 'lfprGenderGap', 'gbvRiskScore', 'opportunityScore'] as const)
        expect(profile[field], `${profile.iso3} ${field}`).toEqual(expect.any(Number));
      expect(profile.lfprGenderGap).toBeCloseTo(profile.maleLFPR! - profile.femaleLFPR!, 0);
      expect(profile.riskStatus).toBe(climbLadder(parameters.riskStatus, profile.gbvRiskScore!));
      expect(profile.opportunityStatus).toBe(climbLadder(parameters.opportunityStatus, profile.opportunityScore!));
    }
  });

  it('reads India as shipped: WHO 2018 past-12-month IPV 15.9%, WBL 2020 74.4', () => {
    const india = compute().body.countryProfiles.find((profile) => profile.iso3 === 'IND')!;
    expect(india).toMatchObject({ ipvPrevalence: 15.9, womenLawIndex: 74.4, incomeGroup: 'Lower middle income', region: 'North America & South Asia' });
  });

  it('is PARTIAL by name: consumer sentiment is not licensed for redistribution', () => {
    const answer = compute();
    expect(answer.missing).toEqual([parameters.usStress.consumerSentiment.missing]);
    expect(answer.body.financialCorrelations.economicStressFeedback.usConsumerSentiment).toBeNull();
  });

  it('names a country input that is missing and scores the country over the rest', () => {
    const answer = compute(snapshotWithout('who_ipv_past12m_15plus:KEN'));
    expect(answer.missing).toContain('KEN: intimate-partner violence, past 12 months (WHO 2018, SDG 5.2.1)');
    const kenya = answer.body.countryProfiles.find((profile) => profile.iso3 === 'KEN')!;
    expect(kenya.ipvPrevalence).toBeNull();
    expect(kenya.gbvRiskScore).toEqual(expect.any(Number));
    expect(kenya.estimatedGDPDragPct!).toBeGreaterThanOrEqual(1.3);
  });

  it('reads unemployment from the dataset, so a live overlay replaces it, and raises feedback risk on a Sahm-rule rise', () => {
    const dates = Array.from({ length: 18 }, (_, index) => `${2025 + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`);
    const rising = testSeries(
      'UNRATE',
      dates.map((date, index) => [date, index < 15 ? 4 : 4.6] as const),
      'monthly',
    );
    const answer = compute(snapshotWith(rising));
    expect(answer.body.financialCorrelations.economicStressFeedback).toMatchObject({ usUnemploymentRate: 4.6, feedbackRisk: 'HIGH' });
    expect(answer.body.globalSummary.economicStressFeedbackRisk).toBe('HIGH');
  });

  it('answers UNKNOWN feedback and names unemployment when it is missing', () => {
    const answer = compute(snapshotWithout('UNRATE'));
    expect(answer.body.financialCorrelations.economicStressFeedback).toMatchObject({ usUnemploymentRate: null, feedbackRisk: 'UNKNOWN' });
    expect(answer.missing).toContain('US unemployment rate (UNRATE)');
  });

  it('ranks the top opportunity countries by score', () => {
    const { topOpportunityCountries } = compute().body.opportunitySignals;
    expect(topOpportunityCountries).toHaveLength(parameters.topOpportunityCount);
    const scores = topOpportunityCountries.map((country) => country.opportunityScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });
});
