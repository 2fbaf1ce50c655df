import { type FeedState, interpolate, type SignalSet } from '../../domain/index.js';
import type { StabilityParameters } from './parameters.js';
import { type Context, DAY_MS, latestOf, round, signalContext } from './signal-context.js';
import { usdSignals } from './usd-signals.js';

/**
 * The stability pipeline (version 9.0; docs/stability-model.md): 12 USD structural-health signals
 * cross-checked against non-US data, the peg of the settlement basket, 7 tiers, the stability score,
 * its band and the confidence in the inputs. Pure: the signals, the parameters and `now` are passed in;
 * only observations dated on or before `now` are used, so a run is reproducible from snapshot and clock.
 */

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
    band === 'stable'
      ? 'stability.currentScore >= 90: normal operations'
      : band === 'caution'
        ? 'stability.currentScore 75-89: proceed with caution'
        : 'stability.currentScore < 75: defer large settlements',
  );
  reasons.push(input.isHealthy ? 'isHealthy true: proceed' : 'isHealthy false: not all systems nominal');
  if (pegAlert) return { action: 'hold', reasons };
  if (band === 'unstable') return { action: 'defer', reasons };
  if (band === 'caution' || !input.isHealthy) return { action: 'caution', reasons };
  return { action: 'proceed', reasons };
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
    deviationBps = round(
      caps.reduce((sum, coin) => sum + (total === 0 ? 0 : (coin.cap / total) * Math.abs(prices[coin.id]! - 1) * 10_000), 0),
      2,
    );
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

export function runStabilityPipeline(signals: SignalSet, parameters: StabilityParameters, now: Date) {
  const current = signalContext(signals, parameters, now);
  const usd = usdSignals(current);
  const peg = pegOf(current);
  const score = usdHealthScore(current);
  const earlier = signalContext(signals, parameters, new Date(now.getTime() - parameters.windows.outlookLookbackDays * DAY_MS));
  usdSignals(earlier);
  const earlierScore = usdHealthScore(earlier);
  const confidence = confidenceOf(signals.feeds, current.stale, peg.measured, parameters);
  const outlookChange = score !== null && earlierScore !== null ? score - earlierScore : null;
  const structuralOutlook =
    outlookChange === null || confidence < parameters.usdOutlook.minConfidence
      ? 'UNCERTAIN'
      : outlookChange > parameters.usdOutlook.points
        ? 'STRENGTHENING'
        : outlookChange < -parameters.usdOutlook.points
          ? 'WEAKENING'
          : 'STABLE';

  const tiers = parameters.tiers.map((tier) => {
    const inputs = tier.signals.flatMap((signal) => (current.readings.has(signal) ? [current.readings.get(signal)!] : []));
    const mean = weightedMean(inputs.map((input) => ({ score: input.score, weight: 1 })));
    return {
      id: tier.id,
      name: tier.name,
      measures: tier.measures,
      weight: tier.weight,
      score: mean === null ? null : round(mean),
      status: mean === null ? 'NO_DATA' : 'OK',
      inputs,
      missing: tier.signals.filter((signal) => !current.readings.has(signal)),
    };
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
    usdHealth: {
      score,
      structuralOutlook,
      scoreChange90d: outlookChange === null ? null : round(outlookChange),
      ...usd,
      independentSignals: [...current.readings.keys()].filter((key) => key !== 'peg').length,
    },
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
