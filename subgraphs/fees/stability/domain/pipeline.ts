import { interpolate, type FeedState, type Observation, type SignalSeries, type SignalSet } from '../../domain/index.js';
import type { StabilityParameters } from './parameters.js';

/**
 * The stability pipeline (version 9.0; docs/stability-model.md): 12 USD structural-health signals
 * cross-checked against non-US data, the peg of the settlement basket, 7 tiers, the stability score,
 * its band and the confidence in the inputs. Pure: the signals, the parameters and `now` are passed in;
 * only observations dated on or before `now` are used, so a run is reproducible from snapshot and clock.
 */

const DAY_MS = 86_400_000;
const round = (value: number, decimals = 1) => Math.round(value * 10 ** decimals) / 10 ** decimals;

export type Band = 'stable' | 'caution' | 'unstable';

/** stable >= 90, caution 75-89.x, unstable < 75 (Document 1 §3). */
export function stabilityBand(score: number, bands: StabilityParameters['bands']): Band {
  if (score >= bands.stable) return 'stable';
  if (score >= bands.caution) return 'caution';
  return 'unstable';
}

export type ReliabilityAction = 'proceed' | 'caution' | 'defer' | 'hold';

/** The decision table of GET /reliability: hold on a peg alert, defer large settlements under 75, caution under 90 or when not healthy. */
export function reliabilityDecision(input: { isHealthy: boolean; score: number; pegDeviationBps: number | null }, parameters: StabilityParameters): { action: ReliabilityAction; reasons: string[] } {
  const reasons: string[] = [];
  const pegAlert = input.pegDeviationBps !== null && input.pegDeviationBps >= parameters.peg.deviationThresholdBps;
  if (pegAlert) reasons.push('peg.deviationBps >= 50: hold; peg alert active');
  const band = stabilityBand(input.score, parameters.bands);
  reasons.push(
    band === 'stable' ? 'stability.currentScore >= 90: normal operations' : band === 'caution' ? 'stability.currentScore 75-89: proceed with caution' : 'stability.currentScore < 75: defer large settlements',
  );
  reasons.push(input.isHealthy ? 'isHealthy true: proceed' : 'isHealthy false: not all systems nominal');
  if (pegAlert) return { action: 'hold', reasons };
  if (band === 'unstable') return { action: 'defer', reasons };
  if (band === 'caution' || !input.isHealthy) return { action: 'caution', reasons };
  return { action: 'proceed', reasons };
}

/** Observations dated on or before `day`. */
function upTo(series: SignalSeries | undefined, day: string): Observation[] {
  return series ? series.observations.filter((observation) => observation.date <= day) : [];
}

function changePct(observations: Observation[], back: number): number | null {
  const latest = observations.at(-1);
  const earlier = observations.at(-1 - back);
  if (!latest || !earlier || earlier.value === 0) return null;
  return ((latest.value - earlier.value) / earlier.value) * 100;
}

function trendOf(change: number | null, threshold: number, up: string, down: string, flat: string): string {
  if (change === null) return 'UNKNOWN';
  if (change > threshold) return up;
  if (change < -threshold) return down;
  return flat;
}

interface SignalReading {
  signal: string;
  value: number;
  score: number;
  asOf: string;
  source: string;
}

interface Context {
  day: string;
  now: Date;
  signals: SignalSet;
  parameters: StabilityParameters;
  readings: Map<string, SignalReading>;
  stale: string[];
}

function latestOf(context: Context, id: string): Observation | undefined {
  const series = context.signals.series[id];
  const latest = upTo(series, context.day).at(-1);
  if (series && latest) {
    const allowance = context.parameters.staleAfterDays[series.frequency];
    if ((context.now.getTime() - Date.parse(latest.date)) / DAY_MS > allowance) context.stale.push(id);
  }
  return latest;
}

function record(context: Context, signal: string, seriesId: string, value: number, score: number, asOf: string): void {
  const series = context.signals.series[seriesId];
  context.readings.set(signal, { signal, value: round(value, 3), score: round(score), asOf, source: series ? `${series.source} (${series.id})` : seriesId });
}

const FX_PAIRS = ['EUR', 'JPY', 'CHF', 'GBP', 'CNY'] as const;

