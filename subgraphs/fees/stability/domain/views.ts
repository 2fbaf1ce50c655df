/**
 * The stability oracle's answers built from its recorded runs (Document 1 §2, §4; decision 0035).
 * Pure: the runs, the interval and `now` are passed in.
 */
import type { FeedState } from '../../domain/index.js';
import {
  averageScore24h,
  epochSeconds,
  HISTORY_LENGTH,
  humanDuration,
  type IntelligenceObject,
  type OracleDataQuality,
  type OracleState,
  oracleState,
  type RunsView,
  withIntelligence,
} from '../../runs/domain/index.js';

export const RELIABILITY_SCHEMA = 'srg-reliability/1.0';

/** What the views read of a stability run's output (the pipeline's assessment plus its intelligence). */
// A type alias (not an interface), so that a run's output is a JSON object (Record<string, unknown>) to the serialisers.
export type StabilityRunOutput = {
  stabilityScore: number;
  overall: string;
  confidence: number;
  dataQuality: OracleDataQuality;
  asOf: string;
  peg: { deviationBps: number | null; deviationThresholdBps: number; basketWeights: Record<string, number>; alert: boolean; verificationCycleSeconds: number };
  usdHealth: Record<string, unknown>;
  feeds: FeedState[];
  alerts: string[];
  intelligence?: IntelligenceObject;
};

export interface StabilityThresholds {
  stable: number;
  caution: number;
  unstable: number;
}

/** Every feed answered as configured, the latest run succeeded and is current, and no peg alert: "all systems nominal". */
export function stabilityIsHealthy(output: StabilityRunOutput, state: OracleState): boolean {
  return state.status === 'SUCCESS' && state.fresh && !output.peg.alert && output.feeds.every((feed) => feed.status === 'ok');
}

/** GET /stability/reliability. */
export function buildReliability(view: RunsView<StabilityRunOutput>, now: Date, intervalSeconds: number, thresholds: StabilityThresholds) {
  const output = view.latest.output!;
  const state = oracleState(view, now, intervalSeconds);
  return {
    schema: RELIABILITY_SCHEMA,
    timestamp: now.toISOString(),
    isHealthy: stabilityIsHealthy(output, state),
    oracle: { status: state.status, lastUpdate: state.lastUpdate, uptimeSeconds: state.uptimeSeconds, uptimePct: state.uptimePct, updateFrequencySeconds: intervalSeconds },
    stability: {
      currentScore: output.stabilityScore,
      averageScore24h: averageScore24h(view.recent, now) ?? output.stabilityScore,
      threshold: thresholds,
    },
    peg: {
      deviationBps: output.peg.deviationBps,
      deviationThresholdBps: output.peg.deviationThresholdBps,
      basketWeights: output.peg.basketWeights,
      verificationCycleSeconds: output.peg.verificationCycleSeconds,
    },
    confidence: { score: output.confidence, scale: '0-100' as const },
    usdHealth: output.usdHealth,
    dataQuality: output.dataQuality,
    asOf: output.asOf,
    ...withIntelligence(output.intelligence),
  };
}

/** GET /stability/health: liveness with the oracle's state read from the record, and the feeds. */
export function buildStabilityHealth(view: RunsView<StabilityRunOutput>, now: Date, intervalSeconds: number, network: { name: string; chainId: number }) {
  const output = view.latest.output!;
  const state = oracleState(view, now, intervalSeconds);
  const degraded = !state.fresh || state.status !== 'SUCCESS' || output.feeds.some((feed) => feed.status !== 'ok');
  return {
    status: degraded ? ('degraded' as const) : ('healthy' as const),
    oracle: state.status,
    uptimeSeconds: state.uptimeSeconds,
    uptimeHuman: humanDuration(state.uptimeSeconds),
    network: network.name,
    chainId: network.chainId,
    timestamp: now.toISOString(),
    feeds: output.feeds,
  };
}

/** GET /stability/api/status: the latest successful run, its full output. */
export function buildOracleStatus(view: RunsView<StabilityRunOutput>) {
  const { latest } = view;
  return { timestamp: epochSeconds(latest.slot), status: latest.status, data: latest.output!, lastUpdate: (latest.finishedAt ?? latest.startedAt).toISOString() };
}

/** GET /stability/api/history: the last 24 successful runs, newest first. */
export function buildOracleHistory(view: RunsView<StabilityRunOutput>) {
  return view.recent
    .filter((run) => run.status === 'SUCCESS' && run.score !== null)
    .slice(0, HISTORY_LENGTH)
    .map((run) => ({ timestamp: epochSeconds(run.slot), stabilityScore: run.score!, overall: run.overall ?? '' }));
}
