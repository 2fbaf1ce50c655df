import { climbLadder, type LadderRule, type Observation, percentileRank, readInputs, round, type Series, type SeriesSet, type SeriesSource, shiftDate, type SignalAnswer } from '../../domain/index.js';

export type MacroRegime = 'EXPANSION' | 'LATE_CYCLE' | 'STRESS' | 'CRISIS';
type ComponentName = 'igSpread' | 'hySpread' | 'tedSpread' | 'vix' | 'lendingStandards';

export interface MacroStressParameters {
  lookbackYears: number;
  components: Record<ComponentName, { weight: number; label: string; series: string[]; units: string }>;
  unverifiedObservations: Record<string, { dates: string[]; reason: string }>;
  componentSignals: LadderRule<string>[];
  regimes: LadderRule<MacroRegime>[];
  leadSignals: Record<MacroRegime, { lookAheadWeeks: number; fxImplication: string }>;
}

export interface MacroComponent {
  value: number;
  signal: string;
  /** Percentile rank (0-100) of the value among the component's observations of the lookback window. */
  score: number;
  units: string;
  asOf: string;
}

export interface MacroStress {
  stressIndex: number;
  regime: MacroRegime;
  components: Partial<Record<ComponentName, MacroComponent>>;
  leadSignals: { fxImplication: string; lookAheadWeeks: number };
}

/** The series a component reads, as one series of values: a spread of two series is their difference on common dates, in basis points. */
function componentObservations(inputs: Series[]): Observation[] {
  if (inputs.length === 1) return [...inputs[0]!.observations];
  const [minuend, subtrahend] = inputs as [Series, Series];
  const other = new Map(subtrahend.observations.map((observation) => [observation.date, observation.value]));
  return minuend.observations.flatMap((observation) => {
    const value = other.get(observation.date);
    return value === undefined ? [] : [{ date: observation.date, value: (observation.value - value) * 100 }];
  });
}

function scoreComponent(observations: Observation[], parameters: MacroStressParameters, units: string, label: string): MacroComponent {
  const last = observations.at(-1)!;
  const window = observations.filter((observation) => observation.date >= shiftDate(last.date, -Math.round(parameters.lookbackYears * 365.25))).map((observation) => observation.value);
  const score = round(percentileRank(window, last.value), 1);
  const level = climbLadder(parameters.componentSignals, score);
  return { value: round(last.value, 2), signal: `${level}: ${label} at percentile ${Math.round(score)} of its last ${parameters.lookbackYears} years`, score, units, asOf: last.date };
}

function withoutUnverified(series: Series, parameters: MacroStressParameters): Series {
  const unverified = parameters.unverifiedObservations[series.id];
  if (!unverified) return series;
  const observations = series.observations.filter((observation) => !unverified.dates.includes(observation.date));
  return { ...series, observations, asOf: observations.at(-1)?.date ?? series.asOf };
}

/**
 * The credit regime (spec §2 shape 3): five components, each the percentile rank of its latest
 * value over the lookback window; the stress index their weighted mean over those present; the
 * regime the first rung of the ladder the index reaches.
 */
export function computeMacroStress(series: SeriesSet, parameters: MacroStressParameters): SignalAnswer<MacroStress> {
  const components: Partial<Record<ComponentName, MacroComponent>> = {};
  const used: SeriesSource[] = [];
  const missing: string[] = [];
  let weighted = 0;
  let weights = 0;
  for (const [name, component] of Object.entries(parameters.components) as Array<[ComponentName, MacroStressParameters['components'][ComponentName]]>) {
    const read = readInputs(series, component.series);
    if (read.missing.length > 0) {
      missing.push(...read.missing.map((id) => `${name}: ${id}`));
      continue;
    }
    const inputs = read.used.map((one) => withoutUnverified(one, parameters));
    const observations = componentObservations(inputs);
    if (observations.length === 0) continue;
    components[name] = scoreComponent(observations, parameters, component.units, component.label);
    used.push(...inputs);
    weighted += components[name].score * component.weight;
    weights += component.weight;
  }
  if (weights === 0) throw new Error('macro-stress: no component could be computed');
  const stressIndex = round(weighted / weights, 1);
  const regime = climbLadder(parameters.regimes, stressIndex);
  return { body: { stressIndex, regime, components, leadSignals: parameters.leadSignals[regime] }, inputs: used, missing };
}