function usdConsensus(context: Context) {
  const { movePct, majority } = context.parameters.usdConsensus;
  const window = context.parameters.windows.dailyChangeObservations;
  const moves = FX_PAIRS.map((pair) => ({ pair, changePct: changePct(upTo(context.signals.series[pair], context.day), window) }));
  const stronger = moves.filter((move) => move.changePct !== null && move.changePct > movePct).length;
  const weaker = moves.filter((move) => move.changePct !== null && move.changePct < -movePct).length;
  const consensus = stronger >= majority ? 'BULLISH' : weaker >= majority ? 'BEARISH' : stronger >= 2 && weaker >= 2 ? 'MIXED' : 'NEUTRAL';
  return { consensus, moves: moves.map((move) => ({ pair: `${move.pair} per USD`, changePct: move.changePct === null ? null : round(move.changePct, 2) })) };
}

function cpiYoY(context: Context): { value: number; asOf: string } | null {
  const observations = upTo(context.signals.series.CPIAUCSL, context.day);
  const latest = observations.at(-1);
  const yearAgo = observations.at(-13);
  if (!latest || !yearAgo) return null;
  return { value: ((latest.value - yearAgo.value) / yearAgo.value) * 100, asOf: latest.date };
}

/** The 12 USD structural-health signals as of `context.day`, recorded in context.readings; the usdHealth object without its outlook. */
function usdSignals(context: Context) {
  const p = context.parameters.signals;
  const w = context.parameters.windows;
  const alerts: string[] = [];
  const divergenceAlerts: string[] = [];

  const broad = upTo(context.signals.series.DTWEXBGS, context.day);
  const broadLatest = latestOf(context, 'DTWEXBGS');
  const broadChange = changePct(broad, w.dailyChangeObservations);
  if (broadLatest && broadChange !== null) record(context, 'tradeWeightedUsd', 'DTWEXBGS', broadChange, interpolate(broadChange, p.tradeWeightedUsd.score), broadLatest.date);
  const consensus = usdConsensus(context);
  const broadTrend = trendOf(broadChange, p.tradeWeightedUsd.trendPct, 'STRENGTHENING', 'WEAKENING', 'STABLE');
  if ((broadTrend === 'STRENGTHENING' && consensus.consensus === 'BEARISH') || (broadTrend === 'WEAKENING' && consensus.consensus === 'BULLISH')) {
    divergenceAlerts.push(`The broad trade-weighted dollar is ${broadTrend} while the five major pairs read ${consensus.consensus}`);
  }

  const curve = latestOf(context, 'T10Y2Y');
  const curveState = curve ? (curve.value < 0 ? 'INVERTED' : curve.value < p.yieldCurve.flatBelow ? 'FLAT' : 'NORMAL') : 'UNKNOWN';
  if (curve) record(context, 'yieldCurve', 'T10Y2Y', curve.value, interpolate(curve.value, p.yieldCurve.score), curve.date);
  if (curveState === 'INVERTED') alerts.push('Yield curve inverted (10y-2y below 0): recession signal');
  const nearTerm = latestOf(context, 'T10Y3M');
  if (nearTerm) record(context, 'nearTermCurve', 'T10Y3M', nearTerm.value, interpolate(nearTerm.value, p.nearTermCurve.score), nearTerm.date);
  if (curve && nearTerm && Math.sign(curve.value) !== Math.sign(nearTerm.value)) divergenceAlerts.push('10y-2y and 10y-3m spreads disagree on inversion');

  const breakeven = latestOf(context, 'T10YIE');
  const elevated = breakeven ? breakeven.value > p.breakevenInflation.elevatedAbove : false;
  if (breakeven) record(context, 'breakevenInflation', 'T10YIE', breakeven.value, interpolate(breakeven.value, p.breakevenInflation.score), breakeven.date);
  if (elevated) alerts.push(`10-year breakeven inflation above ${p.breakevenInflation.elevatedAbove}%`);

  const realYield = latestOf(context, 'DFII10');
  if (realYield) record(context, 'realYield', 'DFII10', realYield.value, interpolate(realYield.value, p.realYield.score), realYield.date);

  const balance = latestOf(context, 'WALCL');
  const balanceChange = changePct(upTo(context.signals.series.WALCL, context.day), w.weeklyChangeObservations);
  const balanceTrend = trendOf(balanceChange, p.fedBalanceSheet.trendPct, 'EXPANDING', 'CONTRACTING', 'STABLE');
  if (balance && balanceChange !== null) record(context, 'fedBalanceSheet', 'WALCL', balanceChange, interpolate(balanceChange, p.fedBalanceSheet.score), balance.date);
  if (balanceTrend === 'EXPANDING') alerts.push('Central-bank balance sheet expanding');

  const gold = latestOf(context, 'GOLD');
  const goldChange = changePct(upTo(context.signals.series.GOLD, context.day), w.monthlyChangeObservations);
  const debasement = gold ? gold.value > p.gold.debasementAbove : false;
  if (gold) record(context, 'gold', 'GOLD', gold.value, interpolate(gold.value, p.gold.score), gold.date);
  if (debasement) alerts.push(`Gold above ${p.gold.debasementAbove} USD: USD debasement signal`);
  const eurChange = changePct(upTo(context.signals.series.EUR, context.day), w.dailyChangeObservations);

  const stablecoins = stablecoinHealth(context);
  if (stablecoins.stressSignal) alerts.push(`Stablecoin supply fell more than ${p.stablecoinHealth.stressDeclinePct}% in ${w.stablecoinChangeDays} days`);

  const officialCpi = cpiYoY(context);
  const independent = breakeven?.value ?? null;
  const gap = officialCpi && independent !== null ? Math.abs(independent - officialCpi.value) : null;
  const divergenceFlag = gap !== null && gap > p.inflationDivergence.divergenceAbove;
  if (gap !== null && officialCpi) record(context, 'inflationDivergence', 'CPIAUCSL', gap, interpolate(gap, p.inflationDivergence.score), officialCpi.asOf);
  if (divergenceFlag) divergenceAlerts.push(`Market-implied inflation and official CPI differ by ${round(gap!, 2)} percentage points (more than ${p.inflationDivergence.divergenceAbove})`);

  const stress = latestOf(context, 'STLFSI4');
  if (stress) record(context, 'financialStress', 'STLFSI4', stress.value, interpolate(stress.value, p.financialStress.score), stress.date);
  if (stress && stress.value > p.financialStress.alertAbove) alerts.push('Financial stress index above 1 (St. Louis Fed)');
  const conditions = latestOf(context, 'NFCI');
  if (conditions) record(context, 'financialConditions', 'NFCI', conditions.value, interpolate(conditions.value, p.financialConditions.score), conditions.date);

  const debt = latestOf(context, 'GFDEGDQ188S');
  const peers = (['DEBT_DE', 'DEBT_IT'] as const).map((id) => ({ id, latest: latestOf(context, id) }));
  if (debt) record(context, 'debtToGdp', 'GFDEGDQ188S', debt.value, interpolate(debt.value, p.debtToGdp.score), debt.date);

  const confidenceInOfficialData = gap === null ? 'MODERATE' : gap > p.inflationDivergence.divergenceAbove ? 'LOW' : gap > p.inflationDivergence.highBelow ? 'MODERATE' : 'HIGH';
  return {
    confidenceInOfficialData,
    usdStrengthConsensus: consensus.consensus,
    tradeWeightedUsd: { value: broadLatest?.value ?? null, changePct3m: broadChange === null ? null : round(broadChange, 2), trend: broadTrend, currencies: 26, majorPairs: consensus.moves, asOf: broadLatest?.date ?? null },
    yieldCurve: { spread: curve?.value ?? null, state: curveState, recessionSignal: curveState === 'INVERTED', spread10y3m: nearTerm?.value ?? null, asOf: curve?.date ?? null },
    breakevenInflation: { value: breakeven?.value ?? null, target: p.breakevenInflation.target, elevated, asOf: breakeven?.date ?? null },
    fedBalanceSheet: { trillions: balance ? round(balance.value / 1_000_000, 3) : null, changePct13w: balanceChange === null ? null : round(balanceChange, 2), trend: balanceTrend, asOf: balance?.date ?? null },
    gold: {
      priceUsd: gold?.value ?? null,
      changePct6m: goldChange === null ? null : round(goldChange, 2),
      trend: trendOf(goldChange, p.gold.trendPct, 'RISING', 'FALLING', 'STABLE'),
      debasementSignal: debasement,
      interpretation: debasement ? `Above ${p.gold.debasementAbove} USD per ounce: read as USD debasement` : `At or below ${p.gold.debasementAbove} USD per ounce: no debasement signal`,
      eurPerUsdChangePct3m: eurChange === null ? null : round(eurChange, 2),
      asOf: gold?.date ?? null,
    },
    stablecoinHealth: stablecoins,
    indepInflationVsOfficial: {
      independent: independent === null ? null : round(independent, 2),
      independentSource: '10-year breakeven inflation (T10YIE, market-implied)',
      official: officialCpi ? round(officialCpi.value, 2) : null,
      officialSource: 'CPI-U year on year (CPIAUCSL)',
      gap: gap === null ? null : round(gap, 2),
      divergenceFlag,
    },
    financialStress: { stlfsi: stress?.value ?? null, nfci: conditions?.value ?? null },
    debtToGdp: { us: debt?.value ?? null, germany: peers[0]!.latest?.value ?? null, italy: peers[1]!.latest?.value ?? null, asOf: debt?.date ?? null },
    divergenceAlerts,
    alerts,
  };
}

