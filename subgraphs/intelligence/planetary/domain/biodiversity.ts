import { clamp, climbLadder, type LadderRule, latest, mean, readInputs, round, type Series, type SeriesSet, type SeriesSource, type SignalAnswer } from '../../domain/index.js';
import { fillTemplate } from './text.js';

/** One production process of the ENCORE knowledge base: its ISIC code and class, and a rating per ecosystem service. */
export interface DependencyProcess {
  isicCode: string;
  isicClass: string;
  ratings: Readonly<Record<string, string>>;
}

/** The ENCORE dependency ratings shipped in data/planetary/reference, and where they come from. */
export interface DependencyTable {
  processes: readonly DependencyProcess[];
  source: SeriesSource;
}

export interface BiodiversityParameters {
  series: { world: string; regions: string[]; freshwater: string };
  trendYears: number;
  trends: LadderRule<string>[];
  hotspotIndexAtMost: number;
  ratingScale: Record<string, number>;
  materialRatings: string[];
  excludedServices: string[];
  sectors: Record<string, { isicCode: string; isicClass?: string; label: string }>;
  exposureLevels: LadderRule<string>[];
  natureRisk: { stateOfNatureWeight: number; dependencyWeight: number };
  tnfdRatings: LadderRule<string>[];
  pai7: { exposureLevels: LadderRule<string>[]; disclosureFlagLevels: string[]; scopeNote: string };
  missing: { iucnCounts: string };
  narrative: Record<'state' | 'hotspots' | 'freshwater' | 'dependency' | 'frameworks', string>;
}

export interface SectorDependency {
  /** 0-100: the mean ENCORE rating over the services rated (VH = 100, N/A = 0). */
  dependencyScore: number;
  exposureLevel: string;
  isicCode: string;
  materialDependencies: string[];
}

export interface Hotspot {
  region: string;
  livingPlanetIndex: number;
  changeSince1970Pct: number;
}

export interface Biodiversity {
  globalBiodiversityIndex: number;
  natureRiskScore: number;
  tnfdRating: string;
  iucnSignals: { criticallyEndangered: number | null; endangered: number | null; trend: string; hotspots: Hotspot[] };
  sectorDependencyMatrix: Record<string, SectorDependency>;
  pai7: { biodiversitySensitiveAreaExposure: string; disclosureFlag: boolean; affectedRegions: string[] };
  narrative: string;
}

/** The region name of a long-layout series id (`lpi_owid:Africa` -> `Africa`). */
function regionOf(series: Series): string {
  return series.id.slice(series.id.indexOf(':') + 1);
}

function valueInYear(series: Series, year: number): number | undefined {
  return series.observations.find((observation) => observation.date.startsWith(`${year}-`))?.value;
}

/** The ENCORE dependency of one process as a 0-100 score, with the services rated material. */
export function scoreDependency(process: DependencyProcess, parameters: BiodiversityParameters): Omit<SectorDependency, 'exposureLevel' | 'isicCode'> {
  const rated = Object.entries(process.ratings).filter(([service, rating]) => !parameters.excludedServices.includes(service) && Object.hasOwn(parameters.ratingScale, rating));
  if (rated.length === 0) throw new Error(`biodiversity: no rated service for ${process.isicCode}`);
  const top = Math.max(...Object.values(parameters.ratingScale));
  const dependencyScore = round((mean(rated.map(([, rating]) => parameters.ratingScale[rating]!)) / top) * 100, 1);
  return { dependencyScore, materialDependencies: rated.filter(([, rating]) => parameters.materialRatings.includes(rating)).map(([service]) => service) };
}

function sectorMatrix(table: DependencyTable, parameters: BiodiversityParameters): { matrix: Record<string, SectorDependency>; missing: string[] } {
  const matrix: Record<string, SectorDependency> = {};
  const missing: string[] = [];
  for (const [sector, definition] of Object.entries(parameters.sectors)) {
    const process = table.processes.find((row) => row.isicCode === definition.isicCode && (definition.isicClass === undefined || row.isicClass === definition.isicClass));
    if (!process) {
      missing.push(`sectorDependencyMatrix.${sector}: ENCORE ${definition.isicCode}`);
      continue;
    }
    const scored = scoreDependency(process, parameters);
    matrix[sector] = { ...scored, exposureLevel: climbLadder(parameters.exposureLevels, scored.dependencyScore), isicCode: definition.isicCode };
  }
  return { matrix, missing };
}

function trendOf(world: Series, parameters: BiodiversityParameters): string {
  const last = latest(world);
  const endYear = Number(last.date.slice(0, 4));
  const start = valueInYear(world, endYear - parameters.trendYears);
  if (start === undefined) return 'UNKNOWN: the Living Planet Index series is too short for the trend window';
  const declinePct = round(((start - last.value) / start) * 100, 1);
  return `${climbLadder(parameters.trends, declinePct)}: the world Living Planet Index moved ${round(-declinePct, 1)}% from ${endYear - parameters.trendYears} to ${endYear}`;
}

