// The one error every feed adapter throws, typed by what failed; each caller decides what a failed
// feed means for its answers (a 503, a fallback to a snapshot).

export type FeedId = 'open-meteo' | 'eonet' | 'gdacs' | 'usdm' | 'fred' | 'defillama' | 'worldbank' | 'noaa-gml' | 'gistemp' | 'nyfed' | 'ecb' | 'boe';

/** What went wrong, so logs and metrics can tell a slow feed from a changed format. */
export type SourceFailureKind = 'timeout' | 'network' | 'http-status' | 'malformed-body';

export class SourceUnavailableError extends Error {
  override readonly name = 'SourceUnavailableError';
  readonly source: FeedId;
  readonly kind: SourceFailureKind;
  /** HTTP status when kind is 'http-status'. */
  readonly status: number | undefined;
  /** The message without the source's name in front. */
  readonly detail: string;

  constructor(source: FeedId, kind: SourceFailureKind, message: string, details: { cause?: unknown; status?: number } = {}) {
    super(`${source}: ${message}`, { cause: details.cause });
    this.source = source;
    this.kind = kind;
    this.status = details.status;
    this.detail = message;
  }
}

/** The error a parse step throws when a body does not have the documented shape. */
export function malformedBody(source: FeedId, issue: string, cause?: unknown): SourceUnavailableError {
  return new SourceUnavailableError(source, 'malformed-body', `unexpected response format (${issue})`, { cause });
}
