// Test support: the screening index exactly as it was before issue 27 (commit 6bafca9 of
// name-index.ts, renamed NameIndexBefore27), the oracle of similar-tokens.test.ts, which shows that
// the similar-token table and the search that replaced its step 1 change no screen. Not for use
// outside tests. What follows is the file as it was.
//
// A screening index over many names (docs/compliance-matching.md §3): finds every indexed name
// whose nameSimilarity to a query reaches a threshold, without comparing the query with every name.
//
// Built once:
//   - every name is normalised (nameTokens) and its tokens numbered in a vocabulary of distinct tokens;
//   - token → the names containing it (postings);
//   - character bigram → the vocabulary tokens containing it, with ^ and $ marking the ends, so a
//     token of L letters has L + 1 bigrams.
// A screen:
//   1. for each query token, counts shared bigrams over the vocabulary through the bigram postings
//      and runs Jaro-Winkler only on tokens sharing at least BLOCK_SHARE of the query token's
//      bigrams (blocking); those at TOKEN_MATCH_FLOOR or above are its similar tokens;
//   2. walks the postings of the similar tokens and sums, per name, each query token's best token
//      similarity: U. Since an assignment can give no query token more than its best,
//      2·U/(n + m) bounds the name's score from above, and names whose bound is under the threshold
//      are dropped without scoring;
//   3. scores the remaining names exactly (best assignment over the similarities of step 1) and
//      keeps, per record, its best name at or above the threshold.
// Step 1 is the only approximation: a token pair sharing fewer bigrams than BLOCK_SHARE is never
// compared. index.test.ts measures what this loses against comparing every name.

import { isClosePair, lengthsCanMatch, nameScore, tokenSimilarity } from './name-similarity.js';
import { nameTokens } from './normalise-name.js';

/** A query token is compared with the vocabulary tokens sharing at least this share of its bigrams. */
const BLOCK_SHARE = 0.3;

/**
 * A token of at most this share of the indexed names (and at least one name's worth) is distinctive:
 * on the SDN list, a word of at most 30 of its 30,912 names (a surname, a company's own word), not
 * `al`, `mohammad`, `trading`, `holding`, `international`. A close pair of distinctive tokens anchors
 * a name's loose pairs (nameScore).
 */
const DISTINCTIVE_SHARE = 0.001;

/** A query token's similar vocabulary tokens (most similar first), and which of them are loose pairs. */
interface SimilarTokens {
  similarity: Map<number, number>;
  loose: Set<number>;
}

/** The names a record is indexed under, each with a label (e.g. primary name, a.k.a., f.k.a.). */
export interface IndexedRecord<T, K extends string> {
  record: T;
  names: readonly { name: string; kind: K }[];
}

export interface NameMatch<T, K extends string> {
  record: T;
  /** The indexed name that scored best, as written in the source. */
  matchedName: string;
  matchedKind: K;
  /** nameSimilarity of the query and matchedName, in [0, 1]. */
  score: number;
}

/** What one screen did: evidence that it compared far fewer names than the index holds. */
export interface ScreenStatistics {
  indexedNames: number;
  vocabularyTokens: number;
  /** Token similarities computed for query tokens against vocabulary tokens that passed blocking. */
  tokenComparisons: number;
  /** Query tokens whose similar tokens came from the cache of recent query tokens. */
  cachedTokens: number;
  /** Names containing at least one token similar to a query token. */
  namesReached: number;
  /** Names scored in full (their upper bound reached the threshold). */
  namesScored: number;
}

export interface ScreenOptions<T> {
  /** Matches at or above this similarity are returned. */
  threshold: number;
  /** At most this many matches, best first. */
  limit?: number;
  /** Only records passing this test are scored and returned. */
  filter?: (record: T) => boolean;
}

export interface ScreenResult<T, K extends string> {
  matches: NameMatch<T, K>[];
  statistics: ScreenStatistics;
}

/** Bigram alphabet: 0 for an end, 1-10 for 0-9, 11-36 for a-z (tokens are normalised to these). */
const GRAM_ALPHABET = 37;

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
    grams.add(previous * GRAM_ALPHABET + current);
    previous = current;
  }
  grams.add(previous * GRAM_ALPHABET);
  return [...grams];
}

