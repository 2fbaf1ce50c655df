import { changeBy, climbLadder, type LadderRule, latest, readInputs, round, type Series, type SeriesSet, type SeriesSource, type SignalAnswer } from '../../domain/index.js';
import { linearPressure, trailingMean, weightedPressure, yearWindowMean } from './measures.js';

type ComponentName = 'temperature' | 'co2' | 'tippingPoints' | 'seaLevel';
type SeriesRole = 'co2' | 'co2Global' | 'temperature' | 'baseOffset' | 'seaLevel';

/** A global core tipping element with its published warming thresholds, degrees C above 1850-1900. */
export interface TippingElement {
  id: string;
  name: string;
  centralC: number;
  minC: number;
  maxC: number;
}

/** The published thresholds and where they come from (data/planetary/reference/tipping-points.json). */
export interface TippingPointTable {
  elements: readonly TippingElement[];
  source: SeriesSource;
}

/** One proximity rule: holds when warming reaches the element's `reference` threshold plus `offsetC`; no reference: always holds. */
export interface ProximityRule {
  risk: string;
  reference?: 'minC' | 'centralC' | 'maxC';
  offsetC?: number;
}

export interface EarthSystemsParameters {
  series: Record<SeriesRole, string>;
  temperature: { averagingMonths: number; seriesBase: YearRange; preIndustrial: YearRange; parisLimitC: number };
  co2: { growthDays: number; averagingMonths: number };
  seaLevel: { windowYears: number };
  components: Record<ComponentName, { weight: number; safe: number; critical: number; label: string }>;
  co2Signals: LadderRule<string>[];
  proximityRules: ProximityRule[];
  tippingPointAlerts: LadderRule<string>[];
  planetaryStatuses: LadderRule<string>[];
}

interface YearRange {
  fromYear: number;
  toYear: number;
}

export interface EarthSystems {
  sustainability: { earthHealthIndex: number; planetaryStatus: string; tippingPointAlert: string };
  atmosphere: {
    co2: { currentPpm: number; signal: string };
    temperature: { currentAnomalyC: number; distanceToParisC: number };
  };
  tippingPoints: Array<{ name: string; proximityRisk: string; threshold: string }>;
}

/** The element's risk: the first proximity rule from the top that warming satisfies. */
export function proximityRisk(element: TippingElement, warmingC: number, rules: readonly ProximityRule[]): string {
  for (const rule of rules) {
    // Rounded so that a bound such as 0.8 - 0.5 is 0.3, not 0.30000000000000004.
    if (rule.reference === undefined || warmingC >= round(element[rule.reference] + (rule.offsetC ?? 0), 6)) return rule.risk;
  }
  throw new Error('the proximity rules must end with a rule without a reference');
}

/**
 * Warming above 1850-1900: the trailing mean of the series (anomalies against `seriesBase`) plus the
 * warming of `seriesBase` over `preIndustrial`, measured in `baseOffset`, a series that spans both.
 */
export function warmingAbovePreIndustrial(temperature: Series, baseOffset: Series, parameters: EarthSystemsParameters['temperature']): { warmingC: number; offsetC: number; asOf: string } {
  const base = yearWindowMean(baseOffset, parameters.seriesBase.fromYear, parameters.seriesBase.toYear);
  const preIndustrial = yearWindowMean(baseOffset, parameters.preIndustrial.fromYear, parameters.preIndustrial.toYear);
  if (base === undefined || preIndustrial === undefined) throw new Error(`earth-systems: ${baseOffset.id} does not cover both base periods`);
  const recent = trailingMean(temperature, parameters.averagingMonths);
  return { warmingC: recent.value + (base - preIndustrial), offsetC: base - preIndustrial, asOf: recent.asOf };
}

/** Ratio of the rise rate over the last `windowYears` to the rate over the first `windowYears` of the record. */
export function seaLevelAcceleration(seaLevel: Series, windowYears: number): number | undefined {
  const observations = seaLevel.observations;
  if (observations.length < 2 * windowYears + 1) return undefined;
  const first = (observations[windowYears]!.value - observations[0]!.value) / windowYears;
  const last = (observations.at(-1)!.value - observations.at(-1 - windowYears)!.value) / windowYears;
  return first > 0 ? last / first : undefined;
}

