import { describe, expect, it } from 'vitest';
import { signalSnapshot, stabilityParameters } from '../../data/signals.js';
import { interpolate, type SignalSeries, type SignalSet } from '../../domain/index.js';
import { reliabilityDecision, runStabilityPipeline, stabilityBand } from './pipeline.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const snapshotSignals = (): SignalSet => ({ series: signalSnapshot(), stablecoinPrices: null, feeds: [{ feed: 'shipped snapshot', mode: 'snapshot', status: 'ok' }] });

/** The snapshot with one series' latest observation replaced. */
function withLatest(id: string, value: number): SignalSet {
  const signals = snapshotSignals();
  const series = signals.series[id]!;
  const observations = series.observations.slice();
  observations[observations.length - 1] = { ...observations.at(-1)!, value };
  return { ...signals, series: { ...signals.series, [id]: { ...series, observations } as SignalSeries } };
}

const run = (signals: SignalSet) => runStabilityPipeline(signals, stabilityParameters, NOW);

describe('bands and the decision table at their boundaries', () => {
  const bands = stabilityParameters.bands;
  it('stable >= 90, caution 75-89, unstable < 75', () => {
    expect([stabilityBand(90, bands), stabilityBand(89.9, bands), stabilityBand(75, bands), stabilityBand(74.9, bands)]).toEqual(['stable', 'caution', 'caution', 'unstable']);
  });
  it('hold at a peg deviation of 50 bps, not 49.9; defer under 75; caution under 90 or unhealthy', () => {
    const decide = (score: number, peg: number | null, isHealthy = true) => reliabilityDecision({ isHealthy, score, pegDeviationBps: peg }, stabilityParameters).action;
    expect(decide(95, 50)).toBe('hold');
    expect(decide(95, 49.9)).toBe('proceed');
    expect(decide(74.9, null)).toBe('defer');
    expect(decide(75, null)).toBe('caution');
    expect(decide(95, null, false)).toBe('caution');
  });
  it('interpolates between points and is flat beyond them', () => {
    expect(
      interpolate(25, [
        [0, 0],
        [50, 100],
      ]),
    ).toBe(50);
    expect(
      interpolate(-5, [
        [0, 0],
        [50, 100],
      ]),
    ).toBe(0);
    expect(
      interpolate(99, [
        [0, 0],
        [50, 100],
      ]),
    ).toBe(100);
  });
});

describe('usdHealth flags at their thresholds', () => {
  it('yield curve: INVERTED below 0, FLAT below 0.5, NORMAL from 0.5', () => {
    expect(run(withLatest('T10Y2Y', -0.01)).usdHealth.yieldCurve).toMatchObject({ state: 'INVERTED', recessionSignal: true });
    expect(run(withLatest('T10Y2Y', 0)).usdHealth.yieldCurve.state).toBe('FLAT');
    expect(run(withLatest('T10Y2Y', 0.49)).usdHealth.yieldCurve.state).toBe('FLAT');
    expect(run(withLatest('T10Y2Y', 0.5)).usdHealth.yieldCurve.state).toBe('NORMAL');
    expect(run(withLatest('T10Y2Y', -0.01)).alerts).toContain('Yield curve inverted (10y-2y below 0): recession signal');
  });
  it('breakeven elevated above 2.75 only', () => {
    expect(run(withLatest('T10YIE', 2.75)).usdHealth.breakevenInflation.elevated).toBe(false);
    expect(run(withLatest('T10YIE', 2.76)).usdHealth.breakevenInflation.elevated).toBe(true);
  });
  it('gold debasement above 2500 only', () => {
    expect(run(withLatest('GOLD', 2500)).usdHealth.gold.debasementSignal).toBe(false);
    expect(run(withLatest('GOLD', 2500.01)).usdHealth.gold.debasementSignal).toBe(true);
  });
  it('independent vs official inflation: divergence above 1.5 points makes official data LOW confidence', () => {
    const official = run(snapshotSignals()).usdHealth.indepInflationVsOfficial.official!;
    const justUnder = run(withLatest('T10YIE', official + 1.49));
    expect(justUnder.usdHealth.indepInflationVsOfficial.divergenceFlag).toBe(false);
    const over = run(withLatest('T10YIE', official + 1.52));
    expect(over.usdHealth).toMatchObject({ confidenceInOfficialData: 'LOW', indepInflationVsOfficial: { divergenceFlag: true } });
    expect(over.usdHealth.divergenceAlerts.length).toBeGreaterThan(0);
  });
});

describe('the peg', () => {
  it('is not measured without prices; from prices it is the supply-weighted deviation, alert at 50 bps', () => {
    expect(run(snapshotSignals()).peg).toMatchObject({ deviationBps: null, alert: false, measured: false });
    const weights = run(snapshotSignals()).peg.basketWeights as Record<string, number>;
    const at = (price: number) => run({ ...snapshotSignals(), stablecoinPrices: { USDC: price, USDT: price, DAI: price } }).peg;
    expect(at(0.995).deviationBps).toBeCloseTo(50, 0);
    expect(at(0.995).alert).toBe(true);
    expect(at(0.996).alert).toBe(false);
    expect(weights.USDC! + weights.USDT! + weights.DAI!).toBeCloseTo(1, 3);
  });
});

describe('the whole run', () => {
  it('is deterministic for a snapshot and a clock, with 7 tiers and 12 signals', () => {
    const first = run(snapshotSignals());
    expect(run(snapshotSignals())).toEqual(first);
    expect(first.tiers).toHaveLength(7);
    expect(first.usdHealth.independentSignals).toBe(12);
    expect(first.stabilityScore).toBeGreaterThanOrEqual(0);
    expect(first.stabilityScore).toBeLessThanOrEqual(100);
  });
  it('uses nothing dated after now', () => {
    const early = runStabilityPipeline(snapshotSignals(), stabilityParameters, new Date('2025-01-15T00:00:00Z'));
    expect(early.asOf <= '2025-01-15').toBe(true);
  });
  it('a feed in fallback lowers the confidence and makes the data PARTIAL', () => {
    const ok = run(snapshotSignals());
    const fallback = run({ ...snapshotSignals(), feeds: [{ feed: 'FRED', mode: 'live', status: 'fallback', reason: 'HTTP 500' }] });
    expect(fallback.confidence).toBe(Math.max(0, ok.confidence - stabilityParameters.confidence.fallbackPenalty));
    expect(fallback.dataQuality).toBe('PARTIAL');
  });
});
