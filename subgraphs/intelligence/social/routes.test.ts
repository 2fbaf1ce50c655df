import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers.js';
import { snapshotSeries } from '../data/dataset.js';
import { keptSignal } from '../shared/envelope.js';
import { getSignal, querySignal, startSignalServer } from '../shared/testing.js';
import { genderRiskEndpoint } from './gender-risk.js';

/**
 * GET /v1/intelligence/gender-risk through its two front doors: every documented field typed over
 * the shipped data (REST), the GraphQL field, payment. The envelope and cache of every signal are
 * shared/signal-routes.test.ts's.
 */
let server: TestServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startSignalServer());
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const numberOrNull = (value: unknown) => value === null || typeof value === 'number';

describe('GET /v1/intelligence/gender-risk', () => {
  it('answers 402 with payment requirements without a key or payment', async () => {
    const { status, body } = await getSignal(server, '/v1/intelligence/gender-risk');
    expect(status).toBe(402);
    expect(JSON.stringify(body)).toMatch(/0\.75|750000/);
  });

  it('answers every documented field, typed, over the shipped data', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/gender-risk', key);
    expect(status).toBe(200);
    expect(headers['x-rail-cache-hit']).toBeDefined();
    expect(body.globalSummary).toEqual({
      avgGBVRiskScore: expect.any(Number),
      avgOpportunityScore: expect.any(Number),
      countriesAtCritical: expect.any(Number),
      countriesWithStrongOpportunity: expect.any(Number),
      gdpDragEstimateGlobal: expect.stringMatching(/^\d\.\d+% of GDP \(modelled range 1\.3-3\.7%\)$/),
      economicStressFeedbackRisk: expect.stringMatching(/^(HIGH|ELEVATED|LOW)$/),
      regime: expect.stringMatching(/^(CRITICAL|HIGH|ELEVATED|BUILDING|LOW)$/),
    });
    expect(body.countryProfiles).toHaveLength(18);
    for (const profile of body.countryProfiles as Array<Record<string, unknown>>) {
      expect(Object.keys(profile)).toEqual([
        'iso3',
        'name',
        'region',
        'incomeGroup',
        'ipvPrevalence',
        'womenLawIndex',
        'femaleLFPR',
        'maleLFPR',
        'lfprGenderGap',
        'gbvRiskScore',
        'opportunityScore',
        'riskStatus',
        'opportunityStatus',
        'estimatedGDPDragPct',
        'primaryTransmissions',
        'opportunityDrivers',
      ]);
      expect(profile.iso3).toMatch(/^[A-Z]{3}$/);
      for (const field of ['ipvPrevalence', 'womenLawIndex', 'femaleLFPR', 'maleLFPR', 'lfprGenderGap', 'gbvRiskScore', 'opportunityScore', 'estimatedGDPDragPct'])
        expect(typeof profile[field], `${profile.iso3} ${field}`).toBe('number');
      expect(profile.riskStatus).toMatch(/^(CRITICAL|HIGH|ELEVATED|BUILDING|LOW)$/);
      expect(profile.opportunityStatus).toMatch(/^(STRONG|EMERGING|MODERATE|LIMITED|CONSTRAINED)$/);
      expect(Array.isArray(profile.primaryTransmissions) && Array.isArray(profile.opportunityDrivers)).toBe(true);
    }
    const { labourSuppression, gdpDrag, economicStressFeedback } = body.financialCorrelations;
    expect(labourSuppression).toEqual({ score: expect.any(Number), mechanism: expect.any(String), gdpImpactPct: expect.any(Number) });
    expect(gdpDrag).toEqual({ globalEstimatePct: expect.any(Number), rangeMin: 1.3, rangeMax: 3.7, methodology: expect.stringContaining('Cuberes and Teignier (2016)') });
    expect(economicStressFeedback).toEqual({
      usUnemploymentRate: expect.any(Number),
      usConsumerSentiment: null,
      feedbackRisk: expect.any(String),
      feedbackNarrative: expect.stringContaining('US unemployment'),
    });
    expect(numberOrNull(economicStressFeedback.usConsumerSentiment)).toBe(true);
    expect(body.opportunitySignals.topOpportunityCountries).toHaveLength(5);
    expect(body.opportunitySignals.topOpportunityCountries[0]).toEqual({ iso3: expect.any(String), name: expect.any(String), opportunityScore: expect.any(Number), drivers: expect.any(Array) });
    expect(body.opportunitySignals.marketThesis).toEqual(expect.any(String));
    expect(body.synthesis).toEqual(expect.any(String));
    expect(body.generatedAt).toEqual(expect.any(String));
    expect(body.dataQuality).toBe('PARTIAL');
    expect(body.missingInputs).toHaveLength(1);
    expect(body.inputs.map((input: { id: string }) => input.id)).toEqual(expect.arrayContaining(['UNRATE', 'who_ipv_past12m_15plus:IND', 'wb_wbl_index:IND', 'income-groups']));
  });

  it('answers the GraphQL field', async () => {
    const query =
      '{ genderRisk { globalSummary { avgGBVRiskScore regime countriesAtCritical } countryProfiles { iso3 region riskStatus opportunityStatus estimatedGDPDragPct primaryTransmissions } financialCorrelations { gdpDrag { rangeMin rangeMax globalEstimatePct } economicStressFeedback { usUnemploymentRate usConsumerSentiment feedbackRisk } labourSuppression { score } } opportunitySignals { topOpportunityCountries { iso3 opportunityScore drivers } marketThesis } synthesis dataQuality missingInputs } }';
    const { data, errors } = await querySignal(server, query, key);
    expect(errors).toBeUndefined();
    const rest = await getSignal(server, '/v1/intelligence/gender-risk', key);
    expect(data?.genderRisk.countryProfiles).toHaveLength(18);
    expect(data?.genderRisk.globalSummary.avgGBVRiskScore).toBe(rest.body.globalSummary.avgGBVRiskScore);
    expect(data?.genderRisk.financialCorrelations.gdpDrag).toMatchObject({ rangeMin: 1.3, rangeMax: 3.7 });
    expect(data?.genderRisk.financialCorrelations.economicStressFeedback.usConsumerSentiment).toBeNull();
    expect(data?.genderRisk.dataQuality).toBe('PARTIAL');
  });

  it('answers null with a payment error in GraphQL without a key', async () => {
    const { data, errors } = await querySignal(server, '{ genderRisk { synthesis } }');
    expect(data?.genderRisk ?? null).toBeNull();
    expect(errors?.[0]?.extensions?.code).toBe('GEN_ERR_PAYMENT_REQUIRED');
  });
});

describe('determinism', () => {
  it('computes the same answer, byte for byte, from the same dataset and clock', async () => {
    const now = new Date('2026-11-26T09:00:00.000Z');
    const once = async () => JSON.stringify(keptSignal(await genderRiskEndpoint.compute({ dataset: { series: snapshotSeries() }, now, params: {} }), now));
    expect(await once()).toBe(await once());
  });
});
