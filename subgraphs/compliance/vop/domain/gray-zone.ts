// The advisory assessment of a PROCEED_FLAGGED or PROCEED_UNVERIFIED name discrepancy (Document 2,
// grayZoneReasoning): whether the submitted name is a legitimate variant of the registered one.
// Rule-based from the normalised tokens of both names; it never changes proceedSafe.

export type GrayZoneAssessment = 'LIKELY_CORRECT' | 'UNCERTAIN' | 'LIKELY_WRONG';
export type GrayZoneConfidence = 'HIGH' | 'MEDIUM' | 'LOW';
export type ProceedRecommendation = 'PROCEED' | 'PROCEED_WITH_CAUTION' | 'MANUAL_REVIEW';

export interface GrayZoneReasoning {
  assessment: GrayZoneAssessment;
  confidence: GrayZoneConfidence;
  likelyCause: string;
  rationale: string;
  proceedRecommendation: ProceedRecommendation;
  /** Epoch seconds. */
  processedAt: number;
}

/** Below this VoP score, tokens that do not line up point to another entity rather than a spelling variant. */
const SPELLING_VARIANT_FLOOR = 55;

/**
 * 1. The same tokens (after normalisation drops case, accents, punctuation and legal forms):
 *    a formatting or legal-form variant. LIKELY_CORRECT, HIGH.
 * 2. One name's tokens all within the other's: an abbreviated or trading name. LIKELY_CORRECT, MEDIUM.
 * 3. Tokens overlapping and a score of 55 or more: a spelling or transliteration variant. UNCERTAIN, MEDIUM.
 * 4. Otherwise: probably another entity. LIKELY_WRONG, MEDIUM.
 */
export function assessNameDiscrepancy(
  names: { submitted: string; registered: string; submittedTokens: readonly string[]; registeredTokens: readonly string[] },
  score: number,
  now: Date,
): GrayZoneReasoning {
  const submitted = new Set(names.submittedTokens);
  const registered = new Set(names.registeredTokens);
  const shared = [...submitted].filter((token) => registered.has(token));
  const processedAt = Math.floor(now.getTime() / 1000);
  const quoted = `"${names.submitted}" against "${names.registered}"`;
  if (shared.length === submitted.size && shared.length === registered.size && shared.length > 0) {
    return {
      assessment: 'LIKELY_CORRECT',
      confidence: 'HIGH',
      likelyCause: 'formatting or legal-form variant',
      rationale: `${quoted}: the same words once case, accents, punctuation and legal forms are set aside.`,
      proceedRecommendation: 'PROCEED',
      processedAt,
    };
  }
  if (shared.length > 0 && (shared.length === submitted.size || shared.length === registered.size)) {
    return {
      assessment: 'LIKELY_CORRECT',
      confidence: 'MEDIUM',
      likelyCause: 'abbreviated or trading name',
      rationale: `${quoted}: every word of the shorter name appears in the longer one.`,
      proceedRecommendation: 'PROCEED_WITH_CAUTION',
      processedAt,
    };
  }
  if (shared.length > 0 || score >= SPELLING_VARIANT_FLOOR) {
    return {
      assessment: 'UNCERTAIN',
      confidence: 'MEDIUM',
      likelyCause: 'spelling or transliteration variant',
      rationale: `${quoted}: similar (score ${score}) but not the same words; a variant spelling is possible.`,
      proceedRecommendation: 'PROCEED_WITH_CAUTION',
      processedAt,
    };
  }
  return {
    assessment: 'LIKELY_WRONG',
    confidence: 'MEDIUM',
    likelyCause: 'a different entity',
    rationale: `${quoted}: no word in common and a low score (${score}).`,
    proceedRecommendation: 'MANUAL_REVIEW',
    processedAt,
  };
}
