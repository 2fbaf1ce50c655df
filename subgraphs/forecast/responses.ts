import { z } from 'zod';
import { COMMODITY_SYMBOLS, OUTLOOKS, PRIMARY_THREATS, RISK_STATUSES, SCENARIO_IDS, SEVERITY_LEVELS } from './domain/index.js';
import type { ForecastService } from './service.js';

/**
 * Response shapes of the forecast REST paths (Document 3 §2): Fastify's compiled serialisers and
 * the OpenAPI document. Each is checked at compile time to be exactly the type the service returns
 * (bottom of the file), and shapes.test.ts checks each against its GraphQL type.
 */
const symbol = z.enum(COMMODITY_SYMBOLS);
const riskStatus = z.enum(RISK_STATUSES);
const outlook = z.enum(OUTLOOKS);
const regionOutlook = z.enum(['IMPROVING', 'STABLE', 'DETERIORATING']);
const primaryThreat = z.enum(PRIMARY_THREATS);
const severity = z.enum(SEVERITY_LEVELS);
const dataQuality = z.enum(['LIVE', 'PARTIAL', 'ESTIMATED']);
const pctRange = z.object({ low: z.number(), high: z.number() });
const tierExposure = z.object({ GREEN: z.number(), YELLOW: z.number(), RED: z.number() });

const dataAge = {
  asOf: z.string().describe('newest observation behind the figures (ISO 8601)'),
  dataQuality,
  evaluatedAt: z.string().describe("when the model was evaluated: the snapshot's date, or now with live data"),
  dataAgeDays: z.number().int().describe('whole days from the newest observation to now'),
  inputs: z
    .array(
      z.object({
        input: z.string().describe('"climate" (the production regions\' observations) or "price:<SYMBOL>" (a benchmark\'s monthly prices)'),
        asOf: z.string().describe('YYYY-MM-DD: the last day the input describes'),
        dataAgeDays: z.number().int().describe("whole days from the input's as-of to now"),
        stale: z.boolean().describe("older than the input's limit (climate 30 days, prices 62 days)"),
      }),
    )
    .describe('each input behind the answer with its own as-of and age (decision 0068)'),
};

export const forecastErrorSchema = z.object({
  message: z.string().describe('plain-language description'),
  code: z.string().describe('catalog code (docs/errors.md)'),
});

export const heatCheckResponseSchema = z.object({
  ...dataAge,
  commodities: z.array(z.object({ symbol, status: riskStatus, signal: z.string() })),
});

export const commodityOutlookResponseSchema = z.object({
  symbol,
  name: z.string(),
  currentPrice: z.number(),
  priceUnit: z.string(),
  priceDate: z.string(),
  climateRiskScore: z.number(),
  status: riskStatus,
  signals: z.object({ temperatureAnomaly: z.number(), droughtIndex: z.number(), wildfireActivity: z.number(), extremeWeatherEvents: z.number() }),
  outlook,
  reasoning: z.string(),
  reasoningModel: z.string(),
  confidence: z.number(),
  productionRegions: z.array(z.object({ region: z.string(), regionId: z.string(), share: z.number(), climateRiskScore: z.number(), primaryThreat, outlook: regionOutlook })),
  ...dataAge,
});

export const regionsResponseSchema = z.array(
  z.object({
    region: z.string(),
    regionId: z.string(),
    commodities: z.array(symbol),
    climateRiskScore: z.number(),
    activeAlerts: z.number().int(),
    primaryThreat,
    outlook: regionOutlook,
  }),
);

export const calendarResponseSchema = z.array(z.object({ month: z.string(), monthName: z.string(), events: z.array(z.string()), commoditiesAtRisk: z.array(symbol), historicalSeverity: severity }));

export const portfolioResponseSchema = z.object({
  label: z.string().optional(),
  ...dataAge,
  totalNotionalUsd: z.number(),
  portfolioRiskScore: z.number(),
  exposureByTier: tierExposure,
  worstCaseDrawdown: z.object({ usd: z.number(), pct: z.number(), horizonMonths: z.number() }),
  positions: z.array(
    z.object({
      symbol,
      notionalUsd: z.number(),
      weightPct: z.number(),
      climateRiskScore: z.number(),
      status: riskStatus,
      outlook,
      confidence: z.number(),
      primaryThreat: primaryThreat.optional(),
      mainRegion: z.string().optional(),
      worstCaseLossUsd: z.number(),
      worstCaseLossPct: z.number(),
    }),
  ),
  recommendations: z.array(z.string()),
});

