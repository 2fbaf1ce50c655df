import { z } from 'zod';
import type { LadderRule } from '../../domain/index.js';

/**
 * The node and edge catalogues of the structural family, shipped as data
 * (data/structural/fault-lines.json, cycles.json) and validated when read: ids unique and of the
 * `domain.name` form, couplings between known lines, one source of stress per line.
 */
const transformSchema = z.enum(['level', 'log', 'growthPct', 'changeOverYear']);

export const indicatorSchema = z.object({
  grid: z.enum(['quarterly', 'annual']),
  combine: z.enum(['mean', 'weightedMean', 'weightedSum', 'ratio']),
  members: z
    .array(
      z.object({
        series: z.string().min(1),
        weight: z.number().optional(),
        deflateBy: z.string().optional(),
        transform: transformSchema.optional(),
        deviationFrom: z.number().optional(),
        absolute: z.boolean().optional(),
      }),
    )
    .min(1),
  transform: transformSchema.optional(),
  carryForwardPeriods: z.number().int().min(0).optional(),
});

const nodeId = z.string().regex(/^[a-z]+\.[a-z0-9_]+$/);

export const TECTONIC_DOMAINS = ['demographic', 'fiscal', 'environmental', 'infrastructure', 'geopolitical'] as const;
export type TectonicDomain = (typeof TECTONIC_DOMAINS)[number];

const faultLineSchema = z
  .object({
    id: nodeId,
    label: z.string().min(1),
    domain: z.enum(TECTONIC_DOMAINS),
    threshold: z.number().positive().max(100),
    indicator: indicatorSchema.optional(),
    calm: z.number().optional(),
    rupture: z.number().optional(),
    anchorSource: z.string().optional(),
    fallbackAccumulationRate: z.number().positive().optional(),
    fallbackAccumulationRateSource: z.string().optional(),
    prior: z.object({ baselineYear: z.number().int(), baselineStress: z.number().min(0).max(100), accumulationRate: z.number().positive(), source: z.string().min(1) }).optional(),
    missing: z.array(z.string().min(1)).optional(),
  })
  .refine(
    (line) =>
      line.indicator
        ? line.calm !== undefined && line.rupture !== undefined && line.calm !== line.rupture && !!line.anchorSource && !!line.fallbackAccumulationRate && !line.prior
        : !!line.prior && !!line.missing?.length,
    {
      message: 'a fault line has either an indicator with calm, rupture, their source and a fallback rate, or a prior with the inputs it misses',
    },
  );

const couplingSchema = z.object({ source: nodeId, target: nodeId, weight: z.number().positive().max(1), channel: z.string().min(1) });

export const faultLineCatalogueSchema = z.object({ description: z.string(), faultLines: z.array(faultLineSchema), couplings: z.array(couplingSchema) });

export type FaultLineDefinition = z.infer<typeof faultLineSchema>;
export type Coupling = z.infer<typeof couplingSchema>;
export type FaultLineCatalogue = z.infer<typeof faultLineCatalogueSchema>;

export const RESONANCE_DOMAINS = ['financial', 'economic', 'geopolitical', 'climate', 'commodity'] as const;
export type ResonanceDomain = (typeof RESONANCE_DOMAINS)[number];

const cycleSchema = z
  .object({
    id: nodeId,
    label: z.string().min(1),
    domain: z.enum(RESONANCE_DOMAINS),
    band: z.object({ minYears: z.number().positive(), maxYears: z.number().positive() }).refine((band) => band.minYears < band.maxYears, 'minYears below maxYears'),
    channel: z.string().min(1),
    indicator: indicatorSchema.optional(),
    sign: z.union([z.literal(1), z.literal(-1)]).optional(),
    missing: z.string().min(1).optional(),
    note: z.string().optional(),
  })
  .refine((cycle) => (cycle.indicator ? cycle.sign !== undefined && !cycle.missing : !!cycle.missing), { message: 'a cycle has either an indicator and a sign, or the input it misses' });

