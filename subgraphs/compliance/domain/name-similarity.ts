// The name score of screening and verification of payee (docs/compliance-matching.md §2):
// Jaro-Winkler per token, the best one-to-one assignment of tokens regardless of word order, and
// a penalty for the tokens left unmatched on either side.

import { distance as editDistance } from 'fastest-levenshtein';
import { jaroWinkler, WINKLER_PREFIX_LIMIT, WINKLER_PREFIX_SCALE } from './jaro-winkler.js';
import { nameTokens } from './normalise-name.js';

/**
 * Token pairs below this similarity count as unmatched (0): unrelated tokens still score 0.4-0.7
 * by Jaro-Winkler, and summing that noise would lift unrelated names. 0.7 is also where Winkler's
 * prefix boost starts. Chosen with LENGTH_DIFFERENCE_WEIGHT on data/name-pairs.json
 * (docs/compliance-matching.md §5).
 */
export const TOKEN_MATCH_FLOOR = 0.75;

/**
 * Weight of the length difference: Jaro-Winkler rates a token that begins a much longer one highly
 * (igor/igorevich 0.89, ivan/ivanovich 0.89), but a patronymic or a longer compound is another name.
 */
export const LENGTH_DIFFERENCE_WEIGHT = 0.4;

/**
 * Tokens shorter than this match only when equal: between two- and three-letter tokens one letter
 * is a third of the word (NFA/NIA, OLF/WOLF, ALI/ALY would otherwise score 0.8), and among the
 * GLEIF legal names such pairs were a leading cause of false alerts (decision 0055).
 */
export const SHORTEST_FUZZY_TOKEN = 3;

/**
 * Weight of a token pair whose first letters sound different (Watchman's idea: APPLE/MAPLES,
 * REST/ZEST, BERTA/SERTAL are different words, although Jaro-Winkler rates them 0.8-0.9).
 */
export const DIFFERENT_INITIAL_WEIGHT = 0.9;

/**
 * Edits (Levenshtein: a letter added, dropped or changed) within which two words are a close pair,
 * by the longer word's length L: ⌊ln(max(L − 2, 1))⌋, so none up to 4 letters, 1 for 5-9, 2 for
 * 10-22. One letter changes a short word more than a long one (OpenSanctions bounds the edits
 * between name parts with a rule of this shape).
 */
export function typoAllowance(length: number): number {
  return Math.floor(Math.log(Math.max(length - 2, 1)));
}

/** Whether two tokens are a close pair: equal, or at most typoAllowance edits apart. */
export function isClosePair(a: string, b: string): boolean {
  return a === b || editDistance(a, b) <= typoAllowance(Math.max(a.length, b.length));
}

/**
 * What a loose pair (similar by tokenSimilarity, but further apart than typoAllowance: HARDY/HARAZ,
 * INVESTY/INOVEST, NFA/NIA) counts, as a share of its similarity, when no pair of distinctive words
 * of the two names is close (nameScore). Transliterations are loose too (GADDAFI/GHATHAFI,
 * ALIAKSANDR/ALEXANDER), but a listed person's name written otherwise nearly always keeps a rare
 * word close.
 */
export const LOOSE_PAIR_WEIGHT = 0.5;

/** Soundex's classes of consonants; vowels and h, w, y form one more class. */
const INITIAL_CLASS: Readonly<Record<string, string>> = Object.fromEntries(
  [
    ['aeiouyhw', 'v'],
    ['bfpv', '1'],
    ['cgjkqsxz', '2'],
    ['dt', '3'],
    ['l', '4'],
    ['mn', '5'],
    ['r', '6'],
  ].flatMap(([letters, code]) => [...letters!].map((letter) => [letter, code!])),
);

/** Whether two tokens begin with the same letter or with letters of one Soundex class (Q/K, J/C, V/B). */
export function sameInitialSound(a: string, b: string): boolean {
  if (a[0] === b[0]) return true;
  const classA = INITIAL_CLASS[a[0] ?? ''];
  return classA !== undefined && classA === INITIAL_CLASS[b[0] ?? ''];
}

/**
 * Token similarity as the score uses it:
 *   s = jaroWinkler(a, b) · (1 − 0.4 · |len a − len b| / max(len a, len b)) · (0.9 if the first
 *       letters sound different, else 1),
 * 1 for equal tokens, 0 for unequal tokens shorter than SHORTEST_FUZZY_TOKEN, and 0 when s is below
 * TOKEN_MATCH_FLOOR.
 */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return a.length === 0 ? 0 : 1;
  if (Math.min(a.length, b.length) < SHORTEST_FUZZY_TOKEN) return 0;
  const longer = Math.max(a.length, b.length);
  let similarity = jaroWinkler(a, b) * (1 - (LENGTH_DIFFERENCE_WEIGHT * Math.abs(a.length - b.length)) / longer);
  if (!sameInitialSound(a, b)) similarity *= DIFFERENT_INITIAL_WEIGHT;
  return similarity >= TOKEN_MATCH_FLOOR ? similarity : 0;
}

/**
 * Whether tokens of these lengths can reach TOKEN_MATCH_FLOOR at all. With r = shorter/longer,
 * m ≤ shorter gives jaro ≤ (2 + r)/3, the prefix boost at most 0.4 · (1 − jaro), and the length
 * factor is 1 − 0.4 · (1 − r): their product bounds tokenSimilarity. The index uses it to skip
 * tokens by length before any comparison; it never skips a pair that could match.
 */