const GRAM_COUNT = GRAM_ALPHABET * GRAM_ALPHABET;
/** How many query tokens' similar tokens are kept (oldest dropped first). */
const SIMILAR_CACHE_SIZE = 4096;
/** Tokens are bucketed by length up to this; longer ones share the last bucket. */
const LONGEST = 48;
const LENGTHS = LONGEST + 1;

/** ⌈BLOCK_SHARE · g⌉ for g bigrams. */
const NEEDED_SHARED = Int32Array.from({ length: 256 }, (_, g) => Math.ceil(g * BLOCK_SHARE));

/** The token lengths [shortest, longest] that a token of this length can match (lengthsCanMatch). */
function matchableLengths(length: number): [number, number] {
  const capped = Math.min(length, LONGEST);
  let shortest = capped;
  while (shortest > 1 && lengthsCanMatch(length, shortest - 1)) shortest--;
  let longest = capped;
  while (longest < LONGEST && lengthsCanMatch(length, longest + 1)) longest++;
  return [shortest, longest];
}

export class NameIndexBefore27<T, K extends string> {
  private readonly records: T[] = [];
  /** Name → its record's position in records. */
  private readonly nameRecord: Int32Array;
  private readonly nameText: string[] = [];
  private readonly nameKind: K[] = [];
  /** Tokens of name i are tokenIds[tokenStart[i] .. tokenStart[i + 1]). */
  private readonly tokenStart: Int32Array;
  private readonly tokenIds: Int32Array;
  private readonly vocabulary: string[] = [];
  private readonly tokenIdOf = new Map<string, number>();
  /** Vocabulary token → 1 when it is distinctive (DISTINCTIVE_SHARE), computed once at build. */
  private readonly distinctive: Uint8Array;
  /** Vocabulary token → the names containing it, each once. */
  private readonly postings: Int32Array[];
  /**
   * Bigram g → the vocabulary tokens containing it, ordered by length: those of length l are
   * gramTokens[lengthStart[g · LENGTHS + l] .. lengthStart[g · LENGTHS + l + 1]), so a screen reads
   * only the lengths that can reach the token floor (lengthsCanMatch).
   */
  private readonly gramTokens: Int32Array;
  private readonly lengthStart: Int32Array;

  /** Bigrams of vocabulary token t are tokenGrams[tokenGramStart[t] .. tokenGramStart[t + 1]). */
  private readonly tokenGramStart: Int32Array;
  private readonly tokenGrams: Uint16Array;

  // Scratch space of one screen, reset before it returns (a screen runs to completion synchronously).
  private readonly queryGram = new Uint8Array(GRAM_COUNT);
  private readonly seenToken: Int32Array;
  private readonly bound: Float64Array;
  private readonly visitedBy: Int32Array;
  private stamp = 0;
  /** Similar tokens of recent query tokens (a deterministic memo: the index never changes once built). */
  private readonly similarCache = new Map<string, SimilarTokens>();

