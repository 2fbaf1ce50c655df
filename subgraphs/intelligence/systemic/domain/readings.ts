import { latest, readInputs, type Series, type SeriesSet } from '../../domain/index.js';
import type { Readings } from './conditions.js';
import type { PartOneBodies } from './part-one.js';
import { changeOverDays, changePctAt, changePctOverDays, lastPercentile, rollingMeans } from './series-math.js';

/** Settings of the readings computed from series (cascade.json `readings`). */
export interface ReadingParameters {
  policyUncertaintyMeanDays: number;
  lookbackYears: number;
  stablecoinChangeDays: number;
  stablecoinLookbackYears: number;
  dollarChangeDays: number;
  twoYearMoveDays: number;
  importsChangeDays: number;
  stressedCurrencyScore: number;
  sovereignScoreBelow: number;
  emCurrencies: string[];
}

/** The series the readings read, by role. */
export const READING_SERIES = {
  policyUncertainty: 'USEPUINDXD',
  breakeven: 'T10YIE',
  stablecoins: 'stablecoin_total_circulating_usd',
  financialStress: 'STLFSI4',
  vix: 'VIXCLS',
  dollar: 'DTWEXBGS',
  twoYear: 'DGS2',
  curve10y3m: 'T10Y3M',
  usDebtToGdp: 'GFDEGDQ188S',
  usChinaImports: 'IMPCH',
} as const;

export interface MeasuredReadings {
  readings: Readings;
  used: Series[];
}

function policyUncertaintyPercentile(series: Series, parameters: ReadingParameters): number {
  const means = rollingMeans(series.observations, parameters.policyUncertaintyMeanDays);
  return lastPercentile(series.observations, means, parameters.lookbackYears);
}

function stablecoinContractionPercentile(series: Series, parameters: ReadingParameters): number | undefined {
  const observations = series.observations;
  const changes = observations.map((_, index) => changePctAt(observations, index, parameters.stablecoinChangeDays));
  if (changes.at(-1) === undefined) return undefined;
  // A contraction ranks high: the negated change, where it exists.
  const known = observations.flatMap((observation, index) => (changes[index] === undefined ? [] : [{ observation, value: -changes[index]! }]));
  return lastPercentile(
    known.map((entry) => entry.observation),
    known.map((entry) => entry.value),
    parameters.stablecoinLookbackYears,
  );
}

function seriesReadings(series: SeriesSet, parameters: ReadingParameters): MeasuredReadings {
  const { found, used } = readInputs(series, Object.values(READING_SERIES));
  const get = (role: keyof typeof READING_SERIES) => found[READING_SERIES[role]];
  const epu = get('policyUncertainty');
  const breakeven = get('breakeven');
  const stablecoins = get('stablecoins');
  const twoYear = get('twoYear');
  const curve = get('curve10y3m');
  const twoYearMove = twoYear && changeOverDays(twoYear, parameters.twoYearMoveDays);
  const readings: Record<string, number | undefined> = {
    l1PolicyUncertaintyPercentile: epu && policyUncertaintyPercentile(epu, parameters),
    l4BreakevenPercentile:
      breakeven &&
      lastPercentile(
        breakeven.observations,
        breakeven.observations.map((observation) => observation.value),
        parameters.lookbackYears,
      ),
    l7StablecoinContractionPercentile: stablecoins && stablecoinContractionPercentile(stablecoins, parameters),
    financialStressIndex: get('financialStress') && latest(get('financialStress')!).value,
    vix: get('vix') && latest(get('vix')!).value,
    dollarThreeMonthChangePct: get('dollar') && changePctOverDays(get('dollar')!, parameters.dollarChangeDays),
    twoYearMoveBp: twoYearMove === undefined ? undefined : Math.abs(twoYearMove) * 100,
    curve10y3mBp: curve && latest(curve).value * 100,
    usDebtToGdpPct: get('usDebtToGdp') && latest(get('usDebtToGdp')!).value,
    usChinaImportsYoYPct: get('usChinaImports') && changePctOverDays(get('usChinaImports')!, parameters.importsChangeDays),
  };
  return { readings, used };
}

function larger(...values: Array<number | null | undefined>): number | undefined {
  const known = values.filter((value): value is number => value !== null && value !== undefined);
  return known.length === 0 ? undefined : Math.max(...known);
}

function emScores(bodies: PartOneBodies, parameters: ReadingParameters): number[] {
  const markets = bodies.currencyStress?.emergingMarkets ?? {};
  return parameters.emCurrencies.flatMap((currency) => (markets[currency] ? [markets[currency].score] : []));
}

function signalReadings(bodies: PartOneBodies, parameters: ReadingParameters): Readings {
  const { commodity, currencyStress, sovereignDebt } = bodies;
  const scores = emScores(bodies, parameters);
  const sovereignScores = Object.values(sovereignDebt?.sovereigns ?? {}).flatMap((entry) => (entry.sustainabilityScore === null ? [] : [entry.sustainabilityScore]));
  return {
    l2CommodityStress: commodity?.stressIndex,
    l3ShippingStress: bodies.shippingStress?.compositeIndex,
    l5CurrencyStress: currencyStress?.stressIndex,
    l6MacroStress: bodies.macroStress?.stressIndex,
    oilMonthlyChangePct: commodity?.commodities.oil?.monthlyChange ?? undefined,
    goldMonthlyChangePct: commodity?.commodities.gold?.monthlyChange ?? undefined,
    grainThreeMonthChangePct: larger(commodity?.commodities.wheat?.threeMonthChange, commodity?.commodities.corn?.threeMonthChange),
    fossilSupplyShockPct: larger(commodity?.commodities.oil?.monthlyChange, commodity?.commodities.gas?.monthlyChange),
    shippingStressIndex: bodies.shippingStress?.compositeIndex,
    gscpiZScore: bodies.supplyChain?.gscpiZScore,
    currencyStressIndex: currencyStress?.stressIndex,
    emCurrencyStressScore: scores.length === 0 ? undefined : scores.reduce((sum, score) => sum + score, 0) / scores.length,
    emCurrenciesStressedCount: scores.length === 0 ? undefined : scores.filter((score) => score >= parameters.stressedCurrencyScore).length,
    climateScore: bodies.climate?.climateScore,
    renewableTrendPpPerYear: bodies.energyTransition?.renewableTrendPpPerYear,
    sovereignsBelowFifty: sovereignDebt ? sovereignScores.filter((score) => score < parameters.sovereignScoreBelow).length : undefined,
  };
}

/**
 * Every reading the cascade's layers and triggers name: from the part-1 signal bodies and from
 * the series directly. Readings with no open input (EMBI spread, Italy-Germany spread) are left
 * undefined, so the conditions on them stay unknown.
 */
export function measureReadings(series: SeriesSet, bodies: PartOneBodies, parameters: ReadingParameters): MeasuredReadings {
  const fromSeries = seriesReadings(series, parameters);
  return { readings: { ...signalReadings(bodies, parameters), ...fromSeries.readings }, used: fromSeries.used };
}
