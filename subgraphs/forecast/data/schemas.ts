// zod schemas of the shipped forecast data files: a malformed file fails loudly when it is loaded.

import { z } from 'zod';
import { COMMODITY_SYMBOLS, PRIMARY_THREATS, SCENARIO_IDS, SEVERITY_LEVELS } from '../domain/index.js';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');
const isoInstant = z.iso.datetime({ offset: true });
const share = z.number().min(0).max(1);
const nonNegative = z.number().min(0);
const symbol = z.enum(COMMODITY_SYMBOLS);

export const provenanceSchema = z.strictObject({
  source: z.string().min(1),
  url: z.string().min(1),
  asOf: z.string().min(4),
  derivation: z.string().min(1).optional(),
});

const fileProvenanceSchema = provenanceSchema.extend({ sources: z.array(provenanceSchema).optional() });

export const pricePointSchema = z.strictObject({ date: isoDate, price: z.number().positive() });

const alertsSchema = z.strictObject({
  flood: z.number().int().min(0),
  storm: z.number().int().min(0),
  drought: z.number().int().min(0),
  other: z.number().int().min(0),
});

const climateValuesSchema = z.strictObject({
  observedAt: isoInstant,
  temperatureAnomalyC: z.number().min(-15).max(15),
  droughtIndex: z.number().min(0).max(5),
  activeWildfires: z.number().int().min(0),
  alerts: alertsSchema,
});

/** The contract type RegionClimateObservation, for live adapters that want to validate their output. */
export const regionClimateObservationSchema = climateValuesSchema.extend({ regionId: z.string().min(1) });

const productionRegionSchema = z.strictObject({
  regionId: z.string().min(1),
  share,
  production: z.number().positive(),
  worldShare: share,
  note: z.string().optional(),
});

const commoditySchema = z.strictObject({
  symbol,
  name: z.string().min(1),
  benchmark: z.strictObject({
    description: z.string().min(1),
    snapshotSeries: z.string().min(1),
    seriesId: z.string().regex(/^[A-Z0-9]+$/, 'expected a FRED series id'),
    seriesUnit: z.string().min(1),
    toBenchmarkUnit: z.number().positive(),
    exchangeContract: z.string().min(1),
    unit: z.string().min(1),
    currency: z.string().length(3),
  }),
  /** Where the monthly prices come from (data/series); the prices and their provenance are built from it at load. */
  priceSeries: z.strictObject({
    seriesId: z.string().min(1),
    method: z.enum(['monthly', 'monthly-average-of-daily']),
    from: z.string().regex(/^\d{4}-\d{2}-01$/, 'expected the first of a month, YYYY-MM-01'),
    toBenchmarkUnit: z.number().positive(),
  }),
  production: z.strictObject({
    provenance: provenanceSchema,
    unit: z.string().min(1),
    worldTotal: z.number().positive(),
    derivation: z.string().min(1),
    regions: z.array(productionRegionSchema).min(1),
  }),
});

export const commoditiesFileSchema = z.strictObject({
  provenance: fileProvenanceSchema,
  commodities: z.array(commoditySchema),
});

const regionSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9_]+$/),
  name: z.string().min(1),
  boundingBox: z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90), z.number().min(-180).max(180), z.number().min(-90).max(90)]),
  commodities: z.array(symbol).min(1),
  representativePoints: z.array(z.strictObject({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) })).min(1),
  usdmStateFips: z.array(z.string().regex(/^\d{2}$/)).optional(),
  observations: z.array(climateValuesSchema).min(2),
  derivation: z.string().min(1),
});

export const regionsFileSchema = z.strictObject({
  provenance: fileProvenanceSchema,
  regions: z.array(regionSchema).min(1),
});

const range = z.strictObject({ min: z.number(), max: z.number() });
const points0to100 = z.number().min(0).max(100);