  constructor(entries: Iterable<IndexedRecord<T, K>>) {
    const tokenIdOf = this.tokenIdOf;
    const starts: number[] = [0];
    const ids: number[] = [];
    const namePostings: number[][] = [];
    const recordOf: number[] = [];
    for (const entry of entries) {
      const recordIndex = this.records.push(entry.record) - 1;
      for (const { name, kind } of entry.names) {
        const tokens = nameTokens(name);
        if (tokens.length === 0) continue;
        const nameIndex = this.nameText.push(name) - 1;
        this.nameKind.push(kind);
        recordOf.push(recordIndex);
        for (const token of tokens) {
          let id = tokenIdOf.get(token);
          if (id === undefined) {
            id = this.vocabulary.push(token) - 1;
            tokenIdOf.set(token, id);
            namePostings.push([]);
          }
          ids.push(id);
          const posting = namePostings[id]!;
          if (posting[posting.length - 1] !== nameIndex) posting.push(nameIndex);
        }
        starts.push(ids.length);
      }
    }
    this.nameRecord = Int32Array.from(recordOf);
    this.tokenStart = Int32Array.from(starts);
    this.tokenIds = Int32Array.from(ids);
    this.postings = namePostings.map((posting) => Int32Array.from(posting));
    const distinctiveAtMost = Math.max(1, this.nameText.length * DISTINCTIVE_SHARE);
    this.distinctive = Uint8Array.from(namePostings, (posting) => (posting.length <= distinctiveAtMost ? 1 : 0));

    const grams: number[][] = Array.from({ length: GRAM_COUNT }, () => []);
    const tokenGrams: number[] = [];
    const tokenGramStart: number[] = [0];
    this.vocabulary.forEach((token, id) => {
      for (const gram of bigrams(token)) {
        grams[gram]!.push(id);
        tokenGrams.push(gram);
      }
      tokenGramStart.push(tokenGrams.length);
    });
    this.tokenGrams = Uint16Array.from(tokenGrams);
    this.tokenGramStart = Int32Array.from(tokenGramStart);
    const lengthOf = (id: number) => Math.min(this.vocabulary[id]!.length, LONGEST);
    this.gramTokens = new Int32Array(grams.reduce((sum, list) => sum + list.length, 0));
    this.lengthStart = new Int32Array(GRAM_COUNT * LENGTHS + 1);
    let at = 0;
    grams.forEach((list, gram) => {
      list.sort((a, b) => lengthOf(a) - lengthOf(b) || a - b);
      let next = 0;
      for (let length = 0; length < LENGTHS; length++) {
        this.lengthStart[gram * LENGTHS + length] = at + next;
        while (next < list.length && lengthOf(list[next]!) === length) this.gramTokens[at + next] = list[next++]!;
      }
      at += list.length;
    });
    this.lengthStart[GRAM_COUNT * LENGTHS] = at;
    this.seenToken = new Int32Array(this.vocabulary.length);
    this.bound = new Float64Array(this.nameText.length);
    this.visitedBy = new Int32Array(this.nameText.length);
  }

  /** Whether a token is distinctive in the indexed names; a token none of them has is. */
  private isDistinctive(token: string): boolean {
    const id = this.tokenIdOf.get(token);
    return id === undefined || this.distinctive[id] === 1;
  }

  /**
   * The score a screen gives two names: nameScore with this index's distinctive tokens (what a
   * screen of `a` answers for an indexed name `b`; the labelled pairs are measured with it).
   */
  similarity(a: string, b: string): number {
    const left = nameTokens(a);
    const right = nameTokens(b);
    return nameScore(left.length, right.length, {
      similarity: (i, j) => tokenSimilarity(left[i]!, right[j]!),
      close: (i, j) => isClosePair(left[i]!, right[j]!),
      distinctive: (i, j) => this.isDistinctive(left[i]!) && this.isDistinctive(right[j]!),
    });
  }

  get size(): { records: number; names: number; vocabularyTokens: number } {
    return { records: this.records.length, names: this.nameText.length, vocabularyTokens: this.vocabulary.length };
  }

  /**
   * Vocabulary tokens similar to one query token (tokenSimilarity > 0), most similar first.
   * Blocking: a candidate must share at least ⌈BLOCK_SHARE · max(g, g′)⌉ of its bigrams with the
   * query token's g (g′ its own). Anything sharing k = ⌈BLOCK_SHARE · g⌉ or more shares one of any
   * g − k + 1 of the query's bigrams (prefix filtering), so only the postings of the g − k + 1
   * rarest are read; each candidate's overlap is then counted from its own bigrams.
   */
  private similarTokens(token: string, statistics: ScreenStatistics): SimilarTokens {
    const grams = bigrams(token);
    const [shortest, longest] = matchableLengths(token.length);
    const range = (gram: number): [number, number] => [this.lengthStart[gram * LENGTHS + shortest]!, this.lengthStart[gram * LENGTHS + longest + 1]!];
    const least = Math.max(1, Math.ceil(grams.length * BLOCK_SHARE));
    const rarest = grams
      .map((gram) => ({ gram, range: range(gram) }))
      .sort((a, b) => a.range[1] - a.range[0] - (b.range[1] - b.range[0]) || a.gram - b.gram)
      .slice(0, grams.length - least + 1);
    for (const gram of grams) this.queryGram[gram] = 1;
    const stamp = this.nextStamp();
    const similar: [number, number][] = [];
    const loose = new Set<number>();
    for (const {
      range: [from, to],
    } of rarest) {
      for (let i = from; i < to; i++) {
        const id = this.gramTokens[i]!;
        if (this.seenToken[id] === stamp) continue;
        this.seenToken[id] = stamp;
        let shared = 0;
        const end = this.tokenGramStart[id + 1]!;
        for (let j = this.tokenGramStart[id]!; j < end; j++) shared += this.queryGram[this.tokenGrams[j]!]!;
        if (shared < NEEDED_SHARED[Math.min(255, Math.max(grams.length, end - this.tokenGramStart[id]!))]!) continue;
        statistics.tokenComparisons++;
        const similarity = tokenSimilarity(token, this.vocabulary[id]!);
        if (similarity === 0) continue;
        similar.push([id, similarity]);
        if (!isClosePair(token, this.vocabulary[id]!)) loose.add(id);
      }
    }
    for (const gram of grams) this.queryGram[gram] = 0;
    similar.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return { similarity: new Map(similar), loose };
  }

