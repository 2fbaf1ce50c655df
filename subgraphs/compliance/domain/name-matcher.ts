// The name comparison of verification of payee in one object: the similarity, the score bands and
// the normalised tokens (the shape service.ts's ComplianceMatcher asks for).

import { nameSimilarity } from './name-similarity.js';
import { nameTokens } from './normalise-name.js';
import { vopResultForScore, type VopNameResult } from './thresholds.js';

export const nameMatcher: {
  similarity(submitted: string, registered: string): number;
  resultForScore(score: number): VopNameResult;
  tokens(name: string): string[];
} = {
  similarity: nameSimilarity,
  resultForScore: vopResultForScore,
  tokens: nameTokens,
};
