import type { Clock } from '../../../platform/clock.js';
import type { OracleReadModel } from '../runs/read-model.js';
import { buildEsgHealth, buildEsgReliability, buildEsgScore } from './domain/index.js';
import type { EsgOutput } from './job.js';

export interface EsgOracleServiceDeps {
  /** The ESG oracle's recorded runs (runs/read-model.ts). */
  runs: OracleReadModel<EsgOutput>;
  /** The oracles' run interval. */
  intervalSeconds: number;
  clock: Clock;
}

/** The ESG oracle's answers from its recorded runs, called alike by routes and resolvers. */
export function createEsgOracleService(deps: EsgOracleServiceDeps) {
  const { clock, intervalSeconds: interval } = deps;
  const esg = () => deps.runs.view();
  return {
    esgScore: async () => buildEsgScore(await esg(), clock.now()),
    esgReliability: async () => buildEsgReliability(await esg(), clock.now(), interval),
    esgHealth: async () => buildEsgHealth(await esg(), clock.now(), interval),
  };
}

export type EsgOracleService = ReturnType<typeof createEsgOracleService>;