function hotspotsOf(regions: readonly Series[], parameters: BiodiversityParameters): Hotspot[] {
  return regions
    .map((region) => ({ region: regionOf(region), livingPlanetIndex: round(latest(region).value, 1), changeSince1970Pct: round(latest(region).value - 100, 1) }))
    .filter((hotspot) => hotspot.livingPlanetIndex <= parameters.hotspotIndexAtMost)
    .sort((a, b) => a.livingPlanetIndex - b.livingPlanetIndex);
}

function pai7Of(hotspots: readonly Hotspot[], regionCount: number, parameters: BiodiversityParameters): Biodiversity['pai7'] {
  const sharePct = regionCount === 0 ? 0 : (hotspots.length / regionCount) * 100;
  const level = climbLadder(parameters.pai7.exposureLevels, sharePct);
  const exposure = `${level}: ${hotspots.length} of ${regionCount} regions have lost more than ${100 - parameters.hotspotIndexAtMost}% of their monitored vertebrate populations since 1970; ${parameters.pai7.scopeNote}`;
  return { biodiversitySensitiveAreaExposure: exposure, disclosureFlag: parameters.pai7.disclosureFlagLevels.includes(level), affectedRegions: hotspots.map((hotspot) => hotspot.region) };
}

function narrativeOf(world: Series, freshwater: Series | undefined, hotspots: readonly Hotspot[], matrix: Record<string, SectorDependency>, parameters: BiodiversityParameters): string {
  const last = latest(world);
  const text = parameters.narrative;
  const topSectors = Object.entries(matrix)
    .sort(([, a], [, b]) => b.dependencyScore - a.dependencyScore)
    .slice(0, 3)
    .map(([sector, dependency]) => `${sector} (${dependency.dependencyScore})`);
  return [
    fillTemplate(text.state, { index: round(last.value, 1), year: last.date.slice(0, 4), decline: round(100 - last.value, 1) }),
    fillTemplate(text.hotspots, { threshold: parameters.hotspotIndexAtMost, regions: hotspots.map((hotspot) => `${hotspot.region} (${hotspot.livingPlanetIndex})`).join(', ') || 'none' }),
    freshwater ? fillTemplate(text.freshwater, { freshwater: round(latest(freshwater).value, 1) }) : '',
    fillTemplate(text.dependency, { sectors: topSectors.join(', ') }),
    text.frameworks,
  ]
    .filter((sentence) => sentence !== '')
    .join(' ');
}

/**
 * Nature risk (spec §2 shape 15): the state of nature from the Living Planet Index, sector
 * dependency from ENCORE, a TNFD-style rating of the two, the SFDR PAI 7 screen. The IUCN counts
 * stay null: the Red List is not open for commercial use, so they are named missing.
 */
export function computeBiodiversity(series: SeriesSet, table: DependencyTable, parameters: BiodiversityParameters): SignalAnswer<Biodiversity> {
  const read = readInputs(series, [parameters.series.world, ...parameters.series.regions, parameters.series.freshwater]);
  const world = read.found[parameters.series.world];
  if (!world) throw new Error(`biodiversity: missing ${parameters.series.world}`);
  const regions = parameters.series.regions.flatMap((id) => read.found[id] ?? []);
  const hotspots = hotspotsOf(regions, parameters);
  const { matrix, missing } = sectorMatrix(table, parameters);
  const scores = Object.values(matrix).map((sector) => sector.dependencyScore);
  const stateOfNature = clamp(100 - latest(world).value, 0, 100);
  const parts = [{ value: stateOfNature, weight: parameters.natureRisk.stateOfNatureWeight }, ...(scores.length > 0 ? [{ value: mean(scores), weight: parameters.natureRisk.dependencyWeight }] : [])];
  const natureRiskScore = round(parts.reduce((sum, part) => sum + part.value * part.weight, 0) / parts.reduce((sum, part) => sum + part.weight, 0), 1);
  const body: Biodiversity = {
    globalBiodiversityIndex: round(latest(world).value, 1),
    natureRiskScore,
    tnfdRating: climbLadder(parameters.tnfdRatings, natureRiskScore),
    iucnSignals: { criticallyEndangered: null, endangered: null, trend: trendOf(world, parameters), hotspots },
    sectorDependencyMatrix: matrix,
    pai7: pai7Of(hotspots, regions.length, parameters),
    narrative: narrativeOf(world, read.found[parameters.series.freshwater], hotspots, matrix, parameters),
  };
  return { body, inputs: [...read.used, table.source], missing: [parameters.missing.iucnCounts, ...read.missing, ...missing] };
}