function stablecoinHealth(context: Context) {
  const p = context.parameters.signals.stablecoinHealth;
  const days = context.parameters.windows.stablecoinChangeDays;
  const usdt = upTo(context.signals.series.USDT, context.day);
  const usdc = upTo(context.signals.series.USDC, context.day);
  const [usdtLatest, usdcLatest] = [latestOf(context, 'USDT'), latestOf(context, 'USDC')];
  if (!usdtLatest || !usdcLatest) return { usdtMarketCapUsd: null, usdcMarketCapUsd: null, dominanceRatio: null, combinedChangePct30d: null, stressSignal: false, asOf: null };
  const combinedNow = usdtLatest.value + usdcLatest.value;
  const combinedBefore = (usdt.at(-1 - days)?.value ?? usdtLatest.value) + (usdc.at(-1 - days)?.value ?? usdcLatest.value);
  const change = ((combinedNow - combinedBefore) / combinedBefore) * 100;
  record(context, 'stablecoinHealth', 'USDT', change, interpolate(change, p.score), usdtLatest.date);
  return {
    usdtMarketCapUsd: usdtLatest.value,
    usdcMarketCapUsd: usdcLatest.value,
    dominanceRatio: round(usdtLatest.value / combinedNow, 4),
    combinedChangePct30d: round(change, 2),
    stressSignal: change < -p.stressDeclinePct,
    asOf: usdtLatest.date,
  };
}

