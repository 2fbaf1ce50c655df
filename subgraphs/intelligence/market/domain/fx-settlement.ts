import { climbLadder, daysBetween, type LadderRule, round, type SeriesSet, type SeriesSource, type SignalAnswer } from '../../domain/index.js';
import { type CurrencyMeasure, type CurrencyReadParameters, measureCurrency } from './currency.js';
import { signedPercent, TRADING_DAYS_PER_YEAR } from './moves.js';

export type CorridorRegime = 'CALM' | 'NORMAL' | 'ELEVATED' | 'STRESSED';
export type SettlementTiming = 'SETTLE_NOW' | 'STAGGER' | 'DEFER';

interface CarryDefinition {
  usdSeries: string;
  usdName: string;
  quoteSeries: string;
  quoteName: string;
}

export interface FxSettlementParameters extends CurrencyReadParameters {
  horizonHours: number;
  buffer: { confidence: number; z: number; floorBps: number };
  staleAfterDays: number;
  regimes: LadderRule<CorridorRegime>[];
  recommendations: Record<CorridorRegime, SettlementTiming>;
  recommendationTexts: Record<SettlementTiming, string>;
  corridors: Record<string, { quote: string; series: string; carry?: CarryDefinition }>;
}

/** Overnight-rate carry of holding dollars rather than the quote currency. */
export interface CorridorCarry {
  usdRateName: string;
  usdRate: number;
  quoteRateName: string;
  quoteRate: number;
  /** USD overnight rate minus the quote currency's, basis points a year: positive = holding dollars earns more. */
  differentialBps: number;
  /** The differential over the settlement horizon (actual/360), basis points. */
  horizonCarryBps: number;
  /** The older of the two rates' dates. */
  asOf: string;
}

export interface CorridorSettlement {
  base: 'USD';
  quote: string;
  /** Units of the quote currency per USD (Federal Reserve H.10 noon buying rate in New York). */
  rate: number;
  asOf: string;
  /** Calendar days from the rate's date to the day of the answer. */
  rateAgeDays: number;
  /** Change of the quote currency's value in dollars over 30 days, percent. */
  change30dPct: number;
  movePercentile: number;
  /** Annualised realised volatility over 30 days, percent. */
  realisedVolatility30d: number;
  volatilityPercentile: number;
  regime: CorridorRegime;
  /** Move the realised volatility allows over the horizon at the buffer's confidence, basis points, never below the floor. */
  settlementBufferBps: number;
  recommendation: SettlementTiming;
  reasons: string[];
  carry: CorridorCarry | null;
}

export interface FxSettlement {
  horizonHours: number;
  corridors: Record<string, CorridorSettlement>;
  summary: { settleNow: string[]; stagger: string[]; defer: string[]; widestBuffer: { corridor: string; settlementBufferBps: number } | null };
  narrative: string;
}

/**
 * The buffer a treasury holds against the rate moving before the FX leg settles: z (one-sided,
 * at the confidence) times the daily volatility times the square root of the horizon in days,
 * every hour of the horizon counted as market time (conservative over a weekend), rounded up to a
 * whole basis point.
 */
export function settlementBufferBps(annualVolatilityPct: number, horizonHours: number, buffer: FxSettlementParameters['buffer']): number {
  const dailyVolatility = annualVolatilityPct / 100 / Math.sqrt(TRADING_DAYS_PER_YEAR);
  const move = buffer.z * dailyVolatility * Math.sqrt(horizonHours / 24) * 10_000;
  return Math.max(buffer.floorBps, Math.ceil(round(move, 6)));
}

function readCarry(set: SeriesSet, definition: CarryDefinition, horizonHours: number): { carry: CorridorCarry | null; used: SeriesSource[]; missing: string[] } {
  const usd = set.get(definition.usdSeries)?.observations.at(-1);
  const quote = set.get(definition.quoteSeries)?.observations.at(-1);
  const missing = [usd ? [] : [definition.usdSeries], quote ? [] : [definition.quoteSeries]].flat();
  if (!usd || !quote) return { carry: null, used: [], missing };
  const differentialBps = round((usd.value - quote.value) * 100, 1);
  return {
    carry: {
      usdRateName: definition.usdName,
      usdRate: usd.value,
      quoteRateName: definition.quoteName,
      quoteRate: quote.value,
      differentialBps,
      horizonCarryBps: round((differentialBps * horizonHours) / 24 / 360, 2),
      asOf: usd.date < quote.date ? usd.date : quote.date,
    },
    used: [set.get(definition.usdSeries)!, set.get(definition.quoteSeries)!],
    missing: [],
  };
}

