/**
 * The stability and ESG oracles' answers built from recorded runs (Document 1 §2, §4; decision 0035).
 * Pure: the runs, the interval and `now` are passed in.
 */
import type { IntelligenceObject } from './oracle-intelligence.js';
import { averageScore24h, finishedRuns, humanDuration, slotOf, uptimeOf, type OracleRunRecord, type OracleUptime } from './oracle-runs.js';

export const RELIABILITY_SCHEMA = 'srg-reliability/1.0';
export const ESG_SCORE_SCHEMA = 'srg-esg-score/1.0';
export const ESG_RELIABILITY_SCHEMA = 'srg-esg-reliability/1.0';
export const HISTORY_LENGTH = 24;

export type DataQuality = 'LIVE' | 'PARTIAL' | 'ESTIMATED';

import type { FeedState } from './stability/types.js';

/** What the views read of a stability run's output (the pipeline's assessment plus its intelligence). */
// Type aliases (not interfaces), so that a run's output is a JSON object (Record<string, unknown>) to the serialisers.
export type StabilityRunOutput = {
  stabilityScore: number;
  overall: string;
  confidence: number;
  dataQuality: DataQuality;
  asOf: string;
  peg: { deviationBps: number | null; deviationThresholdBps: number; basketWeights: Record<string, number>; alert: boolean; verificationCycleSeconds: number };
  usdHealth: Record<string, unknown>;
  feeds: FeedState[];
  alerts: string[];
  intelligence?: IntelligenceObject;
};

/** What the views read of an ESG run's output. */
export type EsgRunOutput = {
  scores: { environmental: number; social: number; governance: number; average: number };
  fee: { pct: number; bps: number; tier: string; formula: string };
  dataQuality: DataQuality;
  asOf: string;
  intelligence?: IntelligenceObject;
};

export interface RunsView<Output> {
  latest: OracleRunRecord<Output>;
  recent: readonly OracleRunRecord[];
}

export interface OracleState extends OracleUptime {
  /** The newest finished run's status: SUCCESS, or FAILED while the last good output is served. */
  status: 'SUCCESS' | 'FAILED';
  /** When the output served was produced. */
  lastUpdate: string;
  /** The newest interval due has a successful run. */
  fresh: boolean;
}

export function oracleState(view: RunsView<unknown>, now: Date, intervalSeconds: number): OracleState {
  const newestFinished = finishedRuns(view.recent)[0] ?? view.latest;
  const lastUpdate = view.latest.finishedAt ?? view.latest.startedAt;
  const dueSlot = slotOf(now, intervalSeconds).getTime() - intervalSeconds * 1000;
  return {
    ...uptimeOf(view.recent, now, intervalSeconds),
    status: newestFinished.status === 'FAILED' ? 'FAILED' : 'SUCCESS',
    lastUpdate: lastUpdate.toISOString(),
    fresh: view.latest.slot.getTime() >= dueSlot,
  };
}

const withIntelligence = (intelligence: IntelligenceObject | undefined) => (intelligence ? { intelligence } : {});

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

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

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

/** GET /esg/esg-score. */
export function buildEsgScore(view: RunsView<EsgRunOutput>, now: Date) {
  const output = view.latest.output!;
  return {
    schema: ESG_SCORE_SCHEMA,
    timestamp: now.toISOString(),
    scores: output.scores,
    fee: output.fee,
    dataQuality: output.dataQuality,
    asOf: output.asOf,
    ...withIntelligence(output.intelligence),
  };
}

/** GET /esg/reliability (shape "not shown"; decision 0035): uptime and the score history. */
export function buildEsgReliability(view: RunsView<EsgRunOutput>, now: Date, intervalSeconds: number) {
  const state = oracleState(view, now, intervalSeconds);
  const output = view.latest.output!;
  const history = view.recent
    .filter((run) => run.status === 'SUCCESS' && run.output !== null)
    .slice(0, HISTORY_LENGTH)
    .map((run) => ({ timestamp: epochSeconds(run.slot), ...(run.output as EsgRunOutput).scores }));
  return {
    schema: ESG_RELIABILITY_SCHEMA,
    timestamp: now.toISOString(),
    isHealthy: state.status === 'SUCCESS' && state.fresh,
    oracle: { status: state.status, lastUpdate: state.lastUpdate, uptimeSeconds: state.uptimeSeconds, uptimePct: state.uptimePct, updateFrequencySeconds: intervalSeconds },
    scores: { current: output.scores.average, averageScore24h: averageScore24h(view.recent, now) ?? output.scores.average, history },
    dataQuality: output.dataQuality,
    asOf: output.asOf,
  };
}

/** GET /esg/health: status healthy and esgOracle SUCCESS as the spec shows, from the record. */
export function buildEsgHealth(view: RunsView<EsgRunOutput>, now: Date, intervalSeconds: number) {
  const state = oracleState(view, now, intervalSeconds);
  return {
    status: state.fresh && state.status === 'SUCCESS' ? ('healthy' as const) : ('degraded' as const),
    esgOracle: state.status,
    uptimeSeconds: state.uptimeSeconds,
    uptimeHuman: humanDuration(state.uptimeSeconds),
    timestamp: now.toISOString(),
  };
}
