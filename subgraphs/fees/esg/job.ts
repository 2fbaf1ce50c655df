import { esgOracleParameters, loadRailEsgInputs } from '../data/esg-oracle.js';
import { feeParameters } from '../data/index.js';
import type { OracleReadings } from '../domain/index.js';
import type { IntelligenceObject } from '../runs/domain/index.js';
import { intelligenceOf, type IntelligenceSources } from '../runs/intelligence.js';
import type { OraclePublisher } from '../runs/publication.js';
import type { OracleJob } from '../runs/scheduler.js';
import { assessRailEsg, type RailEsgAssessment } from './domain/index.js';

export const ESG_ORACLE = 'esg';

export type EsgOutput = RailEsgAssessment & { intelligence?: IntelligenceObject };

export interface EsgJobDeps extends IntelligenceSources {
  /** Copies each recorded run's figures to the rail's oracle contracts (decision 0057); none: not published. */
  publisher?: OraclePublisher;
}

/** One run of the ESG oracle: the shipped indicators assessed (rail-esg/1), the intelligence object; published once recorded. */
export function createEsgJob(deps: EsgJobDeps): OracleJob {
  return {
    oracle: ESG_ORACLE,
    async run(now) {
      const assessment = assessRailEsg(loadRailEsgInputs(), esgOracleParameters, feeParameters, now);
      const { environmental, social, governance, average } = assessment.scores;
      const intelligence = await intelligenceOf(deps, ESG_ORACLE, now, {
        topic: 'ESG oracle',
        score: average,
        // Annual published indicators: the share of inputs present is the confidence in them.
        confidencePct: assessment.dataQuality === 'LIVE' ? 100 : 100 - Math.min(50, assessment.missingInputs.length * 2),
        alerts: assessment.missingInputs.length > 0 ? [`${assessment.missingInputs.length} indicator values are missing for some jurisdictions; they are left out, not guessed`] : [],
        drivers: [`Environmental ${environmental}, social ${social}, governance ${governance}: average ${average}, fee tier ${assessment.fee.tier} (${assessment.fee.bps} bps).`],
        facts: { scores: assessment.scores, fee: assessment.fee },
      });
      const output: EsgOutput = { ...assessment, ...intelligence };
      return { score: average, overall: assessment.fee.tier, output, publish: (slot) => deps.publisher?.esg(slot, assessment) };
    },
  };
}

/** What a quote reports of the ESG oracle's latest output (decision 0036); null before any run. */
export function esgReading(output: EsgOutput | undefined, runAt: Date | undefined): OracleReadings['esg'] {
  return output && runAt ? { ...output.scores, runAt: runAt.toISOString() } : null;
}
