import { climbLadder, type LadderRule, round, type SeriesSet, type SeriesSource, type SignalAnswer, weightedMean } from '../../domain/index.js';
import { type CurrencyMeasure, type CurrencyReadParameters, currencySignal, measureCurrency, type PressureParameters, readPressure } from './currency.js';
import { signedPercent } from './moves.js';

type Extra = 'capitalFlowDirection' | 'interventionRisk' | 'pbocPressure' | 'carryRisk';
type PressureLevel = 'HIGH' | 'ELEVATED' | 'LOW';

interface CurrencyDefinition {
  series: string;
  quotedPerUsd: boolean;
  extra: Extra;
  /** Key of `pressures` for the risk extras. */
  pressure?: string;
}

export interface CurrencyStressParameters extends CurrencyReadParameters {
  groupWeights: { g10: number; emergingMarkets: number };
  dollar: { regimes: LadderRule<string>[] };
  g10: Record<string, CurrencyDefinition>;
  emergingMarkets: Record<string, CurrencyDefinition>;
  signalLevels: LadderRule<string>[];
  capitalFlow: { ladder: LadderRule<string>[] };
  pressures: Record<string, PressureParameters<PressureLevel>>;
  pressureTexts: Record<string, string>;
  corridors: string[];
  corridorTexts: Record<string, string>;
  narratives: Record<string, string>;
}

/** One currency of a group: its signal, its 30-day change as text, and the extra its group names. */
export interface CurrencyEntry {
  signal: string;
  /** Change of the currency's value in dollars over 30 days, signed text (`+1.26%`); for USD the broad dollar index. */
  '30dChange': string;
  /** 0-100: mean of the percentile ranks of the 30-day move size and of the 30-day realised volatility. */
  score: number;
  /** Latest published rate (units per USD; the index for USD). */
  rate: number;
  asOf: string;
  capitalFlowDirection?: string;
  interventionRisk?: string;
  pbocPressure?: string;
  carryRisk?: string;
}

export interface CurrencyStress {
  dollarRegime: string;
  stressIndex: number;
  g10: Record<string, CurrencyEntry>;
  emergingMarkets: Record<string, CurrencyEntry>;
  settlementCorridorImpact: Record<string, string>;
  narrative: string;
}

function extraOf(code: string, definition: CurrencyDefinition, measure: CurrencyMeasure, parameters: CurrencyStressParameters): Partial<CurrencyEntry> {
  if (definition.extra === 'capitalFlowDirection') return { capitalFlowDirection: climbLadder(parameters.capitalFlow.ladder, round(measure.changePct, 2)) };
  const key = definition.pressure ?? '';
  const pressure = parameters.pressures[key];
  if (!pressure) throw new Error(`currency-stress: no pressure rules "${key}" for ${code}`);
  const level = readPressure(measure, pressure);
  const range = `at percentile ${Math.round(measure.valuePercentile)} of its ${parameters.lookbackYears}-year range in dollars (0 = weakest), rate ${measure.rate}`;
  const text = `${level}: ${parameters.pressureTexts[key] ?? key}; ${code} ${signedPercent(measure.changePct)} in ${parameters.changeDays} days, ${range}`;
  return { [definition.extra]: text };
}

function readGroup(definitions: Record<string, CurrencyDefinition>, set: SeriesSet, parameters: CurrencyStressParameters, used: SeriesSource[], missing: string[]) {
  const entries: Record<string, CurrencyEntry> = {};
  const measures: Record<string, CurrencyMeasure> = {};
  for (const [code, definition] of Object.entries(definitions)) {
    const series = set.get(definition.series);
    const measure = series ? measureCurrency(series, definition.quotedPerUsd, parameters) : undefined;
    if (!series || !measure) {
      missing.push(`${code}: ${definition.series}`);
      continue;
    }
    used.push(series);
    measures[code] = measure;
    const subject = code === 'USD' ? 'broad dollar index' : `${code} in dollars`;
    entries[code] = {
      signal: currencySignal(subject, measure, parameters.signalLevels, parameters.lookbackYears, parameters.changeDays),
      '30dChange': signedPercent(measure.changePct),
      score: measure.score,
      rate: measure.rate,
      asOf: measure.asOf,
      ...extraOf(code, definition, measure, parameters),
    };
  }
  return { entries, measures };
}