export const parametersFileSchema = z.strictObject({
  provenance: fileProvenanceSchema,
  regionScore: z.strictObject({
    weights: z.strictObject({ temperature: share, drought: share, wildfire: share, alerts: share }),
    normalisation: z.strictObject({
      temperatureAnomalyC: range,
      droughtIndex: range,
      activeWildfires: range,
      weightedAlerts: range,
    }),
    alertKindWeights: z.strictObject({ flood: nonNegative, storm: nonNegative, drought: nonNegative, other: nonNegative }),
    threatTieBreakOrder: z.array(z.enum(PRIMARY_THREATS)).length(PRIMARY_THREATS.length),
  }),
  status: z.strictObject({
    yellowFrom: points0to100,
    redFrom: points0to100,
    severeRegionFrom: points0to100,
    yellowSevereShare: share,
    redSevereShare: share,
  }),
  trend: z.strictObject({
    regionChangePoints: z.number().positive(),
    commodityChangePoints: z.number().positive(),
    comparisonMinGapDays: nonNegative,
    comparisonMaxGapDays: z.number().positive(),
  }),
  uncertainty: z.strictObject({ minConfidence: share, minCoverage: share, minTrendCoverage: share, conflictingShare: share }),
  confidence: z.strictObject({
    freshnessHalfLifeDays: z.number().positive(),
    levels: z.strictObject({ highFrom: share, mediumFrom: share }),
  }),
  drawdown: z.strictObject({
    lookbackMonths: z.number().int().min(2),
    tailZ: z.number().positive(),
    horizonMonths: z.number().positive(),
    minRiskScale: nonNegative,
    maxRiskScale: nonNegative,
    maxLossFraction: share,
  }),
  portfolio: z.strictObject({
    concentrationLimitPct: points0to100,
    atRiskShareLimitPct: points0to100,
    topRiskCount: z.number().int().min(1),
  }),
  severity: z.strictObject({ moderateFrom: points0to100, highFrom: points0to100 }),
  dataAge: z.strictObject({ climateStaleAfterDays: z.number().int().positive(), priceStaleAfterDays: z.number().int().positive() }),
});

const pctRange = z.strictObject({ low: z.number(), high: z.number() });

const scenarioSchema = z.strictObject({
  id: z.enum(SCENARIO_IDS),
  name: z.string().min(1),
  description: z.string().min(1),
  probability: share,
  probabilityBasis: z.strictObject({ text: z.string().min(1), url: z.string().min(1) }),
  horizonMonths: z.number().int().positive(),
  regions: z.array(z.string().min(1)).min(1),
  affectedCommodities: z
    .array(
      z.strictObject({
        symbol,
        priceImpactPct: pctRange,
        supplyReductionPct: z.number().min(0).max(100),
      }),
    )
    .min(1),
  historicalAnalogs: z
    .array(
      z.strictObject({
        event: z.string().min(1),
        period: z.string().min(1),
        observed: z.string().min(1),
      }),
    )
    .min(1),
});

export const scenariosFileSchema = z.strictObject({
  provenance: fileProvenanceSchema,
  scenarios: z.array(scenarioSchema),
});

export const calendarFileSchema = z.strictObject({
  provenance: fileProvenanceSchema,
  months: z.array(
    z.strictObject({
      month: z.number().int().min(1).max(12),
      name: z.string().min(1),
      events: z.array(z.string().min(1)).min(1),
      commoditiesAtRisk: z.array(symbol).min(1),
      historicalSeverity: z.enum(SEVERITY_LEVELS),
      basis: z.string().min(1),
    }),
  ),
});

export type CommoditiesFile = z.infer<typeof commoditiesFileSchema>;
export type RegionsFile = z.infer<typeof regionsFileSchema>;
export type ParametersFile = z.infer<typeof parametersFileSchema>;
export type ScenariosFile = z.infer<typeof scenariosFileSchema>;
export type CalendarFile = z.infer<typeof calendarFileSchema>;

export interface ParsedForecastFiles {
  commodities: CommoditiesFile;
  regions: RegionsFile;
  parameters: ParametersFile;
  scenarios: ScenariosFile;
  calendar: CalendarFile;
}