  private cachedSimilarTokens(token: string, statistics: ScreenStatistics): SimilarTokens {
    const held = this.similarCache.get(token);
    if (held) {
      statistics.cachedTokens++;
      return held;
    }
    const similar = this.similarTokens(token, statistics);
    if (this.similarCache.size >= SIMILAR_CACHE_SIZE) this.similarCache.delete(this.similarCache.keys().next().value!);
    this.similarCache.set(token, similar);
    return similar;
  }

  /** A fresh mark for visitedBy and seenToken (both cleared when the counter would overflow). */
  private nextStamp(): number {
    if (this.stamp >= 0x7fffffff) {
      this.visitedBy.fill(0);
      this.seenToken.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  /** The records with a name whose similarity to `query` reaches the threshold, best first. */
  screen(query: string, options: ScreenOptions<T>): ScreenResult<T, K> {
    const statistics: ScreenStatistics = {
      indexedNames: this.nameText.length,
      vocabularyTokens: this.vocabulary.length,
      tokenComparisons: 0,
      cachedTokens: 0,
      namesReached: 0,
      namesScored: 0,
    };
    const queryTokens = nameTokens(query);
    if (queryTokens.length === 0) return { matches: [], statistics };

    const similarAt = queryTokens.map((token) => this.cachedSimilarTokens(token, statistics));

    // Step 2: per name, the sum over query tokens of their best similarity to one of its tokens.
    const reached: number[] = [];
    for (const similar of similarAt) {
      const stamp = this.nextStamp();
      for (const [id, similarity] of similar.similarity) {
        for (const name of this.postings[id]!) {
          if (this.visitedBy[name] === stamp) continue;
          this.visitedBy[name] = stamp;
          if (this.bound[name] === 0) reached.push(name);
          this.bound[name] = this.bound[name]! + similarity;
        }
      }
    }
    statistics.namesReached = reached.length;

    // Step 3: exact scores where the bound allows a match; the best name of each record.
    const n = queryTokens.length;
    const queryDistinctive = queryTokens.map((token) => this.isDistinctive(token));
    const best = new Map<number, { name: number; score: number }>();
    for (const name of reached) {
      const bound = this.bound[name]!;
      this.bound[name] = 0;
      const start = this.tokenStart[name]!;
      const m = this.tokenStart[name + 1]! - start;
      if ((2 * bound) / (n + m) < options.threshold) continue;
      const record = this.nameRecord[name]!;
      if (options.filter && !options.filter(this.records[record]!)) continue;
      statistics.namesScored++;
      const score = nameScore(n, m, {
        similarity: (i, j) => similarAt[i]!.similarity.get(this.tokenIds[start + j]!) ?? 0,
        close: (i, j) => !similarAt[i]!.loose.has(this.tokenIds[start + j]!),
        distinctive: (i, j) => queryDistinctive[i]! && this.distinctive[this.tokenIds[start + j]!] === 1,
      });
      if (score < options.threshold) continue;
      const held = best.get(record);
      if (!held || score > held.score || (score === held.score && name < held.name)) best.set(record, { name, score });
    }

    const matches = [...best.entries()]
      .sort((a, b) => b[1].score - a[1].score || a[0] - b[0])
      .slice(0, options.limit ?? Number.POSITIVE_INFINITY)
      .map(([record, { name, score }]) => ({ record: this.records[record]!, matchedName: this.nameText[name]!, matchedKind: this.nameKind[name]!, score }));
    return { matches, statistics };
  }
}
