// The labelled name pairs (name-pairs.json) and the matcher's precision and recall on them at the
// spec's thresholds: what `npm run bench` prints and name-pairs.test.ts holds to floors. Each pair
// is scored as a screen of that list scores it (its index knows which words are distinctive there).

import { z } from 'zod';
import { evaluateMatcher, type LabelledNamePair, type MatcherEvaluation, PEP_MATCH_THRESHOLD, SANCTIONS_MATCH_THRESHOLD, type SanctionsIndex } from '../domain/index.js';
import type { PepIndex } from '../pep/domain/index.js';
import { readDataFile } from './files.js';

const pairsSchema = z.object({
  pairs: z.array(z.object({ a: z.string(), b: z.string(), match: z.boolean(), category: z.string(), note: z.string() })),
});

let pairs: readonly LabelledNamePair[] | undefined;

/** name-pairs.json, read once. */
export function labelledNamePairs(): readonly LabelledNamePair[] {
  return (pairs ??= pairsSchema.parse(JSON.parse(readDataFile('name-pairs.json'))).pairs);
}

/** Precision and recall on the labelled pairs of the SDN screen's score, at the sanctions threshold (0.70). */
export function sanctionsMatcherEvaluation(index: SanctionsIndex): MatcherEvaluation {
  return evaluateMatcher(labelledNamePairs(), (a, b) => index.similarity(a, b), SANCTIONS_MATCH_THRESHOLD);
}

/** The same for the PEP screen's score, at the PEP threshold (0.60). */
export function pepMatcherEvaluation(index: PepIndex): MatcherEvaluation {
  return evaluateMatcher(labelledNamePairs(), (a, b) => index.similarity(a, b), PEP_MATCH_THRESHOLD);
}
