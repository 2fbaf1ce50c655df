// The labelled sets of issue 21 (decision 0055): name pairs for verification of payee and
// perturbed SDN names for screening, with the measures their tests hold to targets.

import { z } from 'zod';
import { evaluateMatcher, type LabelledNamePair, type MatcherEvaluation, type SanctionsIndex } from '../domain/index.js';
import { payeeNameSimilarity } from '../vop/domain/index.js';
import { readDataFile } from './files.js';

const vopPairsSchema = z.object({
  pairs: z.array(z.object({ a: z.string(), b: z.string(), match: z.boolean(), category: z.string(), note: z.string() })),
});

const probesSchema = z.object({
  probes: z.array(z.object({ query: z.string(), entNum: z.number().int(), listed: z.string(), class: z.string() })),
});

export type SanctionsProbe = z.infer<typeof probesSchema>['probes'][number];

let vopPairs: readonly LabelledNamePair[] | undefined;
let probes: readonly SanctionsProbe[] | undefined;

/** vop-name-pairs.json, read once. */
export function labelledVopPairs(): readonly LabelledNamePair[] {
  return (vopPairs ??= vopPairsSchema.parse(JSON.parse(readDataFile('vop-name-pairs.json'))).pairs);
}

/** sanctions-probes.json, read once. */
export function sanctionsProbes(): readonly SanctionsProbe[] {
  return (probes ??= probesSchema.parse(JSON.parse(readDataFile('sanctions-probes.json'))).probes);
}

/**
 * The VoP score (0-100) on the labelled pairs at a band's lower bound: at 90 (VERIFIED) precision
 * must be 1, at 75 (PROCEED_HIGH_CONFIDENCE) recall at least 0.95.
 */
export function vopMatcherEvaluation(band: number): MatcherEvaluation {
  return evaluateMatcher(labelledVopPairs(), (a, b) => Math.round(payeeNameSimilarity(a, b) * 10_000) / 100, band);
}

/** Probes whose entry a screen finds at the sanctions threshold, of all probes. */
export function sanctionsProbeRecall(index: SanctionsIndex): { found: number; probes: number; missed: SanctionsProbe[] } {
  const missed = sanctionsProbes().filter((probe) => !index.screenName(probe.query).matches.some((match) => match.entry.entNum === probe.entNum));
  return { found: sanctionsProbes().length - missed.length, probes: sanctionsProbes().length, missed };
}