export const scenarioResponseSchema = z.object({
  scenario: z.enum(SCENARIO_IDS),
  name: z.string(),
  description: z.string(),
  probability: z.number(),
  probabilityBasis: z.object({ text: z.string(), url: z.string() }),
  horizonMonths: z.number(),
  affectedCommodities: z.array(z.object({ symbol, priceImpactPct: pctRange, supplyReductionPct: z.number(), currentStatus: riskStatus, climateRiskScore: z.number() })),
  priceImpactPct: pctRange,
  supplyReductionPct: pctRange,
  historicalAnalogs: z.array(z.object({ event: z.string(), period: z.string(), observed: z.string() })),
  positions: z.array(z.object({ symbol, notionalUsd: z.number(), affected: z.boolean(), priceImpactPct: pctRange, priceImpactUsd: pctRange, supplyReductionPct: z.number() })),
  portfolio: z.object({ totalNotionalUsd: z.number(), affectedNotionalUsd: z.number(), priceImpactUsd: pctRange, priceImpactPct: pctRange }).optional(),
  reasoning: z.string(),
  asOf: z.string(),
  dataQuality,
});

const exposureFacet = z.object({ index: z.number(), level: severity, drivers: z.string() });
const tcfdScenario = z.object({
  scenario: z.enum(SCENARIO_IDS),
  name: z.string(),
  probability: z.number(),
  horizonMonths: z.number(),
  affectedNotionalUsd: z.number(),
  priceImpactUsd: pctRange,
  priceImpactPct: pctRange,
  description: z.string(),
});

export const tcfdResponseSchema = z.object({
  entityName: z.string(),
  reportingPeriod: z.string(),
  asOf: z.string(),
  dataQuality,
  governance: z.object({ boardOversight: z.string(), managementRole: z.string(), note: z.string() }),
  strategy: z.object({
    physicalRisks: z.array(z.object({ symbol, notionalUsd: z.number(), acute: exposureFacet, chronic: exposureFacet })),
    scenarioAnalysis: z.object({ moderate: tcfdScenario, severe: tcfdScenario, selectionRule: z.string() }),
  }),
  riskManagement: z.object({
    exposureByTier: tierExposure,
    worstCase: z.object({
      scenario: z.enum(SCENARIO_IDS),
      name: z.string(),
      horizonMonths: z.number(),
      probability: z.number(),
      tailImpactUsd: z.number(),
      tailImpactPct: z.number(),
      climateDrawdownUsd: z.number(),
      climateDrawdownPct: z.number(),
    }),
    process: z.string(),
  }),
  metrics: z.object({
    portfolioRiskScore: z.number(),
    notionalAtRisk: z.number(),
    totalNotionalUsd: z.number(),
    topRisks: z.array(
      z.object({
        rank: z.number().int(),
        symbol,
        status: riskStatus,
        climateRiskScore: z.number(),
        notionalUsd: z.number(),
        riskWeightedNotionalUsd: z.number(),
        primaryThreat: primaryThreat.optional(),
        region: z.string().optional(),
      }),
    ),
  }),
  disclosure: z.object({
    dataSources: z.array(z.object({ source: z.string(), url: z.string(), asOf: z.string(), derivation: z.string().optional() })),
    methodology: z.string(),
    confidenceLevels: z.array(z.object({ symbol, confidence: z.number(), level: severity })),
  }),
});

type Answer<Capability extends keyof ForecastService> = Awaited<ReturnType<ForecastService[Capability]>>;
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only when T is `true`: a type-level assertion. */
type Assert<T extends true> = T;
export type ResponseSchemasMatchTheService = [
  Assert<MutuallyAssignable<z.infer<typeof heatCheckResponseSchema>, Answer<'heatCheck'>>>,
  Assert<MutuallyAssignable<z.infer<typeof commodityOutlookResponseSchema>, Answer<'commodityOutlook'>>>,
  Assert<MutuallyAssignable<z.infer<typeof regionsResponseSchema>, Answer<'regions'>>>,
  Assert<MutuallyAssignable<z.infer<typeof calendarResponseSchema>, Answer<'calendar'>>>,
  Assert<MutuallyAssignable<z.infer<typeof portfolioResponseSchema>, Answer<'portfolio'>>>,
  Assert<MutuallyAssignable<z.infer<typeof scenarioResponseSchema>, Answer<'scenario'>>>,
  Assert<MutuallyAssignable<z.infer<typeof tcfdResponseSchema>, Answer<'tcfdReport'>>>,
];