export function lengthsCanMatch(lengthA: number, lengthB: number): boolean {
  const longer = Math.max(lengthA, lengthB);
  if (longer === 0 || Math.min(lengthA, lengthB) === 0) return false;
  const ratio = Math.min(lengthA, lengthB) / longer;
  const jaro = (2 + ratio) / 3;
  const bound = (jaro + WINKLER_PREFIX_LIMIT * WINKLER_PREFIX_SCALE * (1 - jaro)) * (1 - LENGTH_DIFFERENCE_WEIGHT * (1 - ratio));
  return bound >= TOKEN_MATCH_FLOOR;
}

/** Beyond this many tokens on the shorter side, the assignment is greedy instead of exact. */
const EXACT_ASSIGNMENT_LIMIT = 10;

/**
 * The largest sum of sim(i, j) over one-to-one pairs of i ∈ [0, n) and j ∈ [0, m). Exact (dynamic
 * programming over subsets of the shorter side) up to 10 tokens on that side; greedy by
 * descending similarity beyond that, where names are long phrases and the difference is marginal.
 */
export function bestAssignment(n: number, m: number, sim: (i: number, j: number) => number): number {
  if (n === 0 || m === 0) return 0;
  const transposed = n < m;
  const long = transposed ? m : n;
  const short = transposed ? n : m;
  const pair = transposed ? (l: number, s: number) => sim(s, l) : sim;
  if (short > EXACT_ASSIGNMENT_LIMIT) return greedyAssignment(long, short, pair);

  // best[mask]: the largest sum using exactly the short-side tokens in mask, over the long-side tokens seen so far.
  const size = 1 << short;
  let best = new Float64Array(size).fill(-1);
  best[0] = 0;
  for (let l = 0; l < long; l++) {
    const next = best.slice();
    for (let mask = 0; mask < size; mask++) {
      const base = best[mask]!;
      if (base < 0) continue;
      for (let s = 0; s < short; s++) {
        const bit = 1 << s;
        if ((mask & bit) !== 0) continue;
        const value = pair(l, s);
        if (value <= 0) continue;
        const total = base + value;
        if (total > next[mask | bit]!) next[mask | bit] = total;
      }
    }
    best = next;
  }
  let result = 0;
  for (const value of best) if (value > result) result = value;
  return result;
}

function greedyAssignment(long: number, short: number, pair: (l: number, s: number) => number): number {
  const candidates: { l: number; s: number; value: number }[] = [];
  for (let l = 0; l < long; l++) {
    for (let s = 0; s < short; s++) {
      const value = pair(l, s);
      if (value > 0) candidates.push({ l, s, value });
    }
  }
  candidates.sort((x, y) => y.value - x.value || x.l - y.l || x.s - y.s);
  const usedLong = new Uint8Array(long);
  const usedShort = new Uint8Array(short);
  let total = 0;
  for (const { l, s, value } of candidates) {
    if (usedLong[l] || usedShort[s]) continue;
    usedLong[l] = 1;
    usedShort[s] = 1;
    total += value;
  }
  return total;
}

/** The token pairs of two names, by position (i in the first, j in the second). */
export interface TokenPairs {
  /** tokenSimilarity of the pair. */
  similarity(i: number, j: number): number;
  /** isClosePair of the pair. */
  close(i: number, j: number): boolean;
  /** Whether both tokens are distinctive (rare in the list screened; every token is when there is no list). */
  distinctive(i: number, j: number): boolean;
}

/**
 * The name score of token lists with n and m tokens:
 *   score = 2 · A / (n + m),
 * A the best one-to-one assignment of pairs under v(i, j) = s(i, j) · λ(i, j), s the tokenSimilarity
 * and λ = 1 for a close pair; for a loose pair λ = 1 when the names are anchored (some pair of
 * distinctive tokens is close) and LOOSE_PAIR_WEIGHT when not. Every unmatched token on either side
 * adds to n + m and nothing to A, which is the penalty; a matched pair of identical tokens adds 2 to
 * both. 1 means the same tokens in any order; 0 when either list is empty.
 */
export function nameScore(n: number, m: number, pairs: TokenPairs): number {
  if (n === 0 || m === 0) return 0;
  const anchored = isAnchored(n, m, pairs);
  const value = (i: number, j: number): number => {
    const similarity = pairs.similarity(i, j);
    return similarity === 0 || anchored || pairs.close(i, j) ? similarity : similarity * LOOSE_PAIR_WEIGHT;
  };
  return Math.min(1, (2 * bestAssignment(n, m, value)) / (n + m));
}

function isAnchored(n: number, m: number, pairs: TokenPairs): boolean {
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      if (pairs.similarity(i, j) > 0 && pairs.distinctive(i, j) && pairs.close(i, j)) return true;
    }
  }
  return false;
}

/** nameScore of two token lists with no list to weigh their words against: every token is distinctive. */
export function tokenListSimilarity(a: readonly string[], b: readonly string[]): number {
  return nameScore(a.length, b.length, {
    similarity: (i, j) => tokenSimilarity(a[i]!, b[j]!),
    close: (i, j) => isClosePair(a[i]!, b[j]!),
    distinctive: () => true,
  });
}

/** The similarity in [0, 1] of two names after normalisation (nameTokens). Symmetric. */
export function nameSimilarity(a: string, b: string): number {
  return tokenListSimilarity(nameTokens(a), nameTokens(b));
}
