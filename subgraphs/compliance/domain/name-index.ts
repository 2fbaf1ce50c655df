// A screening index over many names (docs/compliance-matching.md §4): finds every indexed name
// whose nameSimilarity to a query reaches a threshold, without comparing the query with every name.
//
// Built once:
//   - every name is normalised (nameTokens) and its tokens numbered in a vocabulary of distinct tokens;
//   - token → the names containing it (postings);
//   - the similar tokens of every vocabulary token, and the bigram postings that find those of any
//     other token (SimilarTokenIndex, similar-tokens.ts).
// A screen:
//   1. takes each query token's similar tokens (tokenSimilarity at TOKEN_MATCH_FLOOR or above,
//      among the tokens that pass bigram blocking): from the table for a vocabulary token, else by
//      a search (kept in a cache of recent searches);
//   2. walks the postings of the similar tokens and sums, per name, each query token's best token
//      similarity: U. Since an assignment can give no query token more than its best,
//      2·U/(n + m) bounds the name's score from above, and names whose bound is under the threshold
//      are dropped without scoring;
//   3. scores the remaining names exactly (best assignment over the similarities of step 1) and
//      keeps, per record, its best name at or above the threshold.
// Step 1's blocking is the only approximation: a token pair sharing fewer bigrams than BLOCK_SHARE
// is never compared. sanctions-screening.test.ts measures what this loses against comparing every name.

import { isClosePair, nameScore, tokenSimilarity } from './name-similarity.js';
import { nameTokens } from './normalise-name.js';
import { SimilarTokenIndex, type SimilarTokens } from './similar-tokens.js';

export { BLOCK_SHARE } from './similar-tokens.js';

/**
 * A token of at most this share of the indexed names (and at least one name's worth) is distinctive:
 * on the SDN list, a word of at most 30 of its 30,912 names (a surname, a company's own word), not
 * `al`, `mohammad`, `trading`, `holding`, `international`. A close pair of distinctive tokens anchors
 * a name's loose pairs (nameScore).
 */
export const DISTINCTIVE_SHARE = 0.001;

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
  /** Query tokens of the vocabulary, whose similar tokens came from the table built with the index. */
  tableTokens: number;
  /** Token similarities computed for the other query tokens against vocabulary tokens that passed blocking. */
  tokenComparisons: number;
  /** Other query tokens whose similar tokens came from the cache of recent searches. */
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

/** How many unlisted query tokens' similar tokens are kept (oldest dropped first). */
const SIMILAR_CACHE_SIZE = 4096;

export class NameIndex<T, K extends string> {
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
  /** Step 1: the similar tokens of the vocabulary's tokens (a table) and of any other token (a search). */
  private readonly similarTokens: SimilarTokenIndex;

  // Scratch space of one screen, reset before it returns (a screen runs to completion synchronously).
  private readonly bound: Float64Array;
  private readonly visitedBy: Int32Array;
  private stamp = 0;
  /** Similar tokens of recent unlisted query tokens (a deterministic memo: the index never changes once built). */
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

    this.similarTokens = new SimilarTokenIndex(this.vocabulary);
    this.bound = new Float64Array(this.nameText.length);
    this.visitedBy = new Int32Array(this.nameText.length);
  }

  /** Settles once the similar-token table is built (in the background, after the index): screens before it search every token. */
  get tableReady(): Promise<void> {
    return this.similarTokens.tableReady;
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

  /** A query token's similar tokens: from the table for a vocabulary token once it is built, else searched (or the cache of recent searches). */
  private similarTokensOf(token: string, statistics: ScreenStatistics): SimilarTokens {
    const id = this.tokenIdOf.get(token);
    if (id !== undefined && this.similarTokens.hasTable) {
      statistics.tableTokens++;
      return this.similarTokens.ofVocabularyToken(id);
    }
    const held = this.similarCache.get(token);
    if (held) {
      statistics.cachedTokens++;
      return held;
    }
    const { similar, comparisons } = this.similarTokens.search(token);
    statistics.tokenComparisons += comparisons;
    if (this.similarCache.size >= SIMILAR_CACHE_SIZE) this.similarCache.delete(this.similarCache.keys().next().value!);
    this.similarCache.set(token, similar);
    return similar;
  }

  /** A fresh mark for visitedBy (cleared when the counter would overflow). */
  private nextStamp(): number {
    if (this.stamp >= 0x7fffffff) {
      this.visitedBy.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  /** The records with a name whose similarity to `query` reaches the threshold, best first. */
  screen(query: string, options: ScreenOptions<T>): ScreenResult<T, K> {
    const statistics: ScreenStatistics = {
      indexedNames: this.nameText.length,
      vocabularyTokens: this.vocabulary.length,
      tableTokens: 0,
      tokenComparisons: 0,
      cachedTokens: 0,
      namesReached: 0,
      namesScored: 0,
    };
    const queryTokens = nameTokens(query);
    if (queryTokens.length === 0) return { matches: [], statistics };

    const similarAt = queryTokens.map((token) => this.similarTokensOf(token, statistics));

    // Step 2: per name, the sum over query tokens of their best similarity to one of its tokens.
    const reached: number[] = [];
    for (const similar of similarAt) {
      const stamp = this.nextStamp();
      for (let k = 0; k < similar.size; k++) {
        const similarity = similar.similarities[k]!;
        for (const name of this.postings[similar.ids[k]!]!) {
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
        similarity: (i, j) => similarAt[i]!.similarity(this.tokenIds[start + j]!),
        close: (i, j) => !similarAt[i]!.isLoose(this.tokenIds[start + j]!),
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
