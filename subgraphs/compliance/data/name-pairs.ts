// The labelled name pairs (name-pairs.json) and the matcher's precision and recall on them at the
// spec's thresholds: what `npm run bench` prints and name-pairs.test.ts holds to floors.

import { z } from 'zod';
import { evaluateMatcher, type LabelledNamePair, type MatcherEvaluation } from '../domain/evaluation.js';
import { nameSimilarity } from '../domain/name-similarity.js';
import { PEP_MATCH_THRESHOLD, SANCTIONS_MATCH_THRESHOLD } from '../domain/thresholds.js';
import { readDataFile } from './files.js';

const pairsSchema = z.object({
  pairs: z.array(z.object({ a: z.string(), b: z.string(), match: z.boolean(), category: z.string(), note: z.string() })),
});

let pairs: readonly LabelledNamePair[] | undefined;

/** name-pairs.json, read once. */
export function labelledNamePairs(): readonly LabelledNamePair[] {
  return (pairs ??= pairsSchema.parse(JSON.parse(readDataFile('name-pairs.json'))).pairs);
}

/** Precision and recall of nameSimilarity on the labelled pairs at the sanctions threshold (0.70). */
export function sanctionsMatcherEvaluation(): MatcherEvaluation {
  return evaluateMatcher(labelledNamePairs(), nameSimilarity, SANCTIONS_MATCH_THRESHOLD);
}

/** The same at the PEP threshold (0.60). */
export function pepMatcherEvaluation(): MatcherEvaluation {
  return evaluateMatcher(labelledNamePairs(), nameSimilarity, PEP_MATCH_THRESHOLD);
}
