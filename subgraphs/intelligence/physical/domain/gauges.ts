import { climbLadder, daysBetween, type LadderRule, latest, percentileRank, round, type Series, type SeriesSet } from '../../domain/index.js';

/** The four chokepoints of spec §2 shape 4 (rhineKaub and mississippi named by the spec; panamaCanal and greatLakes added by the brief). */
export type GaugeName = 'rhineKaub' | 'mississippi' | 'panamaCanal' | 'greatLakes';

/** The status a gauge entry carries when no open series exists for it (decision 0064). */
export const DATA_UNAVAILABLE = 'DATA_UNAVAILABLE';

export interface GaugeParameters {
  label: string;
  /** The shipped series of the gauge; null when none exists openly (then `missingInput` names what is missing). */
  series: string | null;
  missingInput: string;
  /** Multiplier from the series' units to centimetres. */
  toCm: number;
  /** What the level is measured against (a gauge zero, a lake datum). */
  reference: string;
  /**
   * absolute: the status ladder reads the level in cm; seasonalPercentile: it reads the percentile
   * rank (0-100) of the latest value among the same calendar month of every year on record.
   */
  method: 'absolute' | 'seasonalPercentile';
  statusLadder: LadderRule<string>[];
  /** A reading older than this on the answer's day is flagged stale: the entry is not a live level. */
  maxAgeDays: number;
}

export interface GaugesParameters {
  gauges: Record<GaugeName, GaugeParameters>;
  /** Bottleneck risk of each status, shared by every gauge. */
  bottleneckRisk: Record<string, string>;
}

export interface GaugeReading {
  /** Null only for a gauge with no open series (status DATA_UNAVAILABLE): a level is never invented. */
  levelCm: number | null;
  status: string;
  bottleneckRisk: string;
  asOf: string | null;
  stale: boolean;
  reference: string;
  /** Percentile of the reading among the same calendar month on record (seasonalPercentile gauges only). */
  seasonalPercentile?: number;
}

export interface GaugeSet {
  readings: Record<GaugeName, GaugeReading>;
  used: Series[];
  missing: string[];
}

function unavailable(gauge: GaugeParameters, parameters: GaugesParameters): GaugeReading {
  return { levelCm: null, status: DATA_UNAVAILABLE, bottleneckRisk: parameters.bottleneckRisk[DATA_UNAVAILABLE] ?? 'UNKNOWN', asOf: null, stale: true, reference: gauge.reference };
}

/** Percentile rank (0-100) of the latest observation among the observations of the same calendar month. */
export function seasonalPercentile(series: Series): number {
  const last = latest(series);
  const month = last.date.slice(5, 7);
  const sameMonth = series.observations.filter((observation) => observation.date.slice(5, 7) === month).map((observation) => observation.value);
  return round(percentileRank(sameMonth, last.value), 1);
}

function readGauge(series: Series, gauge: GaugeParameters, parameters: GaugesParameters, today: string): GaugeReading {
  const last = latest(series);
  const levelCm = round(last.value * gauge.toCm, 1);
  const percentile = gauge.method === 'seasonalPercentile' ? seasonalPercentile(series) : undefined;
  const status = climbLadder(gauge.statusLadder, percentile ?? levelCm);
  const reading: GaugeReading = {
    levelCm,
    status,
    bottleneckRisk: parameters.bottleneckRisk[status] ?? 'UNKNOWN',
    asOf: last.date,
    stale: daysBetween(last.date, today) > gauge.maxAgeDays,
    reference: gauge.reference,
  };
  return percentile === undefined ? reading : { ...reading, seasonalPercentile: percentile };
}

/** Every chokepoint gauge: its latest level, status and bottleneck risk, or DATA_UNAVAILABLE with the missing input named. */
export function readGauges(series: SeriesSet, parameters: GaugesParameters, today: string): GaugeSet {
  const readings = {} as Record<GaugeName, GaugeReading>;
  const used: Series[] = [];
  const missing: string[] = [];
  for (const [name, gauge] of Object.entries(parameters.gauges) as Array<[GaugeName, GaugeParameters]>) {
    const found = gauge.series === null ? undefined : series.get(gauge.series);
    if (!found || found.observations.length === 0) {
      readings[name] = unavailable(gauge, parameters);
      missing.push(`waterLevels.${name}: ${gauge.missingInput}`);
      continue;
    }
    readings[name] = readGauge(found, gauge, parameters, today);
    used.push(found);
  }
  return { readings, used, missing };
}