function corridorImpacts(measures: Record<string, CurrencyMeasure>, parameters: CurrencyStressParameters): Record<string, string> {
  return Object.fromEntries(
    parameters.corridors.map((corridor) => {
      const quote = corridor.split('_')[1] ?? corridor;
      const measure = measures[quote];
      if (!measure) return [corridor, `UNKNOWN: no ${quote} series in the snapshot`];
      const level = climbLadder(parameters.signalLevels, measure.score);
      const figures = `${quote} realised volatility ${measure.volatility.toFixed(1)}% (percentile ${Math.round(measure.volatilityPercentile)}), ${signedPercent(measure.changePct)} against the dollar in ${parameters.changeDays} days`;
      return [corridor, `${level}: ${figures}; ${parameters.corridorTexts[level] ?? ''}`];
    }),
  );
}

function groupMean(entries: Record<string, CurrencyEntry>): number | undefined {
  const scores = Object.values(entries).map((entry) => entry.score);
  return scores.length === 0 ? undefined : scores.reduce((sum, score) => sum + score, 0) / scores.length;
}

function narrativeOf(regime: string, stressIndex: number, dollar: CurrencyMeasure | undefined, entries: Record<string, CurrencyEntry>, parameters: CurrencyStressParameters): string {
  const dollarText = dollar ? ` Broad dollar index ${dollar.rate} (${signedPercent(dollar.changePct)} in ${parameters.changeDays} days).` : '';
  const top = Object.entries(entries)
    .sort(([, a], [, b]) => b.score - a.score)
    .slice(0, 3)
    .map(([code, entry]) => `${code} (${entry.score})`);
  return `${parameters.narratives[regime] ?? ''}${dollarText} Currency stress ${stressIndex}; most stressed: ${top.join(', ')}.`;
}

/**
 * Currency stress (spec §2 shape 14): ten G10 currencies (the dollar by the broad index) and ten
 * emerging-market currencies, each scored by how unusual its last 30 days were against its own
 * ten years (move size and realised volatility); the dollar regime from the broad index's move.
 */
export function computeCurrencyStress(set: SeriesSet, parameters: CurrencyStressParameters): SignalAnswer<CurrencyStress> {
  const used: SeriesSource[] = [];
  const missing: string[] = [];
  const g10 = readGroup(parameters.g10, set, parameters, used, missing);
  const em = readGroup(parameters.emergingMarkets, set, parameters, used, missing);
  const groups = [
    { mean: groupMean(g10.entries), weight: parameters.groupWeights.g10 },
    { mean: groupMean(em.entries), weight: parameters.groupWeights.emergingMarkets },
  ].flatMap((group) => (group.mean === undefined ? [] : [{ value: group.mean, weight: group.weight }]));
  const index = weightedMean(groups);
  if (index === undefined) throw new Error('currency-stress: no currency could be computed');
  const stressIndex = round(index, 1);
  // The dollar is the g10 entry USD: the broad trade-weighted index, not a pair.
  const dollar = g10.measures.USD;
  const dollarRegime = dollar ? climbLadder(parameters.dollar.regimes, round(dollar.changePct, 2)) : 'UNKNOWN';
  const all = { ...g10.entries, ...em.entries };
  const body: CurrencyStress = {
    dollarRegime,
    stressIndex,
    g10: g10.entries,
    emergingMarkets: em.entries,
    settlementCorridorImpact: corridorImpacts({ ...g10.measures, ...em.measures }, parameters),
    narrative: narrativeOf(dollarRegime, stressIndex, dollar, all, parameters),
  };
  return { body, inputs: used, missing };
}