/** Basket weights from circulating supply; deviation from live prices only (null: not measured). */
function pegOf(context: Context) {
  const { peg } = context.parameters;
  const caps = (['USDC', 'USDT', 'DAI'] as const).map((id) => ({ id, cap: latestOf(context, id)?.value ?? 0 }));
  const total = caps.reduce((sum, coin) => sum + coin.cap, 0);
  const basketWeights = Object.fromEntries(caps.map((coin) => [coin.id, total === 0 ? 0 : round(coin.cap / total, 4)]));
  const prices = context.signals.stablecoinPrices;
  let deviationBps: number | null = null;
  if (prices && caps.every((coin) => typeof prices[coin.id] === 'number')) {
    deviationBps = round(caps.reduce((sum, coin) => sum + (total === 0 ? 0 : (coin.cap / total) * Math.abs(prices[coin.id]! - 1) * 10_000), 0), 2);
    context.readings.set('peg', { signal: 'peg', value: deviationBps, score: round(interpolate(deviationBps, peg.score)), asOf: context.day, source: 'stablecoin prices (DefiLlama)' });
  }
  return {
    deviationBps,
    deviationThresholdBps: peg.deviationThresholdBps,
    basketWeights,
    alert: deviationBps !== null && deviationBps >= peg.deviationThresholdBps,
    measured: deviationBps !== null,
    verificationCycleSeconds: peg.verificationCycleSeconds,
  };
}

function weightedMean(entries: Array<{ score: number; weight: number }>): number | null {
  const weight = entries.reduce((sum, entry) => sum + entry.weight, 0);
  if (weight === 0) return null;
  return entries.reduce((sum, entry) => sum + entry.score * entry.weight, 0) / weight;
}

function usdHealthScore(context: Context): number | null {
  const weights = context.parameters.usdHealthWeights as Record<string, number>;
  const entries = Object.entries(weights).flatMap(([signal, weight]) => {
    const reading = context.readings.get(signal);
    return reading ? [{ score: reading.score, weight }] : [];
  });
  const mean = weightedMean(entries);
  return mean === null ? null : round(mean);
}

