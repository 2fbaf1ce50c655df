import { climbLadder, type LadderRule, latest, round, type Series, type SeriesSet, type SignalAnswer } from '../../domain/index.js';
import { fillTemplate } from './text.js';

export type RegionSignal = 'HEAT_AND_DROUGHT' | 'HEAT' | 'DROUGHT' | 'COLD' | 'NORMAL' | 'NO_DATA';

export interface ClimatePulseParameters {
  regions: Array<{ name: string; states: string[]; commodities: string[] }>;
  seriesIds: { temperatureAnomaly: string; droughtIndex: string };
  heatAnomalyAtLeastC: number;
  coldAnomalyAtMostC: number;
  droughtSeverity: LadderRule<string>[];
  droughtFrom: string;
  overallSignals: LadderRule<string>[];
  laborProductivity: LadderRule<string>[];
  texts: Record<'laborHigh' | 'laborModerate' | 'laborLow' | 'commodityCalm' | 'noData', string>;
}

export interface PulseRegion {
  name: string;
  /** 30-day mean anomaly, degrees C against 1991-2020; null when the region's series is not in the dataset. */
  tempAnomaly: number | null;
  droughtSeverity: string;
  commodityImpact: string[];
  signal: RegionSignal;
}

export interface ClimatePulse {
  summary: { overallSignal: string; regionsWithHeatAnomaly: number; regionsWithDrought: number; commoditySignal: string; laborProductivityImpact: string };
  regions: PulseRegion[];
}

/** Series id of a region's input: the long-layout convention `<series>:<region>`. */
export function regionSeriesId(series: string, region: string): string {
  return `${series}:${region}`;
}

function isDrought(severity: string, parameters: ClimatePulseParameters): boolean {
  const ladder = parameters.droughtSeverity.map((rule) => rule.regime);
  return ladder.includes(severity) && ladder.indexOf(severity) <= ladder.indexOf(parameters.droughtFrom);
}

/** The region's signal from its anomaly and drought class (either may be unknown). */
export function regionSignal(tempAnomaly: number | null, droughtSeverity: string | null, parameters: ClimatePulseParameters): RegionSignal {
  if (tempAnomaly === null && droughtSeverity === null) return 'NO_DATA';
  const heat = tempAnomaly !== null && tempAnomaly >= parameters.heatAnomalyAtLeastC;
  const drought = droughtSeverity !== null && isDrought(droughtSeverity, parameters);
  if (heat && drought) return 'HEAT_AND_DROUGHT';
  if (heat) return 'HEAT';
  if (drought) return 'DROUGHT';
  return tempAnomaly !== null && tempAnomaly <= parameters.coldAnomalyAtMostC ? 'COLD' : 'NORMAL';
}

function readRegion(region: ClimatePulseParameters['regions'][number], series: SeriesSet, parameters: ClimatePulseParameters, used: Series[], missing: string[]): PulseRegion {
  const read = (kind: keyof ClimatePulseParameters['seriesIds']): Series | undefined => {
    const id = regionSeriesId(parameters.seriesIds[kind], region.name);
    const found = series.get(id);
    if (found && found.observations.length > 0) used.push(found);
    else missing.push(id);
    return found && found.observations.length > 0 ? found : undefined;
  };
  const temperature = read('temperatureAnomaly');
  const drought = read('droughtIndex');
  const tempAnomaly = temperature ? round(latest(temperature).value, 2) : null;
  const severity = drought ? climbLadder(parameters.droughtSeverity, latest(drought).value) : null;
  const signal = regionSignal(tempAnomaly, severity, parameters);
  const stressed = signal === 'HEAT' || signal === 'DROUGHT' || signal === 'HEAT_AND_DROUGHT';
  return { name: region.name, tempAnomaly, droughtSeverity: severity ?? 'NO_DATA', commodityImpact: stressed ? [...region.commodities] : [], signal };
}

function laborImpact(heatRegions: readonly PulseRegion[], parameters: ClimatePulseParameters): string {
  const level = climbLadder(parameters.laborProductivity, heatRegions.length);
  const names = heatRegions.map((region) => region.name).join(', ');
  const template = level === 'HIGH' ? parameters.texts.laborHigh : level === 'MODERATE' ? parameters.texts.laborModerate : parameters.texts.laborLow;
  return `${level}: ${fillTemplate(template, { count: heatRegions.length, regions: names })}`;
}

function commoditySignal(regions: readonly PulseRegion[], parameters: ClimatePulseParameters): string {
  const stressed = regions.filter((region) => region.commodityImpact.length > 0);
  if (stressed.length === 0) return parameters.texts.commodityCalm;
  return stressed.map((region) => `${region.name} ${region.signal.toLowerCase().replaceAll('_', ' ')}: ${region.commodityImpact.join(', ')}`).join('; ');
}

/**
 * Temperature anomaly and drought in eight US economic regions (spec §2 shape 9). A region whose
 * series are absent answers NO_DATA with a null anomaly, and its series ids go to `missing`; the
 * summary counts only regions with data, and says NO_DATA when none has any.
 */
export function computeClimatePulse(series: SeriesSet, parameters: ClimatePulseParameters): SignalAnswer<ClimatePulse> {
  const used: Series[] = [];
  const missing: string[] = [];
  const regions = parameters.regions.map((region) => readRegion(region, series, parameters, used, missing));
  const heat = regions.filter((region) => region.signal === 'HEAT' || region.signal === 'HEAT_AND_DROUGHT');
  const drought = regions.filter((region) => region.signal === 'DROUGHT' || region.signal === 'HEAT_AND_DROUGHT');
  const stressedCount = regions.filter((region) => region.commodityImpact.length > 0).length;
  const noData = regions.every((region) => region.signal === 'NO_DATA');
  const summary = {
    overallSignal: noData ? 'NO_DATA' : climbLadder(parameters.overallSignals, stressedCount),
    regionsWithHeatAnomaly: heat.length,
    regionsWithDrought: drought.length,
    commoditySignal: noData ? parameters.texts.noData : commoditySignal(regions, parameters),
    laborProductivityImpact: noData ? `UNKNOWN: ${parameters.texts.noData}` : laborImpact(heat, parameters),
  };
  return { body: { summary, regions }, inputs: used, missing };
}