function co2Signal(co2: Series, co2Global: Series | undefined, parameters: EarthSystemsParameters): string {
  const now = latest(co2);
  const growth = changeBy(co2, parameters.co2.growthDays);
  const zone = climbLadder(parameters.co2Signals, now.value);
  const growthText = growth === undefined ? '' : `, ${growth >= 0 ? '+' : ''}${round(growth, 2)} ppm on the same month a year earlier`;
  const globalText = co2Global ? `; global marine surface mean ${latest(co2Global).value} ppm (${latest(co2Global).date.slice(0, 7)})` : '';
  return `${zone}: ${now.value} ppm at Mauna Loa (${now.date.slice(0, 7)})${growthText}${globalText}`;
}

function thresholdText(element: TippingElement): string {
  return `${element.centralC} C (range ${element.minC}-${element.maxC} C above 1850-1900; Armstrong McKay et al. 2022)`;
}

function tippingAlert(inRange: readonly TippingElement[], total: number, warmingC: number, parameters: EarthSystemsParameters): string {
  const level = climbLadder(parameters.tippingPointAlerts, inRange.length);
  const names = inRange.length === 0 ? 'none' : inRange.map((element) => element.id).join(', ');
  return `${level}: ${inRange.length} of ${total} core tipping elements inside their threshold range at ${round(warmingC, 2)} C (${names})`;
}

/**
 * Planetary health (spec §2 shape 2): atmospheric CO2 and warming against the Paris limit, the
 * nine core tipping elements' proximity, and the Earth Health Index, 100 minus the weighted
 * pressure of temperature, CO2, tipping elements and sea-level acceleration.
 */
export function computeEarthSystems(series: SeriesSet, tipping: TippingPointTable, parameters: EarthSystemsParameters): SignalAnswer<EarthSystems> {
  const read = readInputs(series, Object.values(parameters.series));
  const found = (role: SeriesRole) => read.found[parameters.series[role]];
  const [co2, temperature, baseOffset] = [found('co2'), found('temperature'), found('baseOffset')];
  if (!co2 || !temperature || !baseOffset) throw new Error(`earth-systems: missing ${read.missing.join(', ')}`);
  const { warmingC } = warmingAbovePreIndustrial(temperature, baseOffset, parameters.temperature);
  const inRange = tipping.elements.filter((element) => warmingC >= element.minC);
  const seaLevel = found('seaLevel');
  const acceleration = seaLevel ? seaLevelAcceleration(seaLevel, parameters.seaLevel.windowYears) : undefined;
  const measured: Array<[ComponentName, number | undefined]> = [
    ['temperature', warmingC],
    ['co2', trailingMean(co2, parameters.co2.averagingMonths).value],
    ['tippingPoints', inRange.length],
    ['seaLevel', acceleration],
  ];
  const pressures = measured.flatMap(([name, value]) => (value === undefined ? [] : [{ value: linearPressure(value, parameters.components[name]), weight: parameters.components[name].weight }]));
  const earthHealthIndex = round(100 - weightedPressure(pressures), 1);
  const body: EarthSystems = {
    sustainability: {
      earthHealthIndex,
      planetaryStatus: climbLadder(parameters.planetaryStatuses, earthHealthIndex),
      tippingPointAlert: tippingAlert(inRange, tipping.elements.length, warmingC, parameters),
    },
    atmosphere: {
      co2: { currentPpm: latest(co2).value, signal: co2Signal(co2, found('co2Global'), parameters) },
      temperature: { currentAnomalyC: round(warmingC, 2), distanceToParisC: round(parameters.temperature.parisLimitC - warmingC, 2) },
    },
    tippingPoints: tipping.elements.map((element) => ({ name: element.name, proximityRisk: proximityRisk(element, warmingC, parameters.proximityRules), threshold: thresholdText(element) })),
  };
  return { body, inputs: [...read.used, tipping.source], missing: read.missing };
}