export const cycleCatalogueSchema = z.object({ description: z.string(), cycles: z.array(cycleSchema) });

export type CycleDefinition = z.infer<typeof cycleSchema>;
export type CycleCatalogue = z.infer<typeof cycleCatalogueSchema>;

function assertUniqueIds(ids: readonly string[], what: string): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new Error(`${what}: duplicate id ${id}`);
    if (!id.startsWith(`${id.split('.')[0]}.`)) throw new Error(`${what}: id ${id} is not domain.name`);
    seen.add(id);
  }
}

/** Parses and checks a fault-line catalogue (throws naming the fault). */
export function parseFaultLineCatalogue(json: unknown): FaultLineCatalogue {
  const catalogue = faultLineCatalogueSchema.parse(json);
  assertUniqueIds(
    catalogue.faultLines.map((line) => line.id),
    'fault-lines.json',
  );
  const known = new Map(catalogue.faultLines.map((line) => [line.id, line]));
  for (const line of catalogue.faultLines) {
    if (!line.id.startsWith(`${line.domain}.`)) throw new Error(`fault-lines.json: ${line.id} is not in domain ${line.domain}`);
  }
  for (const coupling of catalogue.couplings) {
    if (!known.has(coupling.source) || !known.has(coupling.target)) throw new Error(`fault-lines.json: coupling ${coupling.source} -> ${coupling.target} names an unknown line`);
    if (coupling.source === coupling.target) throw new Error(`fault-lines.json: coupling of ${coupling.source} to itself`);
  }
  return catalogue;
}

/** Parses and checks a cycle catalogue (throws naming the fault). */
export function parseCycleCatalogue(json: unknown): CycleCatalogue {
  const catalogue = cycleCatalogueSchema.parse(json);
  assertUniqueIds(
    catalogue.cycles.map((cycle) => cycle.id),
    'cycles.json',
  );
  for (const cycle of catalogue.cycles) {
    if (!cycle.id.startsWith(`${cycle.domain}.`)) throw new Error(`cycles.json: ${cycle.id} is not in domain ${cycle.domain}`);
  }
  return catalogue;
}

export type FaultStatus = 'RUPTURED' | 'CRITICAL' | 'ELEVATED' | 'BUILDING' | 'STABLE';
export type TectonicRegime = 'CASCADING_RUPTURE' | 'PRE_RUPTURE' | 'ELEVATED_STRESS' | 'BUILDING' | 'STABLE';

export interface TectonicParameters {
  trendYears: number;
  minimumTrendPoints: number;
  transferOnset: number;
  minimumTransfer: number;
  /** Rungs on currentStress / threshold. */
  statusLadder: LadderRule<FaultStatus>[];
  regime: { cascadingRuptureMinRuptured: number; preRuptureMinCritical: number; elevatedStressMinAverage: number; buildingMinAverage: number };
  mostUrgentCount: number;
}

export type ResonanceRegime = 'RESONANCE_CASCADE' | 'HIGH_RESONANCE' | 'ELEVATED_RESONANCE' | 'MODERATE_RESONANCE' | 'LOW_RESONANCE';
export type DangerLevel = 'CRITICAL' | 'HIGH' | 'ELEVATED' | 'LOW';

export interface ResonanceParameters {
  minimumCyclesOfShortestPeriod: number;
  maxProjectionShareOfPeriod: number;
  velocityWindowShareOfShortestPeriod: number;
  resonanceThresholdDegrees: number;
  alignmentHorizonQuarters: number;
  score: { coherenceWeight: number; clusteredAmplitudeWeight: number };
  regimeLadder: LadderRule<ResonanceRegime>[];
  dangerLadder: LadderRule<DangerLevel>[];
  analogs: { excludeRecentYears: number; edgeYears: number; maxListed: number; minOrderParameter: number; maxMeanPhaseDistanceDegrees: number };
}
