// Step 1 of a screen (docs/compliance-matching.md §4): the similar tokens of a query token, that is
// the vocabulary tokens whose tokenSimilarity to it is above 0, among those that pass blocking:
//   - a length that can reach the token floor at all (lengthsCanMatch: exact);
//   - at least ⌈BLOCK_SHARE · max(g, g′)⌉ shared character bigrams, g and g′ the numbers of
//     distinct bigrams of the two tokens, with ^ and $ marking the ends (the one approximation of a
//     screen: a pair sharing fewer is never compared).
//
// Two ways to the same answer:
//   - a vocabulary token's similar tokens come from a table computed when the index is built: every
//     pair of vocabulary tokens that passes blocking, compared once (blocking, tokenSimilarity and
//     isClosePair are symmetric), so the first screen of a listed word costs a lookup;
//   - any other token is searched: one pass over the bigram postings of its matchable lengths counts
//     the bigrams each vocabulary token shares with it (ScanCount).
// Either way a pair that passes blocking is compared (Jaro-Winkler) only when similarityBound, a
// bound from its letters, lengths and first letters, allows it to reach TOKEN_MATCH_FLOOR: that
// skips four in five comparisons and never a pair that could match.

import { WINKLER_BOOST_THRESHOLD, WINKLER_PREFIX_LIMIT, WINKLER_PREFIX_SCALE } from './jaro-winkler.js';
import { DIFFERENT_INITIAL_WEIGHT, isClosePair, LENGTH_DIFFERENCE_WEIGHT, lengthsCanMatch, sameInitialSound, TOKEN_MATCH_FLOOR, tokenSimilarity } from './name-similarity.js';

/** A query token is compared with the vocabulary tokens sharing at least this share of its bigrams. */
export const BLOCK_SHARE = 0.3;
/** Tokens of the table built between two turns of the event loop (about 30 ms of work). */
const TABLE_SLICE = 500;

/** Letters and bigrams: 0 for an end (or any other character), 1-10 for 0-9, 11-36 for a-z (tokens are normalised to these). */
const ALPHABET = 37;
const GRAM_COUNT = ALPHABET * ALPHABET;

function symbol(code: number): number {
  if (code >= 48 && code <= 57) return code - 47;
  if (code >= 97 && code <= 122) return code - 86;
  return 0;
}

/** The distinct bigram numbers of a token, with both ends marked. */
function bigrams(token: string): number[] {
  const grams = new Set<number>();
  let previous = 0;
  for (let i = 0; i < token.length; i++) {
    const current = symbol(token.charCodeAt(i));
    grams.add(previous * ALPHABET + current);
    previous = current;
  }
  grams.add(previous * ALPHABET);
  return [...grams];
}

/**
 * ⌈BLOCK_SHARE · g⌉ for g distinct bigrams, computed as the screen always has (in floating point,
 * so 10 bigrams need 4), and from 255 bigrams on as for 255, as before issue 27. A token with that
 * many distinct bigrams is 254 letters or longer; the SDN list's longest word has 27.
 */
const NEEDED_SHARED = Int32Array.from({ length: GRAM_COUNT + 1 }, (_, g) => Math.ceil(Math.min(g, 255) * BLOCK_SHARE));

/** Tokens are bucketed by length up to this; longer ones share the last bucket. */
const LONGEST = 48;
const LENGTHS = LONGEST + 1;

/** The length buckets [shortest, longest] that a token of this length can match (lengthsCanMatch). */
function matchableLengths(length: number): [number, number] {
  const capped = Math.min(length, LONGEST);
  let shortest = capped;
  while (shortest > 1 && lengthsCanMatch(length, shortest - 1)) shortest--;
  let longest = capped;
  while (longest < LONGEST && lengthsCanMatch(length, longest + 1)) longest++;
  return [shortest, longest];
}

/** Rounding room for similarityBound: a pair is skipped only when its bound is below the floor by more than this. */
const BOUND_MARGIN = 1e-9;

/**
 * An upper bound of tokenSimilarity(a, b) from `common`, an upper bound of the characters the two
 * tokens have in common, and their prefix. Jaro-Winkler's m matched characters pair equal
 * characters one to one, so m ≤ common; jaro ≤ (common/|a| + common/|b| + 1)/3 (at most 1 for the
 * share of matches in order); Jaro-Winkler grows with jaro (the prefix boost applies above 0.7 and
 * only raises it), and the length and first-letter weights are exact.
 */
