// Precision and recall of a name matcher on labelled pairs (data/name-pairs.json), at a threshold:
// the figures `npm run bench` prints and the floors the tests hold the matcher to.

export interface LabelledNamePair {
  a: string;
  b: string;
  /** True when the two names are renderings of one name and a screen must connect them. */
  match: boolean;
  category: string;
  note: string;
}

export interface ScoredNamePair extends LabelledNamePair {
  score: number;
  predicted: boolean;
}

export interface MatcherEvaluation {
  threshold: number;
  pairs: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
  /** TP / (TP + FP); 1 when nothing was predicted to match. */
  precision: number;
  /** TP / (TP + FN); 1 when no pair is labelled a match. */
  recall: number;
  /** Pairs the matcher got wrong, for reading. */
  errors: ScoredNamePair[];
}

/** Scores every pair with `similarity`, predicts a match at or above `threshold`, and counts. */
export function evaluateMatcher(pairs: readonly LabelledNamePair[], similarity: (a: string, b: string) => number, threshold: number): MatcherEvaluation {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  let trueNegatives = 0;
  const errors: ScoredNamePair[] = [];
  for (const pair of pairs) {
    const score = similarity(pair.a, pair.b);
    const predicted = score >= threshold;
    if (predicted && pair.match) truePositives++;
    else if (predicted) falsePositives++;
    else if (pair.match) falseNegatives++;
    else trueNegatives++;
    if (predicted !== pair.match) errors.push({ ...pair, score, predicted });
  }
  const predictedMatches = truePositives + falsePositives;
  const labelledMatches = truePositives + falseNegatives;
  return {
    threshold,
    pairs: pairs.length,
    truePositives,
    falsePositives,
    falseNegatives,
    trueNegatives,
    precision: predictedMatches === 0 ? 1 : truePositives / predictedMatches,
    recall: labelledMatches === 0 ? 1 : truePositives / labelledMatches,
    errors,
  };
}
