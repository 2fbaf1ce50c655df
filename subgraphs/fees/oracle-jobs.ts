import type { Synthesiser } from '../../platform/synthesis.js';
import { feeParameters } from './data/index.js';
import { esgOracleParameters, loadRailEsgInputs } from './data/esg-oracle.js';
import intelligenceParameters from './data/intelligence-parameters.json' with { type: 'json' };
import { stabilityParameters } from './data/signals.js';
import { assessRailEsg, type RailEsgAssessment } from './domain/esg-oracle.js';
import type { OracleReadings } from './domain/index.js';
import { draftIntelligence, intelligenceFrom, type IntelligenceDraft, type IntelligenceObject } from './domain/oracle-intelligence.js';
import { runStabilityPipeline, type StabilityAssessment } from './domain/stability/pipeline.js';
import type { OraclePublisher } from './oracle-publication.js';
import type { OracleRunStore } from './oracle-run-store.js';
import type { FeesOracleJobs } from './oracles.js';
import { loadSignals, type SignalFeedOptions } from './sources/index.js';

export const STABILITY_ORACLE = 'stability';
export const ESG_ORACLE = 'esg';

export type StabilityOutput = StabilityAssessment & { intelligence?: IntelligenceObject };
export type EsgOutput = RailEsgAssessment & { intelligence?: IntelligenceObject };

export interface OracleJobDeps {
  store: OracleRunStore;
  synthesiser: Synthesiser;
  feeds: SignalFeedOptions;
  /** Copies each recorded run's figures to the rail's oracle contracts (decision 0057); none: not published. */
  publisher?: OraclePublisher;
}

/** Scores of the oracle's previous successful runs, newest first (for the intelligence outlook). */
async function previousScores(store: OracleRunStore, oracle: string, now: Date): Promise<number[]> {
  const runs = await store.recent(oracle, new Date(now.getTime() - 86_400_000), 50).catch(() => []);
  return runs.flatMap((run) => (run.status === 'SUCCESS' && run.score !== null ? [run.score] : []));
}

/** The intelligence object, or undefined when the synthesiser fails (Document 1: omitted, never overriding the numbers). */
async function synthesise(synthesiser: Synthesiser, draft: IntelligenceDraft): Promise<{ intelligence?: IntelligenceObject }> {
  const synthesis = await synthesiser.synthesise({ topic: draft.topic, facts: draft.facts, ruleBasedText: draft.ruleBasedText });
  return synthesis ? { intelligence: intelligenceFrom(draft, synthesis) } : {};
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

export function createFeesOracleJobs(deps: OracleJobDeps): FeesOracleJobs<StabilityOutput, EsgOutput> {
  return {
    stability: {
      oracle: STABILITY_ORACLE,
      async run(now) {
        const assessment = runStabilityPipeline(await loadSignals(deps.feeds, now), stabilityParameters, now);
        const draft = draftIntelligence(
          {
            topic: 'stability oracle',
            score: assessment.stabilityScore,
            previousScores: await previousScores(deps.store, STABILITY_ORACLE, now),
            confidencePct: assessment.confidence,
            alerts: assessment.alerts,
            drivers: stabilityDrivers(assessment),
            facts: { overall: assessment.overall, usdHealthScore: assessment.usdHealth.score, dataQuality: assessment.dataQuality },
          },
          intelligenceParameters,
        );
        const output: StabilityOutput = { ...assessment, ...(await synthesise(deps.synthesiser, draft)) };
        return { score: assessment.stabilityScore, overall: assessment.overall, output, publish: (slot) => deps.publisher?.stability(slot, assessment) };
      },
    },
    esg: {
      oracle: ESG_ORACLE,
      async run(now) {
        const assessment = assessRailEsg(loadRailEsgInputs(), esgOracleParameters, feeParameters, now);
        const { environmental, social, governance, average } = assessment.scores;
        const draft = draftIntelligence(
          {
            topic: 'ESG oracle',
            score: average,
            previousScores: await previousScores(deps.store, ESG_ORACLE, now),
            // Annual published indicators: the share of inputs present is the confidence in them.
            confidencePct: assessment.dataQuality === 'LIVE' ? 100 : 100 - Math.min(50, assessment.missingInputs.length * 2),
            alerts: assessment.missingInputs.length > 0 ? [`${assessment.missingInputs.length} indicator values are missing for some jurisdictions; they are left out, not guessed`] : [],
            drivers: [`Environmental ${environmental}, social ${social}, governance ${governance}: average ${average}, fee tier ${assessment.fee.tier} (${assessment.fee.bps} bps).`],
            facts: { scores: assessment.scores, fee: assessment.fee },
          },
          intelligenceParameters,
        );
        const output: EsgOutput = { ...assessment, ...(await synthesise(deps.synthesiser, draft)) };
        return { score: average, overall: assessment.fee.tier, output, publish: (slot) => deps.publisher?.esg(slot, assessment) };
      },
    },
    readings(stability, esg, runAt): OracleReadings {
      return {
        stability:
          stability && runAt.stability
            ? { score: stability.stabilityScore, status: stability.overall, pegDeviationBps: stability.peg.deviationBps, pegAlert: stability.peg.alert, confidence: stability.confidence, runAt: runAt.stability.toISOString() }
            : null,
        esg: esg && runAt.esg ? { ...esg.scores, runAt: runAt.esg.toISOString() } : null,
      };
    },
  };
}
