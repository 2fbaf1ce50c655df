// Jaro-Winkler similarity (Winkler 1990), written here rather than taken from npm. Why:
// - @skyra/jaro-winkler 1.1.1 (small, typed, maintained) counts a common prefix of up to 5, not 4
//   (its getPrefix returns ++p after the loop): "ABCDEFGH"/"ABCDEFGX" gives 0.9583 instead of
//   0.95. It also uses a match window of max/2 instead of max/2 - 1, and allocates two arrays and
//   spreads both strings on every call.
// - jaro-winkler 0.2.8 is the textbook formula but CommonJS without types, and allocates per call.
// - talisman and natural are large toolkits for one 40-line function.
// The screening index calls this on every candidate token of every screen (the bench target is
// under 1 ms), so it reuses two scratch buffers. They are private to the module and do not change
// any result, so the function stays pure to its callers.

/** Winkler's prefix scale p. */
export const WINKLER_PREFIX_SCALE = 0.1;
/** Winkler's maximum counted common prefix ℓ. */
export const WINKLER_PREFIX_LIMIT = 4;
/** The prefix boost applies only when the Jaro similarity is above this (Winkler's "boost threshold"). */
export const WINKLER_BOOST_THRESHOLD = 0.7;

let flagsA = new Uint8Array(64);
let flagsB = new Uint8Array(64);

/**
 * Jaro similarity: with m characters matching within a window of ⌊max(|a|,|b|)/2⌋ − 1 positions
 * and t half the number of matched characters out of order,
 *   jaro = (m/|a| + m/|b| + (m − t)/m) / 3, and 0 when m = 0.
 * Jaro-Winkler adds the common prefix ℓ (at most 4) when jaro > 0.7:
 *   jw = jaro + ℓ · 0.1 · (1 − jaro).
 * Case-sensitive and per UTF-16 code unit: callers compare normalised ASCII tokens.
 */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return a.length === 0 ? 0 : 1;
  const lengthA = a.length;
  const lengthB = b.length;
  if (lengthA === 0 || lengthB === 0) return 0;
  if (flagsA.length < lengthA) flagsA = new Uint8Array(lengthA * 2);
  if (flagsB.length < lengthB) flagsB = new Uint8Array(lengthB * 2);
  flagsA.fill(0, 0, lengthA);
  flagsB.fill(0, 0, lengthB);

  const window = Math.max(0, (Math.max(lengthA, lengthB) >> 1) - 1);
  let matches = 0;
  for (let i = 0; i < lengthA; i++) {
    const code = a.charCodeAt(i);
    const from = Math.max(0, i - window);
    const to = Math.min(lengthB - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (flagsB[j] === 0 && b.charCodeAt(j) === code) {
        flagsA[i] = 1;
        flagsB[j] = 1;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;

  let outOfOrder = 0;
  for (let i = 0, j = 0; i < lengthA; i++) {
    if (flagsA[i] === 0) continue;
    while (flagsB[j] === 0) j++;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) outOfOrder++;
    j++;
  }
  const transpositions = outOfOrder / 2;
  const jaro = (matches / lengthA + matches / lengthB + (matches - transpositions) / matches) / 3;
  if (jaro <= WINKLER_BOOST_THRESHOLD) return jaro;

  const limit = Math.min(WINKLER_PREFIX_LIMIT, lengthA, lengthB);
  let prefix = 0;
  while (prefix < limit && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return jaro + prefix * WINKLER_PREFIX_SCALE * (1 - jaro);
}
