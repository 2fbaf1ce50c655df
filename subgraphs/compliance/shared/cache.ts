/** A cached result of a family's cache table: the stored body, when it was computed and until when it is served. */
export interface CachedResult<T> {
  result: T;
  computedAt: Date;
  expiresAt: Date;
}
