import type { Clock } from '../../platform/clock.js';
import {
  buildEsgHealth,
  buildEsgReliability,
  buildEsgScore,
  buildOracleHistory,
  buildOracleStatus,
  buildReliability,
  buildStabilityHealth,
} from './domain/oracle-views.js';
import { reliabilityDecision } from './domain/stability/pipeline.js';
import type { StabilityParameters } from './data/signals.js';
import type { EsgOutput, StabilityOutput } from './oracle-jobs.js';
import type { FeesOracles } from './oracles.js';

export interface OracleServiceDeps {
  oracles: FeesOracles<StabilityOutput, EsgOutput>;
  clock: Clock;
  network: { name: string; chainId: number };
  parameters: StabilityParameters;
}

/** The stability and ESG oracles' answers from their recorded runs, called alike by routes and resolvers. */
export function createOracleService(deps: OracleServiceDeps) {
  const { oracles, clock } = deps;
  const interval = oracles.intervalSeconds;
  const stability = () => oracles.stability.view();
  const esg = () => oracles.esg.view();
  return {
    reliability: async () => buildReliability(await stability(), clock.now(), interval, deps.parameters.bands),
    /** GET /reliability with the action its decision table gives (the graph's `decision` field). */
    async reliabilityWithDecision() {
      const reliability = buildReliability(await stability(), clock.now(), interval, deps.parameters.bands);
      const decision = reliabilityDecision({ isHealthy: reliability.isHealthy, score: reliability.stability.currentScore, pegDeviationBps: reliability.peg.deviationBps }, deps.parameters);
      return { ...reliability, decision };
    },
    usdHealth: async () => (await stability()).latest.output!.usdHealth,
    health: async () => buildStabilityHealth(await stability(), clock.now(), interval, deps.network),
    status: async () => buildOracleStatus(await stability()),
    history: async () => buildOracleHistory(await stability()),
    esgScore: async () => buildEsgScore(await esg(), clock.now()),
    esgReliability: async () => buildEsgReliability(await esg(), clock.now(), interval),
    esgHealth: async () => buildEsgHealth(await esg(), clock.now(), interval),
  };
}

export type OracleService = ReturnType<typeof createOracleService>;
