/** A cached result of a family's cache table: the stored body, when it was computed and until when it is served. */
export interface CachedResult<T> {
  result: T;
  computedAt: Date;
  expiresAt: Date;
}

/** Entries a family holds in memory by default: a few MB of screens, scores or chains at most. */
export const HELD_RESULTS_DEFAULT_MAX = 5_000;

/**
 * Values held in this process's memory, at most `maxEntries` (the oldest written goes first), so
 * that a hot key costs no database round trip and no recomputation (decision 0096). The caller's
 * key must name everything that changes the value, the data version included: an entry is never
 * checked against anything else.
 */
export class BoundedMemo<T> {
  readonly #entries = new Map<string, T>();

  constructor(readonly maxEntries: number = HELD_RESULTS_DEFAULT_MAX) {}

  get(key: string): T | undefined {
    return this.#entries.get(key);
  }

  set(key: string, value: T): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
  }

  get size(): number {
    return this.#entries.size;
  }
}

/**
 * A family's cache table held in memory above it (decision 0096): an entry is served until its own
 * `expiresAt`, exactly as the table would serve the row, and only under the same key and data
 * version. The table stays the cache every replica shares; this saves the round trip to it.
 */
export class HeldResults<T> {
  readonly #memo: BoundedMemo<CachedResult<T>>;

  constructor(maxEntries: number = HELD_RESULTS_DEFAULT_MAX) {
    this.#memo = new BoundedMemo(maxEntries);
  }

  /** The entry of `key` computed from `dataVersion`, if it is still fresh at `now`. */
  fresh(key: string, dataVersion: string, now: Date): CachedResult<T> | undefined {
    const held = this.#memo.get(heldKey(key, dataVersion));
    return held && held.expiresAt > now ? held : undefined;
  }

  hold(key: string, dataVersion: string, entry: CachedResult<T>): void {
    this.#memo.set(heldKey(key, dataVersion), entry);
  }
}

/** A data version holds no NUL: the first NUL ends it, so no two (key, version) pairs share a held key. */
const heldKey = (key: string, dataVersion: string) => `${dataVersion}\u0000${key}`;
