// The name score of verification of payee (docs/compliance-matching.md §7, decision 0055). The
// EPC verification-of-payee rulebook and UK Confirmation of Payee answer "match", "close match"
// or "no match"; the spec's bands (VERIFIED from 90, PROCEED_HIGH_CONFIDENCE from 75 ...) are read
// the same way: VERIFIED is a match, and a match means the same party. So, unlike the screening
// score, a word that differs is not a spelling to be forgiven by Jaro-Winkler (IMPORTERS and
// EXPORTERS score 0.87 there): it counts as unmatched unless it is an equal word, an equivalent
// (an abbreviation, a numeral, a legal form written out), a split or joined word, or a typing
// slip of one letter in a long word.

import { bestAssignment, equivalentWord, nameWords, splitLegalForms, withoutConnectingWords } from '../../domain/index.js';
/** Similarity of a word with one typing slip (one letter added, dropped, changed or two swapped). */
export const TYPO_SIMILARITY = 0.85;
/** Words shorter than this must be equal: in short words one letter is often another word (MARK, MARY). */
export const SHORTEST_TYPO_WORD = 5;
/** Factor when both names carry a legal form and the forms differ (Ltd against Inc: perhaps another company). */
export const DIFFERENT_LEGAL_FORM_FACTOR = 0.85;
/**
 * Factor when one name carries a legal form and the other none (SIEMENS AG against Siemens): 1, as
 * payers commonly leave the form out and Confirmation of Payee treats that as a match.
 */
export const MISSING_LEGAL_FORM_FACTOR = 1;
/** The highest score a name with any word not matched exactly can reach: below VERIFIED's 90. */
export const INEXACT_SCORE_CAP = 0.89;

export interface PayeeName {
  /** Distinctive words: legal forms and connecting words removed, equivalences applied. */
  words: string[];
  /** Canonical legal forms found at either end (llc, ag ...). */
  legalForms: string[];
}

/** A name as the VoP score reads it. */
export function payeeName(name: string): PayeeName {
  const { tokens, forms } = splitLegalForms(nameWords(name));
  return { words: withoutConnectingWords(tokens).map(equivalentWord), legalForms: [...new Set(forms)].sort() };
}

/**
 * Joins adjacent words of `words` whose concatenation is a word of `other` (SOUTH RIDGE against
 * SOUTHRIDGE), so a split or joined word is one word on both sides.
 */
export function joinSplitWords(words: readonly string[], other: readonly string[]): string[] {
  const wanted = new Set(other);
  const joined: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const pair = words[i]! + (words[i + 1] ?? '');
    if (i + 1 < words.length && wanted.has(pair) && !wanted.has(words[i]!)) {
      joined.push(pair);
      i++;
    } else joined.push(words[i]!);
  }
  return joined;
}

/** Whether a and b differ by one edit: a letter added, dropped or changed, or two neighbours swapped. */
export function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  const [longer, shorter] = a.length > b.length ? [a, b] : [b, a];
  return longer.slice(i + 1) === shorter.slice(i);
}

/**
 * Word similarity of the VoP score: 1 for equal words, TYPO_SIMILARITY for a typing slip in words
 * of SHORTEST_TYPO_WORD letters or more that begin alike, else 0. IMPORTERS/EXPORTERS (two letters)
 * and NORTHWIND/SOUTHWIND (two letters, another first letter) are 0: another party.
 */
export function payeeWordSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (Math.min(a.length, b.length) < SHORTEST_TYPO_WORD || a[0] !== b[0]) return 0;
  return oneEditApart(a, b) ? TYPO_SIMILARITY : 0;
}

function legalFormFactor(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return MISSING_LEGAL_FORM_FACTOR;
  return a.join(' ') === b.join(' ') ? 1 : DIFFERENT_LEGAL_FORM_FACTOR;
}

/**
 * The VoP similarity of a submitted and a registered name, in [0, 1]:
 *   W   = 2 · A / (n + m), A the best one-to-one assignment of the n and m distinctive words under
 *         payeeWordSimilarity (after joinSplitWords on each side against the other);
 *   L   = 1 when the legal forms agree, neither has one, or one side has none (MISSING_LEGAL_FORM_FACTOR),
 *         DIFFERENT_LEGAL_FORM_FACTOR (0.85) when both have one and they differ;
 *   s   = W · L, capped at INEXACT_SCORE_CAP (0.89) unless every word of both names is matched by
 *         an equal word (W = 1).
 * So VERIFIED (90 or more) needs the same words in any order, with the same or an omitted legal form.
 */
export function payeeNameSimilarity(submitted: string, registered: string): number {
  const a = payeeName(submitted);
  const b = payeeName(registered);
  const left = joinSplitWords(a.words, b.words);
  const right = joinSplitWords(b.words, left);
  if (left.length === 0 || right.length === 0) return 0;
  const assigned = bestAssignment(left.length, right.length, (i, j) => payeeWordSimilarity(left[i]!, right[j]!));
  const words = Math.min(1, (2 * assigned) / (left.length + right.length));
  const score = words * legalFormFactor(a.legalForms, b.legalForms);
  return words < 1 ? Math.min(score, INEXACT_SCORE_CAP) : score;
}
