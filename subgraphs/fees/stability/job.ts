import { stabilityParameters } from '../data/signals.js';
import type { OracleReadings } from '../domain/index.js';
import type { IntelligenceObject } from '../runs/domain/index.js';
import { intelligenceOf, type IntelligenceSources } from '../runs/intelligence.js';
import type { OraclePublisher } from '../runs/publication.js';
import type { OracleJob } from '../runs/scheduler.js';
import { loadSignals, type SignalFeedOptions } from '../sources/index.js';
import { runStabilityPipeline, type StabilityAssessment } from './domain/index.js';

export const STABILITY_ORACLE = 'stability';

export type StabilityOutput = StabilityAssessment & { intelligence?: IntelligenceObject };

export interface StabilityJobDeps extends IntelligenceSources {
  feeds: SignalFeedOptions;
  /** Copies each recorded run's figures to the rail's oracle contracts (decision 0057); none: not published. */
  publisher?: OraclePublisher;
}

function stabilityDrivers(assessment: StabilityAssessment): string[] {
  const ranked = assessment.tiers.filter((tier) => tier.score !== null).sort((a, b) => a.score! - b.score!);
  const weakest = ranked[0];
  const strongest = ranked.at(-1);
  return [
    `Stability score ${assessment.stabilityScore} (${assessment.overall}); USD structural health ${assessment.usdHealth.score ?? 'not computed'}, outlook ${assessment.usdHealth.structuralOutlook}.`,
    ...(weakest && strongest ? [`Weakest tier: ${weakest.name} at ${weakest.score}; strongest: ${strongest.name} at ${strongest.score}.`] : []),
    assessment.peg.deviationBps === null ? 'The peg deviation is not measured without live stablecoin prices.' : `Peg deviation ${assessment.peg.deviationBps} bps.`,
  ];
}

/** One run of the stability oracle: the signals (live or the snapshot), the pipeline, the intelligence object; published once recorded. */
export function createStabilityJob(deps: StabilityJobDeps): OracleJob {
  return {
    oracle: STABILITY_ORACLE,
    async run(now) {
      const assessment = runStabilityPipeline(await loadSignals(deps.feeds, now), stabilityParameters, now);
      const intelligence = await intelligenceOf(deps, STABILITY_ORACLE, now, {
        topic: 'stability oracle',
        score: assessment.stabilityScore,
        confidencePct: assessment.confidence,
        alerts: assessment.alerts,
        drivers: stabilityDrivers(assessment),
        facts: { overall: assessment.overall, usdHealthScore: assessment.usdHealth.score, dataQuality: assessment.dataQuality },
      });
      const output: StabilityOutput = { ...assessment, ...intelligence };
      return { score: assessment.stabilityScore, overall: assessment.overall, output, publish: (slot) => deps.publisher?.stability(slot, assessment) };
    },
  };
}

/** What a quote reports of the stability oracle's latest output (decision 0036); null before any run. */
export function stabilityReading(output: StabilityOutput | undefined, runAt: Date | undefined): OracleReadings['stability'] {
  return output && runAt
    ? { score: output.stabilityScore, status: output.overall, pegDeviationBps: output.peg.deviationBps, pegAlert: output.peg.alert, confidence: output.confidence, runAt: runAt.toISOString() }
    : null;
}
