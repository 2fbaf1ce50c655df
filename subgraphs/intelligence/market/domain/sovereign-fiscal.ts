import { climbLadder, type LadderRule, round, type Series, type SeriesSet } from '../../domain/index.js';
import { changeOverMonths, indexOnOrBefore, shiftMonths } from './moves.js';

export type FiscalTrend = 'NARROWING' | 'STABLE' | 'WIDENING';

export interface BalanceDefinition {
  series: string;
  /** usdMillions: a fiscal-year balance in millions of dollars (FYFSD); pctGdp: net lending in percent of GDP. */
  units: 'usdMillions' | 'pctGdp';
  label: string;
}

export interface YieldDefinition {
  nominal10y: string;
  nominal2y: string;
  real10y: string;
  breakeven10y: string;
}

export interface FiscalReading {
  trend: FiscalTrend;
  text: string;
  /** Latest balance in percent of GDP, when the series is in percent of GDP. */
  balancePctGdp: number | undefined;
}

const year = (date: string) => date.slice(0, 4);

/**
 * The deficit trend from the balance series' latest two observations. A dollar balance compares
 * in percent of the earlier year's (FYFSD is in millions of dollars: no GDP denominator is shipped
 * for it), a balance in percent of GDP in percentage points.
 */
export function readFiscalTrend(
  series: Series,
  definition: BalanceDefinition,
  ladders: { usdMillionsLadder: LadderRule<FiscalTrend>[]; pctGdpLadder: LadderRule<FiscalTrend>[] },
): FiscalReading | undefined {
  const [previous, latest] = series.observations.slice(-2);
  if (!previous || !latest) return undefined;
  if (definition.units === 'usdMillions') {
    const changePct = previous.value === 0 ? 0 : ((latest.value - previous.value) / Math.abs(previous.value)) * 100;
    const trend = climbLadder(ladders.usdMillionsLadder, round(changePct, 2));
    const billions = (value: number) => `${value < 0 ? '-' : ''}$${(Math.abs(value) / 1000).toFixed(1)}bn`;
    const sign = changePct >= 0 ? '+' : '';
    return {
      trend,
      text: `${trend}: ${definition.label} ${billions(latest.value)} in FY${year(latest.date)} vs ${billions(previous.value)} in FY${year(previous.date)} (balance ${sign}${changePct.toFixed(1)}%)`,
      balancePctGdp: undefined,
    };
  }
  const change = latest.value - previous.value;
  const trend = climbLadder(ladders.pctGdpLadder, round(change, 2));
  const sign = change >= 0 ? '+' : '';
  return {
    trend,
    text: `${trend}: ${definition.label} ${latest.value}% of GDP in ${year(latest.date)} vs ${previous.value}% in ${year(previous.date)} (${sign}${change.toFixed(1)}pp)`,
    balancePctGdp: latest.value,
  };
}

export interface YieldReading {
  text: string;
  rising: boolean;
  used: Series[];
  missing: string[];
}

/** Change of a yield in basis points over `months` to its latest observation. */
function changeBps(series: Series, months: number): number | undefined {
  const observations = series.observations;
  const last = observations.length - 1;
  const start = indexOnOrBefore(observations, shiftMonths(observations[last]!.date, -months), last);
  return start < 0 || start === last ? undefined : (observations[last]!.value - observations[start]!.value) * 100;
}

/** The 10-year yield's move over the horizon on a ladder (basis points), with the curve, real yield and breakeven beside it. */
export function readYieldDynamic(set: SeriesSet, definition: YieldDefinition, parameters: { months: number; ladder: LadderRule<string>[] }): YieldReading | undefined {
  const tenYear = set.get(definition.nominal10y);
  const move = tenYear && tenYear.observations.length > 1 ? changeBps(tenYear, parameters.months) : undefined;
  if (!tenYear || move === undefined) return undefined;
  const used = [tenYear];
  const missing: string[] = [];
  const latest = (id: string): number | undefined => {
    const series = set.get(id);
    if (!series || series.observations.length === 0) {
      missing.push(id);
      return undefined;
    }
    used.push(series);
    return series.observations.at(-1)!.value;
  };
  const level = climbLadder(parameters.ladder, round(move, 1));
  const ten = tenYear.observations.at(-1)!.value;
  const two = latest(definition.nominal2y);
  const real = latest(definition.real10y);
  const breakeven = latest(definition.breakeven10y);
  const parts = [`10-year ${ten.toFixed(2)}% (${move >= 0 ? '+' : ''}${Math.round(move)}bp over ${parameters.months} months, ${tenYear.asOf})`];
  if (two !== undefined) parts.push(`2s10s ${Math.round((ten - two) * 100)}bp`);
  if (real !== undefined) parts.push(`real 10-year ${real.toFixed(2)}%`);
  if (breakeven !== undefined) parts.push(`10-year breakeven ${breakeven.toFixed(2)}%`);
  return { text: `${level}: ${parts.join('; ')}`, rising: level === 'RISING', used, missing };
}

/** Real GDP growth over four quarters, percent, at the latest observation. */
export function realGrowthPct(series: Series): number | undefined {
  return series.observations.length > 1 ? changeOverMonths(series.observations, series.observations.length - 1, 12) : undefined;
}
