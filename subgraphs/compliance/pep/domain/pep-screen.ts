// The PEP screening result (Document 2 §2 "PEP screening result", §8 "match score 0.60 or above"):
// match confidence, risk level and the FATF R.12 enhanced-due-diligence decision over the matches
// the PEP index found (pep-screening.ts). The rules are ours (decision 0016); the spec gives the
// levels and the threshold only.

import { jaroWinkler, nameTokens, PEP_MATCH_THRESHOLD, type PepSource } from '../../domain/index.js';
import type { PepMatch } from './pep-screening.js';
export const PEP_RISK_LEVELS = ['HIGH', 'MEDIUM', 'LOW', 'NONE'] as const;
export type PepRiskLevel = (typeof PEP_RISK_LEVELS)[number];
export const PEP_MATCH_CONFIDENCES = ['HIGH', 'MEDIUM', 'LOW'] as const;
export type PepMatchConfidence = (typeof PEP_MATCH_CONFIDENCES)[number];
export type PositionCheck = 'CORROBORATED' | 'CONTRADICTED' | 'NOT_GIVEN';

/** Name-score bands of match confidence, before the position check: >= 0.90 HIGH, >= 0.75 MEDIUM, >= 0.60 LOW. */
export const PEP_CONFIDENCE_BANDS: readonly { readonly from: number; readonly confidence: PepMatchConfidence }[] = [
  { from: 0.9, confidence: 'HIGH' },
  { from: 0.75, confidence: 'MEDIUM' },
  { from: PEP_MATCH_THRESHOLD, confidence: 'LOW' },
];
/** A submitted position corroborates a record when at least this share of its words is in the record's position. */
export const POSITION_CORROBORATION_SHARE = 0.5;
/** Two position words are the same word at this Jaro-Winkler similarity or above (Senator / Senators). */
export const POSITION_WORD_MATCH = 0.9;

export interface PepScreenMatch {
  /** The record's name as its source writes it. */
  name: string;
  /** The name or other name of the record that matched. */
  matchedName: string;
  position: string;
  /** ISO 3166-1 alpha-2, or null when the source's country has none. */
  country: string | null;
  countryName: string;
  /** In office at the source's as-of date. */
  current: boolean;
  matchConfidence: PepMatchConfidence;
  /** Name similarity, 0.60-1, four decimals. */
  score: number;
  positionCheck: PositionCheck;
  source: PepSource;
  recordId: string;
}

export interface PepScreenAssessment {
  riskLevel: PepRiskLevel;
  pepMatches: PepScreenMatch[];
  eddRequired: boolean;
}

const CONFIDENCE_ORDER: readonly PepMatchConfidence[] = ['LOW', 'MEDIUM', 'HIGH'];

/** The confidence band of a name score; null below the PEP threshold. */
export function confidenceForScore(score: number): PepMatchConfidence | null {
  for (const band of PEP_CONFIDENCE_BANDS) {
    if (score >= band.from) return band.confidence;
  }
  return null;
}

/**
 * Whether a submitted position agrees with the record's: the share of the submitted position's words
 * (normalised as names are) found among the record position's words. Only used to move confidence.
 */
export function checkPosition(submitted: string | undefined, recordPosition: string): PositionCheck {
  if (submitted === undefined) return 'NOT_GIVEN';
  const wanted = nameTokens(submitted);
  if (wanted.length === 0) return 'NOT_GIVEN';
  const held = nameTokens(recordPosition);
  const found = wanted.filter((word) => held.some((other) => jaroWinkler(word, other) >= POSITION_WORD_MATCH)).length;
  return found / wanted.length >= POSITION_CORROBORATION_SHARE ? 'CORROBORATED' : 'CONTRADICTED';
}

/** The name band, one step up when the position corroborates, one step down (not below LOW) when it contradicts. */
export function matchConfidenceOf(score: number, positionCheck: PositionCheck): PepMatchConfidence | null {
  const band = confidenceForScore(score);
  if (band === null) return null;
  const step = positionCheck === 'CORROBORATED' ? 1 : positionCheck === 'CONTRADICTED' ? -1 : 0;
  const index = Math.min(CONFIDENCE_ORDER.length - 1, Math.max(0, CONFIDENCE_ORDER.indexOf(band) + step));
  return CONFIDENCE_ORDER[index]!;
}

/**
 * The risk level of a set of matches:
 * 1. NONE: no match at 0.60 or above.
 * 2. HIGH: a person in office matched with HIGH confidence.
 * 3. MEDIUM: a person in office matched with MEDIUM confidence, or a former office holder with HIGH.
 * 4. LOW: any other match.
 */
export function riskLevelOf(matches: readonly Pick<PepScreenMatch, 'current' | 'matchConfidence'>[]): PepRiskLevel {
  if (matches.length === 0) return 'NONE';
  if (matches.some((match) => match.current && match.matchConfidence === 'HIGH')) return 'HIGH';
  if (matches.some((match) => (match.current && match.matchConfidence === 'MEDIUM') || match.matchConfidence === 'HIGH')) return 'MEDIUM';
  return 'LOW';
}

/**
 * FATF R.12 enhanced due diligence: required when the screen is HIGH or MEDIUM, that is when a
 * person in office matches with at least MEDIUM confidence or a former office holder with HIGH
 * (R.12 keeps former PEPs in scope on a risk basis). A LOW screen is kept for review, not EDD.
 */
export const eddRequiredFor = (riskLevel: PepRiskLevel): boolean => riskLevel === 'HIGH' || riskLevel === 'MEDIUM';

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/** The screening result of the index's matches (best first), given the submitted position. */
export function assessPepMatches(matches: readonly PepMatch[], position: string | undefined): PepScreenAssessment {
  const pepMatches: PepScreenMatch[] = [];
  for (const match of matches) {
    const positionCheck = checkPosition(position, match.record.position);
    const matchConfidence = matchConfidenceOf(match.score, positionCheck);
    if (matchConfidence === null) continue;
    pepMatches.push({
      name: match.record.name,
      matchedName: match.matchedName,
      position: match.record.position,
      country: match.record.country,
      countryName: match.record.countryName,
      current: match.record.current,
      matchConfidence,
      score: round4(match.score),
      positionCheck,
      source: match.record.source,
      recordId: match.record.id,
    });
  }
  const riskLevel = riskLevelOf(pepMatches);
  return { riskLevel, pepMatches, eddRequired: eddRequiredFor(riskLevel) };
}