function confidenceOf(feeds: readonly FeedState[], stale: readonly string[], pegMeasured: boolean, parameters: StabilityParameters): number {
  const { fallbackPenalty, unavailablePenalty, stalePenalty } = parameters.confidence;
  let confidence = 100;
  for (const feed of feeds) confidence -= feed.status === 'fallback' ? fallbackPenalty : feed.status === 'unavailable' ? unavailablePenalty : 0;
  confidence -= new Set(stale).size * stalePenalty;
  if (!pegMeasured) confidence -= unavailablePenalty;
  return Math.max(0, confidence);
}

function context(signals: SignalSet, parameters: StabilityParameters, now: Date): Context {
  return { day: now.toISOString().slice(0, 10), now, signals, parameters, readings: new Map(), stale: [] };
}

export function runStabilityPipeline(signals: SignalSet, parameters: StabilityParameters, now: Date) {
  const current = context(signals, parameters, now);
  const usd = usdSignals(current);
  const peg = pegOf(current);
  const score = usdHealthScore(current);
  const earlier = context(signals, parameters, new Date(now.getTime() - parameters.windows.outlookLookbackDays * DAY_MS));
  usdSignals(earlier);
  const earlierScore = usdHealthScore(earlier);
  const confidence = confidenceOf(signals.feeds, current.stale, peg.measured, parameters);
  const outlookChange = score !== null && earlierScore !== null ? score - earlierScore : null;
  const structuralOutlook =
    outlookChange === null || confidence < parameters.usdOutlook.minConfidence ? 'UNCERTAIN' : outlookChange > parameters.usdOutlook.points ? 'STRENGTHENING' : outlookChange < -parameters.usdOutlook.points ? 'WEAKENING' : 'STABLE';

  const tiers = parameters.tiers.map((tier) => {
    const inputs = tier.signals.flatMap((signal) => (current.readings.has(signal) ? [current.readings.get(signal)!] : []));
    const mean = weightedMean(inputs.map((input) => ({ score: input.score, weight: 1 })));
    return { id: tier.id, name: tier.name, measures: tier.measures, weight: tier.weight, score: mean === null ? null : round(mean), status: mean === null ? 'NO_DATA' : 'OK', inputs, missing: tier.signals.filter((signal) => !current.readings.has(signal)) };
  });
  const scored = tiers.flatMap((tier) => (tier.score === null ? [] : [{ score: tier.score, weight: tier.weight }]));
  const stabilityScore = round(weightedMean(scored) ?? 0);
  const overall = stabilityBand(stabilityScore, parameters.bands);
  const alerts = [...(peg.alert ? [`Peg deviation ${peg.deviationBps} bps at or above ${peg.deviationThresholdBps}: settlement held`] : []), ...usd.alerts, ...usd.divergenceAlerts];
  const degraded = signals.feeds.some((feed) => feed.status !== 'ok') || !peg.measured;
  const asOf = [...current.readings.values()].reduce((latest, reading) => (reading.asOf > latest ? reading.asOf : latest), '');
  return {
    version: parameters.version,
    stabilityScore,
    overall,
    tiers,
    usdHealth: { score, structuralOutlook, scoreChange90d: outlookChange === null ? null : round(outlookChange), ...usd, independentSignals: [...current.readings.keys()].filter((key) => key !== 'peg').length },
    peg,
    confidence,
    dataQuality: (degraded ? 'PARTIAL' : 'LIVE') as 'PARTIAL' | 'LIVE',
    staleSeries: [...new Set(current.stale)],
    feeds: signals.feeds,
    alerts,
    recommendations: recommendationsFor(overall, peg.alert, alerts.length),
    asOf,
  };
}

function recommendationsFor(band: Band, pegAlert: boolean, alertCount: number): string[] {
  if (pegAlert) return ['Hold settlements until the peg deviation is back under 50 bps'];
  if (band === 'unstable') return ['Defer large settlements', 'Re-check GET /reliability before each settlement'];
  if (band === 'caution') return ['Proceed with caution: split large settlements', ...(alertCount > 0 ? ['Review the active alerts'] : [])];
  return ['Normal operations', ...(alertCount > 0 ? ['Review the active alerts'] : [])];
}

export type StabilityAssessment = ReturnType<typeof runStabilityPipeline>;
