import type { Clock } from '../../platform/clock.js';
import {
  buildEsgHealth,
  buildEsgReliability,
  buildEsgScore,
  buildOracleHistory,
  buildOracleStatus,
  buildReliability,
  buildStabilityHealth,
  type EsgRunOutput,
  type StabilityRunOutput,
  type StabilityThresholds,
} from './domain/oracle-views.js';
import type { FeesOracles } from './oracles.js';

export interface OracleServiceDeps {
  oracles: FeesOracles<StabilityRunOutput, EsgRunOutput>;
  clock: Clock;
  network: { name: string; chainId: number };
  thresholds: StabilityThresholds;
}

/** The stability and ESG oracles' answers from their recorded runs, called alike by routes and resolvers. */
export function createOracleService(deps: OracleServiceDeps) {
  const { oracles, clock } = deps;
  const interval = oracles.intervalSeconds;
  const stability = () => oracles.stability.view();
  const esg = () => oracles.esg.view();
  return {
    reliability: async () => buildReliability(await stability(), clock.now(), interval, deps.thresholds),
    health: async () => buildStabilityHealth(await stability(), clock.now(), interval, deps.network),
    status: async () => buildOracleStatus(await stability()),
    history: async () => buildOracleHistory(await stability()),
    esgScore: async () => buildEsgScore(await esg(), clock.now()),
    esgReliability: async () => buildEsgReliability(await esg(), clock.now(), interval),
    esgHealth: async () => buildEsgHealth(await esg(), clock.now(), interval),
  };
}

export type OracleService = ReturnType<typeof createOracleService>;
