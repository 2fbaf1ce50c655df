/**
 * The ESG oracle's answers built from its recorded runs (Document 1 §2, §4; decision 0035).
 * Pure: the runs, the interval and `now` are passed in.
 */
import {
  averageScore24h,
  epochSeconds,
  HISTORY_LENGTH,
  humanDuration,
  type IntelligenceObject,
  type OracleDataQuality,
  oracleState,
  type RunsView,
  withIntelligence,
} from '../../runs/domain/index.js';

export const ESG_SCORE_SCHEMA = 'srg-esg-score/1.0';
export const ESG_RELIABILITY_SCHEMA = 'srg-esg-reliability/1.0';

/** What the views read of an ESG run's output. */
// A type alias (not an interface), so that a run's output is a JSON object (Record<string, unknown>) to the serialisers.
export type EsgRunOutput = {
  scores: { environmental: number; social: number; governance: number; average: number };
  fee: { pct: number; bps: number; tier: string; formula: string };
  dataQuality: OracleDataQuality;
  asOf: string;
  intelligence?: IntelligenceObject;
};

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
