import { climbLadder, type LadderRule, latest, onOrBefore, readInputs, round, type Series, type SeriesSet, shiftDate, type SignalAnswer } from '../../domain/index.js';

export type RenewableTrend = 'ACCELERATING' | 'RISING' | 'FLAT' | 'FALLING';
export type FossilDemandCurve = 'DECLINING' | 'PLATEAU' | 'RISING';
type Grid = 'us' | 'eu' | 'global';

export interface FossilCurveRule {
  curve: FossilDemandCurve;
  /** Holds when the latest year is at most this far above (negative: at least this far below) the series' peak, in percent. */
  maxChangeFromPeakPct?: number;
  /** Holds when the change over the trend window is at most this, in percent. */
  maxChangePct?: number;
}

export interface SignalRule {
  signal: string;
  renewableTrend?: RenewableTrend[];
  fossilDemandCurve?: FossilDemandCurve[];
  text: string;
}

export interface EnergyTransitionParameters {
  renewableShareSeries: string;
  fossilSeries: string;
  carbonIntensitySeries: Record<Grid, string>;
  trendYears: number;
  renewableTrend: LadderRule<RenewableTrend>[];
  fossilCurve: FossilCurveRule[];
  signals: SignalRule[];
  unit: string;
  carbonIntensityBasis: string;
  vintageNote: string;
}

export interface FossilDemand {
  latestTwh: number;
  latestYear: number;
  peakTwh: number;
  peakYear: number;
  changeFromPeakPct: number;
  changePct: number;
  windowYears: number;
}

export interface EnergyTransition {
  renewableSharePct: number;
  renewableShareYear: number;
  renewableTrend: RenewableTrend;
  renewableTrendPpPerYear: number;
  fossilDemandCurve: FossilDemandCurve;
  fossilDemand: FossilDemand;
  signal: string;
  signalText: string;
  gridCarbonIntensity: { us: number | null; eu: number | null; global: number | null; unit: string; year: number | null; basis: string };
  dataVintage: string;
}

const year = (date: string) => Number(date.slice(0, 4));

/** The observation `years` calendar years before the latest one (annual series dated YYYY-01-01). */
function yearsBefore(series: Series, years: number) {
  const last = latest(series);
  const start = onOrBefore(series, shiftDate(last.date, -Math.round(years * 365.25)));
  if (!start || start.date === last.date) throw new Error(`energy-transition: ${series.id} has no observation ${years} years before its latest`);
  return { last, start, years: year(last.date) - year(start.date) };
}

function fossilDemandOf(series: Series, years: number): FossilDemand {
  const { last, start, years: window } = yearsBefore(series, years);
  const peak = series.observations.reduce((top, observation) => (observation.value > top.value ? observation : top));
  return {
    latestTwh: round(last.value, 1),
    latestYear: year(last.date),
    peakTwh: round(peak.value, 1),
    peakYear: year(peak.date),
    changeFromPeakPct: round((last.value / peak.value - 1) * 100, 2),
    changePct: round((last.value / start.value - 1) * 100, 2),
    windowYears: window,
  };
}

function curveOf(demand: FossilDemand, rules: FossilCurveRule[]): FossilDemandCurve {
  const rule = rules.find(
    (candidate) =>
      (candidate.maxChangeFromPeakPct === undefined || demand.changeFromPeakPct <= candidate.maxChangeFromPeakPct) &&
      (candidate.maxChangePct === undefined || demand.changePct <= candidate.maxChangePct),
  );
  if (!rule) throw new Error('energy-transition: the fossil curve rules must end with a rule without conditions');
  return rule.curve;
}

function signalOf(trend: RenewableTrend, curve: FossilDemandCurve, rules: SignalRule[]): SignalRule {
  const rule = rules.find((candidate) => (candidate.renewableTrend?.includes(trend) ?? true) && (candidate.fossilDemandCurve?.includes(curve) ?? true));
  if (!rule) throw new Error('energy-transition: the signal rules must end with a rule without conditions');
  return rule;
}

function gridIntensity(series: SeriesSet, parameters: EnergyTransitionParameters) {
  const ids = Object.values(parameters.carbonIntensitySeries);
  const read = readInputs(series, ids);
  const valueOf = (grid: Grid) => {
    const found = read.found[parameters.carbonIntensitySeries[grid]];
    return found ? round(latest(found).value, 1) : null;
  };
  const years = read.used.map((one) => year(latest(one).date));
  const grid = { us: valueOf('us'), eu: valueOf('eu'), global: valueOf('global'), unit: parameters.unit, year: years.length > 0 ? Math.max(...years) : null, basis: parameters.carbonIntensityBasis };
  return { grid, used: read.used, missing: read.missing.map((id) => `gridCarbonIntensity: ${id}`) };
}

/**
 * Spec §2 shape 5: the US renewable share of electricity and its trend (percentage points a year
 * over the trend window), the US fossil demand curve (against its peak and over the window), a
 * transition signal from both, and grid carbon intensity for the US, the EU and the world.
 */
export function computeEnergyTransition(series: SeriesSet, parameters: EnergyTransitionParameters): SignalAnswer<EnergyTransition> {
  const read = readInputs(series, [parameters.renewableShareSeries, parameters.fossilSeries]);
  const share = read.found[parameters.renewableShareSeries];
  const fossil = read.found[parameters.fossilSeries];
  if (!share || !fossil) throw new Error(`energy-transition: missing ${read.missing.join(', ')}`);
  const shareWindow = yearsBefore(share, parameters.trendYears);
  const renewableTrendPpPerYear = round((shareWindow.last.value - shareWindow.start.value) / shareWindow.years, 2);
  const renewableTrend = climbLadder(parameters.renewableTrend, renewableTrendPpPerYear);
  const fossilDemand = fossilDemandOf(fossil, parameters.trendYears);
  const fossilDemandCurve = curveOf(fossilDemand, parameters.fossilCurve);
  const signal = signalOf(renewableTrend, fossilDemandCurve, parameters.signals);
  const grid = gridIntensity(series, parameters);
  const body: EnergyTransition = {
    renewableSharePct: round(shareWindow.last.value, 1),
    renewableShareYear: year(shareWindow.last.date),
    renewableTrend,
    renewableTrendPpPerYear,
    fossilDemandCurve,
    fossilDemand,
    signal: signal.signal,
    signalText: signal.text,
    gridCarbonIntensity: grid.grid,
    dataVintage: parameters.vintageNote,
  };
  return { body, inputs: [share, fossil, ...grid.used], missing: grid.missing };
}
