// The name comparison of verification of payee in one object: the VoP similarity, the score bands,
// the normalised tokens (for the gray-zone assessment) and the screening similarity (for finding
// LEI records by name): the shape service.ts's ComplianceMatcher asks for.

import { nameSimilarity, nameTokens, type VopNameResult, vopResultForScore } from '../../domain/index.js';
import { payeeNameSimilarity } from './vop-name-score.js';

export const nameMatcher: {
  similarity(submitted: string, registered: string): number;
  resultForScore(score: number): VopNameResult;
  tokens(name: string): string[];
  searchSimilarity(query: string, name: string): number;
} = {
  similarity: payeeNameSimilarity,
  resultForScore: vopResultForScore,
  tokens: nameTokens,
  searchSimilarity: nameSimilarity,
};
