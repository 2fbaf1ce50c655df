import { z } from 'zod';
import parametersJson from '../data/parameters/gender-risk.json' with { type: 'json' };
import incomeGroupsJson from '../data/social/reference/income-groups.json' with { type: 'json' };
import { seriesAsOf } from '../domain/index.js';
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { computeGenderRisk, type GenderRisk, type GenderRiskParameters, type IncomeGroupTable } from './domain/index.js';

const parameters = parametersJson as unknown as GenderRiskParameters;
const incomeGroups = incomeGroupsJson as IncomeGroupTable;

const riskStatus = z.enum(['CRITICAL', 'HIGH', 'ELEVATED', 'BUILDING', 'LOW']);
const opportunityStatus = z.enum(['STRONG', 'EMERGING', 'MODERATE', 'LIMITED', 'CONSTRAINED']);
const feedbackRisk = z.enum(['HIGH', 'ELEVATED', 'LOW', 'UNKNOWN']);

const countryProfileSchema = z.object({
  iso3: z.string(),
  name: z.string(),
  region: z.string(),
  incomeGroup: z.string().nullable().describe('World Bank income classification'),
  ipvPrevalence: z.number().nullable().describe('% of ever-partnered women 15+ subjected to physical and/or sexual intimate-partner violence in the past 12 months (WHO 2018, SDG 5.2.1)'),
  womenLawIndex: z.number().nullable().describe('Women, Business and the Law index 0-100'),
  femaleLFPR: z.number().nullable().describe('female labour-force participation, % of women 15+'),
  maleLFPR: z.number().nullable().describe('male labour-force participation, % of men 15+'),
  lfprGenderGap: z.number().nullable().describe('maleLFPR - femaleLFPR, percentage points'),
  gbvRiskScore: z.number().nullable().describe('0-100'),
  opportunityScore: z.number().nullable().describe('0-100'),
  riskStatus: riskStatus.nullable(),
  opportunityStatus: opportunityStatus.nullable(),
  estimatedGDPDragPct: z.number().nullable().describe('% of GDP, within 1.3-3.7'),
  primaryTransmissions: z.array(z.string()),
  opportunityDrivers: z.array(z.string()),
});

export const genderRiskSchema = z.object({
  globalSummary: z.object({
    avgGBVRiskScore: z.number().nullable(),
    avgOpportunityScore: z.number().nullable(),
    countriesAtCritical: z.number().int(),
    countriesWithStrongOpportunity: z.number().int(),
    gdpDragEstimateGlobal: z.string(),
    economicStressFeedbackRisk: z.string(),
    regime: z.string().describe('the risk ladder applied to the average GBV risk, raised by US stress feedback'),
  }),
  countryProfiles: z.array(countryProfileSchema),
  financialCorrelations: z.object({
    labourSuppression: z.object({ score: z.number().nullable(), mechanism: z.string(), gdpImpactPct: z.number().nullable() }),
    gdpDrag: z.object({ globalEstimatePct: z.number().nullable(), rangeMin: z.number(), rangeMax: z.number(), methodology: z.string() }),
    economicStressFeedback: z.object({
      usUnemploymentRate: z.number().nullable().describe('%, UNRATE'),
      usConsumerSentiment: z.number().nullable().describe('null: no licensed open series is shipped (decision 0074)'),
      feedbackRisk,
      feedbackNarrative: z.string(),
    }),
  }),
  opportunitySignals: z.object({
    topOpportunityCountries: z.array(z.object({ iso3: z.string(), name: z.string(), opportunityScore: z.number(), drivers: z.array(z.string()) })),
    marketThesis: z.string(),
  }),
  synthesis: z.string(),
});

/** GET /v1/intelligence/gender-risk (spec §4): GBV risk and opportunity over 18 countries in 6 regions. */
export const genderRiskEndpoint: SignalEndpoint<Record<string, never>, GenderRisk> = {
  id: 'gender-risk',
  summary: 'Gender-based violence risk and opportunity signals for 18 countries, with GDP drag and US stress feedback',
  response: genderRiskSchema,
  compute: ({ dataset, now }) => computeGenderRisk(seriesAsOf(dataset.series, now.toISOString().slice(0, 10)), incomeGroups, parameters),
  headers: () => ({}),
  graphql: { field: 'genderRisk' },
};
