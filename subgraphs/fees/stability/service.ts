import type { Clock } from '../../../platform/clock.js';
import type { OracleReadModel } from '../runs/read-model.js';
import { buildOracleHistory, buildOracleStatus, buildReliability, buildStabilityHealth, reliabilityDecision, type StabilityParameters } from './domain/index.js';
import type { StabilityOutput } from './job.js';

export interface StabilityServiceDeps {
  /** The stability oracle's recorded runs (runs/read-model.ts). */
  runs: OracleReadModel<StabilityOutput>;
  /** The oracles' run interval. */
  intervalSeconds: number;
  clock: Clock;
  network: { name: string; chainId: number };
  parameters: StabilityParameters;
}

/** The stability oracle's answers from its recorded runs, called alike by routes and resolvers. */
export function createStabilityService(deps: StabilityServiceDeps) {
  const { clock, intervalSeconds: interval } = deps;
  const stability = () => deps.runs.view();
  const reliability = async () => buildReliability(await stability(), clock.now(), interval, deps.parameters.bands);
  return {
    reliability,
    /** GET /reliability with the action its decision table gives (the graph's `decision` field). */
    async reliabilityWithDecision() {
      const answer = await reliability();
      const decision = reliabilityDecision({ isHealthy: answer.isHealthy, score: answer.stability.currentScore, pegDeviationBps: answer.peg.deviationBps }, deps.parameters);
      return { ...answer, decision };
    },
    usdHealth: async () => (await stability()).latest.output!.usdHealth,
    health: async () => buildStabilityHealth(await stability(), clock.now(), interval, deps.network),
    status: async () => buildOracleStatus(await stability()),
    history: async () => buildOracleHistory(await stability()),
  };
}

export type StabilityService = ReturnType<typeof createStabilityService>;
