import type { Clock } from '../../../platform/clock.js';
import type { AnswerStore, KeptAnswer } from './answer-store.js';

/** An answer served from the cache or generated for this call. */
export interface CachedAnswer<T> {
  value: T;
  generatedAt: Date;
  /** False only for the call whose miss generated the answer. */
  cacheHit: boolean;
}

/**
 * The cache of one process over the shared answer store: a fresh answer held in memory is served
 * without a query; on a miss the store is read (another replica may have generated it), and only
 * then is the answer generated, once per key however many calls arrive together (single flight).
 * A kept answer is never replaced before it expires (AnswerStore.keep), so holding it locally until
 * then serves exactly what the store would.
 */
export class AnswerCache {
  private readonly generating = new Map<string, Promise<KeptAnswer & { generatedHere: boolean }>>();
  private readonly held = new Map<string, KeptAnswer>();

  constructor(
    private readonly clock: Clock,
    private readonly store: AnswerStore,
  ) {}

  async answer<T>(cacheKey: string, ttlMs: number, generate: () => Promise<T>): Promise<CachedAnswer<T>> {
    const now = this.clock.now();
    const local = this.held.get(cacheKey);
    if (local && local.expiresAt > now) return { value: local.value as T, generatedAt: local.generatedAt, cacheHit: true };
    let pending = this.generating.get(cacheKey);
    const joined = pending !== undefined;
    if (!pending) {
      pending = this.keepFresh(cacheKey, ttlMs, generate, now).finally(() => this.generating.delete(cacheKey));
      this.generating.set(cacheKey, pending);
    }
    const kept = await pending;
    return { value: kept.value as T, generatedAt: kept.generatedAt, cacheHit: joined || !kept.generatedHere };
  }

  private async keepFresh(cacheKey: string, ttlMs: number, generate: () => Promise<unknown>, now: Date): Promise<KeptAnswer & { generatedHere: boolean }> {
    const stored = await this.store.fresh(cacheKey, now);
    if (stored) {
      this.held.set(cacheKey, stored);
      return { ...stored, generatedHere: false };
    }
    const value = await generate();
    const kept = await this.store.keep(cacheKey, value, now, new Date(now.getTime() + ttlMs));
    this.held.set(cacheKey, kept);
    return { ...kept, generatedHere: kept.value === value };
  }
}