function similarityBound(a: string, b: string, common: number): number {
  const lengthA = a.length;
  const lengthB = b.length;
  const jaro = (common / lengthA + common / lengthB + 1) / 3;
  let boosted = jaro;
  if (jaro > WINKLER_BOOST_THRESHOLD) {
    const limit = Math.min(WINKLER_PREFIX_LIMIT, lengthA, lengthB);
    let prefix = 0;
    while (prefix < limit && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
    boosted = jaro + prefix * WINKLER_PREFIX_SCALE * (1 - jaro);
  }
  const lengthWeight = 1 - (LENGTH_DIFFERENCE_WEIGHT * Math.abs(lengthA - lengthB)) / Math.max(lengthA, lengthB);
  return boosted * lengthWeight * (sameInitialSound(a, b) ? 1 : DIFFERENT_INITIAL_WEIGHT);
}

/** The similar vocabulary tokens of one token, most similar first (equal similarities by vocabulary id). */
export class SimilarTokens {
  #positions: Map<number, number> | undefined;

  constructor(
    /** Vocabulary ids. */
    readonly ids: Int32Array,
    /** tokenSimilarity of each, above 0. */
    readonly similarities: Float64Array,
    /** 1 where the pair is loose (similar, but not isClosePair). */
    private readonly looseness: Uint8Array,
  ) {}

  get size(): number {
    return this.ids.length;
  }

  /** The similarity of vocabulary token `id`, 0 when it is not similar. */
  similarity(id: number): number {
    const at = this.positions().get(id);
    return at === undefined ? 0 : this.similarities[at]!;
  }

  /** Whether vocabulary token `id` is a similar token that is a loose pair. */
  isLoose(id: number): boolean {
    const at = this.positions().get(id);
    return at !== undefined && this.looseness[at] === 1;
  }

  private positions(): Map<number, number> {
    if (!this.#positions) {
      this.#positions = new Map();
      for (let at = 0; at < this.ids.length; at++) this.#positions.set(this.ids[at]!, at);
    }
    return this.#positions;
  }
}

/** Similar pairs of vocabulary ids as the table's build finds them: from → to, the similarity, whether loose. */
class PairList {
  from = new Int32Array(1 << 16);
  to = new Int32Array(1 << 16);
  similarity = new Float64Array(1 << 16);
  loose = new Uint8Array(1 << 16);
  length = 0;

  push(from: number, to: number, similarity: number, loose: number): void {
    if (this.length === this.from.length) this.grow();
    this.from[this.length] = from;
    this.to[this.length] = to;
    this.similarity[this.length] = similarity;
    this.loose[this.length] = loose;
    this.length++;
  }

  private grow(): void {
    const from = new Int32Array(this.length * 2);
    const to = new Int32Array(this.length * 2);
    const similarity = new Float64Array(this.length * 2);
    const loose = new Uint8Array(this.length * 2);
    from.set(this.from);
    to.set(this.to);
    similarity.set(this.similarity);
    loose.set(this.loose);
    Object.assign(this, { from, to, similarity, loose });
  }
}

/** A token's similar tokens in table form: token t's are at [start[t], start[t + 1]), most similar first, ties by id. */
interface Table {
  start: Int32Array;
  ids: Int32Array;
  similarities: Float64Array;
  looseness: Uint8Array;
}

/** The pairs grouped by `from` in the order SimilarTokens keeps. */
function tableOf(pairs: PairList, tokens: number): Table {
  const start = new Int32Array(tokens + 1);
  for (let k = 0; k < pairs.length; k++) start[pairs.from[k]! + 1]!++;
  for (let t = 0; t < tokens; t++) start[t + 1]! += start[t]!;
  const next = start.slice(0, tokens);
  const order = new Int32Array(pairs.length);
  for (let k = 0; k < pairs.length; k++) order[next[pairs.from[k]!]!++] = k;
  const { similarity, to } = pairs;
  const table: Table = { start, ids: new Int32Array(pairs.length), similarities: new Float64Array(pairs.length), looseness: new Uint8Array(pairs.length) };
  const group: number[] = [];
  for (let t = 0; t < tokens; t++) {
    group.length = 0;
    for (let at = start[t]!; at < start[t + 1]!; at++) group.push(order[at]!);
    group.sort((a, b) => similarity[b]! - similarity[a]! || to[a]! - to[b]!);
    group.forEach((k, offset) => {
      table.ids[start[t]! + offset] = to[k]!;
      table.similarities[start[t]! + offset] = similarity[k]!;
      table.looseness[start[t]! + offset] = pairs.loose[k]!;
    });
  }
  return table;
}

/** What a search found: the similar tokens, and how many token similarities it computed. */
export interface TokenSearch {
  similar: SimilarTokens;
  comparisons: number;
}

/**
 * The similar tokens of a vocabulary: the table of its own tokens and the search for any other.
 * Inside, tokens are numbered by length bucket, then by vocabulary id (internal numbers), so that a
 * bigram's postings run from short tokens to long and "every token of a lower number" is a prefix
 * of each posting list; the table and the answers use vocabulary ids.
 */
export class SimilarTokenIndex {
  /** Internal number → vocabulary id. */
  private readonly idOf: Int32Array;
  /** By internal number: the token, its length bucket, the buckets it can match, its distinct bigrams g′ and ⌈BLOCK_SHARE · g′⌉. */
  private readonly tokens: string[];
  private readonly bucket: Uint8Array;
  private readonly shortestMatch: Uint8Array;
  private readonly longestMatch: Uint8Array;
  private readonly gramCount: Int32Array;
  private readonly neededShared: Int32Array;
  /** The letters (symbols) of token t are letters[letterStart[t] .. letterStart[t + 1]). */
  private readonly letterStart: Int32Array;
  private readonly letters: Uint8Array;
  /**
   * Bigram g → the tokens containing it, by internal number: those of length bucket l are
   * gramTokens[lengthStart[g · LENGTHS + l] .. lengthStart[g · LENGTHS + l + 1]).
   */
  private readonly gramTokens: Int32Array;
  private readonly lengthStart: Int32Array;
  /** Built after the index, in slices that leave the event loop free between them (tableReady); searched until then. */
  private table: Table | undefined;
  /** Settles once the table is built: until then every token is searched (the same relation). */
  readonly tableReady: Promise<void>;
  // Scratch space of one search, left zero (shared, the letter counts) or unread between searches.
  private readonly shared: Uint16Array;
  private readonly touched: Int32Array;
  private readonly foundTokens: Int32Array;
  private readonly foundSimilarities: Float64Array;
  private readonly foundLooseness: Uint8Array;
  private readonly queryLetters = new Int32Array(ALPHABET);
  private readonly usedLetters = new Int32Array(ALPHABET);
  private readonly rangeFrom = new Int32Array(GRAM_COUNT);
  private readonly rangeTo = new Int32Array(GRAM_COUNT);
  /** Token similarities the last compareTouched computed. */
  private comparisons = 0;

  constructor(vocabulary: readonly string[]) {
    const size = vocabulary.length;
    const bucketOf = (id: number) => Math.min(vocabulary[id]!.length, LONGEST);
    this.idOf = Int32Array.from(vocabulary.keys()).sort((a, b) => bucketOf(a) - bucketOf(b) || a - b);
    this.tokens = Array.from(this.idOf, (id) => vocabulary[id]!);
    this.bucket = Uint8Array.from(this.idOf, bucketOf);
    this.shortestMatch = new Uint8Array(size);
    this.longestMatch = new Uint8Array(size);
    this.gramCount = new Int32Array(size);
    this.letterStart = new Int32Array(size + 1);
    const grams = Array.from({ length: GRAM_COUNT }, (): number[] => []);
    this.tokens.forEach((token, internal) => {
      const own = bigrams(token);
      this.gramCount[internal] = own.length;
      for (const gram of own) grams[gram]!.push(internal);
      [this.shortestMatch[internal], this.longestMatch[internal]] = matchableLengths(token.length);
      this.letterStart[internal + 1] = this.letterStart[internal]! + token.length;
    });
    this.neededShared = this.gramCount.map((count) => NEEDED_SHARED[count]!);
    this.letters = new Uint8Array(this.letterStart[size]!);
    this.tokens.forEach((token, internal) => {
      for (let i = 0; i < token.length; i++) this.letters[this.letterStart[internal]! + i] = symbol(token.charCodeAt(i));
    });
    this.gramTokens = Int32Array.from(grams.flat());
    this.lengthStart = new Int32Array(GRAM_COUNT * LENGTHS + 1);
    let at = 0;
    grams.forEach((list, gram) => {
      let next = 0;
      for (let length = 0; length < LENGTHS; length++) {
        this.lengthStart[gram * LENGTHS + length] = at + next;
        while (next < list.length && this.bucket[list[next]!] === length) next++;
      }
      at += list.length;
    });
    this.lengthStart[GRAM_COUNT * LENGTHS] = at;
    this.shared = new Uint16Array(size);
    this.touched = new Int32Array(size);
    this.foundTokens = new Int32Array(size);
    this.foundSimilarities = new Float64Array(size);
    this.foundLooseness = new Uint8Array(size);
    this.tableReady = this.buildTable();
  }

  get hasTable(): boolean {
    return this.table !== undefined;
  }

  /**
   * The table, TABLE_SLICE tokens at a time with the event loop free between slices: built at
   * once it held the loop for about 1.5 s (2 s and more on a loaded machine), the first screen's
   * caller waited that long, and a payment's AML screen right after a start could time out.
   */
  private async buildTable(): Promise<void> {
    const pairs = new PairList();
    for (let from = 0; from < this.tokens.length; from += TABLE_SLICE) {
      await new Promise((resolve) => setImmediate(resolve));
      this.addSimilarPairs(pairs, from, Math.min(from + TABLE_SLICE, this.tokens.length));
    }
    this.table = tableOf(pairs, this.tokens.length);
  }

  get size(): { vocabularyTokens: number; similarPairs: number } {
    return { vocabularyTokens: this.tokens.length, similarPairs: this.table?.ids.length ?? 0 };
  }

  /** Bytes held in typed arrays: the postings, the letters, the table and the scratch space. */
  get bytes(): number {
    const perToken = [this.idOf, this.bucket, this.shortestMatch, this.longestMatch, this.gramCount, this.neededShared, this.letterStart, this.letters];
    const table = this.table ? [this.table.start, this.table.ids, this.table.similarities, this.table.looseness] : [];
    const postings = [this.gramTokens, this.lengthStart, ...table];
    const scratch = [this.shared, this.touched, this.foundTokens, this.foundSimilarities, this.foundLooseness];
    return [...perToken, ...postings, ...scratch].reduce((sum, array) => sum + array.byteLength, 0);
  }

  /** The similar tokens of vocabulary token `id`, from the table (built: see hasTable). */
  ofVocabularyToken(id: number): SimilarTokens {
    const table = this.table;
    if (!table) throw new Error('the similar-token table is not built yet (await tableReady, or search)');
    const from = table.start[id]!;
    const to = table.start[id + 1]!;
    return new SimilarTokens(table.ids.subarray(from, to), table.similarities.subarray(from, to), table.looseness.subarray(from, to));
  }

  /** The similar tokens of any token, by search (the table holds the same for a vocabulary token). */
  search(token: string): TokenSearch {
    const grams = bigrams(token);
    const [shortest, longest] = matchableLengths(token.length);
    const touched = this.countShared(grams, shortest, longest, this.tokens.length);
    const found = this.compareTouched(token, grams.length, touched);
    const { foundSimilarities: similarity, foundTokens: other, idOf } = this;
    const order = Array.from({ length: found }, (_, k) => k).sort((a, b) => similarity[b]! - similarity[a]! || idOf[other[a]!]! - idOf[other[b]!]!);
    const similar = new SimilarTokens(
      Int32Array.from(order, (k) => idOf[other[k]!]!),
      Float64Array.from(order, (k) => similarity[k]!),
      Uint8Array.from(order, (k) => this.foundLooseness[k]!),
    );
    return { similar, comparisons: this.comparisons };
  }

  /**
   * Counts, in shared, the bigrams each token of length bucket shortest..longest and internal number
   * under `below` shares with a token of these distinct bigrams, and lists in touched (returning how
   * many) the tokens that may share ⌈BLOCK_SHARE · g⌉ or more. Such a token holds one of any
   * g − ⌈BLOCK_SHARE · g⌉ + 1 of the bigrams (prefix filtering), so only the postings of the
   * rarest that many add tokens; the others only count for tokens already added.
   */
  private countShared(grams: readonly number[], shortest: number, longest: number, below: number): number {
    const { lengthStart, gramTokens, shared, touched, rangeFrom, rangeTo } = this;
    const count = grams.length;
    for (let k = 0; k < count; k++) {
      const from = lengthStart[grams[k]! * LENGTHS + shortest]!;
      const to = lengthStart[grams[k]! * LENGTHS + longest + 1]!;
      let at = k;
      for (; at > 0 && rangeTo[at - 1]! - rangeFrom[at - 1]! > to - from; at--) {
        rangeFrom[at] = rangeFrom[at - 1]!;
        rangeTo[at] = rangeTo[at - 1]!;
      }
      rangeFrom[at] = from;
      rangeTo[at] = to;
    }
    const adding = count > 255 ? count : count - NEEDED_SHARED[count]! + 1;
    let touchedCount = 0;
    for (let k = 0; k < count; k++) {
      const to = rangeTo[k]!;
      for (let i = rangeFrom[k]!; i < to; i++) {
        const other = gramTokens[i]!;
        if (other >= below) break;
        const seen = shared[other]!;
        if (seen !== 0) shared[other] = seen + 1;
        else if (k < adding) {
          shared[other] = 1;
          touched[touchedCount++] = other;
        }
      }
    }
    return touchedCount;
  }

  /**
   * Of the `count` tokens in touched (their shared bigrams counted in shared, which this resets),
   * compares with `token` those that pass blocking and similarityBound, and puts the similar ones
   * in foundTokens, foundSimilarities and foundLooseness. Returns how many it found.
   */
  private compareTouched(token: string, grams: number, count: number): number {
    const { shared, touched, neededShared, tokens, foundTokens, foundSimilarities, foundLooseness } = this;
    const needed = NEEDED_SHARED[grams]!;
    this.countLetters(token);
    let found = 0;
    let comparisons = 0;
    for (let k = 0; k < count; k++) {
      const other = touched[k]!;
      const sharedGrams = shared[other]!;
      shared[other] = 0;
      if (sharedGrams < needed || sharedGrams < neededShared[other]!) continue;
      const otherToken = tokens[other]!;
      if (similarityBound(token, otherToken, this.commonLetters(other)) < TOKEN_MATCH_FLOOR - BOUND_MARGIN) continue;
      comparisons++;
      const similarity = tokenSimilarity(token, otherToken);
      if (similarity === 0) continue;
      foundTokens[found] = other;
      foundSimilarities[found] = similarity;
      foundLooseness[found++] = isClosePair(token, otherToken) ? 0 : 1;
    }
    this.queryLetters.fill(0);
    this.comparisons = comparisons;
    return found;
  }

  private countLetters(token: string): void {
    for (let i = 0; i < token.length; i++) this.queryLetters[symbol(token.charCodeAt(i))]!++;
  }

  /** Letters token `other` (internal number) has in common with the counted query token, as multisets. */
  private commonLetters(other: number): number {
    const { letters, queryLetters, usedLetters } = this;
    const from = this.letterStart[other]!;
    const to = this.letterStart[other + 1]!;
    let common = 0;
    for (let i = from; i < to; i++) {
      const letter = letters[i]!;
      const used = usedLetters[letter]!;
      if (used < queryLetters[letter]!) {
        usedLetters[letter] = used + 1;
        common++;
      }
    }
    for (let i = from; i < to; i++) usedLetters[letters[i]!] = 0;
    return common;
  }

  /**
   * Every similar pair of vocabulary tokens, in both directions, each pair compared once: from its
   * token p of the higher internal number, against the tokens q of lower numbers (of the same or a
   * shorter length bucket). Shared bigrams, tokenSimilarity and isClosePair are symmetric; whether
   * each side's matchable lengths admit the other is checked for each direction, since that differs
   * for a token longer than LONGEST (bucketed with the longest; the SDN list has none).
   */
  /** The similar pairs of the tokens numbered from .. to - 1, each pair found once and added both ways. */
  private addSimilarPairs(pairs: PairList, from: number, to: number): void {
    const { idOf, bucket, shortestMatch, longestMatch, foundTokens, foundSimilarities, foundLooseness } = this;
    const [reachesLongest] = matchableLengths(LONGEST);
    for (let p = from; p < to; p++) {
      const token = this.tokens[p]!;
      const id = idOf[p]!;
      pairs.push(id, id, 1, 0);
      const shortest = token.length > LONGEST ? Math.min(shortestMatch[p]!, reachesLongest) : shortestMatch[p]!;
      const found = this.compareTouched(token, this.gramCount[p]!, this.countShared(bigrams(token), shortest, bucket[p]!, p));
      for (let k = 0; k < found; k++) {
        const q = foundTokens[k]!;
        if (bucket[q]! >= shortestMatch[p]!) pairs.push(id, idOf[q]!, foundSimilarities[k]!, foundLooseness[k]!);
        if (bucket[p]! <= longestMatch[q]!) pairs.push(idOf[q]!, id, foundSimilarities[k]!, foundLooseness[k]!);
      }
    }
  }
}