function reasonsOf(quote: string, measure: CurrencyMeasure, timing: SettlementTiming, carry: CorridorCarry | null, rateAgeDays: number, parameters: FxSettlementParameters): string[] {
  const years = parameters.lookbackYears;
  const reasons = [
    `${quote} ${measure.volatility.toFixed(1)}% annualised ${parameters.volatilityDays}-day realised volatility, percentile ${Math.round(measure.volatilityPercentile)} of ${years} years`,
    `${quote} ${signedPercent(measure.changePct)} against the dollar in ${parameters.changeDays} days: move size at percentile ${Math.round(measure.movePercentile)} of ${years} years`,
    parameters.recommendationTexts[timing],
  ];
  if (carry) {
    const earner = carry.differentialBps >= 0 ? 'USD' : quote;
    reasons.push(
      `carry: ${carry.usdRateName} ${carry.usdRate.toFixed(2)}% vs ${carry.quoteRateName} ${carry.quoteRate.toFixed(2)}%; holding ${earner} earns ${Math.abs(carry.horizonCarryBps).toFixed(2)} bp more over the ${parameters.horizonHours}-hour horizon`,
    );
  }
  if (rateAgeDays > parameters.staleAfterDays) reasons.push(`the rate is ${rateAgeDays} days old (${measure.asOf}): confirm a live quote before converting`);
  return reasons;
}

function settleCorridor(quote: string, measure: CurrencyMeasure, carry: CorridorCarry | null, today: string, parameters: FxSettlementParameters): CorridorSettlement {
  const regime = climbLadder(parameters.regimes, round(Math.max(measure.movePercentile, measure.volatilityPercentile), 1));
  const recommendation = parameters.recommendations[regime];
  const rateAgeDays = daysBetween(measure.asOf, today);
  return {
    base: 'USD',
    quote,
    rate: measure.rate,
    asOf: measure.asOf,
    rateAgeDays,
    change30dPct: round(measure.changePct, 2),
    movePercentile: round(measure.movePercentile, 1),
    realisedVolatility30d: round(measure.volatility, 2),
    volatilityPercentile: round(measure.volatilityPercentile, 1),
    regime,
    settlementBufferBps: settlementBufferBps(measure.volatility, parameters.horizonHours, parameters.buffer),
    recommendation,
    reasons: reasonsOf(quote, measure, recommendation, carry, rateAgeDays, parameters),
    carry,
  };
}

function summaryOf(corridors: Record<string, CorridorSettlement>): FxSettlement['summary'] {
  const entries = Object.entries(corridors);
  const named = (timing: SettlementTiming) => entries.filter(([, corridor]) => corridor.recommendation === timing).map(([name]) => name);
  const widest = entries.reduce<[string, CorridorSettlement] | undefined>((best, entry) => (!best || entry[1].settlementBufferBps > best[1].settlementBufferBps ? entry : best), undefined);
  return {
    settleNow: named('SETTLE_NOW'),
    stagger: named('STAGGER'),
    defer: named('DEFER'),
    widestBuffer: widest ? { corridor: widest[0], settlementBufferBps: widest[1].settlementBufferBps } : null,
  };
}

/**
 * FX settlement conditions per corridor for a treasury settling stablecoin payments into local
 * currency: how far the rate may move before the FX leg settles (the buffer), whether to convert
 * now, in tranches or later, and what holding dollars meanwhile earns. `corridor` narrows the
 * answer to one corridor; `today` dates the rates' age.
 */
export function computeFxSettlement(set: SeriesSet, parameters: FxSettlementParameters, request: { today: string; corridor?: string }): SignalAnswer<FxSettlement> {
  const used: SeriesSource[] = [];
  const missing: string[] = [];
  const corridors: Record<string, CorridorSettlement> = {};
  const names = request.corridor ? [request.corridor] : Object.keys(parameters.corridors);
  for (const name of names) {
    const definition = parameters.corridors[name];
    if (!definition) throw new Error(`fx-settlement: unknown corridor ${name}`);
    const series = set.get(definition.series);
    const measure = series ? measureCurrency(series, true, parameters) : undefined;
    if (!series || !measure) {
      missing.push(`${name}: ${definition.series}`);
      continue;
    }
    used.push(series);
    const carry = definition.carry ? readCarry(set, definition.carry, parameters.horizonHours) : { carry: null, used: [], missing: [] };
    used.push(...carry.used);
    missing.push(...carry.missing.map((id) => `${name}.carry: ${id}`));
    corridors[name] = settleCorridor(definition.quote, measure, carry.carry, request.today, parameters);
  }
  if (Object.keys(corridors).length === 0) throw new Error('fx-settlement: no corridor could be computed');
  const summary = summaryOf(corridors);
  const narrative = `Over a ${parameters.horizonHours}-hour settlement horizon: settle now ${summary.settleNow.length}, stagger ${summary.stagger.length}, defer ${summary.defer.length} of ${Object.keys(corridors).length} corridors${summary.widestBuffer ? `; widest buffer ${summary.widestBuffer.corridor} at ${summary.widestBuffer.settlementBufferBps} bps` : ''}.`;
  return { body: { horizonHours: parameters.horizonHours, corridors, summary, narrative }, inputs: [...new Set(used)], missing };
}
