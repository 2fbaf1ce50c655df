import { climbLadder, type LadderRule, latest, mean, round, type Series, type SeriesSet, type SignalAnswer } from '../../domain/index.js';

export type Hazard = 'bws' | 'drr' | 'rfr';
export type Sector = 'agriculture' | 'semiconductors' | 'beverages' | 'energy';

export interface WaterRiskParameters {
  /** Long-layout series per hazard: the country series are `<id>:<ISO3>`. */
  indicators: Record<Hazard, string>;
  maxCategory: number;
  stressWeights: Partial<Record<Hazard, number>>;
  regions: Record<string, { countries: string[]; basis: string }>;
  droughtSeverity: LadderRule<string>[];
  sectors: Record<Sector, Partial<Record<Hazard, number>>>;
  sectorRatings: LadderRule<string>[];
  tnfd: { ratings: LadderRule<string>[]; disclosureRecommendation: Record<string, string> };
  alwaysMissing: string[];
}

export interface WaterRegion {
  droughtSeverity: string;
  stressScore: number;
  sectors: Record<Sector, string>;
  /** Mean Aqueduct category (0-4) of each hazard over the region's countries with a value. */
  hazards: Partial<Record<Hazard, number>>;
  countriesWithData: number;
  basis: string;
}

export interface WaterRisk {
  globalStressIndex: number;
  regions: Record<string, WaterRegion>;
  tnfdAlignment: { physicalRiskRating: string; disclosureRecommendation: string };
  narrative: string;
}

/** Weighted mean of the hazard means the weights name and the region has, or undefined when it has none of them. */
function weighted(hazards: Partial<Record<Hazard, number>>, weights: Partial<Record<Hazard, number>>): number | undefined {
  let sum = 0;
  let total = 0;
  for (const [hazard, weight] of Object.entries(weights) as Array<[Hazard, number]>) {
    const value = hazards[hazard];
    if (value === undefined) continue;
    sum += value * weight;
    total += weight;
  }
  return total === 0 ? undefined : sum / total;
}

function regionHazards(series: SeriesSet, parameters: WaterRiskParameters, countries: string[], used: Map<string, Series>) {
  const hazards: Partial<Record<Hazard, number>> = {};
  const covered = new Set<string>();
  for (const [hazard, id] of Object.entries(parameters.indicators) as Array<[Hazard, string]>) {
    const values = countries.flatMap((country) => {
      const found = series.get(`${id}:${country}`);
      if (!found || found.observations.length === 0) return [];
      used.set(found.id, found);
      covered.add(country);
      return [latest(found).value];
    });
    if (values.length > 0) hazards[hazard] = round(mean(values), 2);
  }
  return { hazards, countriesWithData: covered.size };
}

function scoreRegion(series: SeriesSet, parameters: WaterRiskParameters, region: { countries: string[]; basis: string }, used: Map<string, Series>): WaterRegion | undefined {
  const { hazards, countriesWithData } = regionHazards(series, parameters, region.countries, used);
  const stress = weighted(hazards, parameters.stressWeights);
  if (stress === undefined) return undefined;
  const sectors = Object.fromEntries(
    (Object.entries(parameters.sectors) as Array<[Sector, Partial<Record<Hazard, number>>]>).map(([sector, weights]) => {
      const score = weighted(hazards, weights);
      return [sector, score === undefined ? 'UNKNOWN' : climbLadder(parameters.sectorRatings, round(score, 2))];
    }),
  ) as Record<Sector, string>;
  return {
    droughtSeverity: hazards.drr === undefined ? 'UNKNOWN' : climbLadder(parameters.droughtSeverity, hazards.drr),
    stressScore: round((stress / parameters.maxCategory) * 100, 1),
    sectors,
    hazards,
    countriesWithData,
    basis: region.basis,
  };
}

function narrativeOf(regions: Record<string, WaterRegion>, globalStressIndex: number, rating: string): string {
  const ranked = Object.entries(regions).sort(([, a], [, b]) => b.stressScore - a.stressScore);
  const [topName, top] = ranked[0]!;
  const hotspots = ranked.flatMap(([name, region]) =>
    Object.entries(region.sectors)
      .filter(([, sectorRating]) => sectorRating === 'SEVERE')
      .map(([sector]) => `${sector} in ${name}`),
  );
  const severe = hotspots.length > 0 ? ` Sector ratings SEVERE: ${hotspots.join(', ')}.` : ' No sector rated SEVERE.';
  return (
    `Global water stress index ${globalStressIndex} (TNFD physical risk ${rating}). Highest: ${topName} (stress score ${top.stressScore}, baseline drought ${top.droughtSeverity}).${severe}` +
    ' Baseline hazards from WRI Aqueduct 4.0 country categories (2023 release), not current drought conditions.'
  );
}

/**
 * Spec §2 shape 12: six regions scored from WRI Aqueduct 4.0 country categories (baseline water
 * stress, drought and riverine flood risk), sector ratings from desk hazard weights, the global
 * stress index as the mean region score, and a TNFD physical-risk rating of it.
 */
export function computeWaterRisk(series: SeriesSet, parameters: WaterRiskParameters): SignalAnswer<WaterRisk> {
  const used = new Map<string, Series>();
  const regions: Record<string, WaterRegion> = {};
  const missing = [...parameters.alwaysMissing];
  for (const [name, region] of Object.entries(parameters.regions)) {
    const scored = scoreRegion(series, parameters, region, used);
    if (scored) regions[name] = scored;
    else missing.push(`regions.${name}: no Aqueduct category for ${region.countries.join(', ')}`);
  }
  const scores = Object.values(regions).map((region) => region.stressScore);
  if (scores.length === 0) throw new Error('water-risk: no region could be scored');
  const globalStressIndex = round(mean(scores), 1);
  const physicalRiskRating = climbLadder(parameters.tnfd.ratings, globalStressIndex);
  return {
    body: {
      globalStressIndex,
      regions,
      tnfdAlignment: { physicalRiskRating, disclosureRecommendation: parameters.tnfd.disclosureRecommendation[physicalRiskRating] ?? '' },
      narrative: narrativeOf(regions, globalStressIndex, physicalRiskRating),
    },
    inputs: [...used.values()],
    missing,
  };
}
